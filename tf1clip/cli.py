"""The `tf1clip` command line: `tf1clip run | check | upgrade | cluster | parity | report | compare | doctor`, `--version`.

This module only parses the command line and dispatches; each subcommand's work
lives in the module that owns that concern (compat.runner, tools.check_project, tools.upgrade_cli,
v2.parity, report, tools.doctor).
TensorFlow is imported lazily so `tf1clip --version` and `tf1clip check` stay fast.
"""

import argparse
import os
import sys

import tf1clip
from tf1clip import flag_values


def _build_parser():
  parser = argparse.ArgumentParser(
      prog="tf1clip",
      description="Run legacy TensorFlow 1 training scripts on current TensorFlow, "
      "check what they use, upgrade them to run under plain python, and check TF1/TF2 parity.")
  parser.add_argument("--version", action="version",
                      version="tf1clip %s" % tf1clip.__version__)
  sub = parser.add_subparsers(dest="command", metavar="COMMAND")

  run = sub.add_parser(
      "run", help="run a TF1 script unchanged: `tf1clip run script.py [args...]` (or -m module, -c code)",
      usage="tf1clip run [--verbose] [--record-clipping] [--tf1-package NAME] script.py [args...] | -m module [args...] | "
      "-c code [args...] | notebook.ipynb",
      description="Runs legacy TF1 code unchanged on current TensorFlow, as python would (same argv, "
      "exit status and tracebacks): `import tensorflow` in the script and the user's modules next to it "
      "gets the TF1 API (graph mode, tf.contrib, tf.Session, tf.estimator), NumPy and SciPy the names the "
      "code was written for; third-party libraries keep TensorFlow 2. `-m` and `-c` have python's "
      "meaning; a .ipynb runs its code cells in order. See docs/legacy.md.")
  run.add_argument("--verbose", action="store_true",
                   help="keep TensorFlow's C++ start-up lines and every deprecation notice (TF1CLIP_TF_LOG=1)")
  run.add_argument("--record-clipping", action="store_true",
                   help="the script's tf.clip_by_global_norm also writes the norm, the threshold and whether "
                   "it clipped under tf1clip/ in the summaries merge_all collects (for `tf1clip report`)")
  run.add_argument("--tf1-package", metavar="NAME", action="append",
                   help="an installed library that gets the TF1 API as the script does (repeatable; "
                   "TF1-era libraries are recognised without it: see docs/legacy.md)")
  run.add_argument("script", nargs="?", help="path of the Python script (or notebook) to run")
  run.add_argument("script_args", nargs=argparse.REMAINDER,
                   help="arguments passed to the script as sys.argv[1:]")

  check = sub.add_parser(
      "check", help="read a project (files, directories, their local imports) and report what will run",
      description="Reads (never runs) Python files and directories and reports, per use site, what "
      "`tf1clip run` will do. Exit status: 0 everything runs, 1 something will not run, 2 usage error "
      "or a file that cannot be read or parsed. See docs/check.md.")
  check.add_argument("scripts", nargs="*", metavar="PATH",
                     help="Python files, directories, notebooks (.ipynb) and shell scripts to read")
  check.add_argument("-m", dest="modules", action="append", default=[], metavar="MODULE",
                     help="a module as `python -m MODULE` would run it from the current directory")
  check.add_argument("--all", action="store_true", dest="show_all",
                     help="list every symbol, not only the rows that need attention")
  check.add_argument("--format", choices=("text", "json"), default="text",
                     help="text (default) or json (schema tf1clip.check/1, see docs/check.md)")

  upgrade = sub.add_parser(
      "upgrade", help="rewrite TF1 code to run under plain python (migration stage 1 or 2)",
      description="Writes an upgraded copy of a file or tree: stage 1 rewrites the imports to "
      "tf1clip.compat.v1 / tf1clip.contrib, stage 2 also replaces hand-written gradient clipping and "
      "tf.contrib names, stage 3 turns the Session program into TF2 eager code (or lists its TODOs and writes "
      "nothing). Exit status: 0 done, 1 --check-run found a difference (or stage 3 left TODOs), 2 usage error. "
      "See docs/check.md.")
  upgrade.add_argument("src", metavar="SRC", help="a Python file or a directory")
  upgrade.add_argument("--out", required=True, metavar="DST", help="where to write the upgraded copy")
  upgrade.add_argument("--stage", type=int, choices=(1, 2, 3), default=1,
                       help="migration stage (default 1; 3: TF2 eager, no Session, see docs/migration.md)")
  upgrade.add_argument("--force", action="store_true",
                       help="write into a non-empty --out, replacing only files an earlier upgrade of the "
                       "same SRC wrote and nobody changed since (anything else is refused)")
  upgrade.add_argument("--format", choices=("text", "json"), default="text",
                       help="report format: text (default) or json (schema tf1clip.upgrade/1)")
  upgrade.add_argument("--report", metavar="FILE",
                       help="also write the JSON report (schema tf1clip.upgrade/1) to FILE")
  upgrade.add_argument("--check-run", metavar="CMD", dest="check_run",
                       help="run the original under `tf1clip run` and the copy under python with these "
                       "arguments ({tmp}: a fresh directory per run) and compare their checkpoints")
  upgrade.add_argument("--seed", type=flag_values.count, default=0, help="the fixed seed of --check-run (default 0)")
  upgrade.add_argument("--rtol", type=flag_values.tolerance, default=1e-5,
                       help="relative tolerance of --check-run (default 1e-5)")

  # `cluster` and `parity` own their options (see `tf1clip cluster --help`); main() hands them over.
  sub.add_parser(
      "cluster", add_help=False,
      help="run a TF1 ps/worker script as a cluster: `tf1clip cluster --ps 1 --workers 2 script.py`")
  # `parity` owns its options (see `tf1clip parity --help`); main() hands them over untouched.
  sub.add_parser(
      "parity", add_help=False,
      help="train one model in TF1 graph mode and in TF2 eager; compare weights")
  # `report` owns its options too (see `tf1clip report --help`).
  sub.add_parser(
      "report", add_help=False,
      help="plot a run's gradient norms and clipping; suggest a clip threshold")
  sub.add_parser(
      "exec", add_help=False,
      help="run a command (shell script, make, entry point) so that every Python it starts runs as under "
           "`tf1clip run`: `tf1clip exec -- ./train.sh`")
  # `compare` owns its options too (see `tf1clip compare --help`).
  sub.add_parser(
      "compare", add_help=False,
      help="run a script on TF 1.15 and under tf1clip from the same weights; compare the final weights")
  sub.add_parser(
      "doctor", help="print versions, shims, Keras flavour and GPUs; exit 1 if the runner lacks something")
  return parser


# `tf1clip run` options (before the script) -> the environment variable each sets.
RUN_OPTIONS = {
    # TensorFlow's start-up lines and every deprecation notice (compat.quiet, compat.deprecation_notices)
    "--verbose": ("TF1CLIP_TF_LOG", "1"),
    # the script's tf.clip_by_global_norm also writes tf1clip/ summaries (summaries.recording_clip_by_global_norm)
    "--record-clipping": ("TF1CLIP_RECORD_CLIPPING", "1"),
}


def _tf1_package_option(argv):
  """(NAME, the rest of argv) of `run --tf1-package NAME ...` / `run --tf1-package=NAME ...`."""
  option, rest = argv[1], argv[2:]
  if option.startswith("--tf1-package="):
    package = option.split("=", 1)[1]
  elif option == "--tf1-package" and rest:
    package, rest = rest[0], rest[1:]
  else:
    package = ""
  if not package.strip() or "," in package:
    _build_parser().error("run: --tf1-package needs one distribution or import name "
                          "(`tf1clip run --tf1-package tflearn script.py`)")
  return package.strip(), ["run"] + rest


def main(argv=None):
  """Entry point of the `tf1clip` console script; returns the process exit code."""
  if argv is None and sys.argv[1:2] not in (["exec"], ["cluster"]):
    # As the `tf1clip` command (not a call from Python): every subcommand that loads TensorFlow (report,
    # parity, doctor, ...) starts without its C++ start-up lines; `run` installs the same filter itself.
    # Not `exec` / `cluster`: their children install their own, and a child that outlived this process
    # must not be left writing into a pipe nobody reads.
    from tf1clip.compat import quiet
    quiet.install()
  argv = sys.argv[1:] if argv is None else list(argv)
  while argv[:1] == ["run"] and argv[1:2] and (argv[1] in RUN_OPTIONS or argv[1].startswith("--tf1-package")):
    # Options of `run` itself come before the script; they reach the runner (and its children) as environment.
    if argv[1].startswith("--tf1-package"):
      package, argv = _tf1_package_option(argv)
      from tf1clip.compat import tf1_packages
      named = [n for n in os.environ.get(tf1_packages.ENV, "").split(",") if n]
      os.environ[tf1_packages.ENV] = ",".join(named + [package])
      continue
    name, value = RUN_OPTIONS[argv[1]]
    os.environ[name] = value
    argv = ["run"] + argv[2:]
  if len(argv) == 2 and argv[0] == "run" and argv[1] in ("-m", "-c"):
    # python's words: "Argument expected for the -m option"
    print("tf1clip run: argument expected for the %s option: `tf1clip run %s %s`" % (
        argv[1], argv[1], "MODULE [args...]" if argv[1] == "-m" else "'CODE' [args...]"), file=sys.stderr)
    return 2
  if len(argv) > 2 and argv[0] == "run" and argv[1] in ("-m", "-c"):
    # python's own spellings: everything after the module name / the code goes to it verbatim.
    from tf1clip.compat import runner
    if argv[1] == "-m":
      return runner.run_module(argv[2], argv[3:])
    return runner.run_command(argv[2], argv[3:])
  if len(argv) > 1 and argv[0] == "run" and argv[1].endswith(".ipynb"):
    from tf1clip.compat import notebook
    return notebook.run_notebook(argv[1], argv[2:])
  if len(argv) > 1 and argv[0] == "run" and not argv[1].startswith("-"):
    # The script's arguments go to it verbatim (argparse would eat a "--"), as `python script.py` does.
    from tf1clip.compat import runner
    return runner.run_script(argv[1], argv[2:])
  if argv[:1] == ["cluster"]:
    from tf1clip.tools import cluster
    return cluster.main(argv[1:])
  if argv[:1] == ["parity"]:
    from tf1clip.v2 import parity
    return parity.main(argv[1:])
  if argv[:1] == ["report"]:
    from tf1clip import report
    return report.main(argv[1:])
  if argv[:1] == ["exec"]:
    from tf1clip.tools import exec_command
    return exec_command.main(argv[1:])
  if argv[:1] == ["compare"]:
    from tf1clip.tools import compare
    return compare.main(argv[1:])
  parser = _build_parser()
  args = parser.parse_args(argv)
  if args.command is None:
    parser.print_help()
    return 2
  if args.command == "run":
    if args.script is None:
      parser.error("run: the script to run is required: `tf1clip run script.py [args...]`")
    from tf1clip.compat import runner
    return runner.run_script(args.script, args.script_args)
  if args.command == "doctor":
    from tf1clip.tools import doctor
    return doctor.main()
  if args.command == "check":
    from tf1clip.tools import check_entries
    from tf1clip.tools import check_project
    paths = list(args.scripts)
    for module in args.modules:
      found = check_entries.module_file(module)
      if found is None:
        print("tf1clip check: No module named %s (looked in %s)" % (module, os.getcwd()), file=sys.stderr)
        return 2
      paths.append(found)
    if not paths:
      parser.error("check: give a PATH or -m MODULE")
    return check_project.main(paths, show_all=args.show_all, output_format=args.format)
  if args.command == "upgrade":
    from tf1clip.tools import upgrade_cli
    return upgrade_cli.main(args.src, args.out, stage=args.stage, output_format=args.format,
                            check_run_cmd=args.check_run, seed=args.seed, rtol=args.rtol,
                            report_path=args.report, force=args.force)
  parser.error("unknown command %r" % args.command)
  return 2


if __name__ == "__main__":
  sys.exit(main())

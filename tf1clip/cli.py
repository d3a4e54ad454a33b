"""The `tf1clip` command line: `tf1clip run | check | parity`, and `--version`.

This module only parses the command line and dispatches; each subcommand's work
lives in the module that owns that concern (compat.runner, compat.check, v2.parity).
TensorFlow is imported lazily so `tf1clip --version` and `tf1clip check` stay fast.
"""

import argparse
import sys

import tf1clip


def _build_parser():
  parser = argparse.ArgumentParser(
      prog="tf1clip",
      description="Run legacy TensorFlow 1 training scripts on current TensorFlow, "
      "check what they use, and check TF1/TF2 parity.")
  parser.add_argument("--version", action="version",
                      version="tf1clip %s" % tf1clip.__version__)
  sub = parser.add_subparsers(dest="command", metavar="COMMAND")

  run = sub.add_parser(
      "run", help="run a TF1 script unchanged: `tf1clip run script.py [args...]`")
  run.add_argument("script", help="path of the Python script to run")
  run.add_argument("script_args", nargs=argparse.REMAINDER,
                   help="arguments passed to the script as sys.argv[1:]")

  check = sub.add_parser(
      "check", help="report which TF1/contrib symbols a script uses will run")
  check.add_argument("scripts", nargs="+", help="Python files to read (not run)")

  # `cluster` and `parity` own their options (see `tf1clip cluster --help`); main() hands them over.
  sub.add_parser(
      "cluster", add_help=False,
      help="run a TF1 ps/worker script as a cluster: `tf1clip cluster --ps 1 --workers 2 script.py`")
  # `parity` owns its options (see `tf1clip parity --help`); main() hands them over untouched.
  sub.add_parser(
      "parity", add_help=False,
      help="train one model in TF1 graph mode and in TF2 eager; compare weights")
  return parser


def main(argv=None):
  """Entry point of the `tf1clip` console script; returns the process exit code."""
  argv = sys.argv[1:] if argv is None else list(argv)
  if len(argv) > 1 and argv[0] == "run" and not argv[1].startswith("-"):
    # The script's arguments go to it verbatim (argparse would eat a "--"), as `python script.py` does.
    from tf1clip.compat import runner
    return runner.run_script(argv[1], argv[2:])
  if argv[:1] == ["cluster"]:
    from tf1clip.compat import cluster
    return cluster.main(argv[1:])
  if argv[:1] == ["parity"]:
    from tf1clip.v2 import parity
    return parity.main(argv[1:])
  parser = _build_parser()
  args = parser.parse_args(argv)
  if args.command is None:
    parser.print_help()
    return 2
  if args.command == "run":
    from tf1clip.compat import runner
    return runner.run_script(args.script, args.script_args)
  if args.command == "check":
    from tf1clip.compat import check
    return check.main(args.scripts)
  parser.error("unknown command %r" % args.command)
  return 2


if __name__ == "__main__":
  sys.exit(main())

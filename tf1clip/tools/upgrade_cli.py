"""`tf1clip upgrade SRC --out DST [--stage 2] [--format json] [--check-run CMD]`: rewrite a file or a tree.

Writes the upgraded copy (tools.upgrade) of every `.py` file and copies every other file (data next to
the scripts), skipping virtualenvs, site-packages, .git and build folders as `tf1clip check` does. Prints
one line per change, `file:line: before -> after`, and per call site what `tf1clip check` says will not
run or runs differently; `--format json` prints the same as JSON (schema `tf1clip.upgrade/1`,
docs/check.md).

`--report FILE` also writes the JSON report to FILE (text on the terminal, JSON for the record).

`--check-run CMD` then proves the copy: the original under `tf1clip run` and the upgraded one under
`python`, both with the same arguments and a fixed seed (tools.seeded_run), each in a fresh temporary
directory that replaces `{tmp}` in CMD, and in a working folder of its own inside it (`{tmp}/_cwd`, holding
links to the entries of the current directory, so relative inputs are found and relative outputs such as
`./runs/<timestamp>` stay apart). The final variables of the newest checkpoint each run wrote under its
`{tmp}` (links skipped) are compared (relative tolerance --rtol); when neither wrote one, their standard output is, with
timestamps, durations and the runs' folders masked, number by number within --rtol (tools.run_output), and
the verdict says so. The program's own modules that the copy would import from outside DST -- from the
script's folder, PYTHONPATH or a `sys.path` edit (tools.program_modules) -- are upgraded alongside, into
DST's `_upgraded_path/`, and the upgraded run imports them from there; a `sys.path` edit that cannot be
evaluated without running the program refuses the check-run, saying where.
CMD is the script's arguments; for a directory SRC its first word is the script, relative to SRC.

Exit status: 0 done (and the check-run agreed), 1 the check-run found a difference, a run failed or the
check-run was refused, 2 usage error (no such SRC, DST inside SRC, a file that does not parse, a --stage this
command does not have).

Data flow: tools.upgrade + tools.seeded_run <- tools.upgrade_cli <- cli.
"""

import ast
import gc
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading

from tf1clip import progress
from tf1clip.compat import source_files
from tf1clip.tools import check
from tf1clip.tools import check_project
from tf1clip.tools import output_path
from tf1clip.tools import program_modules
from tf1clip.tools import run_output
from tf1clip.tools import upgrade

SCHEMA = "tf1clip.upgrade/1"
STAGES = (1, 2, 3)  # 1 and 2: upgrade.upgrade_source here; 3: tools.upgrade_stage3_cli
ALONGSIDE = "_upgraded_path"  # DST's folder for the program's own modules from outside SRC
REDIRECTS_ENV = "TF1CLIP_MODULE_REDIRECTS"  # tools.seeded_run: {top-level module: its upgraded path}


def _files(src, skipped=None):
  """(path, path relative to SRC) of every regular file to copy; entries that are not (looping links, FIFOs)
  are appended to `skipped` as source_files.Skipped."""
  if os.path.isfile(src):
    return [(src, os.path.basename(src))]
  found = []
  skip = lambda name, path: check_project._skip_dir(name, path)  # pylint: disable=protected-access
  for path, reason in source_files.walk_files(src, skip):
    if reason is None:
      found.append((path, os.path.relpath(path, src)))
    elif skipped is not None:
      skipped.append(source_files.Skipped(path, reason))
  return found


def _upgraded(path, stage, resolver):
  """(new text, encoding, changes, warnings) of one Python file, read as Python reads it.

  Raises:
    SyntaxError: the file cannot be read (naming it and why) or parsed.
  """
  try:
    source, encoding = source_files.decode_with_encoding(source_files.read_bytes(path), path)
  except source_files.SourceError as e:
    raise SyntaxError("cannot read %s" % e) from None
  try:  # Python's own parser first: quick, and it refuses what libcst would take minutes to recurse into
    ast.parse(source, path)
  except RecursionError:
    raise SyntaxError("%s: cannot parse: %s" % (path, check.too_deeply_nested(path).msg)) from None
  except (SyntaxError, ValueError) as e:
    raise SyntaxError("%s: cannot parse: %s" % (path, getattr(e, "msg", None) or e)) from None
  collecting = gc.isenabled()
  gc.disable()  # libcst builds millions of acyclic nodes: the cyclic collector's passes cost ~a third of the time
  try:
    new_source, changes = upgrade.upgrade_source(source, stage)
  except RecursionError:
    raise SyntaxError("%s: %s" % (path, check.too_deeply_nested(path).msg)) from None
  except Exception as e:  # libcst's ParserSyntaxError is not a SyntaxError
    raise SyntaxError("%s: cannot parse: %s" % (path, str(e).splitlines()[0])) from e
  finally:
    if collecting:
      gc.enable()
  try:
    warnings = upgrade.warnings_for(source, resolver)
  except SyntaxError:
    warnings = []
  return new_source, encoding, changes, warnings


def upgrade_tree(src, out, stage, force=False):
  """Writes the upgraded copy of `src` (a file or a directory) to `out`.

  Args:
    src: a Python file or a directory.
    out: the destination file (for a file SRC; a directory is taken as out/<name>) or directory.
    stage: 1 or 2.
    force: replace files an earlier upgrade of the same SRC wrote (and nothing else; see `_check_out`).

  Returns:
    A list of per-file dicts: source, output, changes (upgrade.Change), warnings ((line, symbol, note)).

  Raises:
    ValueError: out is src or inside it, or would overwrite a file of the user's (nothing is written).
    SyntaxError: a Python file does not parse (nothing is written for it).
  """
  src_real, out_real = os.path.realpath(src), os.path.realpath(out)
  if out_real == src_real or out_real.startswith(src_real + os.sep) and os.path.isdir(src):
    raise ValueError("--out %r must not be SRC or inside it" % out)
  single = os.path.isfile(src)
  if single and (os.path.isdir(out) or out.endswith(("/", os.sep))):
    out = os.path.join(out, os.path.basename(src))
  skipped = []
  planned = [(path, out if single else os.path.join(out, relative)) for path, relative in _files(src, skipped)]
  _check_out(src, out, single, [target for _, target in planned], force)
  resolver = check.Resolver()
  converted = {}
  for path, _ in planned:  # every file read and parsed before anything is written: a bad one costs nothing
    if path.endswith(".py"):
      converted[path] = _upgraded(path, stage, resolver)
  results = []
  staged = not single and not os.path.lexists(out)
  with (output_path.staged_dir(out, "--out") if staged else _nothing()) as staging:
    written = []
    try:
      for path, target in planned:
        where = target if staging is None else os.path.join(staging, os.path.relpath(target, out))
        output_path.makedirs(os.path.dirname(os.path.abspath(where)), "--out")
        if path in converted:
          new_source, encoding, changes, warnings = converted[path]
          output_path.write_text(where, new_source, "--out", encoding=encoding)
          results.append({"source": path, "output": target, "changes": changes, "warnings": warnings})
        else:
          _copy(path, where)
        written.append(target)
      _write_manifest(src, [target for _, target in planned], staging, out)
    except output_path.OutputError as e:
      if staging is not None:
        raise
      missing = [t for _, t in planned if t not in written]
      raise output_path.OutputError("%s; wrote %d of %d file(s), not written: %s" % (
          e, len(written), len(planned), ", ".join(missing[:5]) + (" ..." if len(missing) > 5 else ""))) from None
  for entry in skipped:
    results.append({"source": entry.path, "output": None, "changes": [], "warnings": [], "skipped": entry.reason})
  return results


class _nothing:  # pylint: disable=invalid-name
  """A context manager that yields None (the --out folder exists: files are written in place, each atomically)."""

  def __enter__(self):
    return None

  def __exit__(self, *exc):
    return False


def _copy(path, target):
  """Copies a file that is not Python source (data, configs) all or nothing."""
  try:
    with open(path, "rb") as f:
      data = f.read()
  except OSError as e:
    raise SyntaxError("cannot read %s" % output_path.describe(e, path)) from None
  output_path.write_bytes(target, data, "--out")
  try:
    shutil.copystat(path, target)
  except OSError:
    pass  # the data is there; times and mode are a courtesy


MANIFEST = ".tf1clip-upgrade.json"


def _digest(path):
  with open(path, "rb") as f:
    return hashlib.sha256(f.read()).hexdigest()


def _manifest_path(target):
  return os.path.join(os.path.dirname(os.path.abspath(target)), MANIFEST)


def _read_manifest(folder):
  try:
    with open(os.path.join(folder, MANIFEST), encoding="utf-8") as f:
      return json.load(f)
  except (OSError, ValueError):
    return {}


def _write_manifest(src, targets, staging=None, out=None):
  """Records, per output folder, which files this upgrade of `src` wrote and their content's digest.

  With `staging`, the files are still in that temporary folder standing for `out`.
  """
  by_folder = {}
  for target in targets:
    by_folder.setdefault(os.path.dirname(os.path.abspath(target)), []).append(target)
  for folder, written in by_folder.items():
    where = folder if staging is None else os.path.join(staging, os.path.relpath(folder, os.path.abspath(out)))
    manifest = _read_manifest(where)
    if manifest.get("source") != os.path.abspath(src):
      manifest = {"source": os.path.abspath(src), "files": {}}
    manifest["files"].update({os.path.basename(t): _digest(os.path.join(where, os.path.basename(t)))
                              for t in written})
    output_path.write_text(os.path.join(where, MANIFEST), json.dumps(manifest, indent=1, sort_keys=True), "--out")


def _written_before(src, target):
  """True when `target` is this upgrade's own earlier output of `src`, unchanged since."""
  manifest = _read_manifest(os.path.dirname(os.path.abspath(target)))
  digest = manifest.get("files", {}).get(os.path.basename(target))
  return manifest.get("source") == os.path.abspath(src) and digest is not None and digest == _digest(target)


def _check_out(src, out, single, targets, force):
  """Refuses an --out that would overwrite the user's files (nothing is written then).

  Raises:
    ValueError: a non-empty --out folder (or an existing --out file) without --force; with --force, a file
      that is not an unchanged earlier output of upgrading the same SRC.
  """
  existing = [t for t in targets if os.path.lexists(t)]
  if not force:
    if not single and os.path.isdir(out) and os.listdir(out):
      raise ValueError("--out %s is not empty: refusing to write into it (your files there could be "
                       "overwritten). Give a new or empty folder, or --force to replace an earlier "
                       "`tf1clip upgrade` output of the same SRC" % out)
    if existing:
      raise ValueError("--out: %s exists: refusing to overwrite it. Give another --out, or --force to replace "
                       "an earlier `tf1clip upgrade` output of the same SRC" % existing[0])
    return
  foreign = [t for t in existing if os.path.isdir(t) or not _written_before(src, t)]
  if foreign:
    raise ValueError("--force: %s %s not written by an earlier `tf1clip upgrade` of %s, or changed since: "
                     "refusing to overwrite %s" % (", ".join(foreign[:5]) + (" ..." if len(foreign) > 5 else ""),
                                                  "was" if len(foreign) == 1 else "were", src,
                                                  "it" if len(foreign) == 1 else "them"))


def to_json(results, stage):
  """The report as a JSON-ready dict (schema tf1clip.upgrade/1)."""
  skipped = [{"path": r["source"], "reason": r["skipped"]} for r in results if r.get("skipped")]
  results = [r for r in results if not r.get("skipped")]
  return {"schema": SCHEMA, "stage": stage, "skipped": skipped, "files": [{
      "source": r["source"], "output": r["output"],
      "changes": [{"line": c.line, "kind": c.kind, "before": c.before, "after": c.after,
                   "warnings": list(c.warnings)} for c in r["changes"]],
      "warnings": [{"line": line, "symbol": symbol, "note": note} for line, symbol, note in r["warnings"]],
  } for r in results]}


def render_text(results, out):
  """Prints `file:line: before -> after` per change and `file:line: warning: ...` per call site."""
  total = 0
  for r in results:
    if r.get("skipped"):
      print("%s: skipped: %s" % (r["source"], r["skipped"]), file=out)
      continue
    rows = [(c.line, "%s -> %s" % (c.before.replace("\n", " | "), c.after) if c.after is not None
             else "left unchanged: %s (%s)" % (c.before.replace("\n", " | "), "; ".join(c.warnings)))
            for c in r["changes"]]
    rows += [(c.line, "note: " + w) for c in r["changes"] if c.after is not None for w in c.warnings]
    rows += [(line, "warning: %s: %s" % (symbol, note)) for line, symbol, note in r["warnings"]]
    for line, text in sorted(rows, key=lambda row: row[0]):
      print("%s:%d: %s" % (r["source"], line, text), file=out)
    total += len(r["changes"])
  print("tf1clip upgrade: %d change(s) in %d file(s)" % (total, sum(1 for r in results if not r.get("skipped"))),
        file=out)


def _newest_checkpoint(*directories):
  """The prefix of the newest checkpoint (by its .index file) under `directories`, or None.

  Links are skipped: a working folder's links to the current directory's entries are not the run's output.

  A training checkpoint wins over a SavedModel's variables (`<export>/variables/variables.index` next to
  a saved_model.pb, written after training by e.g. Estimator.export_saved_model): the run's final
  state is what the script's saver wrote; a SavedModel's variables count only when nothing else is there.
  """
  best = {True: None, False: None}
  walked = [(root, names) for directory in directories for root, _, names in os.walk(directory)]
  for root, names in walked:
    saved_model = (os.path.basename(root) == "variables" and os.path.exists(
        os.path.join(os.path.dirname(root), "saved_model.pb")))
    for name in names:
      if name.endswith(".index") and not os.path.islink(os.path.join(root, name)):
        path = os.path.join(root, name)
        if best[saved_model] is None or os.path.getmtime(path) >= os.path.getmtime(best[saved_model]):
          best[saved_model] = path
  found = best[False] or best[True]
  return None if found is None else found[:-len(".index")]


WORKING_FOLDER = "_cwd"  # each run's working folder, inside its {tmp}


def _working_folder(tmp):
  """`tmp`/_cwd with a link to every entry of the current directory (relative inputs resolve; new files land
  there, apart from the other run's)."""
  work = os.path.join(tmp, WORKING_FOLDER)
  os.mkdir(work)
  here = os.getcwd()
  for name in os.listdir(here):
    os.symlink(os.path.join(here, name), os.path.join(work, name))
  return work


def _run(mode, script, args, seed, label=None, redirects=None):
  """Runs one side under tools.seeded_run, its output lines counted on stderr (tf1clip.progress).

  Returns:
    (CompletedProcess, its {tmp} folder, which holds its working folder WORKING_FOLDER).
  """
  tmp = tempfile.mkdtemp(prefix="tf1clip_check_run_")
  work = _working_folder(tmp)
  argv = [a.replace("{tmp}", tmp) for a in args]
  env = dict(os.environ, PYTHONHASHSEED="0", TF_DETERMINISTIC_OPS="1",
             TF_CPP_MIN_LOG_LEVEL=os.environ.get("TF_CPP_MIN_LOG_LEVEL", "2"))
  if redirects:
    env[REDIRECTS_ENV] = json.dumps(redirects)
  with subprocess.Popen(
      [sys.executable, "-m", "tf1clip.tools.seeded_run", mode, str(seed), os.path.abspath(script)] + argv,
      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=work) as child:
    # stderr drains on a thread (a full pipe would stall the child); stdout is counted as it comes.
    errors = []
    drain = threading.Thread(target=lambda: errors.append(child.stderr.read()), daemon=True)
    drain.start()
    lines = []
    with progress.following(label or "%s (%s)" % (os.path.basename(script), mode), file=sys.stderr) as line:
      for text in child.stdout:
        lines.append(text)
        line(text)
      child.wait()
    drain.join()
  return subprocess.CompletedProcess(child.args, child.returncode, "".join(lines), "".join(errors)), tmp


def compare_checkpoints(original, upgraded, rtol=1e-5, atol=1e-6):
  """Differences between two checkpoints' variables.

  Args:
    original, upgraded: checkpoint prefixes.
    rtol, atol: tolerances (as numpy.allclose).

  Returns:
    (compared variable count, list of difference sentences).
  """
  import numpy as np  # pylint: disable=import-outside-toplevel
  import tensorflow as tf  # pylint: disable=import-outside-toplevel
  a, b = tf.train.load_checkpoint(original), tf.train.load_checkpoint(upgraded)
  names_a, names_b = set(a.get_variable_to_shape_map()), set(b.get_variable_to_shape_map())
  problems = ["%s is in the original's checkpoint only" % n for n in sorted(names_a - names_b)]
  for name in sorted(names_a & names_b):
    x, y = a.get_tensor(name), b.get_tensor(name)
    if np.shape(x) != np.shape(y):
      problems.append("%s: shape %s vs %s" % (name, np.shape(x), np.shape(y)))
    elif np.asarray(x).dtype.kind in "fc" and not np.allclose(x, y, rtol=rtol, atol=atol):
      problems.append("%s: max |difference| %.3g" % (name, float(np.max(np.abs(
          np.asarray(x, np.float64) - np.asarray(y, np.float64))))))
    elif np.asarray(x).dtype.kind not in "fc" and not np.array_equal(x, y):
      problems.append("%s: values differ" % name)
  return len(names_a & names_b), problems


def _alongside(original, upgraded, src, out_path, stage, out):
  """Upgrades the program's own modules from outside SRC into DST's _upgraded_path/ (tools.program_modules).

  Returns:
    ({top-level module: upgraded path} for the upgraded run, refusal reasons, per-file results).
  """
  roots = os.pathsep.join([os.path.dirname(os.path.abspath(original)), os.environ.get("PYTHONPATH", "")])
  found, refusals = program_modules.find([original], roots)
  if refusals:
    return {}, refusals, []
  src_dir = os.path.abspath(src) if os.path.isdir(src) else None
  base = os.path.join(os.path.dirname(os.path.abspath(upgraded)), ALONGSIDE)
  redirects, results = {}, []
  for module in found:
    path = os.path.abspath(module.path)
    if path == os.path.abspath(original):
      continue
    if src_dir and (path + os.sep).startswith(src_dir + os.sep):  # upgraded with the tree already
      redirects[module.name] = os.path.join(os.path.abspath(out_path), os.path.relpath(path, src_dir))
      continue
    # One folder per module: each upgrade's manifest (see _write_manifest) then has one source.
    target = os.path.join(base, module.name, os.path.basename(path)) if os.path.isfile(path) else os.path.join(
        base, module.name)
    try:
      results += upgrade_tree(path, target, stage, force=True)
    except (ValueError, SyntaxError) as e:
      return {}, ["%s (imported as %s, from %s): cannot upgrade it alongside: %s" % (path, module.name,
                                                                                    module.how, e)], []
    redirects[module.name] = target
    print("check-run: upgraded alongside: %s (%s, found through %s) -> %s" % (module.name, path, module.how,
                                                                             target), file=out)
  return redirects, [], results


def check_run(original, upgraded, args, seed=0, rtol=1e-5, out=None, redirects=None):
  """Runs `original` under tf1clip run and `upgraded` under python; compares what they leave behind.

  Args:
    original, upgraded: script paths.
    args: the script's arguments; "{tmp}" becomes each run's own temporary directory.
    seed: the fixed seed both runs get.
    rtol: relative tolerance for the variables (and printed numbers, when there is no checkpoint).
    out: where to print the verdict.
    redirects: {top-level module: upgraded path} the upgraded run imports instead of the original's.

  Returns:
    0 when they agree, 1 when a run fails or their results differ.
  """
  out = out or sys.stdout
  if not any("{tmp}" in a for a in args):
    print("check-run: CMD has no {tmp}: each run writes into its own working folder only", file=out)
  runs = {}
  for label, mode, script in (("original (tf1clip run)", "run", original),
                              ("upgraded (python)", "python", upgraded)):
    process, tmp = (_run(mode, script, args, seed, label, redirects=redirects) if redirects and mode == "python"
                    else _run(mode, script, args, seed, label))
    runs[label] = (process, tmp)
    if process.returncode != 0:
      print("check-run: the %s exited with %d:\n%s" % (label, process.returncode,
                                                       process.stderr[-3000:]), file=out)
      return 1
  (first, tmp_a), (second, tmp_b) = runs.values()
  ckpt_a, ckpt_b = _newest_checkpoint(tmp_a), _newest_checkpoint(tmp_b)
  try:
    if ckpt_a is None and ckpt_b is None:
      folders_a, folders_b = [tmp_a, os.path.realpath(tmp_a)], [tmp_b, os.path.realpath(tmp_b)]
      count, problems = run_output.compare(run_output.mask(first.stdout, folders_a),
                                           run_output.mask(second.stdout, folders_b), rtol=rtol)
      what = ("no checkpoint under {tmp} or the working folder: compared the printed output instead (%d lines, "
              "%d numbers within rtol %g; timestamps, durations and run folders masked)" % (
                  len(first.stdout.splitlines()), count, rtol))
      if problems:
        print("check-run: %s; the outputs differ:\n  %s" % (what, "\n  ".join(problems[:20])), file=out)
        return 1
      print("check-run: %s; they agree" % what, file=out)
      return 0
    if ckpt_a is None or ckpt_b is None:
      print("check-run: only one run wrote a checkpoint (%s, %s)" % (ckpt_a, ckpt_b), file=out)
      return 1
    count, problems = compare_checkpoints(ckpt_a, ckpt_b, rtol=rtol)
    if problems:
      print("check-run: %d of %d variables differ:\n  %s" % (len(problems), count,
                                                             "\n  ".join(problems)), file=out)
      return 1
    print("check-run: %d variables agree (rtol %g)" % (count, rtol), file=out)
    return 0
  finally:
    shutil.rmtree(tmp_a, ignore_errors=True)
    shutil.rmtree(tmp_b, ignore_errors=True)


def main(src, out_path, stage=1, output_format="text", check_run_cmd=None, seed=0, rtol=1e-5,
         out=None, report_path=None, force=False):
  """`tf1clip upgrade`: writes the upgraded copy and prints the report.

  Args:
    src: a Python file or a directory.
    out_path: where the copy goes.
    stage: 1, 2 or 3 (tools.upgrade_stage3_cli).
    output_format: "text" or "json" (what is printed).
    check_run_cmd: the --check-run arguments, or None.
    seed, rtol: the --check-run seed and relative tolerance.
    out: where to print (default sys.stdout).
    report_path: also write the JSON report to this file.
    force: see upgrade_tree.

  Returns:
    The exit status (see the module docstring).
  """
  out = out or sys.stdout
  if stage not in STAGES:
    print("tf1clip upgrade: --stage %s: this command writes stages %s (1: imports only, 2: tf1clip's wrappers, "
          "still graph mode, 3: TF2 eager); there is no stage %s" % (stage, ", ".join(map(str, STAGES)), stage), file=sys.stderr)
    return 2
  if not os.path.exists(src):
    print("tf1clip upgrade: %s: no such file or directory" % src, file=sys.stderr)
    return 2
  if not os.path.isdir(src) and source_files.not_regular(src):
    print("tf1clip upgrade: %s: %s" % (src, source_files.not_regular(src)), file=sys.stderr)
    return 2
  if stage == 3:  # TF2 eager: tools.upgrade_stage3_cli (its own tree walk: all files or, with a TODO, none)
    from tf1clip.tools import upgrade_stage3_cli  # pylint: disable=import-outside-toplevel
    return upgrade_stage3_cli.main(src, out_path, output_format, check_run_cmd, rtol=rtol, out=out,
                                   report_path=report_path, force=force)
  try:
    if report_path:
      output_path.check_file(report_path, "--report")
    if os.path.isfile(src) and not (os.path.isdir(out_path) or out_path.endswith(("/", os.sep))):
      output_path.check_file(out_path, "--out", create_parents=True)
    else:
      output_path.check_dir(out_path, "--out")
    results = upgrade_tree(src, out_path, stage, force=force)
  except (ValueError, SyntaxError, output_path.OutputError) as e:
    print("tf1clip upgrade: %s" % e, file=sys.stderr)
    return 2
  if output_format == "json":
    json.dump(to_json(results, stage), out, indent=2)
    out.write("\n")
  else:
    render_text(results, out)
  if report_path:
    try:
      output_path.write_text(report_path, json.dumps(to_json(results, stage), indent=2), "--report")
    except output_path.OutputError as e:
      return output_path.fail("upgrade", e)
  if check_run_cmd is None:
    return 0
  args = shlex.split(check_run_cmd)
  if os.path.isdir(src):
    if not args:
      print("tf1clip upgrade: --check-run needs the script (relative to SRC) first", file=sys.stderr)
      return 2
    original, upgraded, args = os.path.join(src, args[0]), os.path.join(out_path, args[0]), args[1:]
  else:
    original = src
    upgraded = os.path.join(out_path, os.path.basename(src)) if os.path.isdir(out_path) else out_path
  verdict_out = sys.stderr if output_format == "json" else out
  redirects, refusals, alongside = _alongside(original, upgraded, src, out_path, stage, verdict_out)
  if refusals:
    print("check-run refused: the upgraded copy could import the program's original modules:\n  %s\n"
          "Upgrade that folder too (tf1clip upgrade DIR --out ...) and check the copies together." % (
              "\n  ".join(refusals)), file=verdict_out)
    return 1
  if alongside and output_format != "json":
    render_text(alongside, out)
  return check_run(original, upgraded, args, seed=seed, rtol=rtol, out=verdict_out, redirects=redirects)

"""`tf1clip upgrade SRC --out DST --stage 3`: write the TF2 eager copy, or the TODO list and nothing.

Every `.py` file of SRC goes through tools.upgrade_stage3; the other files are copied. When any file has a
TODO (a statement stage 3 cannot convert), nothing is written: the report lists what would have changed and
one `file:line: TODO: ...` per statement, and the exit status is 1. Otherwise the copy is written as stages 1
and 2 write theirs (same refusals to overwrite, same manifest, same report; schema tf1clip.upgrade/1 with
stage 3 and a `todos` list per file).

`--check-run CMD` then runs both programs from the same initial weights: the original under `tf1clip run`
recording the values its variables start from (tools.compare_init), the stage-3 copy under `python` starting
from them (TF1CLIP_INITIAL_VALUES, v2.tf1_graph). It compares the variables of the newest checkpoint each
wrote under its `{tmp}` by TF1 name (v2.tf1_checkpoint reads both kinds), or else their printed numbers
(each number within --rtol, every other word equal, the run folders masked). Eager Keras optimizers round
differently from TF1's fused kernels: Momentum / SGD agree to ~1e-7, Adam drifts ~1e-7 per step (its
bias correction is computed, not accumulated), hence the default --rtol 1e-5 is for a few dozen steps.

Data flow: tools.upgrade_stage3 + tools.upgrade_cli (tree, manifest, report) <- **this** <- upgrade_cli.main.
"""

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

from tf1clip.tools import upgrade_cli
from tf1clip.tools import upgrade_stage3

_NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


def plan(src, out):
  """[(source path, target path)] for SRC and --out (a file SRC into a folder --out lands inside it)."""
  single = os.path.isfile(src)
  if single and (os.path.isdir(out) or out.endswith(("/", os.sep))):
    out = os.path.join(out, os.path.basename(src))
  return [(path, out if single else os.path.join(out, relative))
          for path, relative in upgrade_cli._files(src)], out  # pylint: disable=protected-access


def upgrade_tree(src, out, force=False):
  """Stage 3 of every file; writes them only when no file has a TODO.

  Returns:
    (results as upgrade_cli.upgrade_tree gives them, each with "todos": [upgrade_stage3.Todo], written).

  Raises:
    ValueError / SyntaxError: as upgrade_cli.upgrade_tree (nothing is written).
  """
  src_real, out_real = os.path.realpath(src), os.path.realpath(out)
  if out_real == src_real or out_real.startswith(src_real + os.sep) and os.path.isdir(src):
    raise ValueError("--out %r must not be SRC or inside it" % out)
  planned, out = plan(src, out)
  targets = [t for _, t in planned]
  upgrade_cli._check_out(src, out, os.path.isfile(src), targets, force)  # pylint: disable=protected-access
  results, sources = [], {}
  for path, target in planned:
    if not path.endswith(".py"):
      continue
    with open(path, encoding="utf-8") as f:
      source = f.read()
    try:
      new_source, changes, todos = upgrade_stage3.upgrade_source(source)
    except Exception as e:  # libcst's ParserSyntaxError is not a SyntaxError
      raise SyntaxError("%s: cannot parse: %s" % (path, str(e).splitlines()[0])) from e
    sources[target] = new_source
    results.append({"source": path, "output": target, "changes": changes, "warnings": [], "todos": todos})
  if any(r["todos"] for r in results):
    return results, False
  for path, target in planned:
    os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
    if target in sources:
      with open(target, "w", encoding="utf-8") as f:
        f.write(sources[target])
    else:
      shutil.copy2(path, target)
  upgrade_cli._write_manifest(src, [t for _, t in planned])  # pylint: disable=protected-access
  return results, True


def render_text(results, written, out):
  """upgrade_cli's report plus one `file:line: TODO: ...` per statement left, and what was written."""
  upgrade_cli.render_text(results, out)
  todos = [(r["source"], t) for r in results for t in r["todos"]]
  for source, todo in todos:
    print("%s:%d: TODO: %s" % (source, todo.line, todo.what), file=out)
  if not written:
    print("tf1clip upgrade --stage 3: %d TODO(s) left: nothing written (the copy would not be the same "
          "program)" % len(todos), file=out)


def to_json(results, written):
  report = upgrade_cli.to_json(results, 3)
  report["written"] = written
  for entry, result in zip(report["files"], results):
    entry["todos"] = [{"line": t.line, "what": t.what} for t in result["todos"]]
  return report


def _run(how, script, args, values, record):
  tmp = tempfile.mkdtemp(prefix="tf1clip_check_run_")
  argv = [a.replace("{tmp}", tmp) for a in args]
  env = dict(os.environ, PYTHONHASHSEED="0", TF_CPP_MIN_LOG_LEVEL=os.environ.get("TF_CPP_MIN_LOG_LEVEL", "2"))
  if record:
    command = [sys.executable, "-m", "tf1clip.tools.compare_init", how, "record", values, script] + argv
  else:
    env["TF1CLIP_INITIAL_VALUES"] = values
    command = [sys.executable, script] + argv
  process = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
  return process, tmp


def compare_outputs(first, second, tmp_a, tmp_b, rtol):
  """Difference sentences between two printed outputs: numbers within rtol, other words equal."""
  a = first.replace(tmp_a, "{tmp}").split()
  b = second.replace(tmp_b, "{tmp}").split()
  if len(a) != len(b):
    return ["the outputs have %d and %d words" % (len(a), len(b))]
  problems = []
  for x, y in zip(a, b):
    x, y = x.strip(",()[]"), y.strip(",()[]")
    if _NUMBER.match(x) and _NUMBER.match(y):
      if abs(float(x) - float(y)) > rtol * max(abs(float(x)), abs(float(y))) + 1e-12:
        problems.append("%s vs %s" % (x, y))
    elif x != y:
      problems.append("%r vs %r" % (x, y))
  return problems


def check_run(original, upgraded, args, rtol=1e-5, out=None):
  """Runs both from the original's initial weights; compares their checkpoints or printed numbers."""
  import numpy as np  # pylint: disable=import-outside-toplevel
  from tf1clip.v2 import tf1_checkpoint  # pylint: disable=import-outside-toplevel
  out = out or sys.stdout
  values = os.path.join(tempfile.mkdtemp(prefix="tf1clip_initial_"), "initial.npz")
  first, tmp_a = _run("run", original, args, values, record=True)
  if first.returncode != 0:
    print("check-run: the original (tf1clip run) exited with %d:\n%s" % (first.returncode, first.stderr[-3000:]),
          file=out)
    return 1
  second, tmp_b = _run("python", upgraded, args, values, record=False)
  try:
    if second.returncode != 0:
      print("check-run: the stage-3 copy (python) exited with %d:\n%s" % (second.returncode,
                                                                          second.stderr[-3000:]), file=out)
      return 1
    ckpt_a = upgrade_cli._newest_checkpoint(tmp_a)  # pylint: disable=protected-access
    ckpt_b = upgrade_cli._newest_checkpoint(tmp_b)  # pylint: disable=protected-access
    if ckpt_a and ckpt_b:
      a, b = tf1_checkpoint.tf1_values(ckpt_a), tf1_checkpoint.tf1_values(ckpt_b)
      common = sorted(set(a) & set(b))
      problems = ["%s is in the stage-3 checkpoint only" % n for n in sorted(set(b) - set(a))]
      problems += ["%s: max |difference| %.3g" % (n, float(np.max(np.abs(np.asarray(a[n], np.float64) - b[n]))))
                   for n in common if not np.allclose(a[n], b[n], rtol=rtol, atol=rtol)]
      if problems or not common:
        print("check-run: %d of %d variables differ:\n  %s" % (len(problems), len(common), "\n  ".join(problems)),
              file=out)
        return 1
      print("check-run: %d variables agree (rtol %g) from the same initial weights; the TF1 optimizer's %d "
            "slot variables have Keras counterparts under other names and are not compared" % (
                len(common), rtol, len(set(a) - set(b))), file=out)
      return 0
    problems = compare_outputs(first.stdout, second.stdout, tmp_a, tmp_b, rtol)
    if problems:
      print("check-run: no checkpoints to compare; the printed outputs differ: %s" % "; ".join(problems[:5]),
            file=out)
      return 1
    print("check-run: no checkpoints to compare; the printed outputs agree (%d lines, numbers within rtol %g)"
          % (len(first.stdout.splitlines()), rtol), file=out)
    return 0
  finally:
    for folder in (tmp_a, tmp_b, os.path.dirname(values)):
      shutil.rmtree(folder, ignore_errors=True)


def main(src, out_path, output_format="text", check_run_cmd=None, rtol=1e-5, out=None, report_path=None,
         force=False):
  """`tf1clip upgrade --stage 3`; returns the exit status (0 done, 1 TODOs left or check-run failed, 2 usage)."""
  out = out or sys.stdout
  try:
    results, written = upgrade_tree(src, out_path, force=force)
  except (ValueError, SyntaxError) as e:
    print("tf1clip upgrade: %s" % e, file=sys.stderr)
    return 2
  if output_format == "json":
    json.dump(to_json(results, written), out, indent=2)
    out.write("\n")
  else:
    render_text(results, written, out)
  if report_path:
    with open(report_path, "w") as f:
      json.dump(to_json(results, written), f, indent=2)
  if not written:
    return 1
  if check_run_cmd is None:
    return 0
  args = shlex.split(check_run_cmd)
  if os.path.isdir(src):
    if not args:
      print("tf1clip upgrade: --check-run needs the script (relative to SRC) first", file=sys.stderr)
      return 2
    original, upgraded, args = os.path.join(src, args[0]), os.path.join(out_path, args[0]), args[1:]
  else:
    original, upgraded = src, plan(src, out_path)[1]
  return check_run(original, upgraded, args, rtol=rtol, out=sys.stderr if output_format == "json" else out)

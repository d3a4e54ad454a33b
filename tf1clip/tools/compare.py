"""`tf1clip compare --tf115 PYTHON script.py ARGS`: run a script on TF 1.15 and under `tf1clip run`, compare the weights.

For a user who still has a TF 1.15 environment: the same script, the same arguments, both runs started from the
same initial weights (`--init CKPT`, or the values TF 1.15's run started from, recorded by tools.compare_init
and given to tf1clip's run), then every variable of the final checkpoint compared (numpy's allclose rule), and,
where both runs saved intermediate checkpoints under the same names, the first step at which each variable
diverged. `{out}` in ARGS stands for a folder of each side's own (so the two runs never write into one folder);
checkpoints are looked for there.

Exit status: 0 when every variable agrees, 1 when one differs or exists on one side only, or when a side
failed (its name and last output are printed), 2 for a usage error (no such interpreter, an interpreter
whose TensorFlow is not 1.15 -- probed before anything runs --, a bad tolerance, no `{out}`, an unwritable
`--keep`).

Place in the data flow: cli -> **tools.compare** -> tools.compare_init (one process per side).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

from tf1clip import flag_values
from tf1clip.tools import output_path

_INIT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "compare_init.py")
_STEP = re.compile(r"^(.*?)-(\d+)$")


class CompareError(Exception):
  """A side could not run, or the inputs are unusable; the message says which and why."""


def _side_env():
  env = dict(os.environ)
  env.pop("TF2_BEHAVIOR", None)  # TensorFlow 2 sets it on import; TF 1.15 would start eagerly
  env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
  return env


# Prints the interpreter's TensorFlow version, read from its installed metadata when it can (fast), else by
# importing it; "none" when there is no tensorflow.
_PROBE = """
try:
  try:
    from importlib import metadata
    print(metadata.version("tensorflow"))
  except Exception:
    import pkg_resources
    print(pkg_resources.get_distribution("tensorflow").version)
except Exception:
  try:
    import tensorflow
    print(tensorflow.__version__)
  except Exception:
    print("none")
"""


def probe_tensorflow(python, timeout=120):
  """The TensorFlow version of interpreter `python`; ValueError naming it when it has none, or is no Python."""
  try:
    proc = subprocess.run([python, "-c", _PROBE], capture_output=True, text=True, timeout=timeout,
                          env=_side_env(), check=False)
  except (OSError, subprocess.SubprocessError) as e:
    raise ValueError("--tf115 %s: cannot run it (%s)" % (python, e)) from None
  version = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
  if proc.returncode != 0 or not version:
    raise ValueError("--tf115 %s: not a Python interpreter that runs (exit %d: %s)" % (
        python, proc.returncode, (proc.stderr.strip().splitlines() or ["no output"])[-1]))
  if version == "none":
    raise ValueError("--tf115 %s: this Python has no tensorflow installed (need tensorflow==1.15)" % python)
  return version


def _run_side(name, argv, log_path):
  try:
    with open(log_path, "w") as log:
      proc = subprocess.run(argv, stdout=log, stderr=subprocess.STDOUT, env=_side_env(), check=False)
  except OSError as e:
    raise CompareError("cannot write the %s run's log: %s" % (name, output_path.describe(e, log_path))) from None
  if proc.returncode != 0:
    with open(log_path, errors="replace") as f:
      tail = "".join(f.readlines()[-25:])
    raise CompareError("the %s run failed (exit %d); its last output:\n%s" % (name, proc.returncode, tail))


def checkpoints(folder):
  """{prefix relative to folder: path} of every TensorFlow checkpoint (an `.index` file) below `folder`."""
  found = {}
  for root, _, files in os.walk(folder):
    for f in files:
      if f.endswith(".index"):
        path = os.path.join(root, f[:-len(".index")])
        found[os.path.relpath(path, folder)] = path
  return found


def _final(found):
  """The checkpoint with the highest step suffix (or the only one): its relative name."""
  def step(name):
    m = _STEP.match(name)
    return int(m.group(2)) if m else -1
  return max(found, key=lambda n: (step(n), n))


def _read(path):
  os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
  import tensorflow as tf  # pylint: disable=import-outside-toplevel
  reader = tf.train.load_checkpoint(path)
  return {name: reader.get_tensor(name) for name in reader.get_variable_to_shape_map()}


def _values_from_checkpoint(ckpt, npz):
  np.savez(npz, **{k: v for k, v in _read(ckpt).items() if isinstance(v, np.ndarray) and v.dtype != object})


def compare_weights(a, b, rtol, atol):
  """[(name, shape, largest difference or None, verdict)] for the union of two {name: array} dicts."""
  rows = []
  for name in sorted(set(a) | set(b)):
    if name not in a or name not in b:
      rows.append((name, np.shape(a.get(name, b.get(name))), None, "only under tf1clip" if name not in a
                   else "only on TF 1.15"))
      continue
    x, y = np.asarray(a[name]), np.asarray(b[name])
    if x.shape != y.shape:
      rows.append((name, x.shape, None, "shape %s vs %s" % (x.shape, y.shape)))
      continue
    if x.dtype.kind in "SUO" or y.dtype.kind in "SUO":
      rows.append((name, x.shape, None, "agree" if x.tolist() == y.tolist() else "DIFFERS"))
      continue
    diff = float(np.max(np.abs(x.astype(np.float64) - y.astype(np.float64)))) if x.size else 0.0
    same = np.allclose(x, y, rtol=rtol, atol=atol, equal_nan=True)
    rows.append((name, x.shape, diff, "agree" if same else "DIFFERS"))
  return rows


def first_divergence(side_a, side_b, rtol, atol):
  """{variable: step} of the first common intermediate checkpoint where it differs."""
  common = sorted((int(_STEP.match(n).group(2)), n) for n in set(side_a) & set(side_b) if _STEP.match(n))
  first = {}
  for step, name in common:
    for var, _, _, verdict in compare_weights(_read(side_a[name]), _read(side_b[name]), rtol, atol):
      if verdict != "agree":
        first.setdefault(var, step)
  return first


def main(argv=None, out=sys.stdout):
  parser = argparse.ArgumentParser(
      prog="tf1clip compare",
      description="Run a TF1 script on TF 1.15 and under `tf1clip run` from the same initial weights and "
                  "compare the weights they end with, variable by variable.")
  parser.add_argument("--tf115", required=True, metavar="PYTHON",
                      help="a Python with tensorflow==1.15 (e.g. .venv-tf115/bin/python, built by `make oracle`)")
  parser.add_argument("--init", metavar="CKPT", help="start both runs from this checkpoint's values (default: "
                      "the values the TF 1.15 run starts from)")
  parser.add_argument("--rtol", type=flag_values.tolerance, default=1e-3, help="relative tolerance (default 1e-3)")
  parser.add_argument("--atol", type=flag_values.tolerance, default=1e-4, help="absolute tolerance (default 1e-4: a few float32 roundings apart after a short run with Adam)")
  parser.add_argument("--keep", metavar="DIR", help="keep both runs' outputs and logs in DIR")
  parser.add_argument("script", help="the TF1 script")
  parser.add_argument("script_args", nargs=argparse.REMAINDER,
                      help="its arguments; {out} stands for each run's own output folder")
  args = parser.parse_args(argv)
  if not os.path.exists(args.tf115) or not os.access(args.tf115, os.X_OK):
    parser.error("--tf115 %s: no such interpreter" % args.tf115)
  if not os.path.isfile(args.script):
    parser.error("%s: no such script" % args.script)
  if not any("{out}" in a for a in args.script_args):
    parser.error("name the output folder with {out} in the script's arguments (e.g. --save_dir {out}), so "
                 "the two runs write their checkpoints to folders of their own")
  if args.init and not os.path.exists(args.init + ".index"):
    parser.error("--init %s: no such checkpoint (no %s.index)" % (args.init, args.init))
  try:
    if args.keep:
      output_path.check_dir(args.keep, "--keep")
    version = probe_tensorflow(args.tf115)
    if not version.startswith("1.15"):
      raise ValueError("--tf115 %s: its TensorFlow is %s; compare needs a Python with tensorflow==1.15" % (
          args.tf115, version))
    work = output_path.makedirs(args.keep, "--keep") if args.keep else tempfile.mkdtemp(prefix="tf1clip-compare-")
  except (ValueError, OSError) as e:
    print("tf1clip compare: %s" % (output_path.describe(e) if isinstance(e, OSError) else e), file=sys.stderr)
    return 2
  try:
    return _compare(args, work, out)
  except OSError as e:
    print("tf1clip compare: %s" % output_path.describe(e), file=sys.stderr)
    return 2
  except CompareError as e:
    print("tf1clip compare: %s" % e, file=sys.stderr)
    return 1
  finally:
    if not args.keep:
      shutil.rmtree(work, ignore_errors=True)


def _compare(args, work, out):
  values = os.path.join(work, "initial_values.npz")
  mode = "restore"
  if args.init:
    _values_from_checkpoint(args.init, values)
  outs = {side: os.path.join(work, side) for side in ("tf115", "tf1clip")}
  script = os.path.abspath(args.script)
  for side in ("tf115", "tf1clip"):
    os.makedirs(outs[side], exist_ok=True)
    side_args = [a.replace("{out}", outs[side]) for a in args.script_args]
    side_mode = mode if (args.init or side == "tf1clip") else "record"
    if side == "tf115":
      argv = [args.tf115, _INIT, "python", side_mode, values, script] + side_args
    else:
      argv = [sys.executable, "-m", "tf1clip.tools.compare_init", "run", side_mode, values, script] + side_args
    print("tf1clip compare: running %s on %s ..." % (os.path.basename(script),
                                                     "TF 1.15" if side == "tf115" else "tf1clip"), file=out)
    out.flush()
    _run_side("TF 1.15" if side == "tf115" else "tf1clip", argv, os.path.join(work, side + ".log"))
    if side == "tf115" and not os.path.exists(values):
      raise CompareError("the TF 1.15 run never ran a variables initializer, so its initial weights could not "
                         "be recorded: pass --init CKPT")
  found = {side: checkpoints(outs[side]) for side in outs}
  for side, ckpts in found.items():
    if not ckpts:
      raise CompareError("the %s run saved no checkpoint under {out} (%s)" % (
          "TF 1.15" if side == "tf115" else "tf1clip", outs[side]))
  final = _final(found["tf115"])
  if final not in found["tf1clip"]:
    raise CompareError("TF 1.15's last checkpoint is %s; the tf1clip run has no checkpoint of that name (it has "
                       "%s)" % (final, ", ".join(sorted(found["tf1clip"]))))
  rows = compare_weights(_read(found["tf115"][final]), _read(found["tf1clip"][final]), args.rtol, args.atol)
  diverged = first_divergence(found["tf115"], found["tf1clip"], args.rtol, args.atol)
  print("final checkpoint %s; tolerance rtol %g, atol %g; both runs from the same initial weights (%s)" % (
      final, args.rtol, args.atol, args.init or "recorded from the TF 1.15 run"), file=out)
  width = max(len(r[0]) for r in rows)
  print("%-*s  %-16s %-12s %-20s %s" % (width, "variable", "shape", "largest diff", "verdict", "first diverged"),
        file=out)
  for name, shape, diff, verdict in rows:
    print("%-*s  %-16s %-12s %-20s %s" % (width, name, list(shape), "-" if diff is None else "%.3g" % diff,
                                          verdict, "step %d" % diverged[name] if name in diverged else ""),
          file=out)
  bad = [r for r in rows if r[3] != "agree"]
  print("%d of %d variables agree%s" % (len(rows) - len(bad), len(rows),
                                        "" if not bad else "; differs: " + ", ".join(r[0] for r in bad[:5])),
        file=out)
  return 1 if bad else 0


if __name__ == "__main__":
  sys.exit(main())

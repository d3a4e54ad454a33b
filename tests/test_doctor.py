"""`tf1clip doctor` and what `import tf1clip` must not do: subprocesses, since both concern process state."""

import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _python(code_or_args, env_extra=None):
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", PYTHONPATH=REPO)
  env.pop("TF_USE_LEGACY_KERAS", None)
  env.update(env_extra or {})
  args = code_or_args if isinstance(code_or_args, list) else ["-c", code_or_args]
  return subprocess.run([sys.executable] + args, capture_output=True, text=True, env=env,
                        timeout=300, cwd=REPO)


def test_doctor_reports_versions_shims_keras_and_gpus_and_exits_0_here():
  proc = _python(["-m", "tf1clip", "doctor"])
  assert proc.returncode == 0, proc.stdout + proc.stderr
  out = proc.stdout
  for dist in ("tensorflow", "tf-keras", "numpy", "tensorflow-estimator", "tf-slim"):
    assert "\n  " + dist + " " in out, out
  assert "tf_slim: " in out and " skipped" in out
  assert "keras: tf-keras (Keras 2)" in out
  assert "gpus: " in out
  internals = re.search(r"^internals: (\d+) TensorFlow/tf-keras internals imported by tf1clip, all resolve$",
                        out, re.M)
  assert internals and int(internals.group(1)) >= 10, out


def test_doctor_finds_every_internal_import_and_reports_a_broken_one(tmp_path):
  from tf1clip.tools import doctor  # pylint: disable=import-outside-toplevel
  package = tmp_path / "tf1clip"
  (package / "sub").mkdir(parents=True)
  (package / "a.py").write_text("from tensorflow.python.ops import cond_v2\nimport os\n")
  (package / "sub" / "b.py").write_text(
      "import tf_keras.src.no_such_module\nfrom tensorflow.python.ops import cond_v2\n")
  imports = doctor.internal_imports(str(package))
  assert imports == {("tensorflow.python.ops", "cond_v2"): ["tf1clip/a.py", "tf1clip/sub/b.py"],
                     ("tf_keras.src.no_such_module", None): ["tf1clip/sub/b.py"]}
  broken = doctor.broken_internals(imports)
  assert [(m, a) for m, a, _ in broken] == [("tf_keras.src.no_such_module", None)]


def test_import_tf1clip_neither_switches_to_graph_mode_nor_applies_shims():
  code = ("import tensorflow as tf, tf1clip, tf1clip.transforms, tf1clip.optimizer, tf1clip.v2\n"
          "from tf1clip import shims\n"
          "assert tf.executing_eagerly(), 'import tf1clip switched to graph mode'\n"
          "assert shims.report() == {}, shims.report()\n"
          "print('ok')\n")
  proc = _python(code)
  assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stdout + proc.stderr


def test_run_without_a_script_says_the_script_is_required():
  proc = _python(["-m", "tf1clip", "run"])
  assert proc.returncode == 2
  assert "the script to run is required" in proc.stderr and "script_args" not in proc.stderr


def test_doctor_exits_1_for_a_missing_requirement_and_only_reports_a_skipped_patch():
  # One process for both (each start imports TensorFlow): tf-keras made to look uninstalled (what
  # importlib.metadata says is what doctor reads), and a registered shim whose source moved.
  code = ("import importlib.metadata as m, sys, types\n"
          "real = m.version\n"
          "def version(d):\n"
          "  if d == 'tf-keras': raise m.PackageNotFoundError(d)\n"
          "  return real(d)\n"
          "m.version = version\n"
          "from tf1clip.tools import doctor\n"
          "from tf1clip import shims\n"
          "mod = types.ModuleType('fake_shim')\n"
          "mod.PATCHES = (shims.Patch('tensorflow.python.framework.ops:NoSuchThing',\n"
          "                           'tensorflow.python.no_such_module:Thing', 'fake feature'),)\n"
          "sys.modules['fake_shim'] = mod\n"
          "shims.SHIMS['fake'] = 'fake_shim:PATCHES'\n"
          "sys.exit(doctor.main())\n")
  proc = _python(code)
  assert proc.returncode == 1, proc.stdout + proc.stderr
  missing = [line for line in proc.stdout.splitlines() if line.startswith("MISSING")]
  assert missing == ["MISSING: tf-keras is not installed (tf.compat.v1.layers / nn.rnn_cell / "
                     "tf.keras under TF_USE_LEGACY_KERAS=1)"]
  # A moved source is skipped and reported, not a failure (the MISSING list above has no shim).
  assert "fake: 0 applied, 0 present, 1 skipped" in proc.stdout
  assert "skipped tensorflow.python.framework.ops:NoSuchThing" in proc.stdout
  assert "affects: fake feature" in proc.stdout

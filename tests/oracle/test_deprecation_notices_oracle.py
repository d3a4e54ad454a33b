"""Deprecation notices under `tf1clip run`: the ones TF 1.15 printed for the same script, each once.

The legacy examples run on TF 1.15 and under `tf1clip run`; the deprecated things each side names are read off
stderr (TF's decorator form "X (from module) is deprecated", tf-keras's "`tf.layers.dense` is deprecated") and
reduced to the symbol ("BasicLSTMCell", "dense"). tf1clip's are a subset of TF 1.15's, each printed once, and
the ones both sides reach are kept. `--verbose` keeps everything TensorFlow 2.21 says.

One difference, stated: TF 2.21's estimator export calls `get_tensor_from_tensor_info`, deprecated in TF 1.15 too
but not called by TF 1.15's export, so its notice (TF 1.15's own notice for that function) is printed.
Also on purpose (compat/deprecation_notices.py): TF 1.15's "The name tf.X is deprecated. Please use
tf.compat.v1.X" lines and its contrib banner are not repeated.
"""

import os
import re
import subprocess
import sys

from harness import REPO, oracle_python, requires_tf115

from tf1clip.compat import deprecation_notices

ORACLE_TESTED = ["tf.nn.rnn_cell.BasicLSTMCell", "tf.nn.rnn_cell.MultiRNNCell", "tf.layers.dense",
                 "tf.saved_model.build_tensor_info"]
LEGACY = os.path.join(REPO, "examples", "legacy")
# TF 2.21's code path calls it where TF 1.15's did not (see the module docstring).
CALLED_ONLY_BY_TF221 = {"get_tensor_from_tensor_info"}
_LINE = re.compile(r"^(?:WARNING:tensorflow:|.*?:\d+: \w*Warning: )(?P<message>.*)$")


def _symbol(key):
  """"BasicLSTMCell" for ("function", "BasicLSTMCell.__init__", ...) and ("api", "tf.nn.rnn_cell.BasicLSTMCell")."""
  name = key[1]
  if key[0] == "api":
    return name.rsplit(".", 1)[-1]
  parts = [p for p in name.split(".") if p != "__init__" and p != "__new__"]
  return parts[0] if len(parts) == 1 else parts[-2] if parts[-1].startswith("__") else parts[0]


def notices(stderr):
  """[(symbol, key)] for each deprecation notice in a side's stderr, in order."""
  found = []
  for line in stderr.splitlines():
    match = _LINE.match(line)
    if match:
      key = deprecation_notices.notice_key(match.group("message"))
      if key is not None and key[0] != "alias":
        found.append((_symbol(key), key))
  return found


_SCRIPTS = (("char_rnn_train.py", ["--max_steps", "2", "--save_every", "2"]),
            ("estimator_train.py", ["--train_steps", "20", "--log_every", "10"]))


def _runs(tmp_path, *extra, tf115_too=True, scripts=_SCRIPTS):
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
  env.pop("TF1CLIP_TF_LOG", None)
  tf115_env = dict(env)
  tf115_env.pop("TF2_BEHAVIOR", None)
  sides = {}
  for script, args in scripts:
    out_flag = "--save_dir" if script.startswith("char") else "--model_dir"
    runs = [("tf1clip", [sys.executable, "-m", "tf1clip", "run", *extra], env)]
    if tf115_too:
      runs.insert(0, ("tf115", [oracle_python()], tf115_env))
    for side, command, side_env in runs:
      proc = subprocess.run(command + [os.path.join(LEGACY, script), out_flag,
                                       str(tmp_path / ("out_" + side) / script)] + args,
                            capture_output=True, text=True, env=side_env, timeout=600, cwd=str(tmp_path))
      assert proc.returncode == 0, (side, script, proc.stderr[-3000:])
      sides.setdefault(side, {})[script] = proc.stderr
  return sides


@requires_tf115
def test_a_legacy_run_prints_the_deprecations_tf115_printed_once_each(tmp_path):
  sides = _runs(tmp_path)
  for script, tf115_err in sides["tf115"].items():
    theirs = {symbol for symbol, _ in notices(tf115_err)}
    ours = notices(sides["tf1clip"][script])
    symbols = [symbol for symbol, _ in ours]
    assert len(symbols) == len(set(symbols)), (script, ours)  # once each, as TF 1.15's warn_once
    extra = set(symbols) - theirs - CALLED_ONLY_BY_TF221
    assert not extra, (script, extra, sides["tf1clip"][script])
    if script == "char_rnn_train.py":
      assert {"BasicLSTMCell", "MultiRNNCell", "Zeros"} <= set(symbols), ours
    else:
      assert {"dense", "build_tensor_info"} <= set(symbols), ours
      # what TensorFlow 2.21 adds and TF 1.15 never said: estimator's "Use tf.keras instead" on every class
      assert "RunConfig" not in set(symbols) and "Use tf.keras instead" not in sides["tf1clip"][script]


@requires_tf115
def test_verbose_keeps_every_notice_tensorflow_prints(tmp_path):
  sides = _runs(tmp_path, "--verbose", tf115_too=False, scripts=_SCRIPTS[1:])
  symbols = [symbol for symbol, _ in notices(sides["tf1clip"]["estimator_train.py"])]
  assert "RunConfig" in symbols and "StopAtStepHook" in symbols, symbols
  assert symbols.count("dense") == 2  # tf-keras warns at each call site

"""`tf1clip upgrade --stage 3`: TF1 Session programs -> TF2 eager, proven against their stage-2 copies.

Fixtures in tests/fixtures/upgrade_stage3/: mlp.py (TensorFlow-Examples' multilayer perceptron: placeholders,
tf.Variable + matmul, Adam's minimize, a feed_dict loop, ops built after the loop, `.eval`) with its golden
stage-3 copy mlp.stage3.py, and mlp_clip_saver.py (tf.layers.dense, compute_gradients ->
tf.clip_by_global_norm -> apply_gradients with a global step, Momentum, a Saver). Each runs twice: its
stage-2 copy under python recording the values its variables start from (tools.compare_init), its stage-3
copy under python from those values (TF1CLIP_INITIAL_VALUES); losses, weights and checkpoints are compared.

Tolerances (measured on these fixtures, TF 2.21 CPU): Keras' Momentum equals TF1's kernel to 2e-7
absolute after 20 steps; Keras' Adam rounds its bias correction differently (computed from the step count,
not accumulated in beta1_power / beta2_power): 4e-7 relative after one step, 3e-6 after 24 -- rtol 1e-4.

When stage 3's output changes on purpose, regenerate the golden file with
`python tests/test_upgrade_stage3.py --regenerate` and review the diff.
"""

import ast
import io
import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from tf1clip import cli
from tf1clip.tools import upgrade
from tf1clip.tools import upgrade_stage3

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(REPO, "tests", "fixtures", "upgrade_stage3")
CHAR_RNN = os.path.join(REPO, "examples", "legacy", "char_rnn_train.py")
ENV = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONHASHSEED="0")
# what a stage-3 program reports after running: the process never left TF2 behaviour
EAGER_PROBE = ("import runpy, sys; script = sys.argv.pop(1); sys.argv[0] = script; "
               "runpy.run_path(script, run_name='__main__'); import tensorflow as tf; "
               "print('executing_eagerly', tf.executing_eagerly())")


def _read(name):
  with open(os.path.join(FIXTURES, name)) as f:
    return f.read()


def _run(command, env=None):
  proc = subprocess.run(command, capture_output=True, text=True, env=env or ENV, check=False)
  assert proc.returncode == 0, proc.stderr[-3000:]
  return proc.stdout


def _numbers(stdout):
  """{"step 3": loss, "weight h1": array, ...} from the fixtures' printed lines."""
  found = {}
  for line in stdout.splitlines():
    step = re.match(r"step (\d+) loss (\S+)$", line)
    if step:
      found["step " + step.group(1)] = float(step.group(2))
    weight = re.match(r"weight (\S+) (.*)$", line)
    if weight:
      found["weight " + weight.group(1)] = np.array(ast.literal_eval(weight.group(2)))
  return found


def _stages(name, tmp_path, args=()):
  """Runs the stage-2 and stage-3 copies of a fixture from the same initial values; returns both outputs."""
  source = _read(name)
  stage2 = tmp_path / ("stage2_" + name)
  stage2.write_text(upgrade.upgrade_source(source, 2)[0])
  new_source, _, todos = upgrade_stage3.upgrade_source(source)
  assert not todos
  stage3 = tmp_path / ("stage3_" + name)
  stage3.write_text(new_source)
  values = str(tmp_path / "initial.npz")
  first = _run([sys.executable, "-m", "tf1clip.tools.compare_init", "python", "record", values, str(stage2)]
               + [a.replace("{side}", "stage2") for a in args])
  second = _run([sys.executable, "-c", EAGER_PROBE, str(stage3)] + [a.replace("{side}", "stage3") for a in args],
                env=dict(ENV, TF1CLIP_INITIAL_VALUES=values))
  return first, second, new_source


def test_mlp_stage3_matches_the_golden_file():
  assert upgrade_stage3.upgrade_source(_read("mlp.py"))[0] == _read("mlp.stage3.py")


def test_mlp_stage3_has_no_session_and_no_feed_dict():
  new_source = _read("mlp.stage3.py").split('"""', 2)[2]  # the code, after the module docstring
  assert "Session" not in new_source and "feed_dict" not in new_source and "sess." not in new_source
  assert "tf1clip.compat.v1" not in new_source  # the facade would switch the process to TF1 mode
  assert "import tensorflow.compat.v1 as tf" in new_source


def test_mlp_stage3_runs_eagerly_and_matches_stage2(tmp_path):
  first, second, _ = _stages("mlp.py", tmp_path)
  assert "executing_eagerly True" in second
  a, b = _numbers(first), _numbers(second)
  assert sorted(a) == sorted(b) and len([k for k in a if k.startswith("step")]) == 24
  for key in a:  # 24 Adam steps: see the module docstring for the tolerance
    np.testing.assert_allclose(b[key], a[key], rtol=1e-4, atol=1e-5, err_msg=key)
  accuracy = [line for line in first.splitlines() if line.startswith("Accuracy:")]
  assert accuracy and accuracy == [line for line in second.splitlines() if line.startswith("Accuracy:")]


def test_clip_saver_stage3_matches_stage2_checkpoint(tmp_path):
  from tf1clip.v2 import tf1_checkpoint  # pylint: disable=import-outside-toplevel
  first, second, new_source = _stages("mlp_clip_saver.py", tmp_path,
                                      ["--save_dir", str(tmp_path / "{side}"), "--steps", "20"])
  assert 'tf1clip.v2.clip_gradients_by_norm(optimizer, clip_norm, repeated_rows="as_listed")' in new_source
  assert "executing_eagerly True" in second
  a, b = _numbers(first), _numbers(second)
  assert len(a) == 20 and sorted(a) == sorted(b)
  for key in a:
    np.testing.assert_allclose(b[key], a[key], rtol=1e-6, err_msg=key)
  tf1 = tf1_checkpoint.tf1_values(str(tmp_path / "stage2" / "model.ckpt-20"))
  tf2 = tf1_checkpoint.tf1_values(str(tmp_path / "stage3" / "model.ckpt-20"))
  assert not tf1_checkpoint.is_tf1_checkpoint(str(tmp_path / "stage3" / "model.ckpt-20"))
  assert sorted(tf2) == ["dense/bias", "dense/kernel", "dense_1/bias", "dense_1/kernel", "global_step"]
  for name in tf2:
    np.testing.assert_allclose(tf2[name], tf1[name], rtol=1e-5, atol=1e-6, err_msg=name)
  assert tf2["global_step"] == 20


def test_stage3_restores_the_tf1_checkpoint_by_name(tmp_path):
  from tf1clip.v2 import tf1_checkpoint  # pylint: disable=import-outside-toplevel
  source = _read("mlp_clip_saver.py")
  stage2, stage3 = tmp_path / "stage2.py", tmp_path / "stage3.py"
  stage2.write_text(upgrade.upgrade_source(source, 2)[0])
  stage3.write_text(upgrade_stage3.upgrade_source(source)[0])
  _run([sys.executable, str(stage2), "--save_dir", str(tmp_path / "tf1"), "--steps", "3"])
  out = _run([sys.executable, str(stage3), "--save_dir", str(tmp_path / "tf2"), "--steps", "0",
              "--init_from", str(tmp_path / "tf1" / "model.ckpt-3")])
  assert "global_step 3" in out
  tf1 = tf1_checkpoint.tf1_values(str(tmp_path / "tf1" / "model.ckpt-3"))
  tf2 = tf1_checkpoint.tf1_values(str(tmp_path / "tf2" / "model.ckpt-3"))
  for name in tf2:
    np.testing.assert_array_equal(tf2[name], tf1[name], err_msg=name)
  # the other way: the stage-3 values as a name-based checkpoint a TF1 Saver restores
  back = str(tmp_path / "back" / "model.ckpt")
  os.makedirs(os.path.dirname(back))
  tf1_checkpoint.write_tf1_checkpoint(dict(tf1, **tf2), back)
  assert tf1_checkpoint.is_tf1_checkpoint(back)
  out = _run([sys.executable, str(stage2), "--save_dir", str(tmp_path / "again"), "--steps", "0",
              "--init_from", back])
  assert "global_step 3" in out


def test_char_rnn_gets_the_todo_list_exit_1_and_nothing_written(tmp_path, capsys):
  out = tmp_path / "out"
  assert cli.main(["upgrade", CHAR_RNN, "--out", str(out) + "/", "--stage", "3"]) == 1
  text = capsys.readouterr().out
  todos = re.findall(r"char_rnn_train\.py:(\d+): TODO: (.*)", text)
  lines = {int(line) for line, _ in todos}
  assert {99, 100, 112, 114, 124} <= lines, text  # Session in main(), summaries, lr assign, state, fetches
  assert "nothing written" in text
  assert not out.exists()


@pytest.mark.parametrize("snippet, expected", [
    ("x = tf.placeholder(tf.float32, [None])\nwith tf.Session() as sess:\n  feed = {x: [1.0]}\n"
     "  print(sess.run(x, feed_dict=feed))\n", "not a dict literal"),
    ("x = tf.placeholder(tf.float32, [None])\nwith tf.Session() as sess:\n  for i in range(2):\n"
     "    y = tf.square(x)\n    print(sess.run(y, {x: [1.0]}))\n", "builds graph ops inside"),
    ("x = tf.placeholder(tf.float32, [None])\nsess = tf.Session()\nprint(sess.run(x, {x: [1.0]}))\n",
     "at module level"),
    ("x = tf.Variable(1.0)\ntf.summary.scalar('x', x)\nwith tf.Session() as sess:\n  sess.run(x)\n",
     "summaries"),
    ("x = tf.Variable(1.0)\nopt = tf.train.GradientDescentOptimizer(0.1)\ng = opt.compute_gradients(x * x)\n"
     "g[0] = (g[0][0] * 2, g[0][1])\ntrain = opt.apply_gradients(g)\nwith tf.Session() as sess:\n"
     "  sess.run(train)\n", "hand-written gradient code"),
])
def test_what_stage3_cannot_convert_is_a_todo_with_its_line(snippet, expected):
  source = "import tensorflow as tf\n" + textwrap.dedent(snippet)
  _, _, todos = upgrade_stage3.upgrade_source(source)
  assert any(expected in t.what for t in todos), todos
  assert all(1 <= t.line <= len(source.splitlines()) for t in todos), todos


def test_stage_5_is_a_usage_error(tmp_path, capsys):
  with pytest.raises(SystemExit) as e:
    cli.main(["upgrade", os.path.join(FIXTURES, "mlp.py"), "--out", str(tmp_path / "x.py"), "--stage", "5"])
  assert e.value.code == 2
  assert "invalid choice" in capsys.readouterr().err


def test_cli_stage3_check_run_compares_from_the_same_initial_weights(tmp_path):
  out = io.StringIO()
  from tf1clip.tools import upgrade_cli  # pylint: disable=import-outside-toplevel
  status = upgrade_cli.main(os.path.join(FIXTURES, "mlp_clip_saver.py"), str(tmp_path / "out.py"), stage=3,
                            check_run_cmd="--save_dir {tmp} --steps 5", out=out)
  assert status == 0, out.getvalue()
  assert "check-run: 5 variables agree" in out.getvalue()


if __name__ == "__main__" and sys.argv[1:] == ["--regenerate"]:
  with open(os.path.join(FIXTURES, "mlp.stage3.py"), "w") as f:
    f.write(upgrade_stage3.upgrade_source(_read("mlp.py"))[0])

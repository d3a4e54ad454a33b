"""The parity harness: check_parity's report and the `tf1clip parity` command line."""

import os
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf

import tf1clip.v2
from tf1clip.v2 import parity
from tf1clip.v2 import parity_models


def test_report_has_one_row_per_update_and_one_column_per_variable():
  report = tf1clip.v2.check_parity("adam", steps=3, micro_batches=2, clip_norm=1.0)
  assert report.differences.shape == (3, 4)
  assert report.variable_names == ["w1", "b1", "w2", "b2"]
  assert report.optimizer == "AdamOptimizer" and report.keras_optimizer == "Adam"
  assert report.passed and report.max_difference <= 1e-5
  text = report.format()
  assert "PASS" in text and all(name in text for name in report.variable_names)
  assert len([l for l in text.splitlines() if l.strip()[:1].isdigit()]) == 3
  # The weights moved: the comparison is not between two untouched copies.
  init = parity_models.mlp().initial_values
  assert not np.allclose(report.tf2_weights["w1"], init["w1"])


def test_report_fails_over_the_tolerance():
  report = tf1clip.v2.check_parity("adam", steps=2, tolerance=0.0, atol=0.0)
  assert report.max_difference > 0.0  # float32 rounding of the beta powers differs
  assert not report.passed and "FAIL" in report.format()


def test_both_worlds_start_from_the_same_seeded_values():
  a, b = parity_models.lstm(seed=3), parity_models.lstm(seed=3)
  for name in a.initial_values:
    np.testing.assert_array_equal(a.initial_values[name], b.initial_values[name])
  np.testing.assert_array_equal(a.make_batch(5, 4)["inputs"], b.make_batch(5, 4)["inputs"])
  assert not np.array_equal(a.initial_values["kernel"],
                            parity_models.lstm(seed=4).initial_values["kernel"])


def test_parity_lstm_is_the_graphs_lstm_classifier():
  from graphs import lstm_classifier  # pylint: disable=g-import-not-at-top
  model = parity_models.lstm(seed=0)
  batch = model.make_batch(0, 6)
  with tf.Graph().as_default():
    ref = lstm_classifier.build(num_steps=5, input_size=4, hidden_size=8, num_classes=3)
    assigns = [v.assign(model.initial_values[name])
               for v, name in zip(ref.variables, model.initial_values)]
    with tf.compat.v1.Session() as sess:
      sess.run(tf.compat.v1.global_variables_initializer())
      sess.run(assigns)
      expected = sess.run(ref.loss, {ref.placeholders[k]: v for k, v in batch.items()})
  params = {k: tf.constant(v) for k, v in model.initial_values.items()}
  got = model.loss_fn(params, {k: tf.constant(v) for k, v in batch.items()})
  np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)


def test_relative_difference_is_scaled_by_the_variable():
  assert parity.relative_difference(np.zeros(3), np.zeros(3)) == 0.0
  assert parity.relative_difference([100.0, 1.0], [100.0, 1.001]) == pytest.approx(1e-5)
  assert parity.relative_difference([0.0], [1e-3]) == pytest.approx(1.0)


def test_bad_arguments_name_themselves():
  with pytest.raises(ValueError, match="optimizer must be one of"):
    tf1clip.v2.check_parity("lamb")
  with pytest.raises(ValueError, match="model must be one of"):
    tf1clip.v2.check_parity("sgd", model="resnet")
  with pytest.raises(ValueError, match="steps"):
    tf1clip.v2.check_parity("sgd", steps=0)
  with pytest.raises(ValueError, match="atol must be a finite number >= 0; got -1"):
    tf1clip.v2.check_parity("sgd", atol=-1)
  with pytest.raises(ValueError, match="clip_norm must be a finite number > 0; got inf"):
    tf1clip.v2.check_parity("sgd", clip_norm=float("inf"))


def test_tolerance_ratio_is_numpys_allclose():
  rng = np.random.default_rng(0)
  for _ in range(20):
    b = rng.normal(0, 1, 5) * 10.0 ** rng.integers(-4, 3)
    a = b + rng.normal(0, 1e-5, 5)
    atol, rtol = 10.0 ** rng.integers(-7, -3), 10.0 ** rng.integers(-7, -3)
    ratio = parity.tolerance_ratio(a, b, atol, rtol)
    assert (ratio <= 1.0) == np.allclose(a, b, rtol=rtol, atol=atol)
  # The case: 1.2e-6 off on a bias of 0.0057 is 2e-4 relative, yet within atol 1e-5.
  assert parity.tolerance_ratio([0.0057012], [0.0057], 1e-5, 1e-5) < 1.0
  assert parity.relative_difference([0.0057012], [0.0057]) > 1e-4
  assert parity.tolerance_ratio([1.0], [1.0], 0.0, 0.0) == 0.0
  assert parity.tolerance_ratio([1.0 + 1e-9], [1.0], 0.0, 0.0) == float("inf")


def test_lstm_adam_passes_over_150_steps():
  steps = []
  report = tf1clip.v2.check_parity("adam", steps=150, model="lstm",
                                   progress=lambda world, s, n: steps.append((world, s, n)))
  assert report.passed, report.format()
  assert report.atol == 1e-5 and report.rtol == 1e-5
  # What the old metric failed on: a relative error > 1e-5 on a near-zero bias.
  assert report.max_difference > 1e-5 and report.max_abs_difference < 1e-5
  assert steps[0] == ("TF1", 1, 150) and steps[-1] == ("TF2", 150, 150) and len(steps) == 300
  assert "atol=1.0e-05 rtol=1.0e-05" in report.format()


def test_lazy_sparse_momentum_fails_naming_variable_step_and_cause():
  report = tf1clip.v2.check_parity("momentum", steps=3, model="embedding")
  assert not report.passed
  name, step, why = report.failures()[0]
  assert (name, step) == ("embedding", 2)  # step 1 touches rows with zero slots: equal
  assert report.sparse == {"embedding": True, "w": False, "b": False}
  assert "TF1 updates only the rows present" in why
  text = report.format()
  assert "FAIL: embedding first exceeded the tolerance at step 2 (sparse gradient)" in text
  for other, _, other_why in report.failures()[1:]:
    assert other_why.startswith("follows from embedding"), (other, other_why)


def test_dense_momentum_passes_where_sparse_fails():
  assert tf1clip.v2.check_parity("momentum", steps=3, model="mlp").passed


@pytest.mark.parametrize("flag,value,message", [
    ("--tolerance", "-1", "argument --tolerance/--rtol: a tolerance must be at least 0; got '-1'"),
    ("--atol", "nan", "argument --atol: a tolerance must be a finite number; got 'nan'"),
    ("--learning_rate", "-1", "--learning_rate must be a finite number > 0; got -1.0"),
    ("--clip_norm", "inf", "--clip_norm must be a finite number > 0; got inf"),
    ("--steps", "0", "argument --steps: a count must be >= 1; got '0'"),
])
def test_bad_flags_exit_2_naming_the_flag(capsys, flag, value, message):
  assert parity.main([flag, value]) == 2
  assert message in capsys.readouterr().err


_USER_MODEL = """
import numpy as np
import tensorflow as tf
from tf1clip.v2 import parity_models

def parity_model(seed=0):
  rng = np.random.default_rng(seed)
  def loss_fn(p, batch):
    return tf.reduce_mean(tf.square(tf.matmul(batch["x"], p["w"]) - batch["y"]))
  def make_batch(batch_seed, batch_size):
    r = np.random.default_rng([seed, batch_seed])
    x = r.standard_normal((batch_size, 3)).astype(np.float32)
    return {"x": x, "y": x.sum(axis=1, keepdims=True).astype(np.float32)}
  return parity_models.ParityModel(
      "linear", {"w": rng.normal(0, 1, (3, 1))},
      {"x": (tf.float32, [None, 3]), "y": (tf.float32, [None, 1])}, loss_fn, make_batch)

def broken(seed=0):
  return object()
"""


def test_model_from_a_user_module(tmp_path, capsys):
  path = tmp_path / "my_models.py"
  path.write_text(_USER_MODEL)
  assert parity.main(["--model", str(path), "--optimizer", "sgd", "--steps", "2",
                      "--quiet"]) == 0
  out = capsys.readouterr().out
  assert "on model 'linear'" in out and "PASS" in out
  report = tf1clip.v2.check_parity("adam", steps=2, model=str(path))
  assert report.variable_names == ["w"] and report.tf1_weights["w"].dtype == np.float32
  with pytest.raises(ValueError, match="lacks name, initial_values"):
    parity_models.load(str(path) + ":broken")
  with pytest.raises(ValueError, match="has no function 'nope'"):
    parity_models.load(str(path) + ":nope")
  with pytest.raises(ValueError, match="no such file"):
    parity_models.load(str(tmp_path / "missing.py"))


def test_parity_main_prints_the_table_and_exits_by_the_tolerance(capsys):
  assert parity.main(["--optimizer", "sgd", "--steps", "2", "--clip_norm", "0.5"]) == 0
  out = capsys.readouterr().out
  assert "GradientDescentOptimizer" in out and "PASS" in out
  assert parity.main(["--optimizer", "adam", "--steps", "2", "--tolerance", "0",
                      "--atol", "0"]) == 1
  assert "FAIL" in capsys.readouterr().out
  assert parity.main(["--optimizer", "nope"]) == 2


def test_tf1clip_parity_command_runs_end_to_end():
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
  env.pop("TF_USE_LEGACY_KERAS", None)
  proc = subprocess.run(
      [sys.executable, "-m", "tf1clip", "parity", "--optimizer", "momentum", "--steps", "3",
       "--micro_batches", "2", "--clip_norm", "1.0", "--model", "lstm"],
      capture_output=True, text=True, env=env, timeout=240, check=False)
  assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
  assert "PASS" in proc.stdout and "kernel" in proc.stdout


def test_tf1clip_parity_command_exits_1_over_the_tolerance():
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
  env.pop("TF_USE_LEGACY_KERAS", None)
  proc = subprocess.run(
      [sys.executable, "-m", "tf1clip", "parity", "--optimizer", "adam", "--steps", "2",
       "--tolerance", "1e-12", "--atol", "0"],
      capture_output=True, text=True, env=env, timeout=240, check=False)
  assert proc.returncode == 1, proc.stdout + proc.stderr[-3000:]
  assert "FAIL" in proc.stdout

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
  report = tf1clip.v2.check_parity("adam", steps=2, tolerance=0.0)
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


def test_parity_main_prints_the_table_and_exits_by_the_tolerance(capsys):
  assert parity.main(["--optimizer", "sgd", "--steps", "2", "--clip_norm", "0.5"]) == 0
  out = capsys.readouterr().out
  assert "GradientDescentOptimizer" in out and "PASS" in out
  assert parity.main(["--optimizer", "adam", "--steps", "2", "--tolerance", "0"]) == 1
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
       "--tolerance", "1e-12"],
      capture_output=True, text=True, env=env, timeout=240, check=False)
  assert proc.returncode == 1, proc.stdout + proc.stderr[-3000:]
  assert "FAIL" in proc.stdout

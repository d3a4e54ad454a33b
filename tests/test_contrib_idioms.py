"""`tf1clip run` on a TF 1.x script that uses one everyday tf.contrib / NumPy 1.x idiom per block.

One subprocess (TensorFlow's start costs seconds) runs tests/fixtures/legacy/contrib_idioms.py; each
test below checks one idiom's printed result against a numpy reference.
"""

import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "legacy")


@pytest.fixture(scope="module")
def result(tmp_path_factory):
  workdir = str(tmp_path_factory.mktemp("idioms"))
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
  env.pop("TF_USE_LEGACY_KERAS", None)  # as in a user's shell: the runner sets it
  proc = subprocess.run([sys.executable, "-m", "tf1clip", "run", "contrib_idioms.py", workdir],
                        cwd=FIXTURES, capture_output=True, text=True, env=env, timeout=600)
  assert proc.returncode == 0, proc.stderr[-4000:]
  lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
  assert len(lines) == 1, proc.stdout
  return json.loads(lines[0][len("RESULT "):])


def test_numpy_1x_aliases_are_back_with_one_warning_each(result):
  assert result["np_dtypes"] == ["i", "i", "f", "b", "O", "str", "str"]
  assert result["np_asscalar"] == 7 and result["np_rank"] == 2
  # np.int was used twice, and warned once; np.bool and np.long exist again in NumPy 2.
  assert result["np_warnings"] == ["np.asscalar", "np.float", "np.int", "np.object", "np.rank",
                                   "np.str", "np.unicode"]


def test_int_of_a_one_element_array_still_works_with_a_warning(result):
  assert result["sampled_index"] == int(np.searchsorted(np.cumsum([0.2, 0.3, 0.5]), 0.6))
  assert result["int_of_array_warned"]


def _conv_same(image, kernel):
  padded = np.pad(image, 1)
  return np.array([[np.sum(padded[y:y + 3, x:x + 3] * kernel) for x in range(image.shape[1])]
                   for y in range(image.shape[0])])


def test_contrib_layers_conv2d_under_framework_arg_scope(result):
  expected = _conv_same(np.ones((4, 4)), np.full((3, 3), 0.1)) - 0.5  # arg_scope: no ReLU, bias -0.5
  np.testing.assert_allclose(result["conv"], expected, atol=1e-6)
  assert result["conv_vars"] == ["conv1/biases", "conv1/weights"]
  assert result["slim_is_contrib_layers"]


def test_contrib_layers_pooling_dropout_one_hot_stack_repeat(result):
  conv = np.array(result["conv"])
  np.testing.assert_allclose(result["pool"], conv.reshape(2, 2, 2, 2).max(axis=(1, 3)), atol=1e-6)
  assert result["dropout_eval_is_identity"]
  assert result["bn_shape"] == [1, 4, 4, 1]
  assert result["one_hot"] == np.eye(3)[[0, 2]].tolist()
  assert result["stack_vars"] == ["mlp/mlp_1/biases", "mlp/mlp_1/weights", "mlp/mlp_2/biases",
                                  "mlp/mlp_2/weights"]
  assert result["stack_shape"] == [2, 2]
  assert result["repeat_vars"] == ["rep/rep_1/biases", "rep/rep_1/weights", "rep/rep_2/biases",
                                   "rep/rep_2/weights"]
  assert result["repeat_shape"] == [1, 4, 4, 1]
  params = np.array([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]])
  assert result["embedding_lookup_unique"] == params[[[2, 0], [2, 2]]].tolist()
  assert result["summaries"] == ["net"]


def test_contrib_metrics_and_losses(result):
  assert result["streaming_mean"] == pytest.approx(np.mean([1.0, 2.0, 3.0, 6.0]))
  assert result["streaming_accuracy"] == pytest.approx(2 / 3)
  assert result["mse"] == pytest.approx(np.mean(np.square([1.0, 3.0])))


def test_contrib_distributions_and_bijectors(result):
  normal = lambda x, s: -0.5 * (x / s) ** 2 - math.log(s) - 0.5 * math.log(2 * math.pi)
  assert result["normal_log_prob"] == pytest.approx(normal(0.5, 1.0), rel=1e-6)
  assert result["mvn_log_prob"] == pytest.approx(normal(1.0, 1.0) + normal(1.0, 2.0), rel=1e-6)
  assert result["exp_forward"] == pytest.approx(math.e, rel=1e-6)


def test_contrib_image_signal_util(result):
  square = np.arange(9.0).reshape(3, 3)
  assert result["rotated"] == np.rot90(square).tolist()
  shifted = np.zeros_like(square)
  shifted[:, 1:] = square[:, :2]
  assert result["translated"] == shifted.tolist()
  assert result["frames"] == [list(range(i, i + 4)) for i in (0, 3, 6)]
  assert result["tensor_proto_shape"] == [3]
  assert result["constant_value"] == [4, 5]


def test_contrib_summary_writes_the_scalar_event(result):
  assert result["events"] == [["loss", 0.25, 0]]


def test_contrib_framework_checkpoint_helpers(result):
  assert result["restored"] == [3.0, 4.0]
  assert result["list_variables"] == [["restore_me", [2]]]
  assert result["load_variable"] == [3.0, 4.0]
  assert "local_w" in result["local_variable"]
  assert result["nest"] == [1, 2, 3]


def test_a_name_nobody_provides_fails_by_name_with_the_replacement(result):
  assert result["unsupported"] == (
      "tf.contrib.tpu.keras_to_tpu_model is not provided by tf1clip; use instead: "
      "tf.distribute.TPUStrategy with Keras")

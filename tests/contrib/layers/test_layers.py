"""tf.contrib.layers: TF1's variable names, initializer numbers, regularizer values and layer outputs.

fully_connected, flatten, layer_norm, the initializers and regularizers are tf-slim's objects (TF 1.15's
contrib.layers moved out), so the errors below are TF 1.15's own words; tests/oracle/ runs the same calls
on TF 1.15 itself.
"""

import math

import hypothesis
import hypothesis.strategies as st
import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib import catalog
from tf1clip.contrib import framework
from tf1clip.contrib import layers

V1 = tf.compat.v1
# contrib's truncated-normal stddev sqrt(1.3 f / n) over core TF's sqrt(f / n) / 0.87962566...
CONTRIB_OVER_CORE_STDDEV = math.sqrt(1.3) * 0.87962566103423978


def _names(variables):
  return [v.op.name for v in variables]


def _var(name):
  (var,) = [v for v in V1.global_variables() if v.op.name == name]
  return var


def _init_and_run(sess, fetches, feed=None):
  sess.run(V1.global_variables_initializer())
  return sess.run(fetches, feed)


# --- fully_connected -------------------------------------------------------------------------------

def test_fully_connected_names_variables_like_tf1_checkpoints(graph):
  x = V1.placeholder(tf.float32, [None, 4])
  layers.fully_connected(x, 3)
  layers.fully_connected(x, 3)
  layers.fully_connected(x, 2, scope="fc")
  assert _names(V1.global_variables()) == [
      "fully_connected/weights", "fully_connected/biases",
      "fully_connected_1/weights", "fully_connected_1/biases", "fc/weights", "fc/biases"]
  assert _names(framework.get_model_variables()) == _names(V1.global_variables())
  assert _names(V1.trainable_variables()) == _names(V1.global_variables())


def test_fully_connected_with_normalizer_has_no_biases_and_normalizes(graph):
  x = V1.placeholder(tf.float32, [None, 4])
  layers.fully_connected(x, 3, normalizer_fn=layers.layer_norm, scope="fc",
                         variables_collections={"weights": ["my_weights"]})
  assert _names(V1.global_variables()) == ["fc/weights", "fc/LayerNorm/beta", "fc/LayerNorm/gamma"]
  assert _names(V1.get_collection("my_weights")) == ["fc/weights"]


def test_fully_connected_computes_activation_of_affine_map(sess):
  rng = np.random.RandomState(0)
  x_val = rng.randn(5, 4).astype(np.float32)
  x = tf.constant(x_val)
  y = layers.fully_connected(x, 3, biases_initializer=V1.constant_initializer(0.5), scope="fc")
  y_linear = layers.fully_connected(x, 3, activation_fn=None, reuse=True, scope="fc")
  got, got_linear, w = _init_and_run(sess, [y, y_linear, _var("fc/weights")])
  np.testing.assert_allclose(got_linear, x_val @ w + 0.5, rtol=1e-5, atol=1e-6)
  np.testing.assert_allclose(got, np.maximum(x_val @ w + 0.5, 0.0), rtol=1e-5, atol=1e-6)
  assert len(V1.global_variables()) == 2  # reuse=True shared them


def test_fully_connected_multiplies_the_last_dimension_of_rank3_inputs(sess):
  x_val = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 10.0
  y = layers.fully_connected(tf.constant(x_val), 5, activation_fn=None, scope="fc")
  assert y.shape.as_list() == [2, 3, 5]
  got, w, b = _init_and_run(sess, [y, _var("fc/weights"), _var("fc/biases")])
  np.testing.assert_allclose(got, x_val @ w + b, rtol=1e-5, atol=1e-6)


def test_fully_connected_rejects_bad_arguments(graph):
  with pytest.raises(ValueError, match="num_outputs type should be one of"):
    layers.fully_connected(tf.zeros([2, 3]), 2.0)
  with pytest.raises(ValueError, match="last dimension of the inputs to `Dense` should be defined"):
    layers.fully_connected(V1.placeholder(tf.float32, [2, None]), 2)


def test_regularizers_of_fully_connected_go_to_regularization_losses(sess):
  x = tf.ones([2, 3])
  layers.fully_connected(x, 2, weights_regularizer=layers.l2_regularizer(0.5), scope="fc")
  (loss,) = V1.get_collection(V1.GraphKeys.REGULARIZATION_LOSSES)
  got, w = _init_and_run(sess, [loss, _var("fc/weights")])
  np.testing.assert_allclose(got, 0.5 * np.sum(w ** 2) / 2, rtol=1e-6)


# --- layer_norm, flatten, embed_sequence ----------------------------------------------------------

@pytest.mark.parametrize("begin_norm_axis,begin_params_axis", [(1, -1), (-1, -1), (2, 1)])
def test_layer_norm_matches_numpy_and_tf1_names(sess, begin_norm_axis, begin_params_axis):
  x_val = np.random.RandomState(1).randn(2, 3, 4).astype(np.float32)
  y = layers.layer_norm(tf.constant(x_val), begin_norm_axis=begin_norm_axis,
                        begin_params_axis=begin_params_axis)
  assert _names(V1.global_variables()) == ["LayerNorm/beta", "LayerNorm/gamma"]
  beta, gamma = V1.global_variables()
  sess.run(V1.global_variables_initializer())
  rng = np.random.RandomState(2)
  beta.load(rng.randn(*beta.shape.as_list()).astype(np.float32), sess)
  gamma.load(rng.randn(*gamma.shape.as_list()).astype(np.float32), sess)
  got, b, g = sess.run([y, beta, gamma])
  axes = tuple(range(begin_norm_axis % 3, 3))
  mean = x_val.mean(axis=axes, keepdims=True)
  var = x_val.var(axis=axes, keepdims=True)
  np.testing.assert_allclose(got, (x_val - mean) / np.sqrt(var + 1e-12) * g + b, rtol=1e-4,
                             atol=1e-5)


def test_layer_norm_rejects_unknown_rank_and_bad_axes(graph):
  with pytest.raises(ValueError, match="has undefined rank"):
    layers.layer_norm(V1.placeholder(tf.float32))
  with pytest.raises(ValueError, match=r"must be < rank\(inputs\) \(2\)"):
    layers.layer_norm(tf.zeros([2, 3]), begin_norm_axis=2)


def test_flatten_keeps_the_batch_dimension(sess):
  assert layers.flatten(tf.zeros([2, 3, 4, 5])).shape.as_list() == [2, 60]
  assert layers.flatten(tf.zeros([7])).shape.as_list() == [7, 1]
  x = V1.placeholder(tf.float32, [None, 3, 4])
  y = layers.flatten(x)
  assert y.shape.as_list() == [None, 12]
  x_val = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
  np.testing.assert_array_equal(sess.run(y, {x: x_val}), x_val.reshape(2, 12))
  # TF 1.15 accepts an input of unknown rank (the shape is then unknown too).
  assert layers.flatten(V1.placeholder(tf.float32)).shape.as_list() == [None, None]


def test_embed_sequence_looks_up_rows_and_keeps_gradients_sparse(sess):
  ids = tf.constant([[1, 2, 2], [0, 3, 1]])
  embedded = layers.embed_sequence(ids, vocab_size=5, embed_dim=4)
  embedded_unique = layers.embed_sequence(ids, unique=True, scope="EmbedSequence", reuse=True)
  assert _names(V1.global_variables()) == ["EmbedSequence/embeddings"]
  assert embedded.shape.as_list() == embedded_unique.shape.as_list() == [2, 3, 4]
  (table,) = V1.global_variables()
  grad = tf.gradients(tf.reduce_sum(embedded), table)[0]
  assert isinstance(grad, tf.IndexedSlices)
  got, got_unique, table_val = _init_and_run(sess, [embedded, embedded_unique, table])
  np.testing.assert_array_equal(got, table_val[[[1, 2, 2], [0, 3, 1]]])
  np.testing.assert_array_equal(got_unique, got)
  with pytest.raises(ValueError, match="needs vocab_size and embed_dim"):
    layers.embed_sequence(ids, vocab_size=5)


# --- initializers ----------------------------------------------------------------------------------

def _draw(initializer, shape, graph_seed=7):
  with tf.Graph().as_default():
    V1.set_random_seed(graph_seed)
    value = initializer(shape, dtype=tf.float32)
    with V1.Session() as s:
      return s.run(value)


def _fans(shape):
  receptive = float(np.prod(shape[:-2])) if len(shape) > 2 else 1.0
  fan_in = shape[-2] if len(shape) > 1 else shape[-1]
  return fan_in * receptive, shape[-1] * receptive


@pytest.mark.parametrize("shape", [[20, 30], [3, 3, 4, 8]])
def test_xavier_uniform_draws_exactly_glorot_uniforms_numbers(shape):
  np.testing.assert_array_equal(
      _draw(layers.xavier_initializer(seed=3), shape),
      _draw(V1.glorot_uniform_initializer(seed=3), shape))


def test_variance_scaling_default_is_contribs_truncated_normal_not_cores():
  shape = [50, 40]
  contrib_draw = _draw(layers.variance_scaling_initializer(seed=5), shape)
  same_op = _draw(lambda s, dtype: tf.random.truncated_normal(
      s, 0.0, math.sqrt(1.3 * 2.0 / 50), dtype, seed=5), shape)
  core = _draw(V1.variance_scaling_initializer(2.0, "fan_in", "truncated_normal", seed=5), shape)
  np.testing.assert_array_equal(contrib_draw, same_op)
  np.testing.assert_allclose(contrib_draw, core * CONTRIB_OVER_CORE_STDDEV, rtol=1e-5, atol=1e-7)


@hypothesis.given(
    shape=st.lists(st.integers(1, 6), min_size=1, max_size=4),
    mode=st.sampled_from(["FAN_IN", "FAN_OUT", "FAN_AVG"]),
    factor=st.floats(0.1, 4.0),
    uniform=st.booleans())
def test_variance_scaling_uses_contribs_fans_and_constants(shape, mode, factor, uniform):
  fan_in, fan_out = _fans(shape)
  n = {"FAN_IN": fan_in, "FAN_OUT": fan_out, "FAN_AVG": (fan_in + fan_out) / 2}[mode]
  if uniform:
    limit = math.sqrt(3 * factor / n)
    reference = lambda s, dtype: tf.random.uniform(s, -limit, limit, dtype, seed=11)
  else:
    reference = lambda s, dtype: tf.random.truncated_normal(
        s, 0.0, math.sqrt(1.3 * factor / n), dtype, seed=11)
  got = _draw(layers.variance_scaling_initializer(factor, mode, uniform, seed=11), shape)
  np.testing.assert_array_equal(got, _draw(reference, shape))


def test_initializers_reject_bad_mode_and_dtype():
  with pytest.raises(TypeError, match=r"Unknown mode fan_in \[FAN_IN, FAN_OUT, FAN_AVG\]"):
    layers.variance_scaling_initializer(mode="fan_in")
  with pytest.raises(TypeError, match="non-floating point type"):
    layers.xavier_initializer(dtype=tf.int32)


def test_initializer_plugs_into_get_variable(sess):
  var = V1.get_variable("w", [30, 20], initializer=layers.xavier_initializer(seed=1))
  value = _init_and_run(sess, var)
  limit = math.sqrt(6.0 / 50)
  assert np.all(np.abs(value) <= limit) and value.std() > limit / 4


# --- regularizers ----------------------------------------------------------------------------------

def test_l1_and_l2_regularizers_compute_contribs_formulas(sess):
  w_val = np.array([[1.0, -2.0], [3.0, -4.0]], np.float32)
  w = tf.constant(w_val)
  l1 = layers.l1_regularizer(0.5)(w)
  l2 = layers.l2_regularizer(0.5)(w)
  l1_l2 = layers.l1_l2_regularizer(0.5, 0.25)(w)
  got = sess.run([l1, l2, l1_l2])
  np.testing.assert_allclose(got, [0.5 * 10.0, 0.5 * 30.0 / 2, 0.5 * 10.0 + 0.25 * 30.0 / 2])
  assert l1.op.name == "l1_regularizer" and l2.op.name == "l2_regularizer"


@pytest.mark.parametrize("make", [layers.l1_regularizer, layers.l2_regularizer])
def test_regularizer_scales_contrib_rejects_or_disables(graph, make):
  assert make(0.0)(tf.ones([2])) is None
  with pytest.raises(ValueError, match="scale cannot be an integer: 1"):
    make(1)
  with pytest.raises(ValueError, match="less than 0"):
    make(-0.1)


def test_apply_regularization_sums_penalties_into_the_collection(sess):
  weights = [tf.constant([1.0, -2.0]), tf.constant([[3.0]])]
  total = layers.apply_regularization(layers.l1_regularizer(0.1), weights)
  assert V1.get_collection(V1.GraphKeys.REGULARIZATION_LOSSES) == [total]
  np.testing.assert_allclose(sess.run(total), 0.1 * 6.0, rtol=1e-6)
  assert sess.run(layers.apply_regularization(layers.l2_regularizer(0.0), weights)) == 0.0
  V1.add_to_collection(V1.GraphKeys.WEIGHTS, tf.constant([2.0]))
  np.testing.assert_allclose(sess.run(layers.apply_regularization(layers.l1_regularizer(1.0))),
                             2.0)


def test_apply_regularization_rejects_missing_weights_and_non_scalars(graph):
  with pytest.raises(ValueError, match="No weights to regularize"):
    layers.apply_regularization(layers.l1_regularizer(0.1))
  with pytest.raises(ValueError, match="must return a scalar Tensor"):
    layers.apply_regularization(tf.abs, [tf.constant([1.0, 2.0])])


def test_layers_module_reports_what_it_lacks(graph):
  with pytest.raises(catalog.ContribNotProvidedError,
                     match=r"tf\.contrib\.layers\.conv_no_such_layer .*tf\.compat\.v1\.layers"):
    layers.conv_no_such_layer  # pylint: disable=pointless-statement

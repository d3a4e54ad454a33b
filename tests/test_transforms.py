"""Gradient transforms (tf1clip.transforms): composition, clipping, multipliers, noise, freezing, finiteness."""

import hypothesis
import hypothesis.strategies as st
import numpy as np
import pytest
import tensorflow as tf

from tf1clip import transforms


def _pairs():
  """Three variables and gradients: dense, sparse (IndexedSlices with a duplicate index), None."""
  w = tf.Variable(np.ones((2, 3), np.float32), name="dense/w")
  e = tf.Variable(np.ones((5, 2), np.float32), name="embed/e")
  b = tf.Variable(np.zeros(3, np.float32), name="unused/b")
  g_w = tf.constant([[3.0, -4.0, 0.5], [1.0, 2.0, -2.0]])
  g_e = tf.IndexedSlices(tf.constant([[1.0, 2.0], [3.0, -6.0], [0.5, 0.5]]),
                         tf.constant([0, 3, 3]), tf.constant([5, 2]))
  return [(g_w, w), (g_e, e), (None, b)]


def _dense(g):
  return tf.convert_to_tensor(g) if not isinstance(g, tf.IndexedSlices) else (
      tf.math.unsorted_segment_sum(g.values, g.indices, g.dense_shape[0]))


def _np(g):
  return None if g is None else _dense(g).numpy()


def test_chain_applies_transforms_in_order():
  v = tf.Variable([1.0, 2.0])
  double = lambda gv: [(g * 2.0, var) for g, var in gv]
  plus_one = lambda gv: [(g + 1.0, var) for g, var in gv]
  g = tf.constant([1.0, -3.0])
  (first_double, _), = transforms.chain(double, plus_one)([(g, v)])
  (first_plus, _), = transforms.chain(plus_one, double)([(g, v)])
  np.testing.assert_allclose(first_double, g.numpy() * 2 + 1)
  np.testing.assert_allclose(first_plus, (g.numpy() + 1) * 2)


def test_chain_rejects_something_not_callable():
  with pytest.raises(TypeError, match="argument 1 is a float"):
    transforms.chain(transforms.clip_by_norm(1.0), 5.0)


def test_transform_dropping_a_pair_is_named_in_the_error():
  def drop_last(gv):
    return gv[:-1]
  with pytest.raises(ValueError, match=r"drop_last returned 2 .* for 3 given"):
    transforms.chain(drop_last)(_pairs())


def test_transform_swapping_variables_is_named_by_repr_when_it_has_no_name():
  class Swapper:
    def __call__(self, gv):
      return list(reversed(gv))

    def __repr__(self):
      return "<the Swapper>"
  with pytest.raises(ValueError, match="<the Swapper> changed the variable at position 0"):
    transforms.check_transform_result(Swapper(), _pairs(), Swapper()(_pairs()))


def test_transform_returning_none_is_named_in_the_error():
  def forgot_return(gv):
    del gv
  with pytest.raises(ValueError, match="forgot_return returned None"):
    transforms.chain(forgot_return)(_pairs())


def test_users_own_capper_plugs_into_chain():
  def my_capper(gv):
    return [(None if g is None else tf.clip_by_value(_dense(g), -1.0, 1.0), v) for g, v in gv]
  out = transforms.chain(my_capper, transforms.clip_by_global_norm(1.0))(_pairs())
  assert out[2][0] is None
  assert np.sqrt(sum(np.sum(_np(g) ** 2) for g, _ in out[:2])) == pytest.approx(1.0, rel=1e-5)


_TF1_PER_TENSOR = {
    "clip_by_value": (lambda: transforms.clip_by_value(-1.5, 2.0),
                      lambda t: tf.compat.v1.clip_by_value(t, -1.5, 2.0)),
    "clip_by_norm": (lambda: transforms.clip_by_norm(2.0),
                     lambda t: tf.compat.v1.clip_by_norm(t, 2.0)),
    "clip_by_average_norm": (lambda: transforms.clip_by_average_norm(0.3),
                             lambda t: tf.compat.v1.clip_by_average_norm(t, 0.3)),
}


@pytest.mark.parametrize("kind", sorted(_TF1_PER_TENSOR))
def test_per_tensor_clip_equals_tf1_and_keeps_sparse_sparse(kind):
  make, reference = _TF1_PER_TENSOR[kind]
  pairs = _pairs()
  out = make()(pairs)
  assert [v for _, v in out] == [v for _, v in pairs]
  np.testing.assert_allclose(out[0][0], reference(pairs[0][0]), rtol=1e-6)
  assert isinstance(out[1][0], tf.IndexedSlices)
  np.testing.assert_allclose(_np(out[1][0]), reference(_dense(pairs[1][0])), rtol=1e-6)
  assert out[2][0] is None


def test_global_norm_clip_equals_tf1_and_keeps_sparse_sparse():
  pairs = _pairs()
  out = transforms.clip_by_global_norm(2.5)(pairs)
  expected, _ = tf.compat.v1.clip_by_global_norm([_dense(pairs[0][0]), _dense(pairs[1][0])], 2.5)
  assert isinstance(out[1][0], tf.IndexedSlices)
  np.testing.assert_allclose(out[0][0], expected[0], rtol=1e-6)
  np.testing.assert_allclose(_np(out[1][0]), expected[1], rtol=1e-6)
  assert out[2][0] is None


def test_global_norm_clip_of_only_none_gradients_passes_them_through():
  v = tf.Variable(1.0)
  assert transforms.clip_by_global_norm(1.0)([(None, v)]) == [(None, v)]


@hypothesis.given(
    shapes=st.lists(st.lists(st.integers(1, 4), min_size=0, max_size=2), min_size=1, max_size=4),
    none_mask=st.lists(st.booleans(), min_size=4, max_size=4),
    clip_norm=st.floats(0.01, 100.0),
    seed=st.integers(0, 2**16))
def test_global_norm_clip_matches_tf1_on_any_gradient_list_with_nones(
    shapes, none_mask, clip_norm, seed):
  rng = np.random.default_rng(seed)
  grads = [None if none_mask[i] else tf.constant(rng.normal(size=s) * 10, tf.float32)
           for i, s in enumerate(shapes)]
  vs = [tf.Variable(tf.zeros(s)) for s in shapes]
  out = transforms.clip_by_global_norm(clip_norm)(list(zip(grads, vs)))
  present = [g for g in grads if g is not None]
  if not present:
    assert [g for g, _ in out] == grads
    return
  expected, _ = tf.compat.v1.clip_by_global_norm(present, clip_norm)
  got = [g for g, _ in out if g is not None]
  assert [g is None for g, _ in out] == [g is None for g in grads]
  for a, b in zip(got, expected):
    np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("factory", [transforms.clip_by_norm, transforms.clip_by_global_norm,
                                     transforms.clip_by_average_norm])
@pytest.mark.parametrize("bad", [0, -1.0])
def test_clip_factories_reject_non_positive_norm(factory, bad):
  with pytest.raises(ValueError, match="`clip_norm` must be > 0"):
    factory(bad)


def test_clip_by_value_rejects_min_above_max():
  with pytest.raises(ValueError, match="`clip_value_min` must be <= `clip_value_max`"):
    transforms.clip_by_value(2.0, 1.0)


def test_multipliers_by_variable_and_by_name_with_or_without_suffix(graph):
  pairs = _pairs()
  (g_w, w), (g_e, e), (_, b) = pairs
  for key_w, key_e in [(w, e), ("dense/w", "embed/e:0"), (w.ref(), "embed/e")]:
    out = transforms.scale_by_multipliers({key_w: 0.5, key_e: 3.0})(pairs)
    with tf.compat.v1.Session() as sess:
      got_w, got_e, want_w, want_e = sess.run(
          [out[0][0], _dense(out[1][0]), g_w * 0.5, _dense(g_e) * 3.0])
    np.testing.assert_allclose(got_w, want_w)
    assert isinstance(out[1][0], tf.IndexedSlices)
    np.testing.assert_allclose(got_e, want_e)
    assert out[2][0] is None


def test_multipliers_leave_other_variables_alone():
  pairs = _pairs()
  out = transforms.scale_by_multipliers({"embed/e": 2.0})(pairs)
  assert out[0][0] is pairs[0][0]


def test_multipliers_with_unknown_name_list_the_variables():
  with pytest.raises(ValueError, match=r"no variable named \['dense/ww'\].*'dense/w', 'embed/e', "
                                       r"'unused/b'"):
    transforms.scale_by_multipliers({"dense/ww": 2.0})(_pairs())


def test_multipliers_must_be_a_dict():
  with pytest.raises(TypeError, match="multipliers must be a dict"):
    transforms.scale_by_multipliers([("dense/w", 2.0)])


def test_gradient_noise_keeps_sparse_sparse_and_touches_only_present_rows():
  pairs = _pairs()
  out = transforms.add_gradient_noise(1.0, seed=3)(pairs)
  noisy = out[1][0]
  assert isinstance(noisy, tf.IndexedSlices)
  np.testing.assert_array_equal(noisy.indices, pairs[1][0].indices)
  assert not np.allclose(noisy.values, pairs[1][0].values)
  assert out[2][0] is None


def test_gradient_noise_is_truncated_normal_scaled_like_contrib():
  v = tf.Variable(tf.zeros([20000]))
  scale = 0.5
  (noisy, _), = transforms.add_gradient_noise(scale, seed=1)([(tf.zeros([20000]), v)])
  noise = noisy.numpy()
  # contrib drew truncated_normal (cut at 2 sigma, std 0.8796) times the scale.
  assert np.abs(noise).max() <= 2 * scale + 1e-6
  assert noise.mean() == pytest.approx(0.0, abs=0.02)
  assert noise.std() == pytest.approx(0.8796 * scale, rel=0.03)


def test_gradient_noise_differs_between_equal_shaped_gradients():
  a, b = tf.Variable(tf.zeros([50])), tf.Variable(tf.zeros([50]))
  out = transforms.add_gradient_noise(1.0, seed=7)([(tf.zeros([50]), a), (tf.zeros([50]), b)])
  assert not np.allclose(out[0][0], out[1][0])


def test_gradient_noise_rejects_negative_scale():
  with pytest.raises(ValueError, match="`scale` must be >= 0"):
    transforms.add_gradient_noise(-0.1)


@pytest.mark.parametrize("selection", [
    lambda v: v.name.startswith("embed"),
    [False, True, False],
    "embed/e",
    ["embed/e:0"],
], ids=["predicate", "mask", "name", "names"])
def test_freeze_drops_selected_gradients(selection):
  pairs = _pairs()
  out = transforms.freeze(selection)(pairs)
  assert out[0][0] is pairs[0][0]
  assert out[1][0] is None
  assert out[2][0] is None


def test_freeze_by_variable_list():
  pairs = _pairs()
  out = transforms.freeze([pairs[0][1]])(pairs)
  assert out[0][0] is None and out[1][0] is pairs[1][0]


def test_freeze_mask_of_wrong_length_raises():
  with pytest.raises(ValueError, match="mask has 2 entries for 3"):
    transforms.freeze([True, False])(_pairs())


def test_freeze_unknown_name_lists_the_variables():
  with pytest.raises(ValueError, match=r"no variable named \['embedding'\] among .*'embed/e'"):
    transforms.freeze(["embedding"])(_pairs())


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_all_finite_sees_nan_and_inf_in_dense_and_sparse(bad):
  pairs = _pairs()
  assert bool(transforms.all_finite(pairs))
  v = tf.Variable(tf.zeros([5, 2]))
  sparse_bad = tf.IndexedSlices(tf.constant([[1.0, bad]]), tf.constant([2]), tf.constant([5, 2]))
  assert not bool(transforms.all_finite(pairs + [(sparse_bad, v)]))
  assert not bool(transforms.all_finite(pairs + [(tf.constant([[0.0, bad]] * 5), v)]))


def test_all_finite_of_no_gradient_is_true_and_ignores_integers():
  v = tf.Variable(1.0)
  assert bool(transforms.all_finite([(None, v)]))
  assert bool(transforms.all_finite([(tf.constant([1, 2]), v)]))


def test_all_finite_in_graph_mode_is_a_runtime_check(sess):
  x = tf.compat.v1.placeholder(tf.float32, [2])
  v = tf.compat.v1.Variable([0.0, 0.0])
  ok = transforms.all_finite([(x, v)])
  assert sess.run(ok, {x: [1.0, 2.0]})
  assert not sess.run(ok, {x: [1.0, np.nan]})


def test_transforms_give_the_same_numbers_eagerly_in_tf_function_and_in_a_graph():
  chain = transforms.chain(transforms.scale_by_multipliers({"dense/w": 2.0}),
                           transforms.clip_by_global_norm(3.0),
                           transforms.freeze("unused/b"))
  eager = [_np(g) for g, _ in chain(_pairs())]
  pairs = _pairs()

  @tf.function
  def run():
    return [_dense(g) for g, _ in chain(pairs)[:2]]
  in_function = [t.numpy() for t in run()]
  with tf.Graph().as_default():
    out = chain(_pairs())
    with tf.compat.v1.Session() as sess:
      sess.run(tf.compat.v1.global_variables_initializer())
      in_graph = sess.run([_dense(g) for g, _ in out[:2]])
  assert eager[2] is None
  for a, b, c in zip(eager[:2], in_function, in_graph):
    np.testing.assert_allclose(a, b, rtol=1e-6)
    np.testing.assert_allclose(a, c, rtol=1e-6)


class _Counting:
  """A stateful transform that counts its builds and the variables it creates."""

  def __init__(self):
    self.builds = 0
    self.state = None
    self.__name__ = "counting"

  def build(self, var_list):
    self.builds += 1
    if self.state is None:
      self.state = tf.Variable(0.0, trainable=False, name="counting_state")

  def __call__(self, grads_and_vars):
    return grads_and_vars


def test_chain_build_builds_each_member_and_nested_chains_flatten():
  inner, outer = _Counting(), _Counting()
  composed = transforms.chain(transforms.chain(inner), transforms.clip_by_global_norm(1.0), outer)
  assert len(composed) == 3 and composed.transforms[0] is inner
  variables = [v for _, v in _pairs()]
  composed.build(variables)
  composed.build(variables)  # idempotency is the member's: no second variable
  assert inner.builds == outer.builds == 2 and inner.state is not None


def test_chain_rejects_a_transform_that_changes_a_gradients_dtype_before_anything_runs():
  def to_float64(gv):
    return [(None if g is None else tf.cast(tf.convert_to_tensor(g), tf.float64), v)
            for g, v in gv]
  with pytest.raises(ValueError, match=r"to_float64 changed the dtype of the gradient of dense/w "
                                       r"\(position 0\) to float64"):
    transforms.chain(to_float64)(_pairs())


def test_chain_rejects_a_transform_that_changes_a_gradients_shape():
  def flatten(gv):
    return [(tf.reshape(g, [-1]) if isinstance(g, tf.Tensor) else g, v) for g, v in gv]
  with pytest.raises(ValueError, match=r"flatten changed the shape of the gradient of dense/w"):
    transforms.chain(flatten)(_pairs())


def test_as_chain_names_the_argument_and_the_bad_element():
  with pytest.raises(TypeError, match=r"`transforms` must be a callable or a list of callables"):
    transforms.as_chain(5)
  with pytest.raises(TypeError, match=r"`clip_gradients\[1\]` must be a callable"):
    transforms.as_chain([transforms.clip_by_norm(1.0), "x"], "clip_gradients")

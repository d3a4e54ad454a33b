"""Bad clip values, None gradients and non-finite norms: what tf1clip's clipping does with them."""

import numpy as np
import pytest
import tensorflow as tf

import tf1clip

NORM_CLIPS = {
    "clip_by_norm": lambda t, c: tf1clip.clip_by_norm(t, c),
    "clip_by_average_norm": lambda t, c: tf1clip.clip_by_average_norm(t, c),
    "clip_by_global_norm": lambda t, c: tf1clip.clip_by_global_norm([t], c)[0][0],
}


def _x():
  return tf.constant([[3.0, 4.0], [1.0, 2.0]])


@pytest.mark.parametrize("clip", NORM_CLIPS.values(), ids=NORM_CLIPS.keys())
@pytest.mark.parametrize("clip_norm", [
    0, -1.0, np.float32(0.0), np.array(-2.0), float("nan"), lambda: tf.constant(0.0),
    lambda: tf.constant(-3.0, tf.float64),
], ids=["zero", "negative", "numpy_zero", "numpy_array", "nan", "constant_zero", "constant_negative"])
def test_non_positive_clip_norm_raises_at_graph_construction(graph, clip, clip_norm):
  clip_norm = clip_norm() if callable(clip_norm) else clip_norm
  with pytest.raises(ValueError, match="`clip_norm` must be > 0; got"):
    clip(_x(), clip_norm)
  assert not [op for op in graph.get_operations() if op.type == "Assert"]


@pytest.mark.parametrize("clip", NORM_CLIPS.values(), ids=NORM_CLIPS.keys())
@pytest.mark.parametrize("clip_norm", [
    [1.0, 2.0], np.ones((1,)), lambda: tf.constant([1.0, 2.0]),
    lambda: tf.compat.v1.placeholder(tf.float32, [2]),
], ids=["list", "numpy", "constant", "placeholder"])
def test_non_scalar_clip_norm_raises_at_graph_construction(graph, clip, clip_norm):
  clip_norm = clip_norm() if callable(clip_norm) else clip_norm
  with pytest.raises(ValueError, match="`clip_norm` must be a scalar; got shape"):
    clip(_x(), clip_norm)


@pytest.mark.parametrize("low, high", [
    (1.0, -1.0), (np.float32(2.0), np.float32(1.0)), (np.array([0.0, 3.0]), 2.0),
], ids=["numbers", "numpy", "numpy_vector"])
def test_clip_value_min_above_max_raises_at_graph_construction(graph, low, high):
  with pytest.raises(ValueError, match="`clip_value_min` must be <= `clip_value_max`; got"):
    tf1clip.clip_by_value(_x(), low, high)
  with pytest.raises(ValueError, match="clip_value_min"):
    tf1clip.clip_by_value(_x(), tf.constant(low, tf.float32), tf.constant(high, tf.float32))


@pytest.mark.parametrize("t_list", [
    lambda: tf.constant([1.0, 2.0]), lambda: (t for t in [tf.constant(1.0)]), lambda: "abc",
    lambda: {"a": tf.constant(1.0)},
], ids=["tensor", "generator", "string", "dict"])
def test_t_list_that_is_not_a_list_raises_type_error_as_tf(graph, t_list):
  for fn in (tf1clip.global_norm, lambda t: tf1clip.clip_by_global_norm(t, 1.0)):
    with pytest.raises(TypeError, match="`t_list` should be a sequence"):
      fn(t_list())
  with pytest.raises(TypeError):
    tf.compat.v1.global_norm(t_list())


def test_mixed_dtypes_in_one_global_norm_raise_listing_them(graph):
  t_list = [tf.ones([2]), None, tf.ones([3], tf.float64)]
  with pytest.raises(ValueError, match=r"\['float32', 'float64'\]"):
    tf1clip.global_norm(t_list)
  with pytest.raises(ValueError, match="one dtype"):
    tf1clip.clip_by_global_norm(t_list, 1.0)


@pytest.mark.parametrize("name", NORM_CLIPS.keys())
def test_clip_norm_fed_at_run_time_is_checked_at_run_time(sess, name):
  clip_norm = tf.compat.v1.placeholder(tf.float32, [])
  x = _x()
  ours = NORM_CLIPS[name](x, clip_norm)
  theirs = {"clip_by_norm": lambda: tf.compat.v1.clip_by_norm(x, clip_norm),
            "clip_by_average_norm": lambda: tf.compat.v1.clip_by_average_norm(x, clip_norm),
            "clip_by_global_norm": lambda: tf.compat.v1.clip_by_global_norm([x], clip_norm)[0][0]}
  theirs = theirs[name]()
  for good in (0.1, 1.0, 100.0):
    np.testing.assert_array_equal(*sess.run([ours, theirs], {clip_norm: good}))
  for bad in (0.0, -1.0, np.nan):
    with pytest.raises(tf.errors.InvalidArgumentError, match="`clip_norm` must be > 0"):
      sess.run(ours, {clip_norm: bad})


def test_clip_norm_held_in_a_variable_is_checked_at_run_time(sess):
  # A variable's value can change between runs, so it is never treated as known at graph construction.
  clip_norm = tf.compat.v1.get_variable("clip_norm", initializer=2.0)
  clipped = [clip(_x(), clip_norm) for clip in NORM_CLIPS.values()]
  sess.run(tf.compat.v1.global_variables_initializer())
  sess.run(clipped)
  sess.run(clip_norm.assign(-1.0))
  for c in clipped:
    with pytest.raises(tf.errors.InvalidArgumentError, match="`clip_norm` must be > 0"):
      sess.run(c)


def test_clip_norm_of_unknown_rank_is_checked_to_be_scalar_at_run_time(sess):
  clip_norm = tf.compat.v1.placeholder(tf.float32)
  clipped = tf1clip.clip_by_norm(_x(), clip_norm)
  assert sess.run(clipped, {clip_norm: 1.0}).shape == (2, 2)
  with pytest.raises(tf.errors.InvalidArgumentError, match="`clip_norm` must be a scalar"):
    sess.run(clipped, {clip_norm: [1.0, 2.0]})


def test_clip_values_fed_at_run_time_are_checked_at_run_time(sess):
  low = tf.compat.v1.placeholder(tf.float32, [])
  high = tf.compat.v1.placeholder(tf.float32, [])
  x = _x()
  ours = tf1clip.clip_by_value(x, low, high)
  theirs = tf.compat.v1.clip_by_value(x, low, high)
  sparse = tf1clip.clip_by_value(tf.IndexedSlices(x, tf.constant([1, 1])), low, 2.0)
  feed = {low: 1.5, high: 3.5}
  np.testing.assert_array_equal(*sess.run([ours, theirs], feed))
  with pytest.raises(tf.errors.InvalidArgumentError, match="`clip_value_min` must be <= `clip_value_max`"):
    sess.run(ours, {low: 2.0, high: 1.0})
  with pytest.raises(tf.errors.InvalidArgumentError, match="`clip_value_min` must be <= `clip_value_max`"):
    sess.run(sparse.values, {low: 2.5})


def test_none_gradients_pass_through(sess):
  x = _x()
  assert tf1clip.clip_by_value(None, -1.0, 1.0) is None
  assert tf1clip.clip_by_norm(None, 1.0) is None
  assert tf1clip.clip_by_average_norm(None, 1.0) is None
  clipped, norm = tf1clip.clip_by_global_norm((None, x, None), 1.0)
  assert clipped[0] is None and clipped[2] is None and len(clipped) == 3
  (their_clipped,), their_norm = tf.compat.v1.clip_by_global_norm([x], 1.0)
  ours = [clipped[1], norm, tf1clip.global_norm([None, x]), tf1clip.global_norm([None])]
  theirs = [their_clipped, their_norm, their_norm, tf.compat.v1.global_norm([None])]
  for a, b in zip(*sess.run([ours, theirs])):
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan])
def test_non_finite_global_norm_makes_every_entry_nan_as_tf1(sess, bad):
  x = tf.constant([[bad, 1.0], [2.0, 3.0]])
  y = tf.constant([1.0, 2.0])
  slices = tf.IndexedSlices(tf.constant([[1.0, 1.0]]), tf.constant([0]), tf.constant([4, 2]))
  clipped, norm = tf1clip.clip_by_global_norm([x, None, y, slices], 5.0)
  their_clipped, their_norm = tf.compat.v1.clip_by_global_norm([x, y], 5.0)
  ours_n, theirs_n = sess.run([[norm, clipped[0], clipped[2], clipped[3].values],
                               [their_norm] + their_clipped])
  for a, b in zip(ours_n, theirs_n):
    np.testing.assert_array_equal(a, b)
  assert all(np.isnan(v).all() for v in ours_n[1:])

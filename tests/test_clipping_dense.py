"""Dense tensors: tf1clip's clipping has tf.compat.v1's signatures and numbers, for every float dtype and rank."""

import inspect

import numpy as np
import pytest
import tensorflow as tf

import tf1clip

DTYPES = [tf.float16, tf.bfloat16, tf.float32, tf.float64]
# Scalars, vectors, matrices, rank 3 and 4, and zero-size tensors.
SHAPES = [(), (5,), (3, 4), (2, 3, 4), (2, 1, 3, 2), (0,), (3, 0)]


@pytest.mark.parametrize("name", ["clip_by_value", "clip_by_norm", "clip_by_global_norm",
                                  "clip_by_average_norm", "global_norm"])
def test_exported_from_tf1clip_with_tf_v1_signature(name):
  ours = list(inspect.signature(getattr(tf1clip, name)).parameters.items())
  theirs = list(inspect.signature(getattr(tf.compat.v1, name)).parameters.items())
  # TF's parameters, in order; then, keyword-only (no TF1 call can reach it by position), repeated_rows.
  if name != "clip_by_average_norm":
    extra = ours.pop()
    assert extra[0] == "repeated_rows" and extra[1].kind is inspect.Parameter.KEYWORD_ONLY
    assert extra[1].default == "summed"
  assert ours == theirs
  assert name in tf1clip.__all__


def _arrays(dtype, scale=3.0, seed=0):
  rng = np.random.default_rng(seed)
  return [(rng.standard_normal(shape) * scale).astype(dtype.as_numpy_dtype) for shape in SHAPES]


def _placeholders(dtype, arrays):
  return [tf.compat.v1.placeholder(dtype, a.shape) for a in arrays]


def _run(sess, fetches, placeholders, arrays):
  return sess.run(fetches, dict(zip(placeholders, arrays)))


def _assert_same(ours, theirs):
  for a, b in zip(ours, theirs):
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(np.asarray(a, np.float64), np.asarray(b, np.float64))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.name)
def test_clip_by_value_equals_tf_v1(sess, dtype):
  arrays = _arrays(dtype)
  xs = _placeholders(dtype, arrays)
  ours = [tf1clip.clip_by_value(x, -0.5, 1.5) for x in xs]
  theirs = [tf.compat.v1.clip_by_value(x, -0.5, 1.5) for x in xs]
  _assert_same(*_run(sess, [ours, theirs], xs, arrays))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.name)
@pytest.mark.parametrize("clip_norm", [0.7, 1e3], ids=["clipped", "unclipped"])
def test_clip_by_norm_equals_tf_v1(sess, dtype, clip_norm):
  arrays = _arrays(dtype)
  xs = _placeholders(dtype, arrays)
  ours = [tf1clip.clip_by_norm(x, clip_norm) for x in xs]
  theirs = [tf.compat.v1.clip_by_norm(x, clip_norm) for x in xs]
  # A clip norm given as a tensor takes TF's other branch (cast to the input dtype).
  ours += [tf1clip.clip_by_norm(x, tf.constant(clip_norm, dtype)) for x in xs]
  theirs += [tf.compat.v1.clip_by_norm(x, tf.constant(clip_norm, dtype)) for x in xs]
  _assert_same(*_run(sess, [ours, theirs], xs, arrays))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.name)
def test_clip_by_norm_along_axes_equals_tf_v1(sess, dtype):
  arrays = [a for a in _arrays(dtype) if a.ndim >= 2]
  xs = _placeholders(dtype, arrays)
  ours, theirs = [], []
  for x in xs:
    for axes in ([0], [1], [-1], [0, 1]):
      ours.append(tf1clip.clip_by_norm(x, 1.0, axes=axes))
      theirs.append(tf.compat.v1.clip_by_norm(x, 1.0, axes=axes))
  _assert_same(*_run(sess, [ours, theirs], xs, arrays))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.name)
@pytest.mark.parametrize("clip_norm", [2.0, 1e3], ids=["clipped", "unclipped"])
def test_clip_by_global_norm_equals_tf_v1(sess, dtype, clip_norm):
  arrays = _arrays(dtype)
  xs = _placeholders(dtype, arrays)
  ours, our_norm = tf1clip.clip_by_global_norm(xs, clip_norm)
  theirs, their_norm = tf.compat.v1.clip_by_global_norm(xs, clip_norm)
  ours_n, theirs_n = _run(sess, [[our_norm] + ours, [their_norm] + theirs], xs, arrays)
  _assert_same(ours_n, theirs_n)
  assert (ours_n[0] > clip_norm) == (clip_norm == 2.0)  # both regimes are really exercised


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.name)
def test_global_norm_equals_tf_v1(sess, dtype):
  arrays = _arrays(dtype)
  xs = _placeholders(dtype, arrays)
  ours = [tf1clip.global_norm(xs), tf1clip.global_norm(xs[:1]), tf1clip.global_norm(xs[-1:])]
  theirs = [tf.compat.v1.global_norm(xs), tf.compat.v1.global_norm(xs[:1]),
            tf.compat.v1.global_norm(xs[-1:])]
  _assert_same(*_run(sess, [ours, theirs], xs, arrays))


def test_clip_by_global_norm_with_use_norm_equals_tf_v1(sess):
  arrays = _arrays(tf.float32)
  xs = _placeholders(tf.float32, arrays)
  use_norm = tf.constant(7.5)
  ours, our_norm = tf1clip.clip_by_global_norm(xs, 2.0, use_norm=use_norm)
  theirs, _ = tf.compat.v1.clip_by_global_norm(xs, 2.0, use_norm=use_norm)
  assert our_norm is use_norm
  _assert_same(*_run(sess, [ours, theirs], xs, arrays))


@pytest.mark.parametrize("clip_norm", [0.05, 1e3], ids=["clipped", "unclipped"])
def test_clip_by_average_norm_equals_tf_v1_in_float32(sess, clip_norm):
  arrays = _arrays(tf.float32)
  xs = _placeholders(tf.float32, arrays)
  ours = [tf1clip.clip_by_average_norm(x, clip_norm) for x in xs]
  theirs = [tf.compat.v1.clip_by_average_norm(x, clip_norm) for x in xs]
  _assert_same(*_run(sess, [ours, theirs], xs, arrays))


@pytest.mark.parametrize("dtype", [tf.float16, tf.bfloat16], ids=lambda d: d.name)
def test_clip_by_average_norm_of_half_floats_is_tf_v1_float32_cast_back(sess, dtype):
  # TF's own op rejects half floats; ours computes in float32, as its docstring says.
  arrays = _arrays(dtype)
  xs = _placeholders(dtype, arrays)
  ours = [tf1clip.clip_by_average_norm(x, 0.05) for x in xs]
  theirs = [tf.cast(tf.compat.v1.clip_by_average_norm(tf.cast(x, tf.float32), 0.05), dtype)
            for x in xs]
  _assert_same(*_run(sess, [ours, theirs], xs, arrays))


def test_clip_by_average_norm_of_float64_follows_the_formula(sess):
  arrays = _arrays(tf.float64)
  xs = _placeholders(tf.float64, arrays)
  got = _run(sess, [tf1clip.clip_by_average_norm(x, 0.05) for x in xs], xs, arrays)
  for a, g in zip(arrays, got):
    assert g.dtype == np.float64 and g.shape == a.shape
    if a.size:
      want = a * 0.05 * min(a.size / np.sqrt(np.sum(a * a)), 1 / 0.05)
      np.testing.assert_allclose(g, want, rtol=1e-12)


def test_clipping_works_eagerly_and_in_tf_function():
  x = tf.constant([[3.0, 4.0], [1.0, 2.0]])
  np.testing.assert_array_equal(tf1clip.clip_by_norm(x, 1.0), tf.compat.v1.clip_by_norm(x, 1.0))

  @tf.function
  def clipped(x, clip_norm):
    return tf1clip.clip_by_global_norm([x, None], clip_norm)

  (ours, none), norm = clipped(x, tf.constant(2.0))
  (theirs,), their_norm = tf.compat.v1.clip_by_global_norm([x], 2.0)
  assert none is None
  np.testing.assert_array_equal(ours, theirs)
  np.testing.assert_array_equal(norm, their_norm)


@pytest.mark.parametrize("scale", [0.0, 1.0, 10.0], ids=["zero", "unclipped", "clipped"])
def test_gradients_through_clipping_equal_tf_v1_and_are_finite_at_zero(sess, scale):
  # Code that differentiates through clipping (e.g. weight clipping) sees TF's gradients, finite at 0.
  x = tf.constant(np.linspace(-1.0, 1.0, 12).reshape(3, 4) * scale, tf.float32)
  ours = [tf1clip.clip_by_norm(x, 2.0), tf1clip.clip_by_norm(x, 2.0, axes=[1]),
          tf1clip.clip_by_global_norm([x], 2.0)[0][0], tf1clip.clip_by_value(x, -0.5, 0.5)]
  theirs = [tf.compat.v1.clip_by_norm(x, 2.0), tf.compat.v1.clip_by_norm(x, 2.0, axes=[1]),
            tf.compat.v1.clip_by_global_norm([x], 2.0)[0][0], tf.compat.v1.clip_by_value(x, -0.5, 0.5)]
  weights = tf.constant(np.arange(12.0).reshape(3, 4), tf.float32)
  our_grads = [tf.gradients(tf.reduce_sum(o * weights), x)[0] for o in ours]
  their_grads = [tf.gradients(tf.reduce_sum(t * weights), x)[0] for t in theirs]
  ours_n, theirs_n = sess.run([our_grads, their_grads])
  for a, b in zip(ours_n, theirs_n):
    np.testing.assert_array_equal(a, b)
  assert np.isfinite(ours_n[0]).all() and np.isfinite(ours_n[1]).all()

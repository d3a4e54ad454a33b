"""tf.IndexedSlices stay sparse through every clipping function and equal densify-then-clip."""

import contextlib
import logging
import warnings

import numpy as np
import pytest
import tensorflow as tf

import tf1clip

DTYPES = [tf.float16, tf.bfloat16, tf.float32, tf.float64]
TOLERANCE = {tf.float16: 2e-3, tf.bfloat16: 1.6e-2, tf.float32: 2e-6, tf.float64: 1e-13}
# Index 0 appears twice and 3 three times: densifying sums them.
INDICES = [0, 3, 0, 5, 3, 3]
DENSE_ROWS = 7
DENSIFY_WARNING = "Converting sparse IndexedSlices"


def _slices(dtype, row_shape=(4,), indices=INDICES, seed=0, scale=2.0):
  rng = np.random.default_rng(seed)
  values = (rng.standard_normal((len(indices),) + row_shape) * scale).astype(dtype.as_numpy_dtype)
  return tf.IndexedSlices(
      tf.constant(values), tf.constant(indices, tf.int64),
      tf.constant((DENSE_ROWS,) + row_shape, tf.int64))


def _dense(slices):
  return tf.convert_to_tensor(slices)


def _assert_close(sess, ours, theirs, dtype):
  ours_n, theirs_n = sess.run([ours, theirs])
  for a, b in zip(ours_n, theirs_n):
    np.testing.assert_allclose(np.asarray(a, np.float64), np.asarray(b, np.float64),
                               rtol=TOLERANCE[dtype], atol=TOLERANCE[dtype])


def _densified(sess, slices_value):
  """Densifies a fetched tf.compat.v1.IndexedSlicesValue in numpy, checking its indices are unique."""
  assert len(set(slices_value.indices.tolist())) == len(slices_value.indices)
  dense = np.zeros(slices_value.dense_shape, slices_value.values.dtype)
  dense[slices_value.indices] = slices_value.values
  return dense


@pytest.mark.parametrize("clip", [
    lambda t: tf1clip.clip_by_value(t, -1.0, 1.0),
    lambda t: tf1clip.clip_by_norm(t, 1.0),
    lambda t: tf1clip.clip_by_average_norm(t, 0.01),
    lambda t: tf1clip.clip_by_global_norm([t], 1.0)[0][0],
], ids=["clip_by_value", "clip_by_norm", "clip_by_average_norm", "clip_by_global_norm"])
def test_clip_keeps_indexed_slices_sparse(graph, clip):
  slices = _slices(tf.float32)
  clipped = clip(slices)
  assert isinstance(clipped, tf.IndexedSlices)
  assert clipped.dense_shape is slices.dense_shape
  assert clipped.values.dtype == tf.float32


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.name)
@pytest.mark.parametrize("row_shape", [(4,), (2, 3)], ids=["matrix", "rank3"])
def test_sparse_clip_with_repeated_indices_equals_densify_then_clip(sess, dtype, row_shape):
  slices = _slices(dtype, row_shape)
  dense = _dense(slices)
  other = tf.constant(np.full((3,), 0.5, dtype.as_numpy_dtype))
  ours, theirs = [], []
  for axes in (None, [0], [1], [-1]):
    ours.append(tf1clip.clip_by_norm(slices, 1.0, axes=axes))
    theirs.append(tf.compat.v1.clip_by_norm(dense, 1.0, axes=axes))
  ours.append(tf1clip.clip_by_value(slices, -1.0, 0.5))
  theirs.append(tf.compat.v1.clip_by_value(dense, -1.0, 0.5))
  ours.append(tf1clip.clip_by_average_norm(slices, 0.01))
  # tf.compat.v1's average norm takes float32 only; tf1clip's dense one is tested against it.
  theirs.append(tf1clip.clip_by_average_norm(dense, 0.01))
  clipped, norm = tf1clip.clip_by_global_norm([slices, None, other], 1.0)
  their_clipped, their_norm = tf.compat.v1.clip_by_global_norm([dense, other], 1.0)
  assert clipped[1] is None
  ours_n, theirs_n, norm_n, their_norm_n = sess.run(
      [ours + [clipped[0], clipped[2]], theirs + their_clipped, norm, their_norm])
  assert all(isinstance(o, tf.IndexedSlices) for o in ours + [clipped[0]])
  ours_dense = [_densified(sess, o) for o in ours_n[:-1]] + [ours_n[-1]]
  for a, b in zip(ours_dense + [norm_n], theirs_n + [their_norm_n]):
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_allclose(np.asarray(a, np.float64), np.asarray(b, np.float64),
                               rtol=TOLERANCE[dtype], atol=TOLERANCE[dtype])
  assert norm_n > 1.0  # the global clip really scaled


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.name)
def test_global_norm_of_slices_equals_dense_norm(sess, dtype):
  slices = _slices(dtype, seed=1)
  other = tf.constant(np.arange(3, dtype=dtype.as_numpy_dtype))
  _assert_close(sess, [tf1clip.global_norm([slices, None, other])],
                [tf.compat.v1.global_norm([_dense(slices), other])], dtype)


def test_sparse_clip_by_value_clips_only_rows_present(sess):
  # With 0 outside [min, max], densify-then-clip would also move the absent zeros; the sparse
  # result keeps them zero and clips the summed rows that are present.
  slices = _slices(tf.float32)
  clipped = sess.run(tf1clip.clip_by_value(slices, 0.25, 1.0))
  dense = sess.run(_dense(slices))
  got = _densified(sess, clipped)
  present = sorted(set(INDICES))
  absent = [i for i in range(DENSE_ROWS) if i not in present]
  np.testing.assert_array_equal(got[present], np.clip(dense[present], 0.25, 1.0))
  np.testing.assert_array_equal(got[absent], 0.0)


def test_sparse_clip_by_value_with_zero_in_range_equals_densify_then_clip(sess):
  slices = _slices(tf.float32, scale=5.0)
  for low, high in ((-1.0, 1.0), (0.0, 2.0), (-3.0, 0.0)):
    got = _densified(sess, sess.run(tf1clip.clip_by_value(slices, low, high)))
    np.testing.assert_array_equal(got, sess.run(tf.compat.v1.clip_by_value(_dense(slices), low, high)))


def test_sparse_clip_by_value_takes_a_bound_per_column(sess):
  slices = _slices(tf.float32)
  low = np.array([-1.0, -0.5, -0.1, 0.0], np.float32)
  got = _densified(sess, sess.run(tf1clip.clip_by_value(slices, low, 1.0)))
  np.testing.assert_array_equal(got, sess.run(tf.compat.v1.clip_by_value(_dense(slices), low, 1.0)))


def test_sparse_clip_by_value_rejects_a_bound_shaped_like_the_dense_tensor(graph):
  with pytest.raises(ValueError, match="clip_value_max"):
    tf1clip.clip_by_value(_slices(tf.float32), -1.0, np.ones((DENSE_ROWS, 4), np.float32))


def test_clip_by_average_norm_needs_dense_shape_of_slices(graph):
  slices = tf.IndexedSlices(tf.ones([2, 3]), tf.constant([0, 1]))
  with pytest.raises(ValueError, match="`t`.*dense_shape"):
    tf1clip.clip_by_average_norm(slices, 1.0)


def test_slices_without_dense_shape_clip_by_norm_and_global_norm(sess):
  slices = tf.IndexedSlices(tf.constant([[3.0, 4.0], [1.0, 1.0]]), tf.constant([1, 1]))
  by_norm = tf1clip.clip_by_norm(slices, 1.0)
  (by_global,), norm = tf1clip.clip_by_global_norm([slices], 1.0)
  assert by_norm.dense_shape is None and by_global.dense_shape is None
  by_norm_n, by_global_n, norm_n = sess.run([by_norm.values, by_global.values, norm])
  np.testing.assert_allclose(norm_n, np.hypot(4.0, 5.0), rtol=1e-6)
  np.testing.assert_allclose(by_norm_n, [[4.0, 5.0]] / norm_n, rtol=1e-6)
  np.testing.assert_allclose(by_global_n, by_norm_n, rtol=1e-6)


def test_slices_with_no_rows_clip_to_no_rows(sess):
  empty = tf.IndexedSlices(tf.zeros([0, 3]), tf.zeros([0], tf.int64), tf.constant([5, 3], tf.int64))
  results = [tf1clip.clip_by_value(empty, -1.0, 1.0), tf1clip.clip_by_norm(empty, 1.0),
             tf1clip.clip_by_average_norm(empty, 1.0),
             tf1clip.clip_by_global_norm([empty], 1.0)[0][0]]
  results_n, norm_n = sess.run([[r.values for r in results], tf1clip.global_norm([empty])])
  assert all(r.shape == (0, 3) for r in results_n)
  assert norm_n == 0.0


@contextlib.contextmanager
def _densify_messages():
  """Collects Python warnings and TensorFlow log records emitted inside the block."""
  messages = []

  class _Collect(logging.Handler):

    def emit(self, record):
      messages.append(record.getMessage())

  handler = _Collect()
  tf.get_logger().addHandler(handler)
  try:
    with warnings.catch_warnings(record=True) as caught:
      warnings.simplefilter("always")
      yield messages
  finally:
    tf.get_logger().removeHandler(handler)
    messages.extend(str(w.message) for w in caught)


def _huge_embedding_gradient():
  # 400 million dense elements: densifying would warn (and allocate 1.6 GB at run time).
  return tf.IndexedSlices(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
                          tf.constant([7, 11, 7], tf.int64), tf.constant([200_000_000, 2], tf.int64))


def test_densify_warning_detector_sees_a_densification(graph):
  with _densify_messages() as messages:
    tf.convert_to_tensor(_huge_embedding_gradient())
  assert any(DENSIFY_WARNING in m for m in messages)


def test_sparse_clipping_does_not_densify(graph):
  with _densify_messages() as messages:
    slices = _huge_embedding_gradient()
    results = [tf1clip.clip_by_value(slices, -1.0, 1.0), tf1clip.clip_by_norm(slices, 1.0),
               tf1clip.clip_by_norm(slices, 1.0, axes=[1]), tf1clip.clip_by_average_norm(slices, 1e-9)]
    clipped, norm = tf1clip.clip_by_global_norm([slices, None], 1.0)
    results += [clipped[0]]
    fetches = [[r.values for r in results], [r.indices for r in results], norm,
               tf1clip.global_norm([slices])]
  assert not [m for m in messages if DENSIFY_WARNING in m]
  with _densify_messages() as messages, tf.compat.v1.Session(graph=graph) as sess:
    values, indices, norm_n, global_norm_n = sess.run(fetches)
  assert not [m for m in messages if DENSIFY_WARNING in m]
  np.testing.assert_allclose(norm_n, np.sqrt(6.0**2 + 8.0**2 + 3.0**2 + 4.0**2), rtol=1e-6)
  assert global_norm_n == norm_n
  assert all(sorted(i.tolist()) == [7, 11] for i in indices)
  assert all(v.shape == (2, 2) for v in values)


def _largest_allocation(fetches, feed):
  """Runs `fetches` traced; returns (bytes, node) of the largest tensor any op of the step output."""
  metadata = tf.compat.v1.RunMetadata()
  with tf.compat.v1.Session() as sess:
    sess.run(fetches, feed, run_metadata=metadata, options=tf.compat.v1.RunOptions(
        trace_level=tf.compat.v1.RunOptions.FULL_TRACE))
  largest = (0, None)
  for device in metadata.step_stats.dev_stats:
    for node in device.node_stats:
      for output in node.output:
        largest = max(
            largest, (output.tensor_description.allocation_description.requested_bytes, node.node_name))
  return largest


def _fed_slices():
  # The values are fed, so grappler cannot constant-fold a densification away.
  values = tf.compat.v1.placeholder(tf.float32, [None, 8])
  slices = tf.IndexedSlices(values, tf.constant([7, 11, 7], tf.int64),
                            tf.constant([50_000, 8], tf.int64))
  return slices, {values: np.arange(24, dtype=np.float32).reshape(3, 8)}


DENSE_BYTES = 50_000 * 8 * 4


@pytest.mark.parametrize("densify", [
    tf.convert_to_tensor,
    # TF does not warn about this one: only the run-time check below catches it.
    lambda s: tf.math.unsorted_segment_sum(s.values, s.indices, s.dense_shape[0]),
], ids=["convert_to_tensor", "segment_sum"])
def test_allocation_detector_sees_a_densification(graph, densify):
  slices, feed = _fed_slices()
  assert _largest_allocation(tf.reduce_sum(densify(slices)), feed)[0] >= DENSE_BYTES


def test_sparse_clipping_allocates_nothing_near_the_dense_size_at_run_time(graph):
  # The warning check above only sees densification through tf.convert_to_tensor; this sees any.
  slices, feed = _fed_slices()
  results = [tf1clip.clip_by_value(slices, -1.0, 1.0), tf1clip.clip_by_norm(slices, 1.0),
             tf1clip.clip_by_norm(slices, 1.0, axes=[0]), tf1clip.clip_by_average_norm(slices, 1e-6),
             tf1clip.clip_by_global_norm([slices, None], 1.0)[0][0]]
  fetches = [[r.values for r in results], [r.indices for r in results],
             tf1clip.clip_by_global_norm([slices], 1.0)[1], tf1clip.global_norm([slices])]
  size, node = _largest_allocation(fetches, feed)
  assert size < DENSE_BYTES // 100, "%s allocated %d bytes" % (node, size)

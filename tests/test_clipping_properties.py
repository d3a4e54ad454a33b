"""Property tests: random shapes, values and clip norms; dense against tf.compat.v1, sparse against densify.

Each test builds one graph with placeholders of unknown shape (so any example can be fed) and one
session, then hypothesis feeds examples through it: no graph construction per example, so a few hundred
examples take seconds.
"""

import numpy as np
import tensorflow as tf
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tf1clip

DTYPES = {"float32": tf.float32, "float64": tf.float64}
DENSE_DTYPES = {"float16": tf.float16, "bfloat16": tf.bfloat16, **DTYPES}
TOLERANCE = {"float32": 3e-6, "float64": 1e-13}


def _arrays(dtype_name):
  """Arrays of any rank up to 4 (zero-size included), rounded to the dtype (half floats may overflow)."""
  shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5)
  return hnp.arrays(np.float64, shapes, elements=st.floats(-1e3, 1e3)).map(
      lambda a: a.astype(DENSE_DTYPES[dtype_name].as_numpy_dtype))


class _Graph:
  """One graph and session for a test; `run` feeds an example."""

  def __init__(self):
    self.graph = tf.Graph()
    self.session = tf.compat.v1.Session(graph=self.graph)

  def run(self, fetches, feed):
    return self.session.run(fetches, feed)


def _dense_graph(dtype):
  g = _Graph()
  with g.graph.as_default():
    g.xs = [tf.compat.v1.placeholder(dtype) for _ in range(3)]
    g.clip_norm = tf.compat.v1.placeholder(dtype, [])
    g.low = tf.compat.v1.placeholder(dtype, [])
    g.high = tf.compat.v1.placeholder(dtype, [])
    x = g.xs[0]
    ours_list, our_norm = tf1clip.clip_by_global_norm(g.xs, g.clip_norm)
    theirs_list, their_norm = tf.compat.v1.clip_by_global_norm(g.xs, g.clip_norm)
    g.ours = [tf1clip.clip_by_norm(x, g.clip_norm), tf1clip.clip_by_value(x, g.low, g.high),
              tf1clip.global_norm(g.xs), our_norm] + ours_list
    g.theirs = [tf.compat.v1.clip_by_norm(x, g.clip_norm), tf.compat.v1.clip_by_value(x, g.low, g.high),
                tf.compat.v1.global_norm(g.xs), their_norm] + theirs_list
    if dtype == tf.float32:
      g.ours.append(tf1clip.clip_by_average_norm(x, g.clip_norm))
      g.theirs.append(tf.compat.v1.clip_by_average_norm(x, g.clip_norm))
  return g


def test_dense_clipping_equals_tf_v1_on_random_inputs():
  graphs = {name: _dense_graph(dtype) for name, dtype in DENSE_DTYPES.items()}

  @settings(max_examples=200)
  @given(data=st.data(), dtype_name=st.sampled_from(sorted(DENSE_DTYPES)),
         clip_norm=st.floats(1e-3, 1e4), bounds=st.lists(st.floats(-1e3, 1e3), min_size=2, max_size=2))
  def check(data, dtype_name, clip_norm, bounds):
    g = graphs[dtype_name]
    arrays = [data.draw(_arrays(dtype_name)) for _ in g.xs]
    feed = dict(zip(g.xs, arrays))
    feed.update({g.clip_norm: clip_norm, g.low: min(bounds), g.high: max(bounds)})
    ours, theirs = g.run([g.ours, g.theirs], feed)
    for a, b in zip(ours, theirs):
      np.testing.assert_array_equal(np.asarray(a, np.float64), np.asarray(b, np.float64))

  try:
    check()
  finally:
    for g in graphs.values():
      g.session.close()


def _sparse_graph(dtype):
  g = _Graph()
  with g.graph.as_default():
    g.values = tf.compat.v1.placeholder(dtype)
    g.indices = tf.compat.v1.placeholder(tf.int64, [None])
    g.dense_shape = tf.compat.v1.placeholder(tf.int64, [None])
    g.clip_norm = tf.compat.v1.placeholder(dtype, [])
    g.low = tf.compat.v1.placeholder(dtype, [])
    g.high = tf.compat.v1.placeholder(dtype, [])
    slices = tf.IndexedSlices(g.values, g.indices, g.dense_shape)
    dense = tf.convert_to_tensor(slices)
    (global_clip,), global_norm = tf1clip.clip_by_global_norm([slices], g.clip_norm)
    g.ours = [tf1clip.clip_by_norm(slices, g.clip_norm),
              tf1clip.clip_by_norm(slices, g.clip_norm, axes=[0]),
              tf1clip.clip_by_norm(slices, g.clip_norm, axes=[-1]),
              tf1clip.clip_by_value(slices, g.low, g.high),
              tf1clip.clip_by_average_norm(slices, g.clip_norm), global_clip]
    g.ours_norm = [global_norm, tf1clip.global_norm([slices])]
    (their_global_clip,), their_global_norm = tf.compat.v1.clip_by_global_norm([dense], g.clip_norm)
    g.theirs = [tf.compat.v1.clip_by_norm(dense, g.clip_norm),
                tf.compat.v1.clip_by_norm(dense, g.clip_norm, axes=[0]),
                tf.compat.v1.clip_by_norm(dense, g.clip_norm, axes=[-1]),
                tf.compat.v1.clip_by_value(dense, g.low, g.high),
                tf1clip.clip_by_average_norm(dense, g.clip_norm), their_global_clip]
    g.theirs_norm = [their_global_norm, tf.compat.v1.global_norm([dense])]
  return g


@st.composite
def _slices(draw, dtype_name):
  rows = draw(st.integers(1, 6))
  row_shape = tuple(draw(st.lists(st.integers(1, 3), min_size=1, max_size=2)))
  # Few distinct indices, so repeats are common.
  indices = draw(st.lists(st.integers(0, rows - 1), min_size=0, max_size=8))
  values = draw(hnp.arrays(np.float64, (len(indices),) + row_shape, elements=st.floats(-1e3, 1e3)))
  values = values.astype(dtype_name)
  return values, np.array(indices, np.int64), np.array((rows,) + row_shape, np.int64)


def test_sparse_clipping_equals_densify_then_clip_on_random_slices():
  graphs = {name: _sparse_graph(dtype) for name, dtype in DTYPES.items()}

  @settings(max_examples=200)
  @given(data=st.data(), dtype_name=st.sampled_from(sorted(DTYPES)), clip_norm=st.floats(1e-3, 1e4),
         low=st.floats(-1e3, 0.0), high=st.floats(0.0, 1e3))
  def check(data, dtype_name, clip_norm, low, high):
    g = graphs[dtype_name]
    values, indices, dense_shape = data.draw(_slices(dtype_name))
    feed = {g.values: values, g.indices: indices, g.dense_shape: dense_shape,
            g.clip_norm: clip_norm, g.low: low, g.high: high}
    ours, ours_norm, theirs, theirs_norm = g.run([g.ours, g.ours_norm, g.theirs, g.theirs_norm], feed)
    rtol = TOLERANCE[dtype_name]
    for got, want in zip(ours, theirs):
      assert len(set(got.indices.tolist())) == len(got.indices)
      densified = np.zeros(got.dense_shape, got.values.dtype)
      densified[got.indices] = got.values
      atol = rtol * max(1.0, np.abs(want).max(initial=0))
      np.testing.assert_allclose(densified, want, rtol=rtol, atol=atol)
    np.testing.assert_allclose(ours_norm, theirs_norm, rtol=rtol)

  try:
    check()
  finally:
    for g in graphs.values():
      g.session.close()

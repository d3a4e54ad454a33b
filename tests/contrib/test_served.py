"""The tf.contrib names tf1clip serves from TensorFlow 2.21, tf-slim and tensorflow-probability are those
objects; the ones it writes itself (contrib.image, embedding_lookup_unique) give TF 1.15's numbers."""

import collections
import importlib
import inspect
import sys

import numpy as np
import pytest
import tensorflow as tf
import tensorflow_probability as tfp

import tf_slim

import tf1clip.contrib as contrib
from tf1clip.contrib import catalog


def test_tf_slim_names_are_tf_slims_and_core_names_are_tf_compat_v1s():
  import tf_slim  # pylint: disable=import-outside-toplevel
  assert contrib.layers.conv2d is tf_slim.conv2d is contrib.slim.conv2d
  assert contrib.layers.batch_norm is tf_slim.batch_norm
  assert contrib.framework.arg_scope is tf_slim.arg_scope
  assert contrib.metrics.streaming_mean is tf_slim.metrics.streaming_mean
  assert contrib.losses.mean_squared_error is tf_slim.losses.mean_squared_error
  # tfp's (not tf.compat.v1's core class): it must mix with tfp's TransformedDistribution, Mixture, ...
  assert contrib.distributions.Normal is tfp.distributions.Normal
  assert contrib.signal.stft is tf.signal.stft
  assert contrib.util.constant_value is tf.get_static_value
  assert contrib.framework.list_variables.__module__ == "tf1clip.contrib.framework"  # TF 1.15's parameter names
  assert contrib.summary.scalar is importlib.import_module(
      "tensorflow.python.ops.summary_ops_v2").scalar


def test_contrib_layers_serves_tf_slims_objects_and_ports_only_what_slim_lacks():
  # Every name tf-slim has is tf-slim's object, so arg_scope sees the functions it decorated.
  for name in ("fully_connected", "flatten", "layer_norm", "xavier_initializer", "l2_regularizer",
               "variance_scaling_initializer", "apply_regularization", "conv2d"):
    assert getattr(contrib.layers, name) is getattr(tf_slim, name), name
  assert contrib.layers.optimize_loss.__module__ == "tf_slim.layers.optimizers"
  assert contrib.layers.embed_sequence.__module__ == "tf1clip.contrib.layers.python.layers.encoders"


def test_tfp_distributions_and_bijectors_run_in_graph_mode(sess):
  mvn = contrib.distributions.MultivariateNormalDiag(loc=[0.0, 1.0], scale_diag=[1.0, 2.0])
  chain = contrib.distributions.bijectors.Chain(
      [contrib.distributions.bijectors.Exp(), contrib.distributions.bijectors.Softplus()])
  log_prob, forward = sess.run([mvn.log_prob([0.5, 0.0]), chain.forward(0.3)])
  expected = sum(-0.5 * ((x - m) / s) ** 2 - np.log(s) - 0.5 * np.log(2 * np.pi)
                 for x, m, s in [(0.5, 0.0, 1.0), (0.0, 1.0, 2.0)])
  np.testing.assert_allclose(log_prob, expected, rtol=1e-6)
  np.testing.assert_allclose(forward, np.exp(np.log1p(np.exp(0.3))), rtol=1e-6)


def test_tf115_names_tfp_removed_fail_with_their_replacement():
  with pytest.raises(catalog.ContribNotProvidedError, match=r"tfp\.bijectors\.WeibullCDF"):
    contrib.distributions.bijectors.Weibull  # pylint: disable=pointless-statement


def test_served_objects_are_the_libraries_own():
  for name in ("tf.contrib.layers.conv2d", "tf.contrib.layers.batch_norm",
               "tf.contrib.framework.arg_scope", "tf.contrib.metrics.streaming_auc",
               "tf.contrib.losses.metric_learning.triplet_semihard_loss"):
    assert catalog.is_provided(name), name


def test_embedding_lookup_unique_equals_embedding_lookup_and_keeps_the_gradient_sparse(sess):
  params = tf.compat.v1.get_variable("emb", initializer=np.arange(12.0).reshape(6, 2))
  ids = tf.constant([[5, 0, 5], [1, 5, 0]])
  unique = contrib.layers.embedding_lookup_unique(params, ids)
  assert unique.shape.as_list() == [2, 3, 2]
  grad = tf.gradients(tf.reduce_sum(unique), params)[0]
  assert isinstance(grad, tf.IndexedSlices)
  sess.run(tf.compat.v1.global_variables_initializer())
  got, expected, dense_grad = sess.run(
      [unique, tf.nn.embedding_lookup(params, ids), tf.convert_to_tensor(grad)])
  np.testing.assert_array_equal(got, expected)
  np.testing.assert_array_equal(dense_grad[:, 0], [2, 1, 0, 0, 0, 3])
  with pytest.raises(ValueError, match="partition_strategy"):
    contrib.layers.embedding_lookup_unique(params, ids, partition_strategy="rows")


# --- contrib.image: our own, against numpy references ---

def _projective_reference(image, transform, bilinear):
  """TF 1.15's ImageProjectiveTransform on an (H, W, C) float image: zeros outside the input."""
  a0, a1, a2, b0, b1, b2, c0, c1 = transform
  height, width, _ = image.shape
  out = np.zeros_like(image)

  def read(y, x):
    if 0 <= y < height and 0 <= x < width:
      return image[y, x]
    return np.zeros(image.shape[-1], image.dtype)

  for y in range(height):
    for x in range(width):
      k = c0 * x + c1 * y + 1.0
      in_x, in_y = (a0 * x + a1 * y + a2) / k, (b0 * x + b1 * y + b2) / k
      if not bilinear:
        out[y, x] = read(int(np.round(in_y)), int(np.round(in_x)))
        continue
      y0, x0 = int(np.floor(in_y)), int(np.floor(in_x))
      dy, dx = in_y - y0, in_x - x0
      out[y, x] = ((1 - dy) * ((1 - dx) * read(y0, x0) + dx * read(y0, x0 + 1))
                   + dy * ((1 - dx) * read(y0 + 1, x0) + dx * read(y0 + 1, x0 + 1)))
  return out


@pytest.mark.parametrize("interpolation", ["NEAREST", "BILINEAR"])
def test_rotate_and_transform_match_the_tf115_kernel_reference(sess, interpolation):
  rng = np.random.RandomState(0)
  images = rng.rand(2, 5, 6, 2).astype(np.float32)
  angles = np.array([0.4, -1.1], np.float32)
  rotated = contrib.image.rotate(images, angles, interpolation=interpolation)
  transforms = sess.run(contrib.image.angles_to_projective_transforms(angles, 5, 6))
  got = sess.run(rotated)
  for i in range(2):
    expected = _projective_reference(images[i], transforms[i], interpolation == "BILINEAR")
    np.testing.assert_allclose(got[i], expected, atol=1e-5)
  # A quarter turn of a square image is numpy's rot90, on 2-D, 3-D and 4-D input alike.
  square = np.arange(16, dtype=np.float32).reshape(4, 4)
  for image, view in ((square, lambda a: a), (square[:, :, None], lambda a: a[:, :, 0]),
                      (square[None, :, :, None], lambda a: a[0, :, :, 0])):
    np.testing.assert_array_equal(view(sess.run(contrib.image.rotate(image, np.pi / 2))),
                                  np.rot90(square))


def test_translate_and_compose_transforms(sess):
  image = np.arange(20, dtype=np.float32).reshape(4, 5)
  moved = sess.run(contrib.image.translate(image, [2.0, -1.0]))
  expected = np.zeros_like(image)
  expected[:3, 2:] = image[1:, :3]
  np.testing.assert_array_equal(moved, expected)
  a = contrib.image.translations_to_projective_transforms([1.0, 0.0])
  b = contrib.image.translations_to_projective_transforms([1.0, -1.0])
  composed = sess.run(contrib.image.transform(image, contrib.image.compose_transforms(a, b)))
  in_two_steps = sess.run(contrib.image.translate(image, [2.0, -1.0]))
  np.testing.assert_array_equal(composed, in_two_steps)
  resized = contrib.image.transform(image, [1, 0, 0, 0, 1, 0, 0, 0], output_shape=[2, 3])
  np.testing.assert_array_equal(sess.run(resized), image[:2, :3])


def test_image_bad_input_names_the_argument():
  with pytest.raises(ValueError, match="interpolation must be one of"):
    contrib.image.transform(np.zeros((3, 3), np.float32), [1, 0, 0, 0, 1, 0, 0, 0], "CUBIC")
  with pytest.raises(TypeError, match="images must have rank 2"):
    contrib.image.rotate(np.zeros((1, 1, 3, 3, 1), np.float32), 0.5)
  with pytest.raises(TypeError, match="images must be one of"):
    contrib.image.rotate(np.zeros((3, 3), np.bool_), 0.5)
  with pytest.raises(ValueError, match="at least one transform"):
    contrib.image.compose_transforms()


def _bilinear_clamped(image, y, x):
  height, width = image.shape[:2]
  y0 = int(min(max(0.0, np.floor(y)), height - 2))
  x0 = int(min(max(0.0, np.floor(x)), width - 2))
  dy, dx = min(max(y - y0, 0.0), 1.0), min(max(x - x0, 0.0), 1.0)
  top = image[y0, x0] + dx * (image[y0, x0 + 1] - image[y0, x0])
  bottom = image[y0 + 1, x0] + dx * (image[y0 + 1, x0 + 1] - image[y0 + 1, x0])
  return top + dy * (bottom - top)


def test_dense_image_warp_matches_a_numpy_reference(sess):
  rng = np.random.RandomState(1)
  image = rng.rand(2, 4, 5, 3).astype(np.float32)
  flow = (rng.rand(2, 4, 5, 2).astype(np.float32) - 0.5) * 4.0
  got = sess.run(contrib.image.dense_image_warp(image, flow))
  expected = np.zeros_like(image)
  for b in range(2):
    for y in range(4):
      for x in range(5):
        expected[b, y, x] = _bilinear_clamped(image[b], y - flow[b, y, x, 0], x - flow[b, y, x, 1])
  np.testing.assert_allclose(got, expected, atol=1e-5)


def _bfs_labels(images):
  """Brute force: breadth-first search over (N, H, W), ids in first-pixel order across the batch."""
  labels = np.zeros(images.shape, np.int64)
  next_id = 0
  for start in np.ndindex(images.shape):
    if images[start] == 0 or labels[start]:
      continue
    next_id += 1
    labels[start] = next_id
    queue = collections.deque([start])
    while queue:
      b, y, x = queue.popleft()
      for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
        if (0 <= ny < images.shape[1] and 0 <= nx < images.shape[2] and not labels[b, ny, nx]
            and images[b, ny, nx] == images[b, y, x]):
          labels[b, ny, nx] = next_id
          queue.append((b, ny, nx))
  return labels


def test_connected_components_matches_breadth_first_search(sess):
  rng = np.random.RandomState(2)
  batch = rng.randint(0, 3, size=(3, 7, 9)).astype(np.int32)
  batch[1] = 1  # one image that is a single component with no background
  spiral = np.array([[1, 1, 1, 1], [0, 0, 0, 1], [1, 1, 0, 1], [1, 0, 0, 1], [1, 1, 1, 1]], bool)
  got, got_2d = sess.run([contrib.image.connected_components(batch),
                          contrib.image.connected_components(spiral)])
  np.testing.assert_array_equal(got, _bfs_labels(batch))
  np.testing.assert_array_equal(got_2d, _bfs_labels(spiral[None])[0])
  assert got_2d.max() == 1  # the spiral's arms meet at the bottom row
  full = sess.run(contrib.image.connected_components(np.ones((2, 2), np.int32)))
  np.testing.assert_array_equal(full, np.ones((2, 2)))


def test_contrib_summary_writes_events_in_graph_mode(graph, tmp_path):
  step = tf.compat.v1.train.get_or_create_global_step()
  writer = contrib.summary.create_file_writer(str(tmp_path))
  with writer.as_default(), contrib.summary.record_summaries_every_n_global_steps(2):
    contrib.summary.scalar("x", tf.cast(step, tf.float32) * 10.0)
  increment = tf.compat.v1.assign_add(step, 1)
  with tf.compat.v1.Session(graph=graph) as session:
    session.run(tf.compat.v1.global_variables_initializer())
    session.run(writer.init())
    for _ in range(4):
      session.run(contrib.summary.all_summary_ops())
      session.run(increment)
    session.run(writer.flush())
  # TF 1.15's contrib.summary.scalar wrote the classic `simple_value` scalar events.
  written = [(e.step, v.tag, v.simple_value)
             for path in tmp_path.iterdir()
             for e in tf.compat.v1.train.summary_iterator(str(path)) for v in e.summary.value]
  assert written == [(0, "x", 0.0), (2, "x", 20.0)]


def test_import_of_tf1clip_does_not_touch_numpy():
  # tf1clip run installs the NumPy 1.x names (tests/test_contrib_idioms.py); importing the library
  # and its contrib package must not.
  import numpy  # pylint: disable=import-outside-toplevel
  assert "tf1clip.compat.numpy_legacy" not in sys.modules or not getattr(
      numpy.__dict__.get("__getattr__"), "_tf1clip_legacy", False)
  with pytest.raises(AttributeError):
    numpy.asscalar  # pylint: disable=pointless-statement
  assert inspect.ismodule(contrib.metrics)


def test_bow_encoder_is_the_mean_embedding_of_each_rows_non_padding_ids(sess):
  ids = np.array([[1, 3, 0], [0, 0, 0], [2, 2, 3]])
  table = np.arange(8.0, dtype=np.float32).reshape(4, 2) ** 1.5
  sparse = contrib.layers.bow_encoder(ids, 4, 2, initializer=tf.constant_initializer(table))
  dense = contrib.layers.bow_encoder(ids, 4, 2, sparse_lookup=False, scope="bow_encoder",
                                     reuse=True)
  assert [v.op.name for v in tf.compat.v1.get_collection(
      tf.compat.v1.GraphKeys.MODEL_VARIABLES)] == ["bow_encoder/embeddings"]
  sess.run(tf.compat.v1.global_variables_initializer())
  got_sparse, got_dense = sess.run([sparse, dense])
  expected = [table[[1, 3]].mean(0), table[0], table[[2, 2, 3]].mean(0)]  # an empty row: id 0
  np.testing.assert_allclose(got_sparse, expected, rtol=1e-6)
  np.testing.assert_allclose(got_dense, table[ids].mean(1), rtol=1e-6)

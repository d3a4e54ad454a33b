"""tf.contrib.slim: tf-slim 1.1.0 through tf1clip's shim trains, matches TF's numbers and keeps slim's names."""

import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf

import tf1clip.contrib as contrib
from tf1clip.contrib import catalog
from tf1clip.tools import check
from tf1clip import shims
from tf1clip.contrib import slim
from tf1clip.shims.tf_slim import PATCHES

import tf_slim  # pylint: disable=g-bad-import-order

v1 = tf.compat.v1
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
FIXTURES = os.path.join(REPO, "tests", "fixtures", "legacy")


def _images(seed=0, shape=(16, 8, 8, 3)):
  return np.random.RandomState(seed).randn(*shape).astype(np.float32)


def test_tf_contrib_slim_is_tf_slim_with_the_moved_names_back():
  assert contrib.slim is slim
  assert slim.conv2d is tf_slim.conv2d and slim.learning is tf_slim.learning
  assert slim.nets.resnet_v1 is __import__("tf_slim.nets.resnet_v1").nets.resnet_v1
  report = shims.apply("tf_slim")  # idempotent: the report of the one application
  assert not report.skipped and report is shims.apply("tf_slim")
  assert {p.target for p, _ in report.applied + report.present} == {p.target for p in PATCHES}
  from tensorflow.python.framework import ops  # pylint: disable=g-direct-tensorflow-import
  from tensorflow.python.ops import control_flow_ops  # pylint: disable=g-direct-tensorflow-import
  assert ops.Tensor is tf.Tensor and ops.IndexedSlices is tf.IndexedSlices
  assert control_flow_ops.cond is v1.cond
  with pytest.raises(catalog.ContribNotProvidedError, match="tf.contrib.slim.no_such_layer is not provided by tf1clip"):
    slim.no_such_layer  # pylint: disable=pointless-statement


def test_slim_cnn_trains_and_keeps_slims_variable_names():
  with tf.Graph().as_default():
    v1.set_random_seed(1)
    images = _images()
    labels = (images[..., 0].sum(axis=(1, 2)) > 0).astype(np.int64)
    with slim.arg_scope([slim.conv2d, slim.fully_connected],
                        weights_regularizer=slim.l2_regularizer(1e-4)):
      net = slim.conv2d(images, 4, [3, 3], normalizer_fn=slim.batch_norm, scope="conv1")
      net = slim.max_pool2d(net, [2, 2], scope="pool1")
      net = slim.dropout(slim.flatten(net), 0.9, is_training=True)
      logits = slim.fully_connected(net, 2, activation_fn=None, scope="logits")
    slim.losses.sparse_softmax_cross_entropy(logits, labels)
    total_loss = slim.losses.get_total_loss()
    train_op = slim.learning.create_train_op(total_loss, v1.train.GradientDescentOptimizer(0.1))
    assert sorted(v.op.name for v in slim.get_model_variables()) == [
        "conv1/BatchNorm/beta", "conv1/BatchNorm/moving_mean", "conv1/BatchNorm/moving_variance",
        "conv1/weights", "logits/biases", "logits/weights"]
    assert len(v1.losses.get_regularization_losses()) == 2  # the two weights, from the arg_scope
    with v1.Session() as sess:
      sess.run(v1.global_variables_initializer())
      losses = [sess.run(train_op) for _ in range(20)]
      assert sess.run(v1.train.get_global_step()) == 20
  assert losses[-1] < 0.5 * losses[0], losses


@pytest.mark.parametrize("fused, updates_collections, shape", [
    (False, v1.GraphKeys.UPDATE_OPS, (16, 4, 4, 3)),  # tf-keras' BatchNormalization, not fused
    (True, v1.GraphKeys.UPDATE_OPS, (16, 4, 4, 3)),   # tf-keras' BatchNormalization, fused kernel
    (True, None, (16, 4, 4, 3)),                      # slim's own fused path, updates in place
    (True, v1.GraphKeys.UPDATE_OPS, (16, 5)),          # slim's own fused path for 2-D inputs
])
def test_batch_norm_equals_compat_v1_batch_normalization(fused, updates_collections, shape):
  x = _images(1, shape) * 3.0 + 1.0
  with tf.Graph().as_default():
    is_training = v1.placeholder_with_default(True, [])
    ours = slim.batch_norm(x, decay=0.9, epsilon=1e-3, scale=True, fused=fused,
                           updates_collections=updates_collections, is_training=is_training,
                           scope="slim_bn")
    # slim runs 2-D inputs through the fused kernel as [batch, 1, 1, channels], so its moving
    # variance is the kernel's (Bessel-corrected), as in TF 1.15: compare with the same shape.
    theirs = v1.layers.batch_normalization(x.reshape(shape[:1] + (1,) * (4 - len(shape)) + shape[1:]),
                                           momentum=0.9, epsilon=1e-3, fused=fused,
                                           training=is_training, name="tf_bn")
    theirs = tf.reshape(theirs, shape)
    updates = v1.get_collection(v1.GraphKeys.UPDATE_OPS)
    stats = [v1.global_variables("slim_bn/moving_"), v1.global_variables("tf_bn/moving_")]
    with v1.Session() as sess:
      sess.run(v1.global_variables_initializer())
      for _ in range(3):
        got, want, _ = sess.run([ours, theirs, updates])
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
      got_stats, want_stats = sess.run(stats)
      inference = sess.run([ours, theirs], {is_training: False})
  assert [v.op.name for v in stats[0]] == ["slim_bn/moving_mean", "slim_bn/moving_variance"]
  for got, want in zip(got_stats, want_stats):
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
  assert not np.allclose(want_stats[0], 0.0)  # the moving statistics did move
  np.testing.assert_allclose(inference[0], inference[1], rtol=1e-5, atol=1e-5)


def test_create_train_op_multiplies_then_clips_each_gradient_like_by_hand():
  rng = np.random.RandomState(3)
  x, y = rng.randn(6, 3).astype(np.float32), rng.randn(6).astype(np.float32)
  w0, table0 = rng.randn(3).astype(np.float32), rng.randn(5, 3).astype(np.float32)
  rows = np.array([4, 0, 2])  # distinct: slim clips the IndexedSlices values
  lr, clip_norm, multipliers = 0.1, 1.5, {"w": 3.0, "table": 0.5}
  with tf.Graph().as_default():
    w = v1.get_variable("w", initializer=w0)
    table = v1.get_variable("table", initializer=table0)
    loss = (tf.reduce_sum(tf.square(tf.tensordot(x, w, 1) - y))
            + tf.reduce_sum(tf.gather(table, rows) * w))
    train_op = slim.learning.create_train_op(
        loss, v1.train.GradientDescentOptimizer(lr), clip_gradient_norm=clip_norm,
        gradient_multipliers={"w": multipliers["w"], table: multipliers["table"]})
    with v1.Session() as sess:
      sess.run(v1.global_variables_initializer())
      loss0 = sess.run(train_op)
      w1, table1 = sess.run([w, table])

  def clip(g):
    return g * min(1.0, clip_norm / np.linalg.norm(g))

  grad_w = 2.0 * x.T @ (x @ w0 - y) + table0[rows].sum(axis=0)
  grad_rows = np.tile(w0, (len(rows), 1))
  expected_table = table0.copy()
  expected_table[rows] -= lr * clip(multipliers["table"] * grad_rows)
  assert loss0 == pytest.approx(np.sum((x @ w0 - y) ** 2) + np.sum(table0[rows] * w0), rel=1e-5)
  np.testing.assert_allclose(w1, w0 - lr * clip(multipliers["w"] * grad_w), rtol=1e-5, atol=1e-6)
  np.testing.assert_allclose(table1, expected_table, rtol=1e-5, atol=1e-6)


def test_slim_variables_land_in_their_collections():
  with tf.Graph().as_default():
    local = slim.local_variable(0.0, name="local")
    global_ = slim.global_variable([1.0, 2.0], name="global")
    weights = slim.model_variable("weights", shape=[2], initializer=v1.ones_initializer())
    assert v1.local_variables() == [local]
    assert v1.global_variables() == [global_, weights]
    assert slim.get_model_variables() == [weights] and v1.trainable_variables() == [weights]
    assert [v.op.name for v in slim.get_variables_to_restore(exclude=["weights"])] == ["global"]


def test_streaming_metrics_equal_compat_v1_metrics():
  rng = np.random.RandomState(4)
  batches = [(rng.randn(8).astype(np.float32), rng.randint(0, 3, 8), rng.randint(0, 3, 8))
             for _ in range(3)]
  with tf.Graph().as_default():
    values = v1.placeholder(tf.float32, [None])
    predictions, labels = v1.placeholder(tf.int64, [None]), v1.placeholder(tf.int64, [None])
    ours = [slim.metrics.streaming_mean(values), slim.metrics.streaming_accuracy(predictions, labels)]
    theirs = [v1.metrics.mean(values), v1.metrics.accuracy(labels, predictions)]
    with v1.Session() as sess:
      sess.run(v1.local_variables_initializer())
      for v, p, l in batches:
        sess.run([op for _, op in ours + theirs], {values: v, predictions: p, labels: l})
      got, want = sess.run([[t for t, _ in ours], [t for t, _ in theirs]])
  np.testing.assert_allclose(got, want, rtol=1e-6)
  assert want[1] == pytest.approx(np.mean(np.concatenate([p == l for _, p, l in batches])))


def test_assign_from_checkpoint_fn_restores_the_selected_variables(tmp_path):
  path = str(tmp_path / "model.ckpt")
  with tf.Graph().as_default():
    slim.fully_connected(tf.zeros([1, 3]), 2, scope="fc")
    step = v1.train.get_or_create_global_step()
    with v1.Session() as sess:
      sess.run([v1.global_variables_initializer(), step.assign(7)])
      saved = sess.run(slim.get_variables("fc"))
      v1.train.Saver().save(sess, path)
  with tf.Graph().as_default():
    slim.fully_connected(tf.zeros([1, 3]), 2, scope="fc")
    step = v1.train.get_or_create_global_step()
    restore = slim.assign_from_checkpoint_fn(
        path, slim.get_variables_to_restore(exclude=["global_step"]))
    with v1.Session() as sess:
      sess.run(v1.global_variables_initializer())
      restore(sess)
      restored, step_value = sess.run([slim.get_variables("fc"), step])
  for got, want in zip(restored, saved):
    np.testing.assert_array_equal(got, want)
  assert step_value == 0  # excluded


def test_legacy_slim_script_trains_under_tf1clip_run_and_check_calls_it_provided():
  # slim.learning.train's Supervisor threads need a graph-mode process, as `tf1clip run` makes.
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
  env.pop("TF_USE_LEGACY_KERAS", None)
  proc = subprocess.run([sys.executable, "-m", "tf1clip", "run", "slim_script.py"], cwd=FIXTURES,
                        capture_output=True, text=True, env=env, timeout=600)
  assert proc.returncode == 0, proc.stderr
  result = json.loads(re.search(r"^RESULT (.*)$", proc.stdout, re.M).group(1))
  assert result["slim_module"] == "tf1clip.contrib.slim" and result["slim_is_tf_slim"]
  assert result["final_loss"] < 0.5 * result["first_loss"], result
  assert result["global_step"] == 30 and result["restored"]
  assert "conv1/BatchNorm/moving_mean" in result["model_variables"]
  findings = check.check_source(open(os.path.join(FIXTURES, "slim_script.py")).read())
  slim_findings = {f.symbol: f.status for f in findings if "slim" in f.symbol}
  assert slim_findings and set(slim_findings.values()) == {check.PROVIDED}, slim_findings


def test_script_importing_tf_slim_directly_gets_the_shim_under_tf1clip_run():
  proc = subprocess.run([sys.executable, "-m", "tf1clip", "run", "tf_slim_direct.py"], cwd=FIXTURES,
                        capture_output=True, text=True, timeout=300)
  assert proc.returncode == 0, proc.stderr[-3000:]
  assert "TF_SLIM_DIRECT (4, 3, 3, 2)" in proc.stdout

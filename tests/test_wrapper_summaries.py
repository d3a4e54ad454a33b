"""Every wrapper records the documented tf1clip/ scalars (summaries=), read back with tensorboard's reader.

Graph mode: summary ops from `tf.compat.v1.summary.merge_all()` written with a FileWriter; TF2: the
default `tf.summary` writer. Values are checked against numpy norms of the fed gradients; summaries=False
writes nothing and the default adds no variable in graph mode (checkpoints unchanged).
"""

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from tf1clip import summaries
from tf1clip import transforms
from tf1clip import v2

from event_files import read_scalars


def _values(got, tag):
  return [v for _, v in got[tag]]


# Gradients of w fed step by step (loss = w . g, so the gradient is g).
GRADS = [np.array([3.0, 4.0, 0.0]), np.array([0.3, 0.4, 0.0]), np.array([np.nan, 0.0, 0.0]),
         np.array([6.0, 8.0, 0.0])]


def _graph_train(tmp_path, make_opt, grads=GRADS):
  """Trains w with `make_opt()`; returns (scalars by tag or None, global variable names)."""
  with tf.Graph().as_default():
    w = tf.compat.v1.get_variable("w", initializer=tf.zeros([3]))
    g = tf.compat.v1.placeholder(tf.float32, [3])
    step = tf.compat.v1.train.get_or_create_global_step()
    train = make_opt().minimize(tf.reduce_sum(w * g), global_step=step)
    merged = tf.compat.v1.summary.merge_all()
    names = sorted(v.op.name for v in tf.compat.v1.global_variables())
    if merged is None:
      return None, names
    writer = tf.compat.v1.summary.FileWriter(str(tmp_path))
    with tf.compat.v1.Session() as sess:
      sess.run(tf.compat.v1.global_variables_initializer())
      for i, x in enumerate(grads):
        _, s = sess.run([train, merged], {g: x})
        writer.add_summary(s, i)
    writer.close()
  return read_scalars(str(tmp_path)), names


def _sgd():
  return tf.compat.v1.train.GradientDescentOptimizer(0.1)


def test_graph_default_records_norms_without_adding_variables(tmp_path):
  got, names = _graph_train(tmp_path, lambda: tf1clip.WrappedOptimizer(
      _sgd(), [transforms.clip_by_global_norm(1.0)]))
  _, names_off = _graph_train(tmp_path / "off", lambda: tf1clip.WrappedOptimizer(
      _sgd(), [transforms.clip_by_global_norm(1.0)], summaries=False))
  assert names == names_off == ["global_step", "w"]  # checkpoints unchanged by the default
  np.testing.assert_allclose(_values(got, "tf1clip/global_norm"), [5.0, 0.5, np.nan, 10.0],
                             rtol=1e-6)
  np.testing.assert_allclose(_values(got, "tf1clip/clipped_global_norm"), [1.0, 0.5, np.nan, 1.0],
                             rtol=1e-6)
  assert _values(got, "tf1clip/clipped") == [1.0, 0.0, 0.0, 1.0]
  assert _values(got, "tf1clip/clip_threshold") == [1.0] * 4
  assert "tf1clip/clip_rate" not in got  # needs counters: summaries=True


def test_graph_summaries_true_counts_clip_rate_and_skipped_steps(tmp_path):
  opts = []

  def make():
    opts.append(tf1clip.WrappedOptimizer(_sgd(), [transforms.clip_by_global_norm(1.0)],
                                         skip_non_finite=True, summaries=True))
    return opts[-1]

  got, names = _graph_train(tmp_path, make)
  assert "GradientDescent_summaries/steps" in names
  # Clip rate after each step: clipped 1/1, 1/2, 1/3 (NaN is not clipped), 2/4.
  np.testing.assert_allclose(_values(got, "tf1clip/clip_rate"), [1.0, 0.5, 1 / 3, 0.5],
                             rtol=1e-6)
  # Fetched beside the train op: the counter before or after this step's update.
  skipped = _values(got, "tf1clip/skipped_steps")
  assert skipped[:2] == [0.0, 0.0] and skipped[3] == 1.0 and skipped[2] in (0.0, 1.0)


def test_graph_summaries_false_and_no_transforms_write_nothing(tmp_path):
  got, _ = _graph_train(tmp_path, lambda: tf1clip.WrappedOptimizer(
      _sgd(), [transforms.clip_by_global_norm(1.0)], skip_non_finite=True, summaries=False))
  assert got is None  # no summary op at all: merge_all() is None
  got, _ = _graph_train(tmp_path / "empty", lambda: tf1clip.WrappedOptimizer(_sgd()))
  assert got is None  # an empty chain is not observed by default


def test_clip_gradients_by_norm_records_per_variable_norms(tmp_path):
  got, _ = _graph_train(tmp_path, lambda: tf1clip.clip_gradients_by_norm(
      _sgd(), 1.0, summaries="per_variable"), grads=GRADS[:2])
  np.testing.assert_allclose(_values(got, "tf1clip/norm/w"), [5.0, 0.5], rtol=1e-6)
  np.testing.assert_allclose(_values(got, "tf1clip/clip_rate"), [1.0, 0.5], rtol=1e-6)


def test_observing_clip_by_global_norm_computes_the_norm_once():
  def sqrt_ops(summaries_arg):
    with tf.Graph().as_default() as graph:
      w = tf.compat.v1.get_variable("w", initializer=tf.zeros([3]))
      opt = tf1clip.WrappedOptimizer(_sgd(), [transforms.clip_by_global_norm(1.0)],
                                     summaries=summaries_arg)
      opt.minimize(tf.reduce_sum(w * w))
      return len([op for op in graph.get_operations() if op.type == "Sqrt"])

  assert sqrt_ops(None) == sqrt_ops(False) == 1


def test_accumulation_records_window_progress_and_mean_norms(tmp_path):
  grads = [np.array([3.0, 4.0, 0.0]), np.array([9.0, 12.0, 0.0]),
           np.array([0.3, 0.4, 0.0]), np.array([0.3, 0.4, 0.0])]
  got, _ = _graph_train(tmp_path, lambda: tf1clip.GradientAccumulationOptimizer(
      _sgd(), 2, [transforms.clip_by_global_norm(1.0)], summaries=True), grads=grads)
  # Read beside the train op in one run: the window before or after this run's micro-step.
  assert set(_values(got, "tf1clip/accumulation/micro_step")) <= {0.0, 1.0, 2.0}
  assert set(_values(got, "tf1clip/accumulation/window_fill")) <= {0.0, 0.5, 1.0}
  # The norms are the window means' (10, then 0.5), written from the observer's state.
  norms = _values(got, "tf1clip/global_norm")
  assert all(np.isclose(n, [0.0, 10.0, 0.5], rtol=1e-6).any() for n in norms), norms
  assert np.isclose(norms, 10.0, rtol=1e-6).any(), norms


def test_accumulation_default_records_progress_only(tmp_path):
  got, names = _graph_train(tmp_path, lambda: tf1clip.GradientAccumulationOptimizer(
      _sgd(), 2, [transforms.clip_by_global_norm(1.0)]))
  assert "tf1clip/accumulation/micro_step" in got
  assert "tf1clip/global_norm" not in got  # inside the window's tf.cond: needs counters
  assert not [n for n in names if "summaries" in n]


def test_fused_accumulation_records_the_mean_gradient_norm(tmp_path):
  with tf.Graph().as_default():
    x = tf.constant([[3.0, 4.0], [9.0, 12.0]])

    def model_fn(batch):
      w = tf.compat.v1.get_variable("w", initializer=tf.zeros([2]))
      return tf.reduce_mean(tf.reduce_sum(w * batch, axis=1))

    step = tf1clip.fused_accumulation_step(model_fn, x, 2, _sgd(),
                                           transforms=[transforms.clip_by_global_norm(1.0)])
    merged = tf.compat.v1.summary.merge_all()
    writer = tf.compat.v1.summary.FileWriter(str(tmp_path))
    with tf.compat.v1.Session() as sess:
      sess.run(tf.compat.v1.global_variables_initializer())
      _, s = sess.run([step.train_op, merged])
      writer.add_summary(s, 0)
    writer.close()
  got = read_scalars(str(tmp_path))
  np.testing.assert_allclose(_values(got, "tf1clip/global_norm"), [10.0], rtol=1e-6)
  assert _values(got, "tf1clip/clipped") == [1.0]


def _tf2_run(tmp_path, make_opt, with_writer=True, grads=GRADS):
  w = tf.Variable(tf.zeros([3]))
  opt = make_opt()

  @tf.function
  def step(g):
    return opt.apply_gradients([(g, w)])

  writer = tf.summary.create_file_writer(str(tmp_path))
  if with_writer:
    with writer.as_default():
      for x in grads:
        step(tf.constant(x, tf.float32))
  else:
    for x in grads:
      step(tf.constant(x, tf.float32))
  writer.close()
  return read_scalars(str(tmp_path)), opt


def _keras_sgd():
  import tf_keras  # pylint: disable=g-import-not-at-top
  return tf_keras.optimizers.SGD(0.1)


def test_v2_wrapper_writes_to_the_default_writer(tmp_path):
  got, _ = _tf2_run(tmp_path, lambda: v2.WrappedOptimizer(
      _keras_sgd(), [transforms.clip_by_global_norm(1.0)], skip_non_finite=True))
  # Steps are the observer's count of transformed steps (no tf.summary step set).
  assert [s for s, _ in got["tf1clip/global_norm"]] == [1, 2, 3, 4]
  np.testing.assert_allclose(_values(got, "tf1clip/global_norm"), [5.0, 0.5, np.nan, 10.0],
                             rtol=1e-6)
  np.testing.assert_allclose(_values(got, "tf1clip/clip_rate"), [1.0, 0.5, 1 / 3, 0.5],
                             rtol=1e-6)
  assert _values(got, "tf1clip/skipped_steps") == [0.0, 0.0, 1.0, 1.0]


def test_v2_wrapper_without_writer_or_with_summaries_false_records_nothing(tmp_path):
  got, opt = _tf2_run(tmp_path, lambda: v2.WrappedOptimizer(
      _keras_sgd(), [transforms.clip_by_global_norm(1.0)]), with_writer=False)
  assert got == {} and opt._observer is None  # pylint: disable=protected-access
  got, opt = _tf2_run(tmp_path / "off", lambda: v2.WrappedOptimizer(
      _keras_sgd(), [transforms.clip_by_global_norm(1.0)], summaries=False))
  assert got == {} and opt._observer is None  # pylint: disable=protected-access
  assert not opt._transform_variables  # pylint: disable=protected-access


def test_v2_accumulation_records_progress_and_window_norms(tmp_path):
  grads = [np.array([3.0, 4.0, 0.0]), np.array([9.0, 12.0, 0.0])] * 2
  got, _ = _tf2_run(tmp_path, lambda: v2.GradientAccumulationOptimizer(
      _keras_sgd(), 2, [transforms.clip_by_global_norm(1.0)]), grads=grads)
  assert _values(got, "tf1clip/accumulation/micro_step") == [1.0, 0.0, 1.0, 0.0]
  assert _values(got, "tf1clip/accumulation/window_fill") == [0.5, 0.0, 0.5, 0.0]
  np.testing.assert_allclose(_values(got, "tf1clip/global_norm"), [10.0, 10.0], rtol=1e-6)


def test_bad_summaries_argument_names_itself():
  with pytest.raises(ValueError, match="`summaries` must be None"):
    tf1clip.WrappedOptimizer(_sgd(), summaries="yes")
  with pytest.raises(ValueError, match="`summaries` must be None"):
    summaries.check_summaries(1)


def test_reading_state_only_never_reads_the_gradients(tmp_path):
  # As inside SyncReplicasOptimizer: a summary fetch must not pull the gradient tensors again.
  with tf.Graph().as_default():
    w = tf.compat.v1.get_variable("w", initializer=tf.zeros([3]))
    g = tf.compat.v1.placeholder(tf.float32, [3])
    with summaries.reading_state_only():
      tf1clip.WrappedOptimizer(_sgd(), [transforms.clip_by_global_norm(1.0)]).minimize(
          tf.reduce_sum(w * g))
    assert tf.compat.v1.summary.merge_all() is None  # the default records nothing there
    with summaries.reading_state_only():
      tf1clip.WrappedOptimizer(_sgd(), [transforms.clip_by_global_norm(1.0)],
                               summaries=True).minimize(tf.reduce_sum(w * g))
    merged = tf.compat.v1.summary.merge_all()
    with tf.compat.v1.Session() as sess:
      sess.run(tf.compat.v1.global_variables_initializer())
      sess.run(merged)  # no feed needed: the summaries read only the observer's variables

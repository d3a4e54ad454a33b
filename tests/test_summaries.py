"""Recording the pipeline: tf1clip/ summaries in graph mode (SUMMARIES collection) and TF2
(the default writer), read back with tensorboard's event reader."""

import glob
import math

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from tf1clip import adaptive
from tf1clip import summaries
from tf1clip import transforms

from event_files import read_scalars


def test_tf2_summary_writes_an_event_file_tensorboard_reads(tmp_path):
  writer = tf.summary.create_file_writer(str(tmp_path))
  with writer.as_default():
    for step in range(3):
      assert tf.summary.scalar("loss", 1.0 / (step + 1), step=step)
  writer.close()
  assert glob.glob(str(tmp_path / "events.out.tfevents.*"))
  assert read_scalars(str(tmp_path))["loss"] == [(0, 1.0), (1, 0.5), (2, pytest.approx(1 / 3))]


def _graph_run(tmp_path, make_transform, gradients, skip_non_finite=False):
  """Trains y = w . x with a wrapped SGD; returns (scalars by tag, per-step grad norms)."""
  with tf.Graph().as_default():
    w = tf.compat.v1.get_variable("w", initializer=tf.zeros([3]))
    b = tf.compat.v1.get_variable("b", initializer=tf.zeros([]))
    g_w = tf.compat.v1.placeholder(tf.float32, [3])
    # A loss whose gradient is the fed vector: d(w . g)/dw = g.
    loss = tf.reduce_sum(w * g_w) + 0.0 * b
    t = make_transform()
    t.build([w, b])
    opt = tf1clip.WrappedOptimizer(tf.compat.v1.train.GradientDescentOptimizer(0.1), [t],
                                   skip_non_finite=skip_non_finite)
    step = tf.compat.v1.train.get_or_create_global_step()
    train = opt.minimize(loss, global_step=step)
    merged = tf.compat.v1.summary.merge_all()
    assert merged is not None
    writer = tf.compat.v1.summary.FileWriter(str(tmp_path))
    with tf.compat.v1.Session() as sess:
      sess.run(tf.compat.v1.global_variables_initializer())
      for i, g in enumerate(gradients):
        _, s = sess.run([train, merged], {g_w: g})
        writer.add_summary(s, i)
    writer.close()
  return read_scalars(str(tmp_path))


def test_graph_mode_observed_autoclip_records_norms_and_clip_rate(tmp_path):
  grads = [np.array([3.0, 4.0, 0.0]), np.array([0.3, 0.4, 0.0]), np.array([30.0, 40.0, 0.0]),
           np.array([1.0, 0.0, 0.0])]
  got = _graph_run(tmp_path, lambda: summaries.observe(adaptive.autoclip(50.0, history=10)),
                   grads)
  norms = [float(np.linalg.norm(g)) for g in grads]
  seen, thresholds = [], []
  for n in norms:
    seen.append(n)
    thresholds.append(float(np.percentile(seen, 50.0)))
  clipped = [n > t for n, t in zip(norms, thresholds)]
  values = lambda tag: [v for _, v in got[tag]]
  np.testing.assert_allclose(values("tf1clip/global_norm"), norms, rtol=1e-6)
  np.testing.assert_allclose(values("tf1clip/clipped_global_norm"),
                             np.minimum(norms, thresholds), rtol=1e-6)
  assert values("tf1clip/clipped") == [float(c) for c in clipped] == [0, 0, 1, 0]
  np.testing.assert_allclose(values("tf1clip/clip_rate"), np.cumsum(clipped) / np.arange(1, 5))
  np.testing.assert_allclose(values("tf1clip/clip_threshold")[2:], thresholds[2:], rtol=1e-6)
  assert not any(tag.startswith("tf1clip/norm/") for tag in got)  # opt-in only


def test_graph_mode_observed_plain_clip_and_per_variable_norms(tmp_path):
  grads = [np.array([3.0, 4.0, 0.0]), np.array([0.6, 0.8, 0.0])]
  got = _graph_run(
      tmp_path,
      lambda: summaries.observe(transforms.clip_by_global_norm(1.0), per_variable_norms=True),
      grads)
  assert [v for _, v in got["tf1clip/clipped"]] == [1.0, 0.0]
  np.testing.assert_allclose([v for _, v in got["tf1clip/clipped_global_norm"]], [1.0, 1.0],
                             rtol=1e-6)
  np.testing.assert_allclose([v for _, v in got["tf1clip/norm/w"]], [5.0, 1.0], rtol=1e-6)
  assert [v for _, v in got["tf1clip/norm/b"]] == [0.0, 0.0]
  # clip_by_global_norm reports its clip_norm (with_stats), so the report can draw it.
  assert [v for _, v in got["tf1clip/clip_threshold"]] == [1.0, 1.0]


def test_graph_mode_inside_skip_non_finite_cond_still_records(tmp_path):
  grads = [np.array([3.0, 4.0, 0.0]), np.array([0.3, 0.4, 0.0])]
  got = _graph_run(tmp_path, lambda: summaries.observe(transforms.clip_by_global_norm(1.0)),
                   grads, skip_non_finite=True)
  # Read beside the train op in one run: the value of this step or of the one before.
  assert set(got) >= {"tf1clip/global_norm", "tf1clip/clip_rate", "tf1clip/clipped"}
  assert len(got["tf1clip/global_norm"]) == 2
  assert all(v in (0.0, 5.0, pytest.approx(0.5)) for _, v in got["tf1clip/global_norm"])


@pytest.mark.parametrize("use_function", [False, True])
def test_tf2_observed_zclip_writes_to_the_default_writer(tmp_path, use_function):
  w = tf.Variable(tf.zeros([2]))
  t = summaries.observe(adaptive.zclip(warmup_steps=2, z_thresh=1.0), per_variable_norms=True)
  t.build([w])

  def step(g):
    return t([(g, w)])[0][0]

  fn = tf.function(step) if use_function else step
  norms = [1.0, 1.1, 1.0, 50.0]
  writer = tf.summary.create_file_writer(str(tmp_path))
  with writer.as_default():
    outs = [fn(tf.constant([n, 0.0])).numpy() for n in norms]
  writer.close()
  got = read_scalars(str(tmp_path))
  assert [s for s, _ in got["tf1clip/global_norm"]] == [1, 2, 3, 4]  # the observer's steps
  np.testing.assert_allclose([v for _, v in got["tf1clip/global_norm"]], norms, rtol=1e-6)
  assert [v for _, v in got["tf1clip/clipped"]] == [0, 0, 0, 1]
  assert got["tf1clip/clip_rate"][-1][1] == pytest.approx(0.25)
  assert outs[-1][0] < 50.0 and got["tf1clip/clipped_global_norm"][-1][1] == pytest.approx(
      outs[-1][0], rel=1e-6)
  assert "tf1clip/norm/Variable" in got or any(k.startswith("tf1clip/norm/") for k in got)


def test_tf2_without_a_writer_records_nothing_and_still_clips():
  w = tf.Variable(tf.zeros([2]))
  t = summaries.observe(transforms.clip_by_global_norm(1.0))
  t.build([w])
  out = t([(tf.constant([3.0, 4.0]), w)])[0][0]
  np.testing.assert_allclose(out.numpy(), [0.6, 0.8], rtol=1e-6)
  assert int(t.state["clipped_steps"].numpy()) == 1


def test_record_skipped_and_accumulation_in_both_worlds(tmp_path):
  with tf.Graph().as_default():
    skipped = tf.compat.v1.Variable(2, dtype=tf.int64, trainable=False)
    micro = tf.compat.v1.Variable(3, dtype=tf.int64, trainable=False)
    summaries.record_skipped(skipped)
    summaries.record_accumulation(micro, 4)
    merged = tf.compat.v1.summary.merge_all()
    writer = tf.compat.v1.summary.FileWriter(str(tmp_path / "graph"))
    with tf.compat.v1.Session() as sess:
      sess.run(tf.compat.v1.global_variables_initializer())
      writer.add_summary(sess.run(merged), 7)
    writer.close()
  got = read_scalars(str(tmp_path / "graph"))
  assert got["tf1clip/skipped_steps"] == [(7, 2.0)]
  assert got["tf1clip/accumulation/micro_step"] == [(7, 3.0)]
  assert got["tf1clip/accumulation/window_fill"] == [(7, 0.75)]
  writer = tf.summary.create_file_writer(str(tmp_path / "eager"))
  with writer.as_default():
    summaries.record_skipped(tf.Variable(1, dtype=tf.int64), step=5)
    summaries.record_accumulation(tf.constant(1), 2, step=5)
  writer.close()
  got = read_scalars(str(tmp_path / "eager"))
  assert got["tf1clip/skipped_steps"] == [(5, 1.0)]
  assert got["tf1clip/accumulation/window_fill"] == [(5, 0.5)]
  with pytest.raises(ValueError, match="num_micro_batches must be an int >= 1; got 0"):
    summaries.record_accumulation(tf.constant(1), 0)


def test_tags_are_absolute_under_an_outer_name_scope():
  with tf.Graph().as_default():
    w = tf.compat.v1.get_variable("w", [2])
    t = summaries.observe()
    t.build([w])
    with tf.compat.v1.name_scope("OptimizeLoss"):
      t([(tf.ones([2]), w)])
    names = {t.op.name for t in tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.SUMMARIES)}
    assert "tf1clip/global_norm" in names and "tf1clip/clip_rate" in names


def test_observe_rejects_a_non_callable():
  with pytest.raises(TypeError, match="observe\\(\\) expects a transform"):
    summaries.observe(5.0)


def test_v2_wrapped_keras_optimizer_with_observed_zclip_in_tf_function(tmp_path):
  import keras  # pylint: disable=import-outside-toplevel
  import tf1clip.v2  # pylint: disable=import-outside-toplevel
  w = tf.Variable(tf.ones([3]))
  t = summaries.observe(adaptive.zclip(warmup_steps=2))
  t.build([w])  # what the adapters will do before the first trace
  opt = tf1clip.v2.WrappedOptimizer(keras.optimizers.SGD(0.1), [t])
  step = tf.function(lambda x: opt.minimize(lambda: tf.reduce_sum(w * x), [w]))
  writer = tf.summary.create_file_writer(str(tmp_path))
  with writer.as_default():
    for x in [1.0, 1.1, 0.9, 30.0]:
      step(tf.constant([x, 0.0, 0.0]))
  writer.close()
  got = read_scalars(str(tmp_path))
  assert [v for _, v in got["tf1clip/clipped"]] == [0, 0, 0, 1]
  # The spike was applied at ZClip's threshold, not at 30.
  clipped_to = got["tf1clip/clipped_global_norm"][-1][1]
  assert clipped_to < 2.0
  np.testing.assert_allclose(w.numpy()[0], 1.0 - 0.1 * (1.0 + 1.1 + 0.9 + clipped_to),
                             rtol=1e-5)
  # The observer tracks the transform it wraps: one checkpoint holds both states.
  path = tf.train.Checkpoint(t=t).save(str(tmp_path / "ckpt"))
  t2 = summaries.observe(adaptive.zclip(warmup_steps=2))
  t2.build([w])
  tf.train.Checkpoint(t=t2).restore(path).assert_consumed()
  assert int(t2.state["steps"].numpy()) == 4 and int(t2.transform.state["count"].numpy()) == 4


def test_tensorboard_command_is_installed_with_tf1clip():
  import subprocess  # pylint: disable=import-outside-toplevel
  import sys  # pylint: disable=import-outside-toplevel
  proc = subprocess.run([sys.executable, "-m", "tensorboard.main", "--version_tb"],
                        capture_output=True, text=True, timeout=120, check=False)
  assert proc.returncode == 0, proc.stderr[-2000:]
  assert proc.stdout.strip().startswith("2.")

"""GradientAccumulationOptimizer's behaviour: global_step, `applied`, transforms, the
non-finite guard, checkpoints, colocation, UPDATE_OPS and bad input."""

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from tf1clip.accumulation import GradientAccumulationOptimizer

MICRO = 4


def linear_model(batch_size=MICRO, seed=0):
  rng = np.random.default_rng(seed)
  x = tf.compat.v1.placeholder(tf.float32, [batch_size, 3], name="x")
  y = tf.compat.v1.placeholder(tf.float32, [batch_size, 1], name="y")
  w = tf.compat.v1.get_variable("w", initializer=rng.normal(size=(3, 1)).astype("f"))
  b = tf.compat.v1.get_variable("b", initializer=np.zeros(1, "f"))
  loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
  return x, y, [w, b], loss


def batches(count, seed=1, batch_size=MICRO):
  rng = np.random.default_rng(seed)
  return [(rng.normal(size=(batch_size, 3)).astype("f"),
           rng.normal(size=(batch_size, 1)).astype("f")) for _ in range(count)]


def test_applied_is_true_on_every_nth_run_only(graph, sess):
  x, y, _, loss = linear_model()
  opt = GradientAccumulationOptimizer(tf.compat.v1.train.GradientDescentOptimizer(0.1), 3)
  train_op = opt.minimize(loss)
  assert opt.applied.dtype == tf.bool
  sess.run(tf.compat.v1.global_variables_initializer())
  seen = [sess.run([train_op, opt.applied], {x: bx, y: by})[1] for bx, by in batches(7)]
  assert seen == [False, False, True, False, False, True, False]


def test_weights_move_only_when_a_window_completes(graph, sess):
  x, y, (w, _), loss = linear_model()
  train_op = GradientAccumulationOptimizer(
      tf.compat.v1.train.GradientDescentOptimizer(0.1), 2).minimize(loss)
  sess.run(tf.compat.v1.global_variables_initializer())
  w0 = sess.run(w)
  data = batches(2)
  sess.run(train_op, {x: data[0][0], y: data[0][1]})
  np.testing.assert_array_equal(sess.run(w), w0)
  sess.run(train_op, {x: data[1][0], y: data[1][1]})
  assert not np.allclose(sess.run(w), w0)


@pytest.mark.parametrize("count_micro_steps,want", [(False, [0, 0, 1, 1, 1, 2]),
                                                    (True, [1, 2, 3, 4, 5, 6])])
def test_global_step_counts_updates_or_micro_steps(graph, sess, count_micro_steps, want):
  x, y, _, loss = linear_model()
  gs = tf.compat.v1.train.get_or_create_global_step()
  train_op = GradientAccumulationOptimizer(
      tf.compat.v1.train.AdamOptimizer(0.1), 3,
      count_micro_steps=count_micro_steps).minimize(loss, global_step=gs)
  sess.run(tf.compat.v1.global_variables_initializer())
  seen = []
  for bx, by in batches(6):
    sess.run(train_op, {x: bx, y: by})
    seen.append(sess.run(gs))
  assert seen == want


def test_count_micro_steps_still_applies_the_same_update(graph, sess):
  def trained(count_micro_steps):
    with tf.Graph().as_default():
      x, y, variables, loss = linear_model()
      gs = tf.compat.v1.train.get_or_create_global_step()
      train_op = GradientAccumulationOptimizer(
          tf.compat.v1.train.AdamOptimizer(0.1), 2,
          count_micro_steps=count_micro_steps).minimize(loss, global_step=gs)
      with tf.compat.v1.Session() as s:
        s.run(tf.compat.v1.global_variables_initializer())
        for bx, by in batches(4):
          s.run(train_op, {x: bx, y: by})
        return s.run(variables)
  for a, b in zip(trained(False), trained(True)):
    np.testing.assert_allclose(a, b, rtol=1e-6)


def micro_gradients(batch_list):
  """Each micro-batch's gradients of the linear model, from a plain graph."""
  with tf.Graph().as_default():
    x, y, variables, loss = linear_model()
    grads = tf.gradients(loss, variables)
    with tf.compat.v1.Session() as s:
      s.run(tf.compat.v1.global_variables_initializer())
      return [s.run(grads, {x: bx, y: by}) for bx, by in batch_list], s.run(variables)


def clip_global(grads, clip_norm):
  norm = np.sqrt(sum(np.sum(g.astype(np.float64) ** 2) for g in grads))
  return [g * clip_norm / max(norm, clip_norm) for g in grads]


@pytest.mark.parametrize("transform_micro_batches", [False, True])
def test_transforms_act_on_the_mean_or_on_each_micro_batch(graph, sess,
                                                           transform_micro_batches):
  clip_norm, lr, n = 0.1, 1.0, 3
  data = batches(n)
  grads, (w0, b0) = micro_gradients(data)
  if transform_micro_batches:  # clip each contribution, then average
    clipped = [clip_global(g, clip_norm) for g in grads]
    update = [np.mean([c[i] for c in clipped], axis=0) for i in range(2)]
  else:  # average (the big batch's gradient), then clip the update
    update = clip_global([np.mean([g[i] for g in grads], axis=0) for i in range(2)], clip_norm)
  x, y, (w, b), loss = linear_model()
  train_op = GradientAccumulationOptimizer(
      tf.compat.v1.train.GradientDescentOptimizer(lr), n,
      transforms=[tf1clip.transforms.clip_by_global_norm(clip_norm)],
      transform_micro_batches=transform_micro_batches).minimize(loss)
  sess.run(tf.compat.v1.global_variables_initializer())
  for bx, by in data:
    sess.run(train_op, {x: bx, y: by})
  np.testing.assert_allclose(sess.run(w), w0 - lr * update[0], rtol=1e-5, atol=1e-7)
  np.testing.assert_allclose(sess.run(b), b0 - lr * update[1], rtol=1e-5, atol=1e-7)


def test_micro_batch_transforms_that_freeze_a_variable_leave_it_unaccumulated(graph, sess):
  x, y, (w, b), loss = linear_model()
  opt = GradientAccumulationOptimizer(
      tf.compat.v1.train.GradientDescentOptimizer(0.1), 2,
      transforms=[tf1clip.transforms.freeze([b])], transform_micro_batches=True)
  train_op = opt.minimize(loss)
  assert [v.op.name for v in opt.variables()] == ["w/GradientAccumulation",
                                                  "GradientAccumulation_micro_step"]
  sess.run(tf.compat.v1.global_variables_initializer())
  b0 = sess.run(b)
  for bx, by in batches(2):
    sess.run(train_op, {x: bx, y: by})
  np.testing.assert_array_equal(sess.run(b), b0)


def test_non_finite_micro_batch_drops_the_whole_window(graph, sess):
  x, y, (w, b), loss = linear_model()
  gs = tf.compat.v1.train.get_or_create_global_step()
  adam = tf.compat.v1.train.AdamOptimizer(0.1)
  opt = GradientAccumulationOptimizer(adam, 3, skip_non_finite=True)
  train_op = opt.minimize(loss, global_step=gs)
  sess.run(tf.compat.v1.global_variables_initializer())
  tracked = [w, b, gs, adam.get_slot(w, "m"), adam.get_slot(w, "v")] + list(
      adam._get_beta_accumulators())  # pylint: disable=protected-access
  before = sess.run(tracked)
  data = batches(6)
  bad_x = data[1][0].copy()
  bad_x[0, 0] = np.nan
  window = [data[0], (bad_x, data[1][1]), data[2]]
  applied = [sess.run([train_op, opt.applied], {x: bx, y: by})[1] for bx, by in window]
  assert applied == [False, False, False]
  for got, want in zip(sess.run(tracked), before):
    np.testing.assert_array_equal(got, want)
  assert sess.run(opt.skipped_windows) == 1
  assert sess.run(opt.micro_step) == 0
  # The accumulators were reset: the next window is an ordinary first update.
  applied = [sess.run([train_op, opt.applied], {x: bx, y: by})[1] for bx, by in data[3:]]
  assert applied == [False, False, True]
  with tf.Graph().as_default():
    x2, y2, variables2, loss2 = linear_model()
    train2 = GradientAccumulationOptimizer(tf.compat.v1.train.AdamOptimizer(0.1), 3).minimize(
        loss2)
    with tf.compat.v1.Session() as s2:
      s2.run(tf.compat.v1.global_variables_initializer())
      for bx, by in data[3:]:
        s2.run(train2, {x2: bx, y2: by})
      want = s2.run(variables2)
  for got, w_ in zip(sess.run([w, b]), want):
    np.testing.assert_allclose(got, w_, rtol=1e-6)
  assert sess.run(gs) == 1


def test_state_is_saved_by_saver_and_not_trainable(graph):
  _, _, _, loss = linear_model()
  opt = GradientAccumulationOptimizer(tf.compat.v1.train.MomentumOptimizer(0.1, 0.9), 2,
                                      skip_non_finite=True)
  opt.minimize(loss)
  state = [v for v in opt.variables() if "GradientAccumulation" in v.op.name]
  assert {v.op.name for v in state} == {
      "w/GradientAccumulation", "b/GradientAccumulation", "GradientAccumulation_micro_step",
      "GradientAccumulation_skipped_steps"}
  global_vars = set(tf.compat.v1.global_variables())
  trainable = set(tf.compat.v1.trainable_variables())
  for v in state:
    assert v in global_vars and v not in trainable
  saveable = tf.compat.v1.train.Saver()._var_list  # pylint: disable=protected-access
  assert {v.op.name for v in state} <= {v.op.name for v in saveable}


def run_trajectory(tmp_path, split_at, total, n=4):
  """Trains `total` micro-steps, saving after `split_at` and resuming in a fresh graph."""
  data = batches(total, seed=5)
  ckpt = str(tmp_path / "mid_window")

  def build():
    x, y, variables, loss = linear_model()
    gs = tf.compat.v1.train.get_or_create_global_step()
    opt = GradientAccumulationOptimizer(tf.compat.v1.train.AdamOptimizer(0.1), n)
    return x, y, variables + [gs], opt.minimize(loss, global_step=gs)

  trajectory = []
  with tf.Graph().as_default():
    x, y, variables, train_op = build()
    saver = tf.compat.v1.train.Saver()
    with tf.compat.v1.Session() as s:
      s.run(tf.compat.v1.global_variables_initializer())
      for bx, by in data[:split_at]:
        s.run(train_op, {x: bx, y: by})
        trajectory.append(s.run(variables))
      saver.save(s, ckpt)
  with tf.Graph().as_default():
    x, y, variables, train_op = build()
    saver = tf.compat.v1.train.Saver()
    with tf.compat.v1.Session() as s:
      saver.restore(s, ckpt)
      for bx, by in data[split_at:]:
        s.run(train_op, {x: bx, y: by})
        trajectory.append(s.run(variables))
  return trajectory


def test_checkpoint_mid_window_resumes_the_identical_trajectory(tmp_path):
  straight = run_trajectory(tmp_path / "a", split_at=10, total=10)
  resumed = run_trajectory(tmp_path / "b", split_at=6, total=10)  # 2 of 4 into a window
  assert len(straight) == len(resumed) == 10
  for step, (a, b) in enumerate(zip(straight, resumed)):
    for va, vb in zip(a, b):
      np.testing.assert_array_equal(va, vb, err_msg="micro-step %d" % step)
  assert straight[-1][-1] == 2  # global_step: two applied updates in ten micro-steps


def test_accumulators_are_colocated_with_their_variables(graph):
  with tf.device("/GPU:0"):
    _, _, variables, loss = linear_model()
  opt = GradientAccumulationOptimizer(tf.compat.v1.train.AdagradOptimizer(0.1), 2)
  opt.minimize(loss)
  accums = {v.op.name: v for v in opt.variables()}
  for var in variables:
    accum = accums[var.op.name + "/GradientAccumulation"]
    assert ("loc:@" + var.op.name).encode() in accum.op.colocation_groups()
    assert accum.device == var.device and "GPU:0" in accum.device
  config = tf.compat.v1.ConfigProto(allow_soft_placement=True)
  with tf.compat.v1.Session(config=config) as s:  # placeable on a CPU-only machine
    s.run(tf.compat.v1.global_variables_initializer())


def test_sparse_accumulators_are_named_after_and_colocated_with_the_embedding(graph):
  emb = tf.compat.v1.get_variable("model/embedding", initializer=tf.ones([5, 2]))
  ids = tf.compat.v1.placeholder(tf.int32, [None])
  loss = tf.reduce_sum(tf.gather(emb, ids))
  opt = GradientAccumulationOptimizer(tf.compat.v1.train.GradientDescentOptimizer(0.1), 2)
  opt.minimize(loss)
  names = sorted(v.op.name for v in opt.variables())
  assert names == ["GradientAccumulation_micro_step", "model/embedding/GradientAccumulation",
                   "model/embedding/GradientAccumulation_rows"]
  for v in opt.variables()[:2]:
    assert b"loc:@model/embedding" in v.op.colocation_groups()


def test_update_ops_run_on_every_micro_batch(graph, sess):
  x, y, _, loss = linear_model()
  # A batch-norm style moving statistic: one update op per forward pass.
  runs = tf.compat.v1.get_variable("moving_count", initializer=0.0, trainable=False)
  tf.compat.v1.add_to_collection(tf.compat.v1.GraphKeys.UPDATE_OPS,
                                 tf.compat.v1.assign_add(runs, 1.0))
  update_ops = tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS)
  with tf.control_dependencies(update_ops):
    train_op = GradientAccumulationOptimizer(
        tf.compat.v1.train.GradientDescentOptimizer(0.1), 4).minimize(loss)
  sess.run(tf.compat.v1.global_variables_initializer())
  for bx, by in batches(6):
    sess.run(train_op, {x: bx, y: by})
  assert sess.run(runs) == 6


def test_train_op_collection_holds_only_the_accumulation_step(graph):
  _, _, _, loss = linear_model()
  train_op = GradientAccumulationOptimizer(
      tf.compat.v1.train.AdamOptimizer(0.1), 2, skip_non_finite=True).minimize(loss)
  assert tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.TRAIN_OP) == [train_op]
  assert train_op.name == "GradientAccumulation"


def test_slots_keep_the_inner_optimizers_names(graph):
  _, _, (w, _), loss = linear_model()
  adam = tf.compat.v1.train.AdamOptimizer(0.1)
  opt = GradientAccumulationOptimizer(adam, 2)
  opt.minimize(loss)
  assert opt.get_slot_names() == ["m", "v"]
  assert opt.get_slot(w, "m").op.name == "w/Adam"
  assert {v.op.name for v in adam.variables()} <= {v.op.name for v in opt.variables()}


@pytest.mark.parametrize("bad", [0, -2, 2.0, True, "4", None, np.float32(3)])
def test_bad_num_micro_batches_raises_value_error_naming_it(bad):
  with pytest.raises(ValueError, match="num_micro_batches"):
    GradientAccumulationOptimizer(tf.compat.v1.train.GradientDescentOptimizer(0.1), bad)


def test_numpy_int_num_micro_batches_is_accepted():
  opt = GradientAccumulationOptimizer(tf.compat.v1.train.GradientDescentOptimizer(0.1),
                                      np.int64(4))
  assert opt.num_micro_batches == 4 and type(opt.num_micro_batches) is int


def test_not_an_optimizer_raises_type_error():
  with pytest.raises(TypeError, match="optimizer"):
    GradientAccumulationOptimizer(tf.keras.optimizers.SGD(0.1), 2)


def test_no_gradient_for_any_variable_raises(graph):
  w = tf.compat.v1.get_variable("w", initializer=1.0)
  with pytest.raises(ValueError, match="No gradients"):
    GradientAccumulationOptimizer(tf.compat.v1.train.GradientDescentOptimizer(0.1), 2
                                  ).apply_gradients([(None, w)])


def test_building_never_calls_initialized_value(graph, sess, monkeypatch):
  def refuse(self):
    raise AssertionError("initialized_value() called on %s" % self.name)
  monkeypatch.setattr(tf.compat.v1.Variable, "initialized_value", refuse)
  monkeypatch.setattr(tf.Variable, "initialized_value", refuse)
  x, y, _, loss = linear_model()
  train_op = GradientAccumulationOptimizer(tf.compat.v1.train.AdamOptimizer(0.1), 2
                                           ).minimize(loss)
  sess.run(tf.compat.v1.global_variables_initializer())
  for bx, by in batches(2):
    sess.run(train_op, {x: bx, y: by})


@pytest.mark.parametrize("skip_non_finite", [False, True])
def test_inner_variable_names_match_the_unwrapped_optimizer_under_a_name_scope(skip_non_finite):
  def names(wrap):
    with tf.Graph().as_default():
      _, _, _, loss = linear_model()
      with tf.name_scope("train"):
        opt = tf.compat.v1.train.AdamOptimizer(0.1)
        if wrap:
          opt = GradientAccumulationOptimizer(opt, 2, skip_non_finite=skip_non_finite)
        opt.minimize(loss)
      return {v.op.name for v in tf.compat.v1.global_variables()
              if "GradientAccumulation" not in v.op.name}
  assert names(True) == names(False)
  assert "train/beta1_power" in names(False)


def test_eager_use_raises_and_points_to_the_tf2_path():
  w = tf.Variable(1.0)
  opt = GradientAccumulationOptimizer(tf.compat.v1.train.GradientDescentOptimizer(0.1), 2)
  with pytest.raises(RuntimeError, match="tf1clip.v2"):
    opt.apply_gradients([(tf.constant(1.0), w)])


def test_a_stateful_transform_on_the_mean_is_built_outside_the_window_cond(graph, sess):
  # adaptive_clipping_fn keeps moving statistics; they must exist before the tf.cond that applies
  # the window's mean, in GLOBAL_VARIABLES (Saver), and move once per applied window.
  x, y, (w, b), loss = linear_model()
  opt = GradientAccumulationOptimizer(
      tf.compat.v1.train.GradientDescentOptimizer(0.1), 2,
      transforms=[tf1clip.adaptive_clipping_fn(decay=0.5)], skip_non_finite=True)
  train_op = opt.minimize(loss)
  stats = [v for v in tf.compat.v1.global_variables() if "AdaptiveMaxNorm" in v.op.name]
  assert sorted(v.op.name for v in stats) == ["AdaptiveMaxNorm/mean", "AdaptiveMaxNorm/sq_mean"]
  for v in stats:  # created at the top level, not inside a cond branch
    assert v.op._control_flow_context is None  # pylint: disable=protected-access
  sess.run(tf.compat.v1.global_variables_initializer())
  means = []
  for bx, by in batches(4):
    sess.run(train_op, {x: bx, y: by})
    means.append(sess.run(stats[0]))
  assert means[0] == 0 and means[1] != 0 and means[2] == means[1] and means[3] != means[2]

"""The wrapper optimizer (tf1clip.WrappedOptimizer) and clip_gradients_by_norm, in graph mode as TF1 code uses them."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from tf1clip import transforms

V1 = tf.compat.v1


def _model(seed=0):
  """A dense layer and an embedding looked up with a duplicate id: dense and sparse gradients."""
  rng = np.random.RandomState(seed)
  x = V1.placeholder(tf.float32, [None, 3], name="x")
  ids = V1.placeholder(tf.int32, [None], name="ids")
  with V1.variable_scope("dense"):
    w = V1.get_variable("w", initializer=rng.normal(size=(3, 2)).astype(np.float32))
    b = V1.get_variable("b", initializer=np.zeros(2, np.float32))
  with V1.variable_scope("embed"):
    e = V1.get_variable("e", initializer=rng.normal(size=(6, 2)).astype(np.float32))
  h = tf.matmul(x, w) + b + tf.gather(e, ids)
  loss = tf.reduce_mean(tf.square(h - 1.0)) * 20.0
  return loss, [w, b, e], x, ids


def _feeds(x, ids, steps=4, seed=1, bad_step=None, id_values=(0, 2, 4, 5)):
  rng = np.random.RandomState(seed)
  out = []
  for i in range(steps):
    xv = rng.normal(size=(4, 3)).astype(np.float32) * 3
    if i == bad_step:
      xv[0, 0] = np.nan
    out.append({x: xv, ids: np.array(id_values)})
  return out


def _train(make_train_op, steps=4, bad_step=None, id_values=(0, 2, 4, 5)):
  """Builds a fresh graph, runs `steps` steps; returns final values of vars, slots and global step."""
  with tf.Graph().as_default():
    loss, var_list, x, ids = _model()
    gs = V1.train.get_or_create_global_step()
    opt, train_op = make_train_op(loss, var_list, gs)
    with V1.Session() as sess:
      sess.run(V1.global_variables_initializer())
      for feed in _feeds(x, ids, steps, bad_step=bad_step, id_values=id_values):
        sess.run(train_op, feed)
      variables = V1.global_variables()
      values = dict(zip([v.op.name for v in variables], sess.run(variables)))
  return opt, values


def _assert_same_values(a, b, rtol=0.0, skip=()):
  assert sorted(k for k in a if k not in skip) == sorted(k for k in b if k not in skip)
  for k in a:
    if k not in skip:
      np.testing.assert_allclose(a[k], b[k], rtol=rtol, err_msg=k)


def _adam():
  return V1.train.AdamOptimizer(0.05)


def test_wrapped_adam_without_transforms_is_plain_adam():
  def plain(loss, var_list, gs):
    opt = _adam()
    return opt, opt.minimize(loss, gs)

  def wrapped(loss, var_list, gs):
    opt = tf1clip.WrappedOptimizer(_adam())
    return opt, opt.minimize(loss, gs)
  _, a = _train(plain)
  _, b = _train(wrapped)
  _assert_same_values(a, b)


def test_clip_gradients_by_norm_equals_the_hand_written_three_steps():
  def hand_written(loss, var_list, gs):
    opt = _adam()
    grads, variables = zip(*opt.compute_gradients(loss))
    clipped, _ = tf.clip_by_global_norm(grads, 1.5)
    return opt, opt.apply_gradients(zip(clipped, variables), gs)

  def one_line(loss, var_list, gs):
    opt = tf1clip.clip_gradients_by_norm(_adam(), 1.5)
    return opt, opt.minimize(loss, gs)
  _, a = _train(hand_written)
  _, b = _train(one_line)
  _assert_same_values(a, b, rtol=1e-5)


def test_clip_gradients_by_norm_with_repeated_ids_clips_the_summed_embedding_gradient():
  # tf.clip_by_global_norm would measure the un-summed IndexedSlices values; tf1clip measures
  # the gradient itself (duplicate rows summed), i.e. densify-then-clip, and stays sparse.
  def densify_then_clip(loss, var_list, gs):
    opt = _adam()
    grads, variables = zip(*opt.compute_gradients(loss))
    norm = tf.linalg.global_norm([tf.convert_to_tensor(g) for g in grads])
    clipped, _ = tf.clip_by_global_norm(grads, 1.5, use_norm=norm)
    return opt, opt.apply_gradients(zip(clipped, variables), gs)

  def one_line(loss, var_list, gs):
    opt = tf1clip.clip_gradients_by_norm(_adam(), 1.5)
    return opt, opt.minimize(loss, gs)
  _, a = _train(densify_then_clip, id_values=(0, 2, 2, 5))
  _, b = _train(one_line, id_values=(0, 2, 2, 5))
  _assert_same_values(a, b, rtol=1e-5)


def test_clip_gradients_by_norm_is_named_ClipByNorm_plus_inner_name(graph):
  assert tf1clip.clip_gradients_by_norm(_adam(), 1.0).get_name() == "ClipByNormAdam"
  assert tf1clip.clip_gradients_by_norm(_adam(), 1.0, name="Mine").get_name() == "Mine"
  assert tf1clip.WrappedOptimizer(_adam()).get_name() == "Adam"


def test_clip_gradients_by_norm_keeps_embedding_gradient_sparse(graph):
  loss, _, _, _ = _model()
  opt = tf1clip.clip_gradients_by_norm(_adam(), 1.0)
  gv = transforms.chain(*opt.transforms)(opt.compute_gradients(loss))
  assert isinstance(gv[2][0], tf.IndexedSlices)


@pytest.mark.parametrize("not_an_optimizer", [
    "Adam", V1.train.AdamOptimizer, tf.keras.optimizers.SGD])
def test_wrapping_something_that_is_not_an_optimizer_raises_type_error_naming_its_type(
    not_an_optimizer):
  name = type(not_an_optimizer).__name__
  with pytest.raises(TypeError, match="got a %s" % name):
    tf1clip.clip_gradients_by_norm(not_an_optimizer, 1.0)
  with pytest.raises(TypeError, match="got a %s" % name):
    tf1clip.WrappedOptimizer(not_an_optimizer)


@pytest.mark.parametrize("bad", [0.0, -2, -0.5])
def test_non_positive_clip_norm_raises_value_error(bad):
  with pytest.raises(ValueError, match="`clip_norm` must be > 0"):
    tf1clip.clip_gradients_by_norm(V1.train.GradientDescentOptimizer(0.1), bad)


def test_transforms_must_be_callables(graph):
  with pytest.raises(TypeError, match=r"`transforms\[1\]` must be a callable"):
    tf1clip.WrappedOptimizer(_adam(), [transforms.clip_by_norm(1.0), "clip"])


def test_compute_gradients_passes_grad_loss_and_gate_gradients(sess):
  loss, var_list, x, ids = _model()
  plain = _adam()
  wrapped = tf1clip.WrappedOptimizer(_adam())
  kwargs = dict(var_list=var_list[:2], gate_gradients=V1.train.Optimizer.GATE_GRAPH,
                aggregation_method=tf.AggregationMethod.EXPERIMENTAL_TREE,
                colocate_gradients_with_ops=True, grad_loss=tf.constant(3.0))
  a = plain.compute_gradients(loss, **kwargs)
  b = wrapped.compute_gradients(loss, **kwargs)
  sess.run(V1.global_variables_initializer())
  feed = _feeds(x, ids, 1)[0]
  unit = sess.run([g for g, _ in plain.compute_gradients(loss, var_list[:2])], feed)
  got_a, got_b = sess.run([[g for g, _ in a], [g for g, _ in b]], feed)
  assert [v for _, v in b] == var_list[:2]
  for ga, gb, gu in zip(got_a, got_b, unit):
    np.testing.assert_allclose(ga, gb, rtol=1e-6)
    np.testing.assert_allclose(gb, 3.0 * gu, rtol=1e-5)


def test_compute_gradients_rejects_bad_gate_gradients_as_tf1(graph):
  loss, _, _, _ = _model()
  with pytest.raises(ValueError, match="gate_gradients must be one of"):
    tf1clip.WrappedOptimizer(_adam()).compute_gradients(loss, gate_gradients=7)


def test_slots_and_optimizer_variables_belong_to_the_inner_optimizer(graph):
  loss, (w, b, e), _, _ = _model()
  inner = _adam()
  opt = tf1clip.clip_gradients_by_norm(inner, 1.0)
  opt.minimize(loss)
  assert opt.get_slot_names() == inner.get_slot_names() == ["m", "v"]
  assert opt.get_slot(w, "m") is inner.get_slot(w, "m")
  assert opt.get_slot(e, "v").op.name == "embed/e/Adam_1"
  assert opt.variables() == inner.variables()
  assert {v.op.name for v in opt.variables()} >= {"beta1_power", "beta2_power", "dense/w/Adam"}


def _checkpoint_roundtrip(tmp_path, make_writer, make_reader):
  """Trains with the writer's optimizer, saves with Saver, restores into the reader's graph."""
  path = str(tmp_path / "ckpt")
  with tf.Graph().as_default():
    loss, _, x, ids = _model()
    gs = V1.train.get_or_create_global_step()
    train_op = make_writer().minimize(loss, gs)
    with V1.Session() as sess:
      sess.run(V1.global_variables_initializer())
      for feed in _feeds(x, ids, 3):
        sess.run(train_op, feed)
      saved = {v.op.name: sess.run(v) for v in V1.global_variables()}
      V1.train.Saver().save(sess, path)
  with tf.Graph().as_default():
    loss, _, x, ids = _model(seed=5)  # different initial values: the restore must overwrite them
    gs = V1.train.get_or_create_global_step()
    make_reader().minimize(loss, gs)
    with V1.Session() as sess:
      V1.train.Saver().restore(sess, path)
      restored = {v.op.name: sess.run(v) for v in V1.global_variables()}
  return saved, restored


@pytest.mark.parametrize("direction", ["plain_to_wrapped", "wrapped_to_plain"])
def test_checkpoint_of_plain_adam_restores_into_wrapped_adam_and_back(tmp_path, direction):
  plain = _adam
  wrapped = lambda: tf1clip.clip_gradients_by_norm(_adam(), 1.0)
  writer, reader = (plain, wrapped) if direction == "plain_to_wrapped" else (wrapped, plain)
  saved, restored = _checkpoint_roundtrip(tmp_path, writer, reader)
  assert "embed/e/Adam_1" in saved and "beta2_power" in saved
  _assert_same_values(saved, restored)


@pytest.mark.parametrize("depth", [1, 2], ids=["wrapped", "nested"])
@pytest.mark.parametrize("skip_non_finite", [False, True])
def test_wrapping_under_scopes_keeps_every_checkpoint_name(skip_non_finite, depth):
  def names(wraps):
    with tf.Graph().as_default():
      loss, _, _, _ = _model()
      with V1.variable_scope("model"), tf.name_scope("train"):
        opt = _adam()
        for i in range(wraps):
          opt = tf1clip.WrappedOptimizer(opt, [transforms.clip_by_global_norm(1.0)],
                                         skip_non_finite=skip_non_finite, name="Wrap%d" % i)
        opt.minimize(loss, V1.train.get_or_create_global_step())
      return {v.op.name for v in V1.global_variables()}
  plain, wrapped = names(0), names(depth)
  assert {"model/train/beta1_power", "model/dense/w/Adam_1"} <= plain
  counters = {"model/train/Wrap%d_skipped_steps" % i for i in range(depth)}
  assert wrapped == plain | (counters if skip_non_finite else set())


def test_wrappers_nest():
  def nested(loss, var_list, gs):
    inner = tf1clip.WrappedOptimizer(_adam(), [transforms.scale_by_multipliers({"dense/w": 0.5})])
    opt = tf1clip.WrappedOptimizer(inner, [transforms.clip_by_global_norm(2.0)])
    return opt, opt.minimize(loss, gs)

  def hand_written(loss, var_list, gs):
    opt = _adam()
    gv = opt.compute_gradients(loss)
    grads, variables = zip(*gv)
    clipped, _ = tf.clip_by_global_norm(grads, 2.0)
    scaled = [g * 0.5 if v.op.name == "dense/w" else g for g, v in zip(clipped, variables)]
    return opt, opt.apply_gradients(zip(scaled, variables), gs)
  opt, a = _train(nested)
  _, b = _train(hand_written)
  _assert_same_values(a, b, rtol=1e-5)
  assert opt.get_slot_names() == ["m", "v"]


def test_minimize_with_var_list_updates_only_those_and_increments_global_step():
  def only_embedding(loss, var_list, gs):
    opt = tf1clip.clip_gradients_by_norm(_adam(), 1.0)
    return opt, opt.minimize(loss, global_step=gs, var_list=[var_list[2]])
  opt, after = _train(only_embedding, steps=3)
  _, before = _train(lambda loss, vl, gs: (None, tf.no_op()), steps=1)
  assert after["global_step"] == 3
  np.testing.assert_array_equal(after["dense/w"], before["dense/w"])
  assert not np.allclose(after["embed/e"], before["embed/e"])
  assert "dense/w/Adam" not in after  # no slots for variables outside var_list


def test_all_none_gradients_raise_tf1s_message_naming_the_variables(graph):
  v = V1.get_variable("lonely", initializer=1.0)
  opt = tf1clip.WrappedOptimizer(_adam(), [lambda gv: 1 / 0])  # never reached
  with pytest.raises(ValueError, match="No gradients provided for any variable: .*lonely"):
    opt.apply_gradients([(None, v)])


def test_transform_returning_a_shorter_list_raises_naming_the_transform(graph):
  loss, _, _, _ = _model()

  def my_broken_capper(gv):
    return [(g, v) for g, v in gv if v.op.name != "dense/b"]
  opt = tf1clip.WrappedOptimizer(_adam(), [my_broken_capper])
  with pytest.raises(ValueError, match="my_broken_capper returned 2 .* for 3 given"):
    opt.minimize(loss)


def test_apply_gradients_accepts_a_zip_iterator_and_a_name(sess):
  loss, _, x, ids = _model()
  opt = tf1clip.clip_gradients_by_norm(_adam(), 1.0)
  grads, variables = zip(*opt.compute_gradients(loss))
  op = opt.apply_gradients(zip(grads, variables), name="my_update")
  assert op.name.startswith("my_update")
  sess.run(V1.global_variables_initializer())
  sess.run(op, _feeds(x, ids, 1)[0])


# --- skip_non_finite ---------------------------------------------------------------------------


def _guarded(loss, var_list, gs):
  opt = tf1clip.WrappedOptimizer(_adam(), [transforms.clip_by_global_norm(1.0)],
                                 skip_non_finite=True)
  return opt, opt.minimize(loss, gs)


def _unguarded(loss, var_list, gs):
  opt = tf1clip.WrappedOptimizer(_adam(), [transforms.clip_by_global_norm(1.0)])
  return opt, opt.minimize(loss, gs)


def test_non_finite_step_leaves_weights_slots_and_adam_counters_untouched():
  _, two_good = _train(_guarded, steps=2)
  opt, good_then_bad = _train(_guarded, steps=3, bad_step=2)
  skipped = "Adam_skipped_steps"
  assert good_then_bad[skipped] == 1 and two_good[skipped] == 0
  assert good_then_bad["global_step"] == 2  # not incremented by a skipped update
  _assert_same_values(two_good, good_then_bad, skip=(skipped,))
  _, unprotected = _train(_unguarded, steps=3, bad_step=2)
  assert np.isnan(unprotected["dense/w"]).all()  # what the guard prevents


def test_after_a_skipped_step_training_continues_as_if_it_never_happened():
  # 4 steps with the NaN at step 1 equal 3 good steps fed the same remaining batches.
  def train_feeds(feeds, make):
    with tf.Graph().as_default():
      loss, _, x, ids = _model()
      gs = V1.train.get_or_create_global_step()
      opt, op = make(loss, None, gs)
      with V1.Session() as sess:
        sess.run(V1.global_variables_initializer())
        for f in feeds(x, ids):
          sess.run(op, f)
        return sess.run(V1.trainable_variables())
  with_nan = train_feeds(lambda x, ids: _feeds(x, ids, 4, bad_step=1), _guarded)
  without = train_feeds(lambda x, ids: [f for i, f in enumerate(_feeds(x, ids, 4)) if i != 1],
                        _guarded)
  for a, b in zip(with_nan, without):
    np.testing.assert_allclose(a, b, rtol=1e-6)


def test_non_finite_sparse_gradient_is_caught(sess):
  e = V1.get_variable("e", initializer=np.ones((4, 2), np.float32))
  vals = V1.placeholder(tf.float32, [1, 2])
  grad = tf.IndexedSlices(vals, tf.constant([1]), tf.constant([4, 2]))
  opt = tf1clip.WrappedOptimizer(V1.train.GradientDescentOptimizer(1.0), skip_non_finite=True)
  op = opt.apply_gradients([(grad, e)])
  sess.run(V1.global_variables_initializer())
  sess.run(op, {vals: [[np.inf, 0.0]]})
  np.testing.assert_array_equal(sess.run(e), np.ones((4, 2)))
  sess.run(op, {vals: [[1.0, 0.0]]})
  assert sess.run(e)[1, 0] == 0.0
  assert sess.run(opt.skipped_steps) == 1


def test_skip_counter_is_an_int64_non_trainable_global_variable_saved_by_saver(tmp_path, sess):
  loss, _, x, ids = _model()
  opt = tf1clip.WrappedOptimizer(_adam(), skip_non_finite=True)
  op = opt.minimize(loss)
  counter = opt.skipped_steps
  assert counter.dtype.base_dtype == tf.int64
  assert counter in V1.global_variables() and counter not in V1.trainable_variables()
  assert counter in opt.variables()
  sess.run(V1.global_variables_initializer())
  sess.run(op, _feeds(x, ids, 1, bad_step=0)[0])
  path = V1.train.Saver().save(sess, str(tmp_path / "ckpt"))
  sess.run(counter.initializer)
  V1.train.Saver().restore(sess, path)
  assert sess.run(counter) == 1


def test_guard_is_the_train_op_in_the_collection(graph):
  loss, _, _, _ = _model()
  op = tf1clip.WrappedOptimizer(_adam(), skip_non_finite=True).minimize(loss)
  assert V1.get_collection(V1.GraphKeys.TRAIN_OP) == [op]


def test_skip_counter_is_colocated_with_its_variable_under_a_gpu_device(graph):
  # Built for /GPU:0; allow_soft_placement lets the same graph run on a CPU-only machine.
  with tf.device("/GPU:0"):
    loss, (w, _, _), x, ids = _model()
    gs = V1.train.get_or_create_global_step()
    with_step = tf1clip.WrappedOptimizer(_adam(), [transforms.clip_by_global_norm(1.0)],
                                         skip_non_finite=True)
    train_op = with_step.minimize(loss, gs)
    without_step = tf1clip.WrappedOptimizer(V1.train.GradientDescentOptimizer(0.1),
                                            skip_non_finite=True, name="SGD")
    without_step.minimize(loss)
  # The counter lives with global_step when there is one, else with the first variable.
  for counter, var in [(with_step.skipped_steps, gs), (without_step.skipped_steps, w)]:
    assert counter.op.colocation_groups() == [("loc:@" + var.op.name).encode()]
    assert counter.device == var.device and "GPU:0" in counter.device
  config = V1.ConfigProto(allow_soft_placement=True)
  with V1.Session(config=config) as sess:
    sess.run(V1.global_variables_initializer())
    w_before = sess.run(w)
    for feed in _feeds(x, ids, 2, bad_step=1):
      sess.run(train_op, feed)
    assert sess.run([gs, with_step.skipped_steps]) == [1, 1]
    assert not np.allclose(sess.run(w), w_before)


def test_skip_non_finite_works_eagerly_and_in_tf_function():
  v = tf.Variable([1.0, 2.0])
  opt = tf1clip.WrappedOptimizer(V1.train.AdamOptimizer(0.1), skip_non_finite=True)
  opt.apply_gradients([(tf.constant([np.nan, 1.0]), v)])
  np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])

  @tf.function
  def step(g):
    opt.apply_gradients([(g, v)])
  step(tf.constant([np.inf, 1.0]))
  np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])
  step(tf.constant([1.0, 1.0]))
  assert not np.allclose(v.numpy(), [1.0, 2.0])
  assert int(opt.skipped_steps.numpy()) == 2


def test_tf1_graph_with_ref_variables_and_v1_control_flow():
  # disable_v2_behavior must not run in the pytest process: run the check in a subprocess.
  script = textwrap.dedent("""
      import numpy as np, tensorflow as tf
      tf.compat.v1.disable_v2_behavior()
      import tf1clip
      from tf1clip import transforms as T
      w = tf.compat.v1.Variable([1.0, 2.0], name="w")
      assert type(w).__name__ == "RefVariable"
      x = tf.compat.v1.placeholder(tf.float32, [2])
      loss = tf.reduce_sum(w * x)
      gs = tf.compat.v1.train.get_or_create_global_step()
      inner = tf1clip.WrappedOptimizer(tf.compat.v1.train.AdamOptimizer(0.1),
                                       [T.clip_by_norm(1.0)], skip_non_finite=True)
      opt = tf1clip.WrappedOptimizer(inner, [T.clip_by_global_norm(1.0)],
                                     skip_non_finite=True, name="Outer")
      op = opt.minimize(loss, gs)
      with tf.compat.v1.Session() as s:
        s.run(tf.compat.v1.global_variables_initializer())
        s.run(op, {x: [1.0, 1.0]})
        s.run(op, {x: [np.nan, 1.0]})
        print(s.run([w, gs, opt.skipped_steps, inner.skipped_steps]))
      """)
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
  out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env,
                       timeout=120)
  assert out.returncode == 0, out.stderr[-2000:]
  last = out.stdout.strip().splitlines()[-1]
  assert "array([0.9" in last and "np.int64(1), np.int64(1), np.int64(0)" in last, last


# --- inside TF's own wrappers -----------------------------------------------------------------


def test_inside_mixed_precision_loss_scale_optimizer_matches_plain_adam_inside_it():
  def make(wrap):
    def build(loss, var_list, gs):
      inner = _adam()
      if wrap:
        inner = tf1clip.WrappedOptimizer(inner, skip_non_finite=True)
      opt = V1.train.experimental.MixedPrecisionLossScaleOptimizer(inner, "dynamic")
      return opt, opt.minimize(loss, gs)
    return build
  _, a = _train(make(False), steps=4, bad_step=2)
  opt, b = _train(make(True), steps=4, bad_step=2)
  skipped = "Adam_skipped_steps"
  # The loss scaler skips the NaN step itself, so our guard never needs to.
  assert b[skipped] == 0
  _assert_same_values(a, b, skip=(skipped,))
  assert b["global_step"] == 3


def test_clip_gradients_by_norm_inside_sync_replicas_optimizer_runs_a_step(sess):
  loss, var_list, x, ids = _model()
  gs = V1.train.get_or_create_global_step()
  inner = tf1clip.clip_gradients_by_norm(V1.train.GradientDescentOptimizer(0.1), 0.5)
  sync = V1.train.SyncReplicasOptimizer(inner, replicas_to_aggregate=1, total_num_replicas=1)
  grads_and_vars = sync.compute_gradients(loss)
  train_op = sync.apply_gradients(grads_and_vars, global_step=gs)
  sync.ready_for_local_init_op.mark_used()  # built by SyncReplicas for its chief; unused here
  clipped, _ = tf.clip_by_global_norm([g for g, _ in grads_and_vars], 0.5)
  feed = _feeds(x, ids, 1)[0]
  sess.run([V1.global_variables_initializer(), V1.local_variables_initializer()])
  sess.run(sync.get_init_tokens_op())
  before = sess.run(var_list)
  expected_grads = sess.run([tf.convert_to_tensor(g) for g in clipped], feed)
  timeout = V1.RunOptions(timeout_in_ms=30000)
  sess.run(train_op, feed, options=timeout)  # pushes this replica's gradients
  sess.run(sync.get_chief_queue_runner().enqueue_ops[0], options=timeout)  # chief applies them
  after = sess.run(var_list)
  assert sess.run(gs) == 1
  for b, a, g in zip(before, after, expected_grads):
    np.testing.assert_allclose(a, b - 0.1 * g, rtol=1e-5, atol=1e-6)


def test_minimize_a_callable_loss_eagerly():
  v = tf.Variable([3.0, -4.0])
  opt = tf1clip.clip_gradients_by_norm(V1.train.GradientDescentOptimizer(1.0), 1.0)
  opt.minimize(lambda: tf.reduce_sum(tf.square(v)), var_list=[v])
  # gradient (6, -8) has norm 10, clipped to (0.6, -0.8)
  np.testing.assert_allclose(v.numpy(), [2.4, -3.2], rtol=1e-6)

"""tf.contrib.opt: LazyAdam's sparse semantics, the multitask wrapper's skipped updates, global-norm clipping."""

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from tf1clip.contrib import opt

V1 = tf.compat.v1
LR, BETA1, BETA2, EPS = 0.1, 0.9, 0.999, 1e-8
INIT = np.arange(18, dtype=np.float32).reshape(6, 3) / 10.0


def _variable(name, value, use_resource):
  return V1.get_variable(name, initializer=tf.constant(value), use_resource=use_resource)


@pytest.mark.parametrize("use_resource", [True, False])
def test_lazy_adam_on_dense_gradients_is_adam(sess, use_resource):
  a = _variable("a", INIT, use_resource)
  b = _variable("b", INIT, use_resource)
  x = V1.placeholder(tf.float32, INIT.shape)
  train_adam = V1.train.AdamOptimizer(LR).minimize(tf.reduce_sum(tf.sin(a) * x), var_list=[a])
  lazy = opt.LazyAdamOptimizer(LR)
  train_lazy = lazy.minimize(tf.reduce_sum(tf.sin(b) * x), var_list=[b])
  assert lazy.get_name() == "Adam" and sorted(lazy.get_slot_names()) == ["m", "v"]
  sess.run(V1.global_variables_initializer())
  rng = np.random.RandomState(0)
  for _ in range(3):
    sess.run([train_adam, train_lazy], {x: rng.randn(*INIT.shape)})
  np.testing.assert_allclose(*sess.run([a, b]), rtol=1e-6)


def _lazy_adam_reference(steps):
  """numpy LazyAdam over sparse steps [(indices, values)], duplicates summed as TF does.

  In float32 throughout, as TF computes (1 - beta2 alone differs from float64 by 1e-5 relative).
  """
  f32 = np.float32
  beta1, beta2, one = f32(BETA1), f32(BETA2), f32(1)
  var, m, v = INIT.copy(), np.zeros_like(INIT), np.zeros_like(INIT)
  for t, (indices, values) in enumerate(steps, start=1):
    rows = sorted(set(indices))
    grad = {r: sum(values[k] for k, i in enumerate(indices) if i == r) for r in rows}
    lr_t = f32(LR) * np.sqrt(one - beta2 ** t) / (one - beta1 ** t)
    for r in rows:
      m[r] = beta1 * m[r] + (one - beta1) * grad[r]
      v[r] = beta2 * v[r] + (one - beta2) * grad[r] ** 2
      var[r] -= lr_t * m[r] / (np.sqrt(v[r]) + f32(EPS))
  return var, m, v


@pytest.mark.parametrize("use_resource", [True, False])
def test_lazy_adam_sparse_updates_touch_only_looked_up_rows(sess, use_resource):
  emb = _variable("emb", INIT, use_resource)
  emb_adam = _variable("emb_adam", INIT, use_resource)
  ids = V1.placeholder(tf.int32, [None])
  weights = V1.placeholder(tf.float32, [None, 3])
  lazy = opt.LazyAdamOptimizer(LR, BETA1, BETA2, EPS)
  train_lazy = lazy.minimize(tf.reduce_sum(tf.nn.embedding_lookup(emb, ids) * weights),
                             var_list=[emb])
  train_adam = V1.train.AdamOptimizer(LR, BETA1, BETA2, EPS).minimize(
      tf.reduce_sum(tf.nn.embedding_lookup(emb_adam, ids) * weights), var_list=[emb_adam])
  sess.run(V1.global_variables_initializer())
  rng = np.random.RandomState(1)
  steps = [([0, 2, 2], rng.randn(3, 3).astype(np.float32)),
           ([1], rng.randn(1, 3).astype(np.float32))]
  for indices, values in steps:
    sess.run([train_lazy, train_adam], {ids: indices, weights: values})
  want_var, want_m, want_v = _lazy_adam_reference(steps)
  got_var, got_m, got_v = sess.run([emb, lazy.get_slot(emb, "m"), lazy.get_slot(emb, "v")])
  np.testing.assert_allclose(got_var, want_var, rtol=1e-5, atol=1e-6)
  np.testing.assert_allclose(got_m, want_m, rtol=1e-5, atol=1e-7)
  np.testing.assert_allclose(got_v, want_v, rtol=1e-5, atol=1e-8)
  np.testing.assert_array_equal(got_var[3:], INIT[3:])  # never looked up
  # Adam proper keeps moving rows 0 and 2 on momentum at step 2; LazyAdam does not.
  adam_var = sess.run(emb_adam)
  assert not np.allclose(adam_var[[0, 2]], got_var[[0, 2]])
  np.testing.assert_allclose(adam_var[1], got_var[1], rtol=1e-5)


def _momentum_pair(sess, sparse):
  """Builds the same model twice, wrapped and plain; returns (run_step, [wrapped vars], [plain vars])."""
  x = V1.placeholder(tf.float32, [2, 3])
  y = V1.placeholder(tf.float32, [2, 3])
  built = []
  for prefix, wrap in (("wrapped", True), ("plain", False)):
    a = V1.get_variable(prefix + "_a", initializer=tf.constant(INIT[:2]))
    b = V1.get_variable(prefix + "_b", initializer=tf.constant(INIT))
    b_term = tf.nn.embedding_lookup(b, [1, 4]) if sparse else b[:2]
    loss = tf.reduce_sum(tf.sin(a) * x) + tf.reduce_sum(tf.sin(b_term) * y)
    optimizer = V1.train.MomentumOptimizer(0.1, momentum=0.9)
    if wrap:
      optimizer = opt.MultitaskOptimizerWrapper(optimizer)
    built.append((optimizer, optimizer.minimize(loss), [a, b]))
  sess.run(V1.global_variables_initializer())

  def run_step(x_value, y_value):
    sess.run([t for _, t, _ in built], {x: x_value, y: y_value})

  return run_step, built


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "sparse"])
def test_multitask_wrapper_leaves_variables_with_all_zero_gradients_untouched(sess, sparse):
  run_step, ((wrapper, _, (wa, wb)), (_, _, (pa, pb))) = _momentum_pair(sess, sparse)
  ones = np.ones([2, 3], np.float32)
  run_step(ones, ones)
  b_before, slot_before = sess.run([wb, wrapper.get_slot(wb, "momentum")])
  run_step(2 * ones, np.zeros([2, 3], np.float32))  # task b masked out of this batch
  np.testing.assert_array_equal(sess.run(wb), b_before)
  np.testing.assert_array_equal(sess.run(wrapper.get_slot(wb, "momentum")), slot_before)
  assert not np.allclose(sess.run(pb), b_before)  # plain Momentum keeps moving b
  np.testing.assert_allclose(sess.run(wa), sess.run(pa), rtol=1e-6)


def test_multitask_wrapper_rejects_non_optimizers():
  with pytest.raises(TypeError, match="got a str: 'adam'"):
    opt.MultitaskOptimizerWrapper("adam")


def test_clip_gradients_by_global_norm_matches_tf_and_keeps_sparse_sparse(sess):
  dense = tf.constant([[3.0, 4.0]])
  sparse = tf.IndexedSlices(tf.constant([[1.0, 2.0], [2.0, 2.0]]), tf.constant([0, 0]),
                            tf.constant([3, 2]))
  variables = [V1.get_variable(n, [1]) for n in ("u", "v", "w")]
  pairs, norm = opt.clip_gradients_by_global_norm(
      [(dense, variables[0]), (None, variables[1]), (sparse, variables[2])], clip_norm=2.0)
  assert [v for _, v in pairs] == variables and pairs[1][0] is None
  assert isinstance(pairs[2][0], tf.IndexedSlices)
  want, want_norm = tf.clip_by_global_norm([dense, tf.convert_to_tensor(sparse)], 2.0)
  got = sess.run([pairs[0][0], tf.convert_to_tensor(pairs[2][0]), norm])
  np.testing.assert_allclose(got[0], sess.run(want[0]), rtol=1e-6)
  np.testing.assert_allclose(got[1], sess.run(want[1]), rtol=1e-6)
  np.testing.assert_allclose(got[2], sess.run(want_norm), rtol=1e-6)
  _, default_norm = opt.clip_gradients_by_global_norm([(30 * dense, variables[0])])
  clipped = opt.clip_gradients_by_global_norm([(30 * dense, variables[0])])[0][0][0]
  np.testing.assert_allclose(sess.run(tf.norm(clipped)), 20.0, rtol=1e-6)
  np.testing.assert_allclose(sess.run(default_norm), 150.0, rtol=1e-6)


def test_multitask_wrapper_is_an_optimizer_that_nests_inside_clip_gradients_by_norm(sess):
  # Before, clip_gradients_by_norm(MultitaskOptimizerWrapper(opt), 5) raised TypeError.
  a = V1.get_variable("a", initializer=[3.0, 4.0])
  b = V1.get_variable("b", initializer=[1.0])
  loss = tf.reduce_sum(a * a) + 0.0 * tf.reduce_sum(b)  # b's gradient is all zeros
  wrapped = tf1clip.clip_gradients_by_norm(
      opt.MultitaskOptimizerWrapper(V1.train.MomentumOptimizer(0.1, 0.9)), 5.0)
  assert isinstance(wrapped.inner_optimizer, V1.train.Optimizer)
  train_op = wrapped.minimize(loss)
  sess.run(V1.global_variables_initializer())
  sess.run(train_op)
  # gradient [6, 8] (norm 10) clipped to [3, 4]; b untouched, its momentum slot too.
  np.testing.assert_allclose(sess.run(a), [3.0 - 0.3, 4.0 - 0.4], rtol=1e-6)
  np.testing.assert_array_equal(sess.run(b), [1.0])
  np.testing.assert_array_equal(sess.run(wrapped.get_slot(b, "momentum")), [0.0])


@pytest.mark.parametrize("make", [lambda: opt.AddSignOptimizer(0.1, beta=0.8),
                                  lambda: opt.PowerSignOptimizer(0.1, base=2.0, beta=0.8)],
                         ids=["addsign", "powersign"])
def test_sign_optimizers_take_a_sparse_gradient_on_a_resource_variable_as_on_a_ref_one(sess, make):
  # TF 1.15 had no sparse update for resource variables here (NotImplementedError); tf1clip's is the ref one.
  ids = tf.constant([1, 4, 1])
  weights = tf.constant([[0.5], [-2.0], [0.25]])
  trains, variables = [], []
  for use_resource in (False, True):
    emb = _variable("emb_%s" % use_resource, INIT, use_resource)
    loss = tf.reduce_sum(tf.nn.embedding_lookup(emb, ids) * weights)
    trains.append(make().minimize(loss, var_list=[emb]))
    variables.append(emb)
  sess.run(V1.global_variables_initializer())
  for _ in range(3):
    sess.run(trains)
  ref, resource = sess.run(variables)
  np.testing.assert_allclose(resource, ref, rtol=1e-6)
  assert not np.allclose(ref, INIT)  # it moved
  np.testing.assert_array_equal(ref[[0, 2, 3, 5]], INIT[[0, 2, 3, 5]])  # only the looked-up rows


def test_contrib_opt_wrappers_refuse_what_is_not_an_optimizer():
  with pytest.raises(TypeError, match="opt must be a tf.train.Optimizer"):
    opt.VariableClippingOptimizer("sgd", {}, 1.0)
  with pytest.raises(TypeError, match="opt must be a tf.train.Optimizer"):
    opt.MovingAverageOptimizer(None)
  with pytest.raises(TypeError, match="base_optimizer must be a tf.train.Optimizer subclass"):
    opt.extend_with_decoupled_weight_decay(V1.train.AdamOptimizer(0.1))


def test_adamw_keeps_its_slots_with_the_variable_under_a_gpu_device_scope(graph):
  # GPU-agnostic: nothing is pinned to a CPU; the slots are colocated with their variable.
  with tf.device("/GPU:0"):
    w = _variable("w", INIT, True)
  adamw = opt.AdamWOptimizer(0.01, learning_rate=0.1)
  train = adamw.minimize(tf.reduce_sum(w * w))
  for name in ("m", "v"):
    assert adamw.get_slot(w, name).device == w.device
  config = V1.ConfigProto(allow_soft_placement=True)
  with V1.Session(graph=graph, config=config) as session:
    session.run(V1.global_variables_initializer())
    session.run(train)
    np.testing.assert_allclose(session.run(w), INIT * (1 - 0.01) - 0.1 * np.sign(INIT), atol=1e-4)

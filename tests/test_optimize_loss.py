"""optimize_loss and adaptive_clipping_fn: tf.contrib.layers' test cases, figures and errors, plus our fixes."""

import functools
import re

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from tf1clip.training_op import OPTIMIZER_CLS_NAMES
from tf1clip.training_op import OPTIMIZER_SUMMARIES
from tf1clip.training_op import adaptive_clipping_fn
from tf1clip.training_op import optimize_loss

V1 = tf.compat.v1


def _setup_model():
  """contrib's fixture: loss = |var * x| with var = 10, so d loss / d var = x = 5."""
  x = V1.placeholder(tf.float32, [])
  var = V1.get_variable("test", [], initializer=V1.constant_initializer(10))
  loss = tf.abs(var * x)
  global_step = V1.get_variable("global_step", [], trainable=False, dtype=tf.int64,
                                initializer=V1.zeros_initializer())
  return x, var, loss, global_step


def _one_step(**kwargs):
  """Builds contrib's model in a fresh graph, runs one step; returns (var, global_step)."""
  with tf.Graph().as_default():
    x, var, loss, global_step = _setup_model()
    kwargs.setdefault("learning_rate", 0.1)
    train = optimize_loss(loss, kwargs.pop("global_step", global_step), **kwargs)
    with V1.Session() as sess:
      sess.run(V1.global_variables_initializer())
      sess.run(train, {x: 5})
      return sess.run([var, global_step])


@pytest.mark.parametrize("optimizer", [
    "SGD", V1.train.GradientDescentOptimizer,
    lambda: V1.train.GradientDescentOptimizer(learning_rate=0.1),
    lambda: (lambda lr: V1.train.GradientDescentOptimizer(learning_rate=lr))],
                         ids=["name", "class", "instance", "callable"])
def test_sgd_given_as_name_class_instance_or_callable(optimizer):
  if not isinstance(optimizer, (str, type)):
    optimizer = optimizer()
  assert _one_step(optimizer=optimizer) == [9.5, 1]


def test_callable_without_learning_rate():
  assert _one_step(learning_rate=None,
                   optimizer=lambda: V1.train.GradientDescentOptimizer(0.1)) == [9.5, 1]


# What each name meant in contrib, written out with tf.compat.v1's own classes.
_TF1_BY_NAME = {
    "Adagrad": lambda lr: V1.train.AdagradOptimizer(lr),
    "Adam": lambda lr: V1.train.AdamOptimizer(lr),
    "Ftrl": lambda lr: V1.train.FtrlOptimizer(lr),
    "Momentum": lambda lr: V1.train.MomentumOptimizer(lr, momentum=0.9),
    "RMSProp": lambda lr: V1.train.RMSPropOptimizer(lr),
    "SGD": lambda lr: V1.train.GradientDescentOptimizer(lr),
}


def _three_steps(make_train_op):
  with tf.Graph().as_default():
    x, var, loss, global_step = _setup_model()
    train = make_train_op(loss, global_step)
    with V1.Session() as sess:
      sess.run(V1.global_variables_initializer())
      for feed in [5.0, -3.0, 2.0]:
        sess.run(train, {x: feed})
      return sess.run([var, global_step])


def test_named_optimizers_are_contribs_list():
  assert sorted(OPTIMIZER_CLS_NAMES) == sorted(_TF1_BY_NAME)


@pytest.mark.parametrize("name", sorted(_TF1_BY_NAME))
def test_every_named_optimizer_equals_tf1s_own_optimizer(name):
  got = _three_steps(lambda loss, step: optimize_loss(loss, step, learning_rate=0.1,
                                                      optimizer=name))
  want = _three_steps(lambda loss, step: _TF1_BY_NAME[name](0.1).minimize(loss, step))
  assert got[1] == want[1] == 3
  assert got[0] == pytest.approx(want[0], rel=1e-6) and got[0] != 10.0


def test_variables_limits_the_update_to_those_variables():
  with tf.Graph().as_default():
    x, var, loss, global_step = _setup_model()
    other = V1.get_variable("other", [], initializer=V1.constant_initializer(2.0))
    train = optimize_loss(loss * other, global_step, learning_rate=0.1, optimizer="Adam",
                          variables=[other])
    slots = [v.op.name for v in V1.global_variables() if "Adam" in v.op.name]
    with V1.Session() as sess:
      sess.run(V1.global_variables_initializer())
      sess.run(train, {x: 5})
      var_value, other_value = sess.run([var, other])
  assert var_value == 10.0 and other_value != 2.0
  assert sorted(slots) == ["OptimizeLoss/other/Adam", "OptimizeLoss/other/Adam_1"]


@pytest.mark.parametrize("optimizer", ["blah", V1.Variable, object(), lambda x: None],
                         ids=["unknown_name", "variable_class", "object", "returns_none"])
def test_wrong_optimizer_raises_value_error(graph, optimizer):
  _, _, loss, global_step = _setup_model()
  with pytest.raises(ValueError):
    optimize_loss(loss, global_step, learning_rate=0.1, optimizer=optimizer)


@pytest.mark.parametrize("bad_loss", [None, [[1.0]]])
def test_invalid_loss_raises_value_error(graph, bad_loss):
  _, _, _, global_step = _setup_model()
  with pytest.raises(ValueError):
    optimize_loss(bad_loss, global_step, learning_rate=0.1, optimizer="SGD")


@pytest.mark.parametrize("make_step", [
    lambda: tf.constant(43, dtype=tf.int64),
    lambda: V1.get_variable("global_step", [], trainable=False, dtype=tf.float64,
                            initializer=V1.zeros_initializer()),
    lambda: V1.get_variable("global_step", [1], trainable=False, dtype=tf.int64,
                            initializer=V1.zeros_initializer())],
                         ids=["constant", "float_variable", "vector_variable"])
def test_invalid_global_step_raises_type_error(graph, make_step):
  x = V1.placeholder(tf.float32, [])
  var = V1.get_variable("test", [], initializer=V1.constant_initializer(10))
  with pytest.raises(TypeError):
    optimize_loss(tf.abs(var * x), global_step=make_step(), learning_rate=0.1, optimizer="SGD")


def test_negative_learning_rate_raises_value_error(graph):
  _, _, loss, global_step = _setup_model()
  with pytest.raises(ValueError, match="`learning_rate` must be >= 0; got -0.1"):
    optimize_loss(loss, global_step, learning_rate=-0.1, optimizer="SGD")


def test_gradient_clip_figure():
  var, step = _one_step(optimizer="SGD", clip_gradients=0.1)
  assert var == pytest.approx(9.98999, abs=1e-4) and step == 1


def test_integer_clip_gradients_and_learning_rate_are_accepted():
  var, _ = _one_step(optimizer="SGD", clip_gradients=1)
  assert var == pytest.approx(10.0 - 0.1 * 1.0)
  var, _ = _one_step(optimizer="SGD", learning_rate=1, clip_gradients=2)
  assert var == pytest.approx(10.0 - 1.0 * 2.0)


@pytest.mark.parametrize("bad", ["5", [1.0]])
def test_clip_gradients_of_unknown_type_raises_value_error(graph, bad):
  _, _, loss, global_step = _setup_model()
  with pytest.raises(ValueError, match="`clip_gradients` must be a number > 0 or a callable"):
    optimize_loss(loss, global_step, learning_rate=0.1, optimizer="SGD", clip_gradients=bad)


def test_adaptive_gradient_clip_figure_and_statistics_variables():
  with tf.Graph().as_default():
    x, var, loss, global_step = _setup_model()
    train = optimize_loss(loss, global_step, learning_rate=0.1, optimizer="SGD",
                          clip_gradients=adaptive_clipping_fn())
    names = sorted(v.op.name for v in V1.global_variables()
                   if v.op.name.startswith("OptimizeLoss/AdaptiveMaxNorm"))
    with V1.Session() as sess:
      sess.run(V1.global_variables_initializer())
      sess.run(train, {x: 5})
      var_value, step = sess.run([var, global_step])
  assert names == ["OptimizeLoss/AdaptiveMaxNorm/mean", "OptimizeLoss/AdaptiveMaxNorm/sq_mean"]
  assert var_value == pytest.approx(9.8916, abs=1e-4) and step == 1


def test_gradient_multiply_figure_by_variable_and_by_name():
  with tf.Graph().as_default():
    x, var, loss, global_step = _setup_model()
    train = optimize_loss(loss, global_step, learning_rate=0.1, optimizer="SGD",
                          gradient_multipliers={var: 7.})
    with V1.Session() as sess:
      sess.run(V1.global_variables_initializer())
      sess.run(train, {x: 5})
      assert sess.run(var) == pytest.approx(6.5, abs=1e-4)
  assert _one_step(optimizer="SGD", gradient_multipliers={"test:0": 7.})[0] == pytest.approx(6.5)


def test_gradient_multiplier_with_unknown_name_lists_the_variables(graph):
  _, _, loss, global_step = _setup_model()
  with pytest.raises(ValueError, match=r"no variable named \['tset'\].*'test'"):
    optimize_loss(loss, global_step, learning_rate=0.1, optimizer="SGD",
                  gradient_multipliers={"tset": 7.})


def test_gradient_noise_moves_the_step_and_clipping_bounds_it():
  var, step = _one_step(optimizer="SGD", gradient_noise_scale=10.0)
  # gradient 5 plus truncated-normal noise of scale 10 (|noise| <= 20)
  assert var != pytest.approx(9.5) and 10.0 - 0.1 * 25 <= var <= 10.0 + 0.1 * 15 and step == 1
  var, _ = _one_step(optimizer="SGD", gradient_noise_scale=10.0, clip_gradients=10.0)
  assert abs(var - 10.0) <= 1.0 + 1e-6


def test_variables_without_gradients_are_ignored(graph):
  _, _, loss, global_step = _setup_model()
  unused_variable = V1.get_variable("ignore_me", [])
  optimize_loss(loss, global_step, learning_rate=0.1, optimizer="SGD",
                gradient_noise_scale=10.0, gradient_multipliers={unused_variable: 1.},
                clip_gradients=10.0)


def _with_update_op(**kwargs):
  with tf.Graph().as_default():
    x = V1.placeholder(tf.float32, [])
    var = V1.get_variable("test", [], initializer=V1.constant_initializer(10))
    loss = tf.abs(var * x)
    update_var = V1.get_variable("update", [], initializer=V1.constant_initializer(10))
    update_op = V1.assign(update_var, 20)
    step = kwargs.pop("make_step", lambda: None)()
    if kwargs.pop("in_collection", False):
      V1.add_to_collection(V1.GraphKeys.UPDATE_OPS, update_op)
    else:
      kwargs["update_ops"] = [update_op]
    kwargs.setdefault("global_step", step)
    train = optimize_loss(loss, learning_rate=0.1, **kwargs)
    with V1.Session() as sess:
      sess.run(V1.global_variables_initializer())
      sess.run(train, {x: 5})
      return sess.run([var, update_var] + ([step] if step is not None else []))


_SGDS = [lambda: "SGD", lambda: V1.train.GradientDescentOptimizer,
         lambda: V1.train.GradientDescentOptimizer(learning_rate=0.1)]


@pytest.mark.parametrize("make_optimizer", _SGDS, ids=["name", "class", "instance"])
def test_no_global_step_runs_update_ops(make_optimizer):
  assert _with_update_op(global_step=None, optimizer=make_optimizer()) == [9.5, 20]


@pytest.mark.parametrize("make_optimizer", _SGDS, ids=["name", "class", "instance"])
def test_global_step_is_found_by_name_when_not_passed(make_optimizer):
  make_step = lambda: V1.get_variable("global_step", [], trainable=False, dtype=tf.int64,
                                      initializer=V1.zeros_initializer())
  assert _with_update_op(global_step=None, make_step=make_step,
                         optimizer=make_optimizer()) == [9.5, 20, 1]


def _no_op_learning_rate_decay_fn(lr, global_step):
  assert lr is not None
  assert global_step is not None
  return lr


@pytest.mark.parametrize("make_optimizer", _SGDS, ids=["name", "class", "instance"])
def test_decay_without_global_step_raises_value_error(make_optimizer):
  with pytest.raises(ValueError, match="global_step is required for learning_rate_decay_fn"):
    _with_update_op(global_step=None, optimizer=make_optimizer(),
                    learning_rate_decay_fn=_no_op_learning_rate_decay_fn)


@pytest.mark.parametrize("in_collection", [False, True], ids=["argument", "collection"])
@pytest.mark.parametrize("decay", [None, _no_op_learning_rate_decay_fn], ids=["plain", "decay"])
def test_update_ops_run_and_step_increments(in_collection, decay):
  make_step = V1.train.get_or_create_global_step
  assert _with_update_op(make_step=make_step, optimizer="SGD", in_collection=in_collection,
                         learning_rate_decay_fn=decay) == [9.5, 20, 1]


def test_increment_global_step_false_leaves_the_step(graph):
  assert _one_step(optimizer="SGD", increment_global_step=False) == [9.5, 0]


def test_learning_rate_decay_uses_the_step_and_the_learning_rate_variable():
  decay = functools.partial(V1.train.exponential_decay, decay_steps=1, decay_rate=0.5)
  with tf.Graph().as_default():
    x, var, loss, global_step = _setup_model()
    train = optimize_loss(loss, global_step, learning_rate=0.1, optimizer="SGD",
                          learning_rate_decay_fn=decay)
    lr_vars = [v.op.name for v in V1.global_variables() if "learning_rate" in v.op.name]
    with V1.Session() as sess:
      sess.run(V1.global_variables_initializer())
      sess.run(train, {x: 5})
      sess.run(train, {x: 5})
      assert sess.run(var) == pytest.approx(10 - 0.1 * 5 - 0.05 * 5)
  assert lr_vars == ["OptimizeLoss/learning_rate"]


def test_returns_the_loss_with_the_train_op_as_dependency(sess):
  x, var, loss, global_step = _setup_model()
  train = optimize_loss(loss, global_step, learning_rate=0.1, optimizer="SGD")
  sess.run(V1.global_variables_initializer())
  assert sess.run(train, {x: 5}) == 50.0  # the loss before the update
  assert sess.run(var) == 9.5


def test_summaries_have_contribs_names(graph):
  x, var, loss, global_step = _setup_model()
  optimize_loss(loss, global_step, learning_rate=0.1, optimizer="SGD", clip_gradients=1.0,
                summaries=OPTIMIZER_SUMMARIES,
                learning_rate_decay_fn=_no_op_learning_rate_decay_fn)
  # As in contrib, the "learning_rate" summary op is uniquified to "learning_rate_1" next to the
  # variable of that name.
  names = sorted(re.sub(r"_1$", "", s.op.name.split("/", 1)[1])
                 for s in V1.get_collection(V1.GraphKeys.SUMMARIES))
  assert names == sorted([
      "learning_rate", "loss", "global_norm/gradient_norm", "global_norm/clipped_gradient_norm",
      "gradients/test_0", "gradient_norm/test_0"])


def test_unknown_summary_raises_value_error(graph):
  _, _, loss, global_step = _setup_model()
  with pytest.raises(ValueError, match="Summaries should be one of"):
    optimize_loss(loss, global_step, learning_rate=0.1, optimizer="SGD", summaries=["lr"])


def test_sparse_embedding_gradient_reaches_the_optimizer_sparse(graph):
  emb = V1.get_variable("emb", initializer=np.ones((50, 4), np.float32))
  loss = tf.reduce_sum(tf.gather(emb, [1, 3, 3]))
  seen = []

  class Spy(V1.train.GradientDescentOptimizer):
    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
      seen.extend(g for g, _ in grads_and_vars)
      return super().apply_gradients(grads_and_vars, global_step, name)
  optimize_loss(loss, None, learning_rate=0.1, optimizer=Spy, clip_gradients=1.0,
                gradient_noise_scale=0.1, gradient_multipliers={emb: 2.0},
                summaries=OPTIMIZER_SUMMARIES[1:])
  assert isinstance(seen[0], tf.IndexedSlices)


def test_adaptive_clipping_averages_converge_to_the_log_norm(sess):
  scale = 2.
  grad = tf.ones([3, 4]) * scale
  log_norm = np.log(np.sqrt(scale**2 * 12))
  clipped = adaptive_clipping_fn(decay=0.5)([(grad, tf.Variable(tf.zeros([3, 4])))])
  by_name = {v.op.name: v for v in V1.global_variables() if v.op.name.startswith("AdaptiveMaxNorm")}
  assert sorted(by_name) == ["AdaptiveMaxNorm/mean", "AdaptiveMaxNorm/sq_mean"]
  assert all(v not in V1.trainable_variables() for v in by_name.values())
  sess.run(V1.global_variables_initializer())
  mean, sq_mean = sess.run([by_name["AdaptiveMaxNorm/mean"], by_name["AdaptiveMaxNorm/sq_mean"]])
  assert mean == 0 and sq_mean == 0
  for i in range(20):
    sess.run(clipped[0][0])
    mean, sq_mean = sess.run([by_name["AdaptiveMaxNorm/mean"],
                              by_name["AdaptiveMaxNorm/sq_mean"]])
    if i == 0:
      assert mean < 0.9 * log_norm and sq_mean < 0.9 * log_norm**2
  assert mean == pytest.approx(log_norm, abs=1e-4)
  assert sq_mean == pytest.approx(log_norm**2, abs=1e-4)


def test_adaptive_clipping_damps_a_spike_and_adapts_to_a_repeated_one(sess):
  spike = 1000.
  multiplier = V1.placeholder(tf.float32, [], "multiplier")
  step = V1.placeholder(tf.int32, [], "step")
  grad = tf.ones([3, 4]) * multiplier
  clipped = adaptive_clipping_fn(decay=0.9, global_step=step)(
      [(grad, tf.Variable(tf.zeros([3, 4])))])
  sess.run(V1.global_variables_initializer())
  run = lambda scale, i: sess.run(clipped[0][0], {multiplier: scale, step: i})
  for i in range(20):
    scale = [1., -2.][i % 2]
    got = run(scale, i)
    if i > 3:
      np.testing.assert_allclose(got, np.ones(got.shape) * scale, rtol=1e-5)
  assert (run(spike, 20) < 25.).all()
  for i in range(10):
    got = run(spike, i + 21)
  np.testing.assert_allclose(got, np.ones(got.shape) * spike, rtol=1e-5)


def test_adaptive_clipping_keeps_sparse_gradients_sparse(graph):
  v = tf.Variable(tf.zeros([5, 2]))
  g = tf.IndexedSlices(tf.ones([2, 2]), tf.constant([0, 3]), tf.constant([5, 2]))
  (out, _), = adaptive_clipping_fn()([(g, v)])
  assert isinstance(out, tf.IndexedSlices)


def test_public_names():
  assert tf1clip.optimize_loss is optimize_loss
  assert tf1clip.adaptive_clipping_fn is adaptive_clipping_fn

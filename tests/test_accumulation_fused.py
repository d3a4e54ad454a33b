"""fused_accumulation_step: one run over the big batch, a tf.while_loop over micro-batches,
one update equal to the inner optimizer's step on the big batch."""

import warnings

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from tf1clip.accumulation import fused_accumulation_step

BATCH, D_IN, VOCAB = 12, 3, 6

OPTIMIZERS = {
    "sgd": lambda: tf.compat.v1.train.GradientDescentOptimizer(0.1),
    "momentum": lambda: tf.compat.v1.train.MomentumOptimizer(0.1, 0.9),
    "adam": lambda: tf.compat.v1.train.AdamOptimizer(0.05),
    "adagrad": lambda: tf.compat.v1.train.AdagradOptimizer(0.1, initial_accumulator_value=0.5),
    "rmsprop": lambda: tf.compat.v1.train.RMSPropOptimizer(0.05, momentum=0.5),
    # With shrinkage: the FtrlV2 kernels, which the exactness table does not reach.
    "ftrl": lambda: tf.compat.v1.train.FtrlOptimizer(
        0.1, l1_regularization_strength=0.01, l2_shrinkage_regularization_strength=0.02),
}


def model_fn(batch):
  """A model built with get_variable: an embedding (sparse gradient) and a hidden layer."""
  init = np.random.default_rng(0)
  w1 = tf.compat.v1.get_variable("w1", initializer=init.normal(size=(D_IN, 5)).astype("f"))
  w2 = tf.compat.v1.get_variable("w2", initializer=init.normal(size=(5, 1)).astype("f"))
  emb = tf.compat.v1.get_variable("emb", initializer=init.normal(size=(VOCAB, 1)).astype("f"))
  hidden = tf.nn.tanh(tf.matmul(batch["x"], w1))
  out = tf.matmul(hidden, w2) + tf.gather(emb, batch["ids"])
  return tf.reduce_mean(tf.square(out - batch["y"]))


def placeholders(batch_size=BATCH):
  return {"x": tf.compat.v1.placeholder(tf.float32, [batch_size, D_IN], name="x"),
          "y": tf.compat.v1.placeholder(tf.float32, [batch_size, 1], name="y"),
          "ids": tf.compat.v1.placeholder(tf.int32, [batch_size], name="ids")}


def feeds(inputs, count, seed=1):
  """Batch s draws ids from the first VOCAB - 2 - 2 * s rows (sparse vs dense updates differ)."""
  rng = np.random.default_rng(seed)
  return [{inputs["x"]: rng.normal(size=(BATCH, D_IN)).astype("f"),
           inputs["y"]: rng.normal(size=(BATCH, 1)).astype("f"),
           inputs["ids"]: rng.integers(0, max(1, VOCAB - 2 - 2 * s), size=BATCH).astype("int32")}
          for s in range(count)]


def all_variables(sess):
  variables = tf.compat.v1.global_variables()
  return dict(zip([v.op.name for v in variables], sess.run(variables)))


def trained(make_opt, k, steps=2):
  """Returns (variables by name, losses) after `steps` updates; k=None: plain minimize."""
  with tf.Graph().as_default():
    inputs = placeholders()
    gs = tf.compat.v1.train.get_or_create_global_step()
    if k is None:
      loss = model_fn(inputs)
      train_op = make_opt().minimize(loss, global_step=gs)
    else:
      train_op, loss = fused_accumulation_step(model_fn, inputs, k, make_opt(),
                                               global_step=gs)
    with tf.compat.v1.Session() as sess:
      sess.run(tf.compat.v1.global_variables_initializer())
      losses = [sess.run([train_op, loss], f)[1] for f in feeds(inputs, steps)]
      return all_variables(sess), losses


@pytest.mark.parametrize("k", [1, 2, 3, 4])
@pytest.mark.parametrize("optimizer", sorted(OPTIMIZERS))
def test_fused_loop_equals_the_big_batch_step(optimizer, k):
  want, want_losses = trained(OPTIMIZERS[optimizer], None)
  got, got_losses = trained(OPTIMIZERS[optimizer], k)
  assert sorted(got) == sorted(want)  # no extra state, same names
  for name in want:
    np.testing.assert_allclose(got[name], want[name], rtol=2e-5, atol=2e-6, err_msg=name)
  np.testing.assert_allclose(got_losses, want_losses, rtol=1e-5)
  assert got["global_step"] == 2


def test_fused_loop_keeps_sparse_gradients_sparse(graph):
  with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    fused_accumulation_step(model_fn, placeholders(), 3,
                            tf.compat.v1.train.MomentumOptimizer(0.1, 0.9))
  assert not [w for w in caught if "dense Tensor" in str(w.message)]
  # TF densifies a small IndexedSlices of static shape silently (an UnsortedSegmentSum), so
  # check the ops: the embedding's rows are scatter-added, in micro-batch 0 and in the loop.
  loop = [op for op in graph.get_operations() if op.type in ("While", "StatelessWhile")][0]
  body = graph._get_function(  # pylint: disable=protected-access
      loop.get_attr("body").name).graph
  first = [op for op in graph.get_operations()
           if op.name.startswith("FusedAccumulation/micro_batch_0/")]
  for ops in (first, body.get_operations()):
    types = {op.type for op in ops}
    assert "TensorScatterAdd" in types and "UnsortedSegmentSum" not in types


def test_gradients_are_computed_inside_the_loop_body(graph):
  step = fused_accumulation_step(model_fn, placeholders(), 4,
                                 tf.compat.v1.train.GradientDescentOptimizer(0.1))
  loops = [op for op in graph.get_operations() if op.type in ("While", "StatelessWhile")]
  assert len(loops) == 1
  body = graph._get_function(  # pylint: disable=protected-access
      loops[0].get_attr("body").name).graph
  body_types = {op.type for op in body.get_operations()}
  assert "MatMul" in body_types and "TanhGrad" in body_types
  # Outside the loop: micro-batch 0's forward and backward pass, once.
  assert [op.type for op in graph.get_operations()].count("TanhGrad") == 1
  assert loops[0].get_attr("parallel_iterations") == 1


def test_transforms_act_on_the_mean_gradient():
  clip = tf1clip.transforms.clip_by_global_norm(0.05)

  def make_wrapped():
    return tf1clip.WrappedOptimizer(tf.compat.v1.train.GradientDescentOptimizer(1.0), [clip])

  want, _ = trained(make_wrapped, None)
  with tf.Graph().as_default():
    inputs = placeholders()
    step = fused_accumulation_step(model_fn, inputs, 3,
                                   tf.compat.v1.train.GradientDescentOptimizer(1.0),
                                   transforms=[clip])
    with tf.compat.v1.Session() as sess:
      sess.run(tf.compat.v1.global_variables_initializer())
      for f in feeds(inputs, 2):
        sess.run(step.train_op, f)
      got = all_variables(sess)
  del want["global_step"]
  assert sorted(got) == sorted(want)
  for name in want:
    np.testing.assert_allclose(got[name], want[name], rtol=2e-5, atol=2e-6, err_msg=name)


def test_existing_variables_are_reused_and_var_list_restricts_training(graph, sess):
  inputs = placeholders()
  with tf.compat.v1.variable_scope("", reuse=tf.compat.v1.AUTO_REUSE):
    model_fn(inputs)  # the user built the model first
  before = {v.op.name for v in tf.compat.v1.global_variables()}
  w1 = [v for v in tf.compat.v1.global_variables() if v.op.name == "w1"][0]
  step = fused_accumulation_step(model_fn, inputs, 2,
                                 tf.compat.v1.train.GradientDescentOptimizer(0.1),
                                 var_list=[w1])
  assert {v.op.name for v in tf.compat.v1.global_variables()} == before
  sess.run(tf.compat.v1.global_variables_initializer())
  start = all_variables(sess)
  sess.run(step.train_op, feeds(inputs, 1)[0])
  end = all_variables(sess)
  assert not np.allclose(end["w1"], start["w1"])
  np.testing.assert_array_equal(end["w2"], start["w2"])
  np.testing.assert_array_equal(end["emb"], start["emb"])


def test_update_ops_of_model_fn_run_once_per_micro_batch(graph, sess):
  def counting_model_fn(batch):
    runs = tf.compat.v1.get_variable("forward_runs", initializer=0.0, trainable=False)
    tf.compat.v1.add_to_collection(tf.compat.v1.GraphKeys.UPDATE_OPS,
                                   tf.compat.v1.assign_add(runs, 1.0))
    return model_fn(batch)

  inputs = placeholders()
  step = fused_accumulation_step(counting_model_fn, inputs, 4,
                                 tf.compat.v1.train.GradientDescentOptimizer(0.1))
  # The variable-creating pass leaves no update op behind for the user to group.
  assert tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS) == []
  sess.run(tf.compat.v1.global_variables_initializer())
  for f in feeds(inputs, 2):
    sess.run(step.train_op, f)
  runs = [v for v in tf.compat.v1.global_variables() if v.op.name == "forward_runs"][0]
  assert sess.run(runs) == 8


def test_model_fn_creating_tf_variables_raises(graph):
  def bad_model_fn(batch):
    w = tf.Variable(tf.ones([D_IN, 1]), name="fresh_every_call")
    return tf.reduce_mean(tf.matmul(batch["x"], w))

  with pytest.raises(ValueError, match="get_variable"):
    fused_accumulation_step(bad_model_fn, placeholders(), 2,
                            tf.compat.v1.train.GradientDescentOptimizer(0.1))


def test_batch_not_divisible_by_num_micro_batches_raises(graph):
  with pytest.raises(ValueError, match="divisible by num_micro_batches"):
    fused_accumulation_step(model_fn, placeholders(), 5,
                            tf.compat.v1.train.GradientDescentOptimizer(0.1))


def test_unknown_batch_size_is_checked_when_run(graph, sess):
  inputs = placeholders(batch_size=None)
  step = fused_accumulation_step(model_fn, inputs, 5,
                                 tf.compat.v1.train.GradientDescentOptimizer(0.1))
  sess.run(tf.compat.v1.global_variables_initializer())
  with pytest.raises(tf.errors.InvalidArgumentError, match="divisible by num_micro_batches"):
    sess.run(step.train_op, feeds(inputs, 1)[0])


def test_unknown_batch_size_trains_like_the_big_batch(graph, sess):
  inputs = placeholders(batch_size=None)
  step = fused_accumulation_step(model_fn, inputs, 3,
                                 tf.compat.v1.train.MomentumOptimizer(0.1, 0.9))
  sess.run(tf.compat.v1.global_variables_initializer())
  for f in feeds(inputs, 2):
    sess.run(step.train_op, f)
  got = all_variables(sess)
  want, _ = trained(OPTIMIZERS["momentum"], None)
  for name in want:
    if name != "global_step":
      np.testing.assert_allclose(got[name], want[name], rtol=2e-5, atol=2e-6, err_msg=name)


@pytest.mark.parametrize("bad", [0, 2.5, False, "2"])
def test_bad_num_micro_batches_raises_value_error_naming_it(graph, bad):
  with pytest.raises(ValueError, match="num_micro_batches"):
    fused_accumulation_step(model_fn, placeholders(), bad,
                            tf.compat.v1.train.GradientDescentOptimizer(0.1))


def test_building_never_calls_initialized_value(graph, sess, monkeypatch):
  def refuse(self):
    raise AssertionError("initialized_value() called on %s" % self.name)
  monkeypatch.setattr(tf.Variable, "initialized_value", refuse)
  inputs = placeholders()
  step = fused_accumulation_step(model_fn, inputs, 2, tf.compat.v1.train.AdamOptimizer(0.1))
  sess.run(tf.compat.v1.global_variables_initializer())
  sess.run(step.train_op, feeds(inputs, 1)[0])

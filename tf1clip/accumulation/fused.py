"""The fused micro-batch loop: one `sess.run` takes the big batch and applies once.

``fused_accumulation_step(model_fn, inputs, k, optimizer)`` splits the big batch inside the
graph into k micro-batches (a reshape, no copy). Micro-batch 0 is built outside the loop (its
``model_fn(micro_inputs) -> loss`` call creates the variables) and its gradients start the
sums; a ``tf.while_loop`` then builds the model on micro-batches 1..k-1, computes their
gradients inside the loop body and adds them to the loop-carried sums
(`tf1clip.accumulation.accumulators`); the mean gradient then goes through the transforms
and the optimizer once. The loop is never differentiated and runs one iteration at a time,
after micro-batch 0's backward pass, so only one micro-batch's activations are alive at once:
peak activation memory is about that of one micro-batch, with no Python loop and no host
round trip.

Place in the data flow (DESIGN.md): optimizer <- **accumulation** <- contrib/compat/v2.
"""

import collections
from typing import Any, Callable, Optional, Sequence, Union

import tensorflow as tf

from tf1clip import optimizer as optimizer_lib
from tf1clip import summaries as summaries_lib
from tf1clip import transforms as transforms_lib
from tf1clip.accumulation import accumulators

FusedStep = collections.namedtuple("FusedStep", ["train_op", "loss"])
FusedStep.__doc__ = """What `fused_accumulation_step` returns.

Attributes:
  train_op: Operation; one run is one applied update over the whole big batch.
  loss: scalar Tensor, the mean of the micro-batch losses (the big batch's mean loss when
    the loss is a mean over equal-sized micro-batches), computed by the same run.
"""

# Collections a forward pass adds to. fused_accumulation_step leaves them as it found them:
# the micro-batches' update ops already run inside the step (and the loop body's cannot be
# run from outside the loop), and a later tf.compat.v1.losses.get_total_loss() must not sum
# micro-batch losses.
_FORWARD_PASS_COLLECTIONS = (
    tf.compat.v1.GraphKeys.UPDATE_OPS,
    tf.compat.v1.GraphKeys.LOSSES,
    tf.compat.v1.GraphKeys.SUMMARIES,
    tf.compat.v1.GraphKeys.ACTIVATIONS,
)


def _split(x, k, name):
  """Reshapes `x` [k * m, ...] to [k, m, ...] (no copy), checking divisibility."""
  x = tf.convert_to_tensor(x)
  if x.shape.rank == 0:
    raise ValueError("inputs must have a batch dimension to split; %s is a scalar." % name)
  batch = x.shape[0]
  if batch is not None:
    if batch % k:
      raise ValueError(
          "The batch dimension of inputs (%s has %d rows) must be divisible by "
          "num_micro_batches (%d)." % (name, batch, k))
    return tf.reshape(x, [k, batch // k] + x.shape[1:].as_list()
                      if x.shape[1:].is_fully_defined()
                      else tf.concat([[k, batch // k], tf.shape(x)[1:]], 0))
  check = tf.debugging.assert_equal(
      tf.math.floormod(tf.shape(x)[0], k), 0,
      message="The batch dimension of inputs (%s) must be divisible by num_micro_batches "
              "(%d)" % (name, k))
  with tf.control_dependencies([check]):
    return tf.reshape(x, tf.concat([[k, -1], tf.shape(x)[1:]], 0))


def _no_new_variables(next_creator, **kwargs):
  raise ValueError(
      "model_fn created the variable %r inside the fused loop. Build the model with "
      "tf.compat.v1.get_variable (or tf.compat.v1.layers with explicit name=...), so that the "
      "loop reuses the variables created on model_fn's first call; tf.Variable(...) and "
      "auto-named layers create new variables on every call." % (kwargs.get("name"),))


def _reusing_variables():
  return tf.compat.v1.variable_scope(tf.compat.v1.get_variable_scope(),
                                     reuse=tf.compat.v1.AUTO_REUSE)


class _ForwardPassCollectionsKept:
  """Restores `_FORWARD_PASS_COLLECTIONS` on exit (the loop body writes to the outer graph's
  collections, and its ops cannot be run from outside the loop)."""

  def __enter__(self):
    graph = tf.compat.v1.get_default_graph()
    self._saved = {key: list(graph.get_collection(key)) for key in _FORWARD_PASS_COLLECTIONS}
    self._graph = graph

  def __exit__(self, *exc_info):
    for key, items in self._saved.items():
      self._graph.get_collection_ref(key)[:] = items


def _check_same_batch_size(flat_inputs):
  """All inputs must share the batch dimension: a micro-batch takes the same rows of each."""
  known = [(i, x.shape[0]) for i, x in enumerate(flat_inputs)
           if x.shape.rank and x.shape[0] is not None]
  if len({n for _, n in known}) > 1:
    raise ValueError("`inputs` must share their batch dimension; got batch sizes %s."
                     % ", ".join("inputs[%d]: %d" % (i, n) for i, n in known))


def _build_loss(model_fn, micro_inputs):
  """Builds `model_fn` on one micro-batch, reusing variables; returns (loss, update ops)."""
  graph = tf.compat.v1.get_default_graph()
  n_update_ops = len(graph.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS))
  with _reusing_variables():
    loss = model_fn(micro_inputs)
  if loss is None or not (tf.is_tensor(loss) or isinstance(loss, (float, int))):
    raise TypeError("`model_fn` must return the micro-batch's scalar loss Tensor; got a %s: %r."
                    % (type(loss).__name__, loss))
  loss = tf.convert_to_tensor(loss)
  if loss.shape.rank is not None and loss.shape.rank != 0:
    raise ValueError("`model_fn` must return a scalar loss (a mean over the micro-batch); got "
                     "shape %s." % loss.shape)
  return loss, graph.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS)[n_update_ops:]


def _kind(grad):
  if grad is None:
    return None
  return "sparse" if isinstance(grad, tf.IndexedSlices) else "dense"


def _zeros_rows(var, dtype):
  if var.shape.rank == 0:
    return tf.zeros([0], dtype)
  rows = var.shape[:1]
  return tf.zeros(rows if rows.is_fully_defined() else tf.shape(var)[:1], dtype)


def _zeros_like_var(var):
  dtype = var.dtype.base_dtype
  return tf.zeros(var.shape if var.shape.is_fully_defined() else tf.shape(var), dtype)


def fused_accumulation_step(model_fn: Callable[[Any], Any], inputs: Any, num_micro_batches: int,
                            optimizer: tf.compat.v1.train.Optimizer,
                            var_list: Optional[Sequence[Any]] = None, global_step: Any = None,
                            transforms: Union[transforms_lib.Transform,
                                              Sequence[transforms_lib.Transform]] = (),
                            name: str = "FusedAccumulation", summaries=None) -> FusedStep:
  """Builds one update over a big batch, computed micro-batch by micro-batch in a loop.

  Example::

    def model_fn(batch):  # builds the model on one micro-batch, returns its mean loss
      hidden = tf.nn.relu(tf.matmul(batch["x"], tf.compat.v1.get_variable("w1", [784, 4096])))
      ...
      return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
          labels=batch["y"], logits=logits))

    x = tf.compat.v1.placeholder(tf.float32, [256, 784])  # the big batch
    y = tf.compat.v1.placeholder(tf.int32, [256])
    step = tf1clip.fused_accumulation_step(
        model_fn, {"x": x, "y": y}, num_micro_batches=8,
        optimizer=tf.compat.v1.train.AdamOptimizer(1e-3), global_step=global_step)
    _, loss = sess.run([step.train_op, step.loss], feed_dict=big_batch)

  Variables: `model_fn` is called twice while building, both times under
  ``tf.compat.v1.variable_scope(..., reuse=tf.compat.v1.AUTO_REUSE)``: first for micro-batch
  0, outside the loop, which creates the variables, then inside the loop body (micro-batches
  1..k-1), which reuses them. So build the model with ``tf.compat.v1.get_variable`` (or with
  ``tf.compat.v1.layers`` given explicit ``name=``s), as for ``tf.compat.v1.make_template``;
  variables that already exist are reused. A variable created inside the loop raises.

  ``UPDATE_OPS`` that `model_fn` adds (batch normalization's moving averages) run on every
  micro-batch, inside the loop.

  Args:
    model_fn: callable ``micro_inputs -> loss``, where `micro_inputs` has the structure of
      `inputs` with 1/k of their rows; the loss should be a mean over the micro-batch.
    inputs: a Tensor or a nested structure (dict, list, tuple) of Tensors sharing the
      leading batch dimension, e.g. placeholders fed with the big batch.
    num_micro_batches: int >= 1; the batch dimension must be divisible by it.
    optimizer: a ``tf.compat.v1.train.Optimizer`` (it may be a `tf1clip.WrappedOptimizer`).
    var_list: variables to train; default the trainable variables (as ``minimize``).
    global_step: optional variable incremented once per run (one applied update).
    transforms: a transform or list of transforms applied to the mean gradient.
    name: name scope of the loop and the update.
    summaries: record the ``tf1clip/`` norm scalars of the mean gradient around `transforms`
      (global norm before and after, clipped, clip rate, threshold; docs/observability.md).
      None (default): on when there are transforms (graph mode: summary ops in the
      ``SUMMARIES`` collection); True: also with no transform (the norm only); False: off;
      ``"per_variable"``: plus per-variable norms. Accumulation progress is not recorded: one
      run is one whole window.

  Returns:
    `FusedStep` ``(train_op, loss)``.

  Raises:
    TypeError: if `optimizer` is not an Optimizer, a transform or `model_fn` is not callable, or
      `model_fn` returns something other than a loss Tensor (None, say).
    ValueError: if `num_micro_batches` is not an int >= 1, the inputs' known batch sizes differ
      or are not divisible by it, the loss is not a scalar, there is nothing to train, or
      `model_fn` creates a variable inside the loop, or `summaries` is not None, a bool or
      "per_variable".
    RuntimeError: when executing eagerly (see `tf1clip.v2` for TF2 code).
  """
  accumulators.check_graph_mode("fused_accumulation_step")
  k = accumulators.check_num_micro_batches(num_micro_batches)
  optimizer_lib.check_optimizer(optimizer)
  if not callable(model_fn):
    raise TypeError("`model_fn` must be a callable micro_inputs -> loss; got a %s: %r."
                    % (type(model_fn).__name__, model_fn))
  transform = transforms_lib.as_chain(transforms)
  summaries_lib.check_summaries(summaries)

  with tf.name_scope(name):
    flat_inputs = [tf.convert_to_tensor(x) for x in tf.nest.flatten(inputs)]
    _check_same_batch_size(flat_inputs)
    split = tf.nest.pack_sequence_as(
        inputs, [_split(x, k, "inputs[%d]" % i) for i, x in enumerate(flat_inputs)])

    # Micro-batch 0 runs outside the loop: its model_fn call creates the variables, and its
    # gradients start the sums (no zero-filled sums held alongside the first gradients).
    with tf.name_scope("micro_batch_0"):
      with _ForwardPassCollectionsKept():
        loss, update_ops = _build_loss(model_fn, tf.nest.map_structure(lambda s: s[0], split))
      if var_list is None:
        var_list = (tf.compat.v1.trainable_variables() + tf.compat.v1.get_collection(
            tf.compat.v1.GraphKeys.TRAINABLE_RESOURCE_VARIABLES))
      var_list = list(var_list)
      if not var_list:
        raise ValueError("No variables to optimize.")
      grads = [g for g, _ in optimizer.compute_gradients(loss, var_list=var_list)]
      if all(g is None for g in grads):
        raise ValueError("No gradients provided for any variable: %s."
                         % ([str(v) for v in var_list],))
      kinds = [_kind(g) for g in grads]
      trained = [j for j, kind in enumerate(kinds) if kind is not None]
      sums, rows = [], []
      with tf.control_dependencies(update_ops):
        for j in trained:
          v = var_list[j]
          if kinds[j] == "sparse":
            total, touched = accumulators.add_to_sum(
                _zeros_like_var(v), _zeros_rows(v, v.dtype.base_dtype), grads[j])
          else:
            total, touched = tf.identity(grads[j]), tf.zeros([0], v.dtype.base_dtype)
          sums.append(total)
          rows.append(touched)
        # The loop starts once micro-batch 0's backward pass is done, so that two
        # micro-batches' activations are never alive together.
        with tf.control_dependencies(sums + rows):
          start = tf.constant(1)

    def body(i, loss_sum, sums, rows):
      # A dim-0 slice: TF hands out a view of the big batch rather than a copy.
      micro_inputs = tf.nest.map_structure(lambda s: s[i], split)
      with tf.variable_creator_scope(_no_new_variables):
        loss, update_ops = _build_loss(model_fn, micro_inputs)
      grads = [g for g, _ in optimizer.compute_gradients(loss, var_list=var_list)]
      new_sums, new_rows = [], []
      for j, total, touched in zip(trained, sums, rows):
        if _kind(grads[j]) != kinds[j]:
          raise ValueError("the gradient of %s changed kind inside the loop (%s, was %s)."
                           % (var_list[j].op.name, _kind(grads[j]), kinds[j]))
        total, touched = accumulators.add_to_sum(total, touched, grads[j])
        new_sums.append(total)
        new_rows.append(touched)
      with tf.control_dependencies(update_ops):
        return i + 1, loss_sum + loss, [tf.identity(s) for s in new_sums], new_rows

    loss_sum = loss
    if k > 1:
      # One iteration at a time: overlapping iterations would keep several micro-batches'
      # activations alive and defeat the point.
      with _ForwardPassCollectionsKept():
        _, loss_sum, sums, rows = tf.while_loop(
            lambda i, *_: i < k, body, (start, loss, sums, rows), parallel_iterations=1,
            name="micro_batches")

    means = [None] * len(var_list)
    for j, total, touched in zip(trained, sums, rows):
      if kinds[j] == "sparse":
        means[j] = accumulators.touched_rows_mean(total, touched, k, tf.shape(var_list[j]))
      else:
        means[j] = total / tf.cast(k, total.dtype)
    loss = loss_sum / tf.cast(k, loss_sum.dtype)
    with tf.init_scope():
      observer = summaries_lib.observer_for(transform, summaries, name + "_summaries")
      transform = observer or transform
      transform.build(var_list)
    grads_and_vars = transform(list(zip(means, var_list)))
  # Outside our name scope, as a plain minimize() would be: the optimizer names its
  # non-slot variables (Adam's beta1_power) after the caller's scope.
  train_op = optimizer.apply_gradients(grads_and_vars, global_step=global_step)
  return FusedStep(train_op, loss)

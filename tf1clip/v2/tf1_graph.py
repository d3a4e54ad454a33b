"""A TF1 model-building function run eagerly: what `tf1clip upgrade --stage 3` programs are built on.

``TF1Graph(build)`` calls ``build()`` once inside a fresh ``tf.Graph`` (graph mode, resource variables, the
way ``tf.compat.v1`` code builds under TF 2.x), exports that graph as a MetaGraphDef and imports it again
inside ``tf.compat.v1.wrap_function``. TensorFlow then lifts its variables out as eager variables that keep
their TF1 names (``Variable_1``, ``dense/kernel``), and ``WrappedFunction.prune(feeds, fetches)`` turns any
part of the graph into a concrete function whose arguments are the fed tensors -- a placeholder becomes an
argument. Nothing here opens a Session: variables start from their own TF1 initializers, run once as a
pruned function (the graph-level and op-level seeds of the build are kept, so a seeded program starts the
same way every run).

- ``function(feeds, fetches)``: what ``sess.run(fetches, feed_dict={feeds[0]: a, ...})`` computed, as a
  Python function of ``a, ...``; results are NumPy values shaped like ``fetches``, as ``sess.run`` returns.
- ``train_step(optimizer, loss, feeds, fetches)``: one ``tf.function`` step: the loss under
  ``tf.GradientTape``, its gradients for the trainable variables (or ``var_list``), and
  ``optimizer.apply_gradients`` -- a Keras optimizer or a ``tf1clip.v2`` wrapper, see
  ``tf1clip.v2.migrate_optimizer`` -- then ``global_step += 1`` when one is given, as ``minimize`` did.
- ``checkpoint(...)``: the ``tf.train.Saver`` replacement (v2.tf1_checkpoint).

``TF1CLIP_INITIAL_VALUES=values.npz`` (written by ``tools.compare_init record``) starts every variable named
there from its value: two stages of one program can then be compared from the same initial weights.

Data flow: v2.optimizer / v2.mapping <- **v2.tf1_graph** (+ v2.tf1_checkpoint) <- programs written by
tools.upgrade_stage3.
"""

import os

import numpy as np
import tensorflow as tf

INITIAL_VALUES_ENV = "TF1CLIP_INITIAL_VALUES"


class TF1Graph:
  """The graph ``build()`` makes, as eager variables and concrete functions (see the module docstring).

  Args:
    build: a function of no arguments that builds TF1 graph code (``tf.compat.v1`` names). Whatever
      Python objects it leaves behind (tensors, operations, variables, in globals or returned) are given
      back to `function` / `train_step`, which find their counterparts by name.
  """

  def __init__(self, build):
    if not callable(build):
      raise TypeError("build must be a function that builds the TF1 graph; got %r" % (build,))
    self._graph = tf.Graph()
    with self._graph.as_default():
      self.built = build()
      meta_graph = tf.compat.v1.train.export_meta_graph(graph=self._graph)
      initializers = [v.initializer.name for v in tf.compat.v1.global_variables() +
                      tf.compat.v1.local_variables()]
    self._wrapped = tf.compat.v1.wrap_function(
        lambda: tf.compat.v1.train.import_meta_graph(meta_graph) and None, [], name="tf1_graph")
    self._by_name = {v.name.split(":")[0]: v for v in self._wrapped.variables}
    if initializers:
      ops = [self._wrapped.graph.get_operation_by_name(name) for name in initializers]
      self._wrapped.prune(feeds=[], fetches=ops)()
    self._restore_initial_values(os.environ.get(INITIAL_VALUES_ENV))

  def _restore_initial_values(self, path):
    if not path:
      return
    with np.load(path) as values:
      for name in values.files:
        if name in self._by_name:
          self._by_name[name].assign(values[name])

  @property
  def variables(self):
    """Every variable of the graph, eager, in creation order, with its TF1 name."""
    return list(self._wrapped.variables)

  @property
  def trainable_variables(self):
    """The trainable ones (what ``tf.trainable_variables()`` listed)."""
    return list(self._wrapped.trainable_variables)

  def variable(self, graph_variable):
    """The eager variable for a variable the build made (or for its name, ``"dense/kernel"``)."""
    name = graph_variable if isinstance(graph_variable, str) else graph_variable.name
    name = name.split(":")[0]
    if name not in self._by_name:
      raise KeyError("%s is not a variable of this graph; it has %s" % (name, sorted(self._by_name)))
    return self._by_name[name]

  def _counterpart(self, thing, what):
    """The imported graph's tensor / operation for one the build made."""
    if isinstance(thing, tf.Operation):
      return self._wrapped.graph.get_operation_by_name(thing.name)
    if isinstance(thing, tf.Tensor):
      return self._wrapped.graph.get_tensor_by_name(thing.name)
    raise TypeError("%s must be tensors or operations of the TF1 graph; got %r" % (what, thing))

  def _feeds(self, feeds):
    feeds = list(feeds)
    for t in feeds:
      if not isinstance(t, tf.Tensor):
        raise TypeError("feeds must be tensors of the TF1 graph (its placeholders); got %r" % (t,))
    return feeds, [self._counterpart(t, "feeds") for t in feeds]

  def function(self, feeds, fetches):
    """``sess.run(fetches, feed_dict=dict(zip(feeds, values)))`` as a function of the values.

    Args:
      feeds: the fed tensors (placeholders) of the build, in the order the function takes them.
      fetches: a tensor, operation or variable of the build, or a list / tuple / dict of them.

    Returns:
      A function of len(feeds) values returning NumPy values (None for an operation) shaped like fetches.
    """
    feeds, fed = self._feeds(feeds)
    leaves = tf.nest.flatten(fetches)
    kinds, computed = [], []
    for leaf in leaves:
      if isinstance(leaf, tf.Variable):
        kinds.append(("variable", self.variable(leaf)))
      else:
        kinds.append(("graph", len(computed)))
        computed.append(self._counterpart(leaf, "fetches"))
    pruned = self._wrapped.prune(feeds=fed, fetches=computed) if computed else None

    def run(*values):
      results = pruned(*_converted(feeds, values)) if pruned is not None else []
      flat = []
      for kind, where in kinds:
        value = where.read_value() if kind == "variable" else results[where]
        flat.append(None if value is None else value.numpy())
      return tf.nest.pack_sequence_as(fetches, flat)

    return run

  def train_step(self, optimizer, loss, feeds, fetches=(), var_list=None, global_step=None):
    """One training step as a ``tf.function``: what ``sess.run([train_op] + fetches, feed_dict)`` did.

    Args:
      optimizer: a Keras optimizer or a ``tf1clip.v2`` wrapper (``tf1clip.v2.migrate_optimizer`` of the
        program's TF1 optimizer).
      loss: the loss tensor of the build (``minimize``'s first argument).
      feeds: the fed tensors, in the order the step takes them.
      fetches: what the step returns besides updating: tensors of the build, None where the program
        fetched the train op (``sess.run`` gave None for it); a list / tuple / dict of them, or one.
      var_list: the variables ``minimize`` was given (default: the trainable ones).
      global_step: the build's global step variable, incremented after every update, or None.

    Returns:
      A function of len(feeds) values returning NumPy values shaped like fetches. The fetched tensors
      are computed in the same pass as the loss, before the update, as in one ``sess.run``.
    """
    feeds, fed = self._feeds(feeds)
    leaves = tf.nest.flatten(fetches)
    if any(isinstance(leaf, tf.Variable) for leaf in leaves):
      raise TypeError("train_step fetches: fetch a variable with `function`, after the step (TF1 gave no "
                      "defined order between the update and the read)")
    computed = [self._counterpart(leaf, "fetches") for leaf in leaves if leaf is not None]
    pruned = self._wrapped.prune(feeds=fed, fetches=[self._counterpart(loss, "loss")] + computed)
    variables = self.trainable_variables if var_list is None else [self.variable(v) for v in var_list]
    step_variable = None if global_step is None else self.variable(global_step)

    @tf.function
    def step(*values):
      with tf.GradientTape() as tape:
        outputs = pruned(*values)
      grads = tape.gradient(outputs[0], variables)
      pairs = [(g, v) for g, v in zip(grads, variables) if g is not None]
      if not pairs:
        raise ValueError("No gradients provided for any variable: the loss depends on none of %s"
                         % [v.name for v in variables])
      optimizer.apply_gradients(pairs)
      if step_variable is not None:
        step_variable.assign_add(tf.ones_like(step_variable))
      return outputs[1:]

    def run(*values):
      results = iter(step(*_converted(feeds, values)))
      flat = [None if leaf is None else next(results).numpy() for leaf in leaves]
      return tf.nest.pack_sequence_as(fetches, flat)

    run.step = step
    return run

  def checkpoint(self, var_list=None, optimizer=None):
    """The ``tf.train.Saver(var_list)`` replacement: a v2.tf1_checkpoint.TF1Checkpoint."""
    from tf1clip.v2 import tf1_checkpoint  # pylint: disable=import-outside-toplevel
    variables = self.variables if var_list is None else [self.variable(v) for v in _as_list(var_list)]
    return tf1_checkpoint.TF1Checkpoint(variables, optimizer=optimizer, resolve=self.variable)


def _as_list(var_list):
  return list(var_list.values()) if isinstance(var_list, dict) else list(var_list)


def _converted(feeds, values):
  """Fed values as tensors of each placeholder's dtype (``sess.run`` converted NumPy values the same way)."""
  if len(values) != len(feeds):
    raise TypeError("this function takes %d values (for %s); got %d" % (
        len(feeds), ", ".join(t.name for t in feeds), len(values)))
  return [tf.convert_to_tensor(np.asarray(v, dtype=t.dtype.as_numpy_dtype)) for t, v in zip(feeds, values)]

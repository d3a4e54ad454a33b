"""The "graph_editor" shim: the one TF 1.x Operation attribute graph-editor scripts read that TF 2.21 lacks.

The TF1 facade (compat.v1) applies it when a script first touches `tf.contrib`, so `import tf1clip` changes nothing.
Scripts built on tf.contrib.graph_editor (openai's memory_saving_gradients) read `op._outputs[0]` of
the ops `copy_with_input_replacements` made and keep ops with `op._inputs`; TF 2.21's `tf.Operation`
has `outputs` / `inputs` but neither private name. The patch adds read-only properties aliasing them
and nothing else.
"""

import tensorflow as tf

from tf1clip import shims


def add_operation_io_aliases():
  """Adds `tf.Operation._outputs` and `_inputs`, read-only aliases of `outputs` / `inputs`, when missing.

  Returns:
    True when an alias was added, False when `tf.Operation` had both already.
  """
  added = False
  for alias, public in (("_outputs", "outputs"), ("_inputs", "inputs")):
    if not hasattr(tf.Operation, alias):
      setattr(tf.Operation, alias, property(lambda self, name=public: getattr(self, name),
                                            doc="TF 1.x alias of `%s`." % public))
      added = True
  return added


PATCHES = (
    shims.Patch(
        target="tensorflow.python.framework.ops:Operation._outputs, Operation._inputs",
        source="tf1clip.shims.graph_editor:add_operation_io_aliases",
        needed_by="TF 1.x graph-editor scripts (memory_saving_gradients) reading op._outputs / op._inputs",
        call=True),
)

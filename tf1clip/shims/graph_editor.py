"""The "graph_editor" shim: the one TF 1.x Operation attribute graph-editor scripts read that TF 2.21 lacks.

Place in the data flow (DESIGN.md, "Legacy surface"): shims applies it; the TF1 facade
(compat.v1) asks for it when a script first touches `tf.contrib`, so `import tf1clip` changes nothing.
Scripts built on tf.contrib.graph_editor (openai's memory_saving_gradients) read `op._outputs[0]` of
the ops `copy_with_input_replacements` made and keep ops with `op._inputs`; TF 2.21's `tf.Operation`
has `outputs` / `inputs` but neither private name. The patch adds read-only properties aliasing them
and nothing else.
"""

from tf1clip import shims

PATCHES = (
    shims.Patch(
        target="tensorflow.python.framework.ops:Operation._outputs, Operation._inputs",
        source="tf1clip.contrib.graph_editor.in_place:add_operation_io_aliases",
        needed_by="TF 1.x graph-editor scripts (memory_saving_gradients) reading op._outputs / op._inputs",
        call=True),
)

"""The "tf_slim" shim: the TensorFlow / tf-keras internals tf-slim 1.1.0 reads that have moved, as `Patch` entries.

Place in the data flow (DESIGN.md, "Legacy surface"): declared here, registered in
`tf1clip.shims.SHIMS`, applied by `shims.apply("tf_slim")` from the runner's import hook and from
`tf1clip.contrib.slim` (never by `import tf1clip`), reported by `tf1clip doctor`. Each entry points the
old name at the same object that now lives elsewhere (see `tf1clip.contrib.slim` for the table and what
needs each name). The module imports nothing, so reading the list costs nothing.
"""

from tf1clip.shims import Patch

_OPS = "tensorflow.python.ops."
_FRAMEWORK = "tensorflow.python.framework."

PATCHES = (
    Patch("tf_keras.legacy_tf_layers", "tf_keras.src.legacy_tf_layers",
          "batch_norm (TF's layers.normalization imports the old path)"),
    Patch("tf_keras.legacy_tf_layers.normalization", "tf_keras.src.legacy_tf_layers.normalization",
          "batch_norm"),
    Patch(_FRAMEWORK + "ops:Tensor", _FRAMEWORK + "tensor:Tensor",
          "fused batch_norm, dropout/smart_cond, create_train_op(gradient_multipliers=), optimize_loss"),
    Patch(_FRAMEWORK + "ops:IndexedSlices", _FRAMEWORK + "indexed_slices:IndexedSlices",
          "create_train_op multipliers/clipping, clip_gradient_norms, optimize_loss"),
    Patch(_OPS + "array_ops:stack", _OPS + "array_ops_stack:stack",
          "metrics, tf_slim.data, layers (spatial_softmax, ...)"),
    Patch(_OPS + "array_ops:unstack", _OPS + "array_ops_stack:unstack",
          "metrics, tf_slim.data, layers"),
    Patch(_OPS + "control_flow_ops:cond", _OPS + "cond:cond",
          "fused batch_norm, utils.smart_cond, metrics, tf_slim.data"),
    Patch(_OPS + "control_flow_ops:case", _OPS + "control_flow_case:case",
          "tf_slim.data.tfexample_decoder"),
    Patch(_OPS + "control_flow_ops:while_loop", _OPS + "while_loop:while_loop",
          "losses.metric_learning"),
    Patch(_OPS + "control_flow_ops:Assert", _OPS + "control_flow_assert:Assert",
          "metrics.histogram_ops"),
    Patch(_OPS + "variable_scope:variable", _OPS + "variable_v1:VariableV1",
          "local_variable, global_variable (TF 1.15 defined it as this alias)"),
)

"""tf.contrib.cudnn_rnn's parameter format converters and checkpoint saveables against TF 1.15, on a CPU-only machine.

CudnnParamsFormatConverterLSTM / GRU / Tanh / Relu: opaque_to_tf_canonical and tf_canonical_to_opaque build the
cuDNN op (its type, attributes) and TF 1.15's tensors (names, shapes, dtypes, the (weights, biases[, proj])
structure) for one and two layers, both directions, an LSTM projection and float64. The cuDNN ops have GPU kernels
only, so neither side can run these graphs; the CPU part of each conversion (cuDNN canonical <-> TF canonical) is
run by cutting the cuDNN op out of the graph (its outputs mapped to fixed numbers): the TF canonical tensors a
checkpoint holds, and the cuDNN canonical tensors a restore feeds back, are compared by value.
CudnnLSTMSaveable / CudnnGRUSaveable / CudnnRNNTanhSaveable / CudnnRNNReluSaveable: name, op, SaveSpecs (names,
tensor names, dtypes, shapes), scope spellings, format_converter, restore, the checkpoint keys a tf.train.Saver
writes; the saveables the cuDNN layers register (under an outer scope, built by hand, under reusing scopes);
running: the error.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.cudnn_rnn." + n for n in (
    "CudnnLSTMSaveable", "CudnnGRUSaveable", "CudnnRNNTanhSaveable", "CudnnRNNReluSaveable",
    "CudnnParamsFormatConverterLSTM", "CudnnParamsFormatConverterGRU", "CudnnParamsFormatConverterTanh",
    "CudnnParamsFormatConverterRelu"))

SNIPPET = r'''
import numpy as np
import tensorflow as tf
cudnn = tf.contrib.cudnn_rnn
PER_LAYER = {"lstm": 8, "gru": 6, "rnn_tanh": 2, "rnn_relu": 2}
CUDNN_OPS = ("CudnnRNNParamsToCanonical", "CudnnRNNParamsToCanonicalV2", "CudnnRNNCanonicalToParams",
             "CudnnRNNCanonicalToParamsV2")

def shape(t):
    return t.shape.as_list() if t.shape.ndims is not None else None

def describe(t):
    return [t.name, shape(t), t.dtype.name]

def cudnn_op(graph, op_type):
    (op,) = [op for op in graph.get_operations() if op.type == op_type]
    attrs = {a: op.get_attr(a) for a in ("rnn_mode", "input_mode", "direction", "num_params", "num_params_weights",
                                         "num_params_biases", "num_proj", "T") if a in op.node_def.attr}
    attrs["T"] = tf.as_dtype(attrs["T"]).name
    return op, {"name": op.name, "attrs": attrs, "inputs": [shape(t) for t in op.inputs],
                "outputs": len(op.outputs)}

def cpu_values(graph, tensors, op=None, feeds=()):
    """Runs `tensors` of `graph` in a copy without the cuDNN ops, op's outputs replaced by the arrays `feeds`."""
    sub = tf.graph_util.extract_sub_graph(graph.as_graph_def(), sorted({t.op.name for t in tensors}))
    kept = tf.GraphDef()
    kept.versions.CopyFrom(sub.versions)
    kept.node.extend([n for n in sub.node if n.op not in CUDNN_OPS])
    for node in kept.node:
        node.device = ""  # TF 1.15 pinned the cuDNN ops' inputs to /gpu:0
    used = {i if ":" in i else i + ":0" for node in kept.node for i in node.input}
    direct = {"%s:%d" % (op.name, i): v for i, v in enumerate(feeds)} if op is not None else {}
    with tf.Graph().as_default():
        mapped = {name: tf.constant(v) for name, v in direct.items() if name in used}
        wanted = [t.name for t in tensors if t.name not in direct]
        got = tf.import_graph_def(kept, input_map=mapped, return_elements=wanted, name="cut")
        with tf.Session() as sess:
            values = dict(zip(wanted, sess.run(got)))
    return [direct[t.name] if t.name in direct else values[t.name] for t in tensors]

def cu_canonical(mode, layers, units, input_size, dirs, proj=None, dtype=np.float32, seed=0):
    """cuDNN canonical weights and biases, pseudo-layer by pseudo-layer (an LSTM's projection after its 8)."""
    rng = np.random.RandomState(seed)
    half, rec = PER_LAYER[mode] // 2, proj or units
    weights, biases = [], []
    for layer in range(layers):
        width = input_size if layer == 0 else dirs * rec
        for _ in range(dirs):
            weights += [rng.randn(units, width) for _ in range(half)] + [rng.randn(units, rec) for _ in range(half)]
            weights += [rng.randn(proj, units)] if proj else []
            biases += [rng.randn(units) for _ in range(2 * half)]
    return [w.astype(dtype) for w in weights], [b.astype(dtype) for b in biases]

CONVERTERS = (
    ("lstm_uni2", cudnn.CudnnParamsFormatConverterLSTM, "lstm", dict(num_layers=2, num_units=3, input_size=4)),
    ("lstm_bi1", cudnn.CudnnParamsFormatConverterLSTM, "lstm",
     dict(num_layers=1, num_units=2, input_size=3, direction="bidirectional")),
    ("lstm_proj_bi2", cudnn.CudnnParamsFormatConverterLSTM, "lstm",
     dict(num_layers=2, num_units=3, input_size=4, num_proj=2, direction="bidirectional")),
    ("gru_bi2", cudnn.CudnnParamsFormatConverterGRU, "gru",
     dict(num_layers=2, num_units=2, input_size=3, direction="bidirectional")),
    ("gru_uni1", cudnn.CudnnParamsFormatConverterGRU, "gru", dict(num_layers=1, num_units=3, input_size=2)),
    ("tanh_uni2", cudnn.CudnnParamsFormatConverterTanh, "rnn_tanh", dict(num_layers=2, num_units=3, input_size=2)),
    ("relu_bi1_f64", cudnn.CudnnParamsFormatConverterRelu, "rnn_relu",
     dict(num_layers=1, num_units=2, input_size=4, direction="bidirectional", input_mode="linear_input")),
)
for seed, (key, cls, mode, kwargs) in enumerate(CONVERTERS):
    dtype = np.float64 if key.endswith("f64") else np.float32
    dirs = 2 if kwargs.get("direction") == "bidirectional" else 1
    proj = kwargs.get("num_proj")
    with tf.Graph().as_default() as graph:
        converter = cls(**kwargs)
        canonical = converter.opaque_to_tf_canonical(tf.placeholder(dtype, [None], name="opaque"))
        op, op_report = cudnn_op(graph, "CudnnRNNParamsToCanonicalV2" if proj else "CudnnRNNParamsToCanonical")
        weights, biases = cu_canonical(mode, kwargs["num_layers"], kwargs["num_units"], kwargs["input_size"], dirs,
                                       proj, dtype, seed)
        flat = [t for part in canonical for t in part]
        tf_values = cpu_values(graph, flat, op, weights + biases)
        report(key + "/to_tf", {"structure": [type(canonical).__name__, [type(p).__name__ for p in canonical],
                                              [[describe(t) for t in part] for part in canonical]],
                                "op": op_report, "values": tf_values})
    with tf.Graph().as_default() as graph:
        tensors = [tf.constant(v) for v in tf_values]
        n = sum(len(part) for part in canonical[:2])
        opaque = converter.tf_canonical_to_opaque(tensors[:n], weights_proj=tensors[n:] if proj else None)
        op, op_report = cudnn_op(graph, "CudnnRNNCanonicalToParamsV2" if proj else "CudnnRNNCanonicalToParams")
        back = cpu_values(graph, list(op.inputs[3:]))
        report(key + "/to_opaque", {"opaque": describe(opaque), "op_type": opaque.op.type, "op": op_report,
                                    "values": back,
                                    "weights_round_trip": [np.array_equal(a.ravel(), b.ravel())
                                                           for a, b in zip(back, weights)]})

with tf.Graph().as_default():
    conv = cudnn.CudnnParamsFormatConverterLSTM(1, 2, 3)
    gru = cudnn.CudnnParamsFormatConverterGRU(2, 2, 3)
    zeros = lambda *s: tf.zeros(s)
    report_errors("converter_errors", (
        ("odd_direction", lambda: cudnn.CudnnParamsFormatConverterTanh(1, 2, 3, direction="sideways")),
        ("too_few", lambda: conv.tf_canonical_to_opaque([zeros(5, 8)])),
        ("too_many", lambda: conv.tf_canonical_to_opaque([zeros(5, 8), zeros(8), zeros(8)])),
        ("gru_one_layer_given", lambda: gru.tf_canonical_to_opaque(
            [zeros(5, 4), zeros(3, 2), zeros(2, 2), zeros(4), zeros(2), zeros(2)]))))

# the saveables: on a variable of one's own, then as the cuDNN layers register them
SAVEABLES = (
    ("lstm", cudnn.CudnnLSTMSaveable, "lstm", dict(num_layers=2, num_units=3, input_size=4, scope="model")),
    ("gru", cudnn.CudnnGRUSaveable, "gru",
     dict(num_layers=1, num_units=2, input_size=3, direction="bidirectional", name="gru_params")),
    ("tanh", cudnn.CudnnRNNTanhSaveable, "rnn_tanh", dict(num_layers=1, num_units=2, input_size=3, scope="")),
    ("relu", cudnn.CudnnRNNReluSaveable, "rnn_relu", dict(num_layers=2, num_units=2, input_size=2)),
)
for seed, (key, cls, mode, kwargs) in enumerate(SAVEABLES):
    dtype = tf.float64 if key == "relu" else tf.float32
    with tf.Graph().as_default() as graph:
        opaque = tf.get_variable("opaque", initializer=tf.zeros([7], dtype), validate_shape=False)
        if key == "gru":
            with tf.variable_scope("outer") as outer:
                saveable = cls(opaque, scope=outer, **kwargs)
        else:
            saveable = cls(opaque, **kwargs)
        converter = saveable.format_converter
        tf.add_to_collection(tf.GraphKeys.SAVEABLE_OBJECTS, saveable)
        dirs = 2 if kwargs.get("direction") == "bidirectional" else 1
        weights, biases = cu_canonical(mode, kwargs["num_layers"], kwargs["num_units"], kwargs["input_size"], dirs,
                                       dtype=dtype.as_numpy_dtype, seed=seed)
        op, _ = cudnn_op(graph, "CudnnRNNParamsToCanonical")
        saved = cpu_values(graph, [spec.tensor for spec in saveable.specs], op, weights + biases)
        restored = saveable.restore([tf.constant(v) for v in saved], None)
        restore_op, _ = cudnn_op(graph, "CudnnRNNCanonicalToParams")
        saver = tf.train.Saver()
        keys = graph.get_operation_by_name("save/SaveV2/tensor_names").get_attr("value")
        report("saveable_" + key, {
            "name": saveable.name, "op": [saveable.op.name, saveable.op.op.type, saveable.op.dtype.name],
            "specs": [[s.name, s.tensor.name, s.slice_spec, s.dtype.name, shape(s.tensor)] for s in saveable.specs],
            "saved": saved, "restored": [restored.op.type, restored.op.name, restored.dtype.base_dtype.name],
            "fed_back": cpu_values(graph, list(restore_op.inputs[3:])),
            "converter": [type(converter).__name__, converter is saveable.format_converter,
                          isinstance(saveable, cudnn.CudnnLSTMSaveable), isinstance(saveable, cudnn.CudnnGRUSaveable)],
            "checkpoint_keys": sorted(tf.make_ndarray(keys).tolist()),
            "in_collection": tf.get_collection(tf.GraphKeys.SAVEABLE_OBJECTS) == [saveable]})
        with tf.Session() as sess:
            report_errors("saveable_%s/run" % key, (
                ("saved_tensor", lambda: sess.run(saveable.specs[0].tensor)),
                ("save", lambda: saver.save(sess, "unwritten_" + key))))

with tf.Graph().as_default() as graph:
    with tf.variable_scope("encoder"):
        lstm = cudnn.CudnnLSTM(1, 2)
        lstm(tf.zeros([3, 2, 4]))
    gru = cudnn.CudnnGRU(2, 2, direction="bidirectional", name="by_hand")
    gru.build([3, 2, 3])
    with tf.variable_scope("encoder", reuse=True):  # a reusing scope: the variable is shared, no second saveable
        shared = cudnn.CudnnLSTM(1, 2)
        shared(tf.zeros([3, 2, 4]))
    with tf.variable_scope("auto", reuse=tf.AUTO_REUSE):
        relu = cudnn.CudnnRNNRelu(1, 2)
        relu(tf.zeros([3, 2, 4]))
    report("layer_reuse", [shared.saveable is None, shared.kernel is lstm.kernel,
                           [v.op.name for v in shared.trainable_variables]])
    layer_saveables = []
    for layer in (lstm, gru, relu):
        s = layer.saveable
        layer_saveables.append([type(s).__name__, s.name, s.op.name, [sp.name for sp in s.specs],
                                [sp.tensor.name for sp in s.specs], layer.kernel.name])
    saver = tf.train.Saver()
    keys = graph.get_operation_by_name("save/SaveV2/tensor_names").get_attr("value")
    report("layer_saveables", {"saveables": layer_saveables, "checkpoint_keys": sorted(tf.make_ndarray(keys).tolist()),
                               "collection": [s.name for s in tf.get_collection(tf.GraphKeys.SAVEABLE_OBJECTS)]})
'''


@requires_tf115
def test_contrib_cudnn_rnn_converters_and_saveables_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["saveable_lstm/run"]["saved_tensor"] == "InvalidArgumentError"  # no CPU kernel on TF 1.15 either
  assert all(all(tf115[key]["weights_round_trip"]) for key in tf115 if key.endswith("/to_opaque"))
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6)

"""tf.contrib.cudnn_rnn: the canonical-weight conversion round-trips exactly, the CPU compatible cells compute
NVIDIA's cuDNN equations from converted weights, a cuDNN-format checkpoint restores into them and back,
and the cuDNN layers build without a GPU as on TF 1.15, warning and failing when run (their GPU test runs only
where a GPU exists)."""

import itertools

import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib import cudnn_rnn
from tf1clip.contrib import rnn
from tf1clip.contrib.cudnn_rnn.python.ops import _canonical

V1 = tf.compat.v1
HAS_GPU = bool(tf.config.list_physical_devices("GPU"))
NO_GPU_REASON = "tf.config.list_physical_devices('GPU') is empty: the cuDNN kernels need a GPU"
MODES = [_canonical.CUDNN_LSTM, _canonical.CUDNN_GRU, _canonical.CUDNN_RNN_TANH, _canonical.CUDNN_RNN_RELU]
DIRECTIONS = [_canonical.CUDNN_RNN_UNIDIRECTION, _canonical.CUDNN_RNN_BIDIRECTION]
UNITS, DEPTH, BATCH, STEPS = 3, 4, 2, 5


def _sigmoid(x):
  return 1.0 / (1.0 + np.exp(-x))


def _random_opaque(mode, num_layers, direction, seed=0):
  size = _canonical.opaque_params_size(mode, num_layers, UNITS, DEPTH, direction)
  return np.random.RandomState(seed).uniform(-0.6, 0.6, size).astype(np.float32)


@pytest.mark.parametrize("mode,direction,num_layers",
                         list(itertools.product(MODES, DIRECTIONS, [1, 2])))
def test_tf_canonical_to_opaque_and_back_is_exact(sess, mode, direction, num_layers):
  opaque = _random_opaque(mode, num_layers, direction)
  tf_params = _canonical.opaque_to_tf_canonical(opaque, mode, num_layers, UNITS, DEPTH, direction)
  again = _canonical.opaque_to_tf_canonical(
      _canonical.tf_canonical_to_opaque(tf_params, mode, num_layers, UNITS, DEPTH, direction),
      mode, num_layers, UNITS, DEPTH, direction)
  first, second = sess.run((tf_params, again))
  assert len(first) == num_layers * _canonical.num_dirs(direction)
  for a, b in zip(tf.nest.flatten(first), tf.nest.flatten(second)):
    np.testing.assert_array_equal(a, b)  # exact: the bias halves add back to the same float


@pytest.mark.parametrize("mode", MODES)
def test_opaque_to_cudnn_canonical_and_back_is_exact_and_keeps_the_bias_sums(sess, mode):
  opaque = _random_opaque(mode, 2, _canonical.CUDNN_RNN_BIDIRECTION, seed=1)
  weights, biases = _canonical.opaque_to_cudnn_canonical(opaque, mode, 2, UNITS, DEPTH,
                                                        _canonical.CUDNN_RNN_BIDIRECTION)
  repacked = sess.run(_canonical.cudnn_canonical_to_opaque(weights, biases))
  np.testing.assert_array_equal(repacked, opaque)
  n = _canonical.PARAMS_PER_LAYER[mode]
  w, b = sess.run((weights[:n], biases[:n]))
  tf_params = _canonical.cudnn_to_tf(mode, w, b)
  w2, b2 = sess.run(_canonical.tf_to_cudnn(mode, tf_params, DEPTH, UNITS))
  for a, c in zip(w, w2):
    np.testing.assert_array_equal(a, c)
  half = n // 2
  # A checkpoint keeps b_W + b_R only (TF 1.15's format); GRU's candidate biases stay separate.
  for k in range(half):
    if mode == _canonical.CUDNN_GRU and k == 2:
      np.testing.assert_array_equal(b2[k], b[k])
      np.testing.assert_array_equal(b2[k + half], b[k + half])
    else:
      np.testing.assert_allclose(b2[k] + b2[k + half], b[k] + b[k + half], rtol=1e-6)


def test_opaque_size_is_checked_and_layer_counts_too():
  with pytest.raises(ValueError, match="have 108 entries; got 5"):
    _canonical.opaque_to_cudnn_canonical(np.zeros(5, np.float32), "lstm", 1, UNITS, DEPTH)
  with pytest.raises(ValueError, match="rnn_mode must be one of"):
    _canonical.opaque_params_size("lstmx", 1, UNITS, DEPTH)
  with pytest.raises(ValueError, match="for 2 pseudo-layers"):
    _canonical.tf_canonical_to_opaque([[]], "lstm", 1, UNITS, DEPTH, "bidirectional")


# --- numpy cuDNN (NVIDIA's equations) against the CPU cells ---------------------------------------

def _cudnn_step(mode, x, h, c, w, b):
  half = len(w) // 2
  gate = lambda k: x @ w[k].T + h @ w[half + k].T + b[k] + b[half + k]
  if mode == _canonical.CUDNN_LSTM:
    i, f, g, o = _sigmoid(gate(0)), _sigmoid(gate(1)), np.tanh(gate(2)), _sigmoid(gate(3))
    c = f * c + i * g
    return o * np.tanh(c), c
  if mode == _canonical.CUDNN_GRU:
    r, u = _sigmoid(gate(0)), _sigmoid(gate(1))
    cand = np.tanh(x @ w[2].T + b[2] + r * (h @ w[5].T + b[5]))
    return (1 - u) * cand + u * h, c
  act = np.tanh if mode == _canonical.CUDNN_RNN_TANH else lambda z: np.maximum(z, 0)
  return act(gate(0)), c


def _cudnn_reference(mode, opaque, num_layers, direction, x):
  """NVIDIA's cuDNN equations on the cuDNN canonical weights: outputs [T, B, dirs * units]."""
  with tf.Graph().as_default(), V1.Session() as sess:
    weights, biases = sess.run(_canonical.opaque_to_cudnn_canonical(
        opaque, mode, num_layers, UNITS, DEPTH, direction))
  n, dirs = _canonical.PARAMS_PER_LAYER[mode], _canonical.num_dirs(direction)
  layer_input = x
  for layer in range(num_layers):
    outs = []
    for d in range(dirs):
      k = (layer * dirs + d) * n
      h = c = np.zeros((x.shape[1], UNITS), np.float32)
      steps = range(x.shape[0]) if d == 0 else reversed(range(x.shape[0]))
      out = np.zeros((x.shape[0], x.shape[1], UNITS), np.float32)
      for t in steps:
        h, c = _cudnn_step(mode, layer_input[t], h, c, weights[k:k + n], biases[k:k + n])
        out[t] = h
      outs.append(out)
    layer_input = np.concatenate(outs, axis=2)
  return layer_input


def _compatible_cell(mode):
  return {_canonical.CUDNN_LSTM: lambda: cudnn_rnn.CudnnCompatibleLSTMCell(UNITS),
          _canonical.CUDNN_GRU: lambda: cudnn_rnn.CudnnCompatibleGRUCell(UNITS),
          _canonical.CUDNN_RNN_TANH: lambda: rnn.BasicRNNCell(UNITS),
          _canonical.CUDNN_RNN_RELU: lambda: rnn.BasicRNNCell(UNITS, activation=tf.nn.relu)}[mode]


def _cpu_network(mode, num_layers, direction, inputs, scope):
  """The CPU network a cuDNN layer's checkpoint restores into (time-major outputs)."""
  make = _compatible_cell(mode)
  with V1.variable_scope(scope):
    if direction == _canonical.CUDNN_RNN_UNIDIRECTION:
      cell = rnn.MultiRNNCell([make() for _ in range(num_layers)])
      outputs, _ = V1.nn.dynamic_rnn(cell, inputs, time_major=True, dtype=tf.float32)
    else:
      outputs, _, _ = rnn.stack_bidirectional_dynamic_rnn(
          [make() for _ in range(num_layers)], [make() for _ in range(num_layers)], inputs,
          time_major=True, dtype=tf.float32)
  return outputs


@pytest.mark.parametrize("mode,direction,num_layers", [
    ("lstm", "unidirectional", 2), ("gru", "unidirectional", 2), ("rnn_tanh", "unidirectional", 1),
    ("rnn_relu", "unidirectional", 1), ("lstm", "bidirectional", 2), ("gru", "bidirectional", 1)])
def test_cudnn_checkpoint_restores_into_the_cpu_cells_and_back(tmp_path, mode, direction, num_layers):
  opaque = _random_opaque(mode, num_layers, direction, seed=2)
  x = np.random.RandomState(3).randn(STEPS, BATCH, DEPTH).astype(np.float32)
  scope = "cudnn_" + mode
  names = _canonical.canonical_variable_names(scope, mode, num_layers, direction)
  gpu_ckpt, cpu_ckpt = str(tmp_path / "gpu"), str(tmp_path / "cpu")
  # What the cuDNN layer's saveable writes: the TF canonical weights under the cells' names.
  with tf.Graph().as_default(), V1.Session() as sess:
    params = sess.run(_canonical.opaque_to_tf_canonical(opaque, mode, num_layers, UNITS, DEPTH,
                                                       direction))
    written = {name: V1.Variable(value, name=name) for layer_names, layer_params in zip(names, params)
               for name, value in zip(layer_names, layer_params)}
    sess.run(V1.global_variables_initializer())
    V1.train.Saver(written).save(sess, gpu_ckpt)
  with tf.Graph().as_default(), V1.Session() as sess:
    outputs = _cpu_network(mode, num_layers, direction, tf.constant(x), scope)
    assert sorted(v.op.name for v in V1.global_variables()) == sorted(written)
    saver = V1.train.Saver()
    saver.restore(sess, gpu_ckpt)
    got = sess.run(outputs)
    saver.save(sess, cpu_ckpt)
  np.testing.assert_allclose(got, _cudnn_reference(mode, opaque, num_layers, direction, x),
                             rtol=1e-5, atol=1e-5)
  # ... and back: the CPU checkpoint converts to an opaque buffer with the same canonical weights.
  reader = tf.train.load_checkpoint(cpu_ckpt)
  restored = [[reader.get_tensor(name) for name in layer_names] for layer_names in names]
  with tf.Graph().as_default(), V1.Session() as sess:
    opaque_back = _canonical.tf_canonical_to_opaque(restored, mode, num_layers, UNITS, DEPTH,
                                                   direction)
    params_back = sess.run(_canonical.opaque_to_tf_canonical(opaque_back, mode, num_layers, UNITS,
                                                            DEPTH, direction))
  for a, b in zip(tf.nest.flatten(params), tf.nest.flatten(params_back)):
    np.testing.assert_array_equal(a, b)


def test_compatible_cells_keep_tf115_variable_names(graph):
  _cpu_network("lstm", 1, "unidirectional", tf.zeros([STEPS, BATCH, DEPTH]), "cudnn_lstm")
  _cpu_network("gru", 1, "unidirectional", tf.zeros([STEPS, BATCH, DEPTH]), "cudnn_gru")
  assert sorted(v.op.name for v in V1.global_variables()) == sorted([
      "cudnn_lstm/rnn/multi_rnn_cell/cell_0/cudnn_compatible_lstm_cell/kernel",
      "cudnn_lstm/rnn/multi_rnn_cell/cell_0/cudnn_compatible_lstm_cell/bias",
      "cudnn_gru/rnn/multi_rnn_cell/cell_0/cudnn_compatible_gru_cell/gates/kernel",
      "cudnn_gru/rnn/multi_rnn_cell/cell_0/cudnn_compatible_gru_cell/gates/bias",
      "cudnn_gru/rnn/multi_rnn_cell/cell_0/cudnn_compatible_gru_cell/candidate/input_projection/kernel",
      "cudnn_gru/rnn/multi_rnn_cell/cell_0/cudnn_compatible_gru_cell/candidate/input_projection/bias",
      "cudnn_gru/rnn/multi_rnn_cell/cell_0/cudnn_compatible_gru_cell/candidate/hidden_projection/kernel",
      "cudnn_gru/rnn/multi_rnn_cell/cell_0/cudnn_compatible_gru_cell/candidate/hidden_projection/bias"])


# --- the cuDNN layers ------------------------------------------------------------------------------

@pytest.mark.skipif(HAS_GPU, reason="a GPU is present: the layers run there")
@pytest.mark.parametrize("layer,cell", [("CudnnLSTM", "CudnnCompatibleLSTMCell"),
                                        ("CudnnGRU", "CudnnCompatibleGRUCell"),
                                        ("CudnnRNNTanh", "BasicRNNCell"),
                                        ("CudnnRNNRelu", "BasicRNNCell")])
def test_cudnn_layers_build_without_a_gpu_warn_naming_the_cpu_cells_and_fail_when_run(monkeypatch, graph, layer,
                                                                                       cell):
  """As TF 1.15 on a CPU-only machine: the graph builds, running it fails (no CPU kernel)."""
  from tf1clip.contrib.cudnn_rnn.python.layers import cudnn_rnn as cudnn_layers  # pylint: disable=g-import-not-at-top
  warned = []
  monkeypatch.setattr(cudnn_layers.V1.logging, "warning", warned.append)
  outputs, _ = getattr(cudnn_rnn, layer)(num_layers=1, num_units=UNITS)(tf.zeros([STEPS, BATCH, DEPTH]))
  assert "tf.contrib.cudnn_rnn.%s runs on cuDNN" % layer in warned[0] and cell in warned[0]
  with V1.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError):
    sess.run([V1.global_variables_initializer(), outputs])


@pytest.mark.parametrize("mode,direction", [("lstm", "unidirectional"), ("gru", "bidirectional")])
def test_gpu_layer_graph_saves_under_the_cpu_networks_variable_names(monkeypatch, graph, mode,
                                                                       direction):
  """Builds (never runs) the GPU layer's graph with the GPU check faked, so it is checked on CPU too."""
  from tf1clip.contrib.cudnn_rnn.python.layers import cudnn_rnn as cudnn_layers  # pylint: disable=g-import-not-at-top
  monkeypatch.setattr(cudnn_layers.tf.config, "list_physical_devices", lambda kind=None: ["GPU:0"])
  layer = {"lstm": cudnn_rnn.CudnnLSTM, "gru": cudnn_rnn.CudnnGRU}[mode](
      num_layers=2, num_units=UNITS, direction=direction)
  outputs, states = layer(tf.zeros([STEPS, BATCH, DEPTH]))
  dirs = _canonical.num_dirs(direction)
  assert outputs.op.type == "CudnnRNNV3"
  assert outputs.shape.as_list() == [STEPS, BATCH, dirs * UNITS]
  assert [s.shape.as_list() for s in states] == [[2 * dirs, BATCH, UNITS]] * (2 if mode == "lstm" else 1)
  assert [v.op.name for v in V1.trainable_variables()] == ["cudnn_%s/opaque_kernel" % mode]
  (saveable,) = V1.get_collection(V1.GraphKeys.SAVEABLE_OBJECTS)
  saved_names = [spec.name for spec in saveable.specs]
  with tf.Graph().as_default():
    _cpu_network(mode, 2, direction, tf.zeros([STEPS, BATCH, DEPTH]), "cudnn_" + mode)
    cpu_names = [v.op.name for v in V1.global_variables()]
  assert sorted(saved_names) == sorted(cpu_names)


@pytest.mark.skipif(not HAS_GPU, reason=NO_GPU_REASON)
@pytest.mark.parametrize("mode,direction", [("lstm", "unidirectional"), ("gru", "bidirectional")])
def test_gpu_layer_equals_cpu_cells_and_our_packing_equals_cudnns(tmp_path, mode, direction):
  layer_cls = {"lstm": cudnn_rnn.CudnnLSTM, "gru": cudnn_rnn.CudnnGRU}[mode]
  x = np.random.RandomState(4).randn(STEPS, BATCH, DEPTH).astype(np.float32)
  path = str(tmp_path / "ckpt")
  with tf.Graph().as_default(), V1.Session(config=V1.ConfigProto(allow_soft_placement=True)) as sess:
    layer = layer_cls(num_layers=2, num_units=UNITS, direction=direction)
    outputs, _ = layer(tf.constant(x))
    sess.run(V1.global_variables_initializer())
    opaque, got = sess.run((layer.kernel, outputs))
    V1.train.Saver().save(sess, path)
    weights, biases = _canonical.opaque_to_cudnn_canonical(opaque, mode, 2, UNITS, DEPTH, direction)
    ours = _canonical.cudnn_canonical_to_opaque(weights, biases)
    theirs = tf.raw_ops.CudnnRNNCanonicalToParams(
        num_layers=2, num_units=UNITS, input_size=DEPTH, weights=weights, biases=biases,
        rnn_mode=mode, direction=direction)
    np.testing.assert_array_equal(*sess.run((ours, theirs)))
  np.testing.assert_allclose(got, _cudnn_reference(mode, opaque, 2, direction, x), rtol=1e-4,
                             atol=1e-4)
  with tf.Graph().as_default(), V1.Session() as sess:
    cpu = _cpu_network(mode, 2, direction, tf.constant(x), layer.name)
    V1.train.Saver(V1.global_variables()).restore(sess, path)
    np.testing.assert_allclose(sess.run(cpu), got, rtol=1e-4, atol=1e-4)

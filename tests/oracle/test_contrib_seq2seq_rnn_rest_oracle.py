"""The rest of tf.contrib.seq2seq, tf.contrib.rnn, tf.contrib.crf's RNN cells and tf.contrib.cudnn_rnn's layers
against TF 1.15, from the same weights on both sides.

seq2seq: a Decoder subclass of one's own and a Helper subclass run by dynamic_decode, CustomHelper,
SampleEmbeddingHelper (a temperature that makes the draw certain; seeded draws), ScheduledOutputTrainingHelper (sampling
probability 0 and 1, with and without auxiliary inputs and next_inputs_fn), a beam search's output / state
namedtuples (BeamSearchDecoderOutput, BeamSearchDecoderState, FinalBeamSearchDecoderOutput: fields and values),
BasicDecoderOutput, AttentionMechanism (the base class, its abstract properties, what AttentionWrapper accepts);
the abstract classes' errors. rnn: BasicRNNCell, DeviceWrapper, FusedRNNCell (abstract; a subclass), LSTMStateTuple,
an RNNCell subclass, static_bidirectional_rnn and static_state_saving_rnn: outputs, states, variable names.
crf: CrfForwardRnnCell / CrfDecodeForwardRnnCell / CrfDecodeBackwardRnnCell run by dynamic_rnn. cudnn_rnn: the four
cuDNN layers on a CPU-only machine: construction, properties, state and canonical shapes, the graph built (the
opaque variable, the saveable), and running it (no CPU kernel: the error TF 1.15 gave).
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.seq2seq." + n for n in (
    "AttentionMechanism", "BasicDecoderOutput", "BeamSearchDecoderOutput", "BeamSearchDecoderState",
    "FinalBeamSearchDecoderOutput", "CustomHelper", "Decoder", "Helper", "SampleEmbeddingHelper",
    "ScheduledOutputTrainingHelper")) + tuple("tf.contrib.rnn." + n for n in (
        "BasicRNNCell", "DeviceWrapper", "FusedRNNCell", "LSTMStateTuple", "RNNCell", "static_bidirectional_rnn",
        "static_state_saving_rnn")) + tuple("tf.contrib.crf." + n for n in (
            "CrfForwardRnnCell", "CrfDecodeForwardRnnCell", "CrfDecodeBackwardRnnCell")) + tuple(
                "tf.contrib.cudnn_rnn." + n for n in ("CudnnLSTM", "CudnnGRU", "CudnnRNNTanh", "CudnnRNNRelu"))

SNIPPET = r'''
import numpy as np
import tensorflow as tf
s2s, rnn = tf.contrib.seq2seq, tf.contrib.rnn
B, T, V, E, H = 3, 4, 6, 5, 4
rng = np.random.RandomState(3)
fetches = {}
embedding = tf.get_variable("embedding", [V, E])
targets = tf.constant(rng.randint(0, V, [B, T]).astype(np.int32))
target_len = tf.constant([4, 2, 3])
inputs = tf.nn.embedding_lookup(embedding, targets)
projection = tf.layers.Dense(V, name="projection")

def decode(scope, helper, cell=None, **kwargs):
    with tf.variable_scope(scope):
        cell = cell or tf.nn.rnn_cell.GRUCell(H)
        decoder = s2s.BasicDecoder(cell, helper, cell.zero_state(B, tf.float32), output_layer=projection)
        out, state, lengths = s2s.dynamic_decode(decoder, **kwargs)
        fetches[scope] = {"logits": out.rnn_output, "ids": out.sample_id, "lengths": lengths}
        return decoder, out

# CustomHelper: feeds back the projected outputs' softmax, stops after 3 steps
custom = s2s.CustomHelper(
    initialize_fn=lambda: (tf.zeros([B], tf.bool), tf.zeros([B, V])),
    sample_fn=lambda time, outputs, state: tf.argmax(outputs, -1, output_type=tf.int32),
    next_inputs_fn=lambda time, outputs, state, sample_ids: (
        tf.fill([B], time + 1 >= 3), tf.nn.softmax(outputs), state))
decoder, out = decode("custom", custom, maximum_iterations=5)
report("custom_helper", [custom.batch_size is None, custom.sample_ids_shape.as_list(), str(custom.sample_ids_dtype),
                         type(out).__name__, list(out._fields), isinstance(out, s2s.BasicDecoderOutput),
                         isinstance(custom, s2s.Helper), type(decoder.output_size).__name__,
                         str(decoder.output_dtype.rnn_output), str(decoder.output_dtype.sample_id)])
custom_shaped = s2s.CustomHelper(lambda: (tf.zeros([B], tf.bool), tf.zeros([B, V])), lambda t, o, s: o,
                                 lambda t, o, s, i: (tf.ones([B], tf.bool), o, s), sample_ids_shape=[V],
                                 sample_ids_dtype=tf.float32)
report("custom_shaped", [custom_shaped.sample_ids_shape.as_list(), str(custom_shaped.sample_ids_dtype)])
report("basic_decoder_output", [list(s2s.BasicDecoderOutput(1, 2)), list(s2s.BasicDecoderOutput._fields),
                                s2s.BasicDecoderOutput(rnn_output="r", sample_id="s").sample_id])

# SampleEmbeddingHelper: a softmax temperature of 1e-4 makes each draw the argmax (the draw itself is random)
sample = s2s.SampleEmbeddingHelper(embedding, tf.fill([B], 1), 0, softmax_temperature=1e-4, seed=7)
decode("sample", sample, maximum_iterations=4)
# a true draw, seeded: TF 1.15's categorical sampler and TensorFlow 2.21's draw the same ids from the same seeds
sample_default = s2s.SampleEmbeddingHelper(embedding, tf.fill([B], 1), 0, seed=3)
drawn = sample_default.sample(0, tf.constant(rng.standard_normal([B, V]).astype(np.float32)), None)
fetches["sample_drawn"] = [drawn, sample_default.sample(1, tf.constant(rng.standard_normal([B, V]).astype(
    np.float32)), None)]
report("sample_default_shapes", [drawn.shape.as_list(), str(drawn.dtype), sample_default.batch_size is None])
report_errors("sample_errors", (
    ("start_tokens_matrix", lambda: s2s.SampleEmbeddingHelper(embedding, tf.fill([B, 1], 1), 0)),
    ("end_token_vector", lambda: s2s.SampleEmbeddingHelper(embedding, tf.fill([B], 1), [0, 1])),
    ("sample_outputs_not_tensor", lambda: sample.sample(0, [1.0], None))))

# ScheduledOutputTrainingHelper: probability 0 reads the inputs, 1 the outputs (through next_inputs_fn)
readout = tf.layers.Dense(E, name="readout")
aux = tf.constant(rng.standard_normal([B, T, 2]).astype(np.float32))
sched_always = s2s.ScheduledOutputTrainingHelper(inputs, target_len, 1.0, next_inputs_fn=readout, seed=1)
sched_aux = s2s.ScheduledOutputTrainingHelper(inputs, target_len, 1.0,
                                              auxiliary_inputs=aux, next_inputs_fn=lambda o: readout(o)[:, :E],
                                              seed=2)
sched_time_major = s2s.ScheduledOutputTrainingHelper(tf.transpose(inputs, [1, 0, 2]), target_len, 0.0,
                                                     time_major=True)
with tf.variable_scope("sched_cell"):
    shared_cell = tf.nn.rnn_cell.GRUCell(E)
for name, helper in (("sched_always", sched_always), ("sched_aux", sched_aux),
                     ("sched_time_major", sched_time_major)):
    with tf.variable_scope(name):
        sched_cell = tf.nn.rnn_cell.GRUCell(E) if helper is sched_aux else shared_cell
        dec = s2s.BasicDecoder(sched_cell, helper, sched_cell.zero_state(B, tf.float32))
        out, _, lengths = s2s.dynamic_decode(dec, scope="decode")
        fetches[name] = {"outputs": out.rnn_output, "ids": out.sample_id, "lengths": lengths}
report("sched_props", [sched_always.sample_ids_shape.as_list(), str(sched_always.sample_ids_dtype),
                       str(sched_time_major.sample_ids_dtype)])
report_errors("sched_errors", (
    ("probability_matrix", lambda: s2s.ScheduledOutputTrainingHelper(inputs, target_len, [[0.5]])),
    ("probability_above_one", lambda: s2s.ScheduledOutputTrainingHelper(inputs, target_len, 1.5)),))

# Helper and Decoder subclasses of one's own
class CountingHelper(s2s.Helper):
    batch_size = B
    sample_ids_shape = tf.TensorShape([])
    sample_ids_dtype = tf.int32
    def initialize(self, name=None):
        return tf.zeros([B], tf.bool), tf.ones([B, 2])
    def sample(self, time, outputs, state, name=None):
        return tf.fill([B], time)
    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        return tf.fill([B], time >= 2), outputs[:, :2], state

class AccumulatingDecoder(s2s.Decoder):
    """Adds 1 to a running total each step; sequence b ends when the total reaches b + 2."""
    @property
    def batch_size(self):
        return B
    @property
    def output_size(self):
        return (tf.TensorShape([2]), tf.TensorShape([]))
    @property
    def output_dtype(self):
        return (tf.float32, tf.int32)
    def initialize(self, name=None):
        return tf.zeros([B], tf.bool), tf.zeros([B, 2]), tf.zeros([B])
    def step(self, time, inputs, state, name=None):
        total = state + 1.0
        outputs = (inputs + tf.expand_dims(total, 1), tf.fill([B], time))
        return outputs, total, inputs + 1.0, total >= tf.range(B, dtype=tf.float32) + 2.0

counting = CountingHelper()
decode("counting", counting, cell=tf.nn.rnn_cell.BasicRNNCell(H), maximum_iterations=5)
acc_out, acc_state, acc_len = s2s.dynamic_decode(AccumulatingDecoder(), impute_finished=True)
fetches["accumulating"] = [acc_out, acc_state, acc_len]
report("decoder_tracks_finished", AccumulatingDecoder().tracks_own_finished)

class Incomplete(s2s.Decoder):
    batch_size = B
report_errors("abstract_errors", (
    ("helper", lambda: s2s.Helper()), ("decoder", lambda: s2s.Decoder()), ("incomplete", lambda: Incomplete()),
    ("dynamic_decode_not_decoder", lambda: s2s.dynamic_decode(counting)),
    ("attention_mechanism_alignments", lambda: s2s.AttentionMechanism().alignments_size),
    ("attention_mechanism_state", lambda: s2s.AttentionMechanism().state_size),
    ("wrapper_not_mechanism", lambda: s2s.AttentionWrapper(tf.nn.rnn_cell.GRUCell(H), "bahdanau")),
    ("wrapper_mixed_list", lambda: s2s.AttentionWrapper(tf.nn.rnn_cell.GRUCell(H), [
        s2s.LuongAttention(H, tf.zeros([B, 2, H])), 3]))))

# AttentionMechanism: every mechanism is one; AttentionWrapper takes a list of them
memory = tf.constant(rng.standard_normal([B, 3, H]).astype(np.float32))
mechs = [s2s.BahdanauAttention(H, memory, name="att_a"), s2s.LuongAttention(H, memory, name="att_b")]
report("attention_mechanisms", [isinstance(m, s2s.AttentionMechanism) for m in mechs] + [
    issubclass(s2s.BahdanauMonotonicAttention, s2s.AttentionMechanism), mechs[0].alignments_size,
    mechs[0].state_size])
with tf.variable_scope("two_mechanisms"):
    two = s2s.AttentionWrapper(tf.nn.rnn_cell.GRUCell(H), mechs, attention_layer_size=[3, 2])
    two_out, two_state = two(inputs[:, 0], two.zero_state(B, tf.float32))
fetches["two_mechanisms"] = [two_out, two_state.alignments]

# beam search: the output and state namedtuples
with tf.variable_scope("beam"):
    beam_cell = tf.nn.rnn_cell.GRUCell(H)
    bs = s2s.BeamSearchDecoder(beam_cell, embedding, tf.fill([B], 1), 0, beam_cell.zero_state(B * 2, tf.float32),
                               2, output_layer=projection)
    final, beam_state, beam_len = s2s.dynamic_decode(bs, maximum_iterations=3)
report("beam_types", [type(final).__name__, list(final._fields), isinstance(final, s2s.FinalBeamSearchDecoderOutput),
                      type(final.beam_search_decoder_output).__name__,
                      isinstance(final.beam_search_decoder_output, s2s.BeamSearchDecoderOutput),
                      list(s2s.BeamSearchDecoderOutput._fields), type(beam_state).__name__,
                      isinstance(beam_state, s2s.BeamSearchDecoderState), list(s2s.BeamSearchDecoderState._fields),
                      list(s2s.FinalBeamSearchDecoderOutput._fields), type(bs.output_size).__name__,
                      [list(s) for s in bs.output_size], [str(d) for d in bs.output_dtype]])
fetches["beam"] = {"predicted_ids": final.predicted_ids, "scores": final.beam_search_decoder_output.scores,
                   "parent_ids": final.beam_search_decoder_output.parent_ids,
                   "log_probs": beam_state.log_probs, "finished": beam_state.finished,
                   "lengths": beam_state.lengths, "accumulated": beam_state.accumulated_attention_probs,
                   "seq_len": beam_len}
made = s2s.BeamSearchDecoderState(cell_state=1, log_probs=2, finished=3, lengths=4, accumulated_attention_probs=5)
report("beam_state_made", [list(made), list(s2s.BeamSearchDecoderOutput(1, 2, 3)),
                           list(s2s.FinalBeamSearchDecoderOutput(predicted_ids=7, beam_search_decoder_output=8))])

# tf.contrib.rnn: BasicRNNCell, DeviceWrapper, RNNCell subclass, LSTMStateTuple, FusedRNNCell, static rnns
xs = [tf.constant(rng.standard_normal([B, 3]).astype(np.float32)) for _ in range(3)]
seq_len = tf.constant([3, 1, 2])
with tf.variable_scope("basic"):
    basic = rnn.BasicRNNCell(H)
    basic_relu = rnn.BasicRNNCell(2, activation=tf.nn.relu, name="relu_cell")
    fetches["basic_static"] = tf.nn.static_rnn(basic, xs, dtype=tf.float32, sequence_length=seq_len)
    fetches["basic_dynamic"] = tf.nn.dynamic_rnn(basic_relu, tf.stack(xs, 1), dtype=tf.float32)
report("basic_sizes", [basic.state_size, basic.output_size, basic_relu.state_size])
with tf.variable_scope("device"):
    wrapped = rnn.DeviceWrapper(rnn.BasicRNNCell(H), "/cpu:0")
    direct_out, direct_state = wrapped(xs[0], wrapped.zero_state(B, tf.float32))
    fetches["device"] = [direct_out, direct_state]
report("device_wrapper", [tf.DeviceSpec.from_string(direct_out.op.device).device_type, wrapped.state_size,
                          wrapped.output_size, isinstance(wrapped, rnn.RNNCell)])

class RunningMean(rnn.RNNCell):
    """A cell of one's own: output = running mean of the inputs; state = (sum, count)."""
    @property
    def state_size(self):
        return rnn.LSTMStateTuple(3, 1)
    @property
    def output_size(self):
        return 3
    def call(self, inputs, state):
        total, count = state
        total, count = total + inputs, count + 1.0
        return total / count, rnn.LSTMStateTuple(total, count)

mean_out, mean_state = tf.nn.dynamic_rnn(RunningMean(), tf.stack(xs, 1), sequence_length=seq_len, dtype=tf.float32)
fetches["running_mean"] = [mean_out, mean_state]
zero = RunningMean().zero_state(B, tf.float32)
report("lstm_state_tuple", [type(mean_state).__name__, list(rnn.LSTMStateTuple._fields),
                            isinstance(zero, rnn.LSTMStateTuple), zero.c.shape.as_list(), zero.h.shape.as_list(),
                            str(rnn.LSTMStateTuple(tf.zeros([1]), tf.zeros([1])).dtype),
                            list(rnn.LSTMStateTuple(c=1, h=2)), rnn.LSTMStateTuple(1, 2).h,
                            isinstance(tf.nn.rnn_cell.BasicLSTMCell(2).zero_state(1, tf.float32),
                                       rnn.LSTMStateTuple)])
class Saver(object):
    """A state saver: the state starts from stored values and what the RNN saves is kept as ops."""
    def __init__(self):
        self.saved = {}
    def state(self, name):
        return tf.fill([B, 2], 0.5 if name == "c" else -0.25)
    def save_state(self, name, value):
        self.saved[name] = value
        return tf.identity(value, name="saved_" + name)

report_errors("rnn_errors", (
    ("state_tuple_dtypes", lambda: rnn.LSTMStateTuple(tf.zeros([1]), tf.zeros([1], tf.float64)).dtype),
    ("rnn_cell_state_size", lambda: rnn.RNNCell().state_size),
    ("rnn_cell_call", lambda: rnn.RNNCell()(xs[0], tf.zeros([B, 2]))),
    ("fused_abstract", lambda: rnn.FusedRNNCell()),
    ("bidirectional_not_list", lambda: tf.contrib.rnn.static_bidirectional_rnn(
        rnn.BasicRNNCell(2), rnn.BasicRNNCell(2), tf.stack(xs), dtype=tf.float32)),
    ("bidirectional_not_cell", lambda: tf.contrib.rnn.static_bidirectional_rnn(
        "cell", rnn.BasicRNNCell(2), xs, dtype=tf.float32)),
    ("state_saving_name_mismatch", lambda: tf.contrib.rnn.static_state_saving_rnn(
        rnn.BasicLSTMCell(2), xs, Saver(), ("only_one",)))))

class Reversing(rnn.FusedRNNCell):
    """A fused cell of one's own: an RNN over the reversed sequence, through static_rnn."""
    def __init__(self):
        self._cell = rnn.BasicRNNCell(2)
    def __call__(self, inputs, initial_state=None, dtype=None, sequence_length=None, scope=None):
        outputs, state = tf.nn.static_rnn(self._cell, inputs[::-1], initial_state=initial_state, dtype=dtype,
                                          scope=scope or "reversing")
        return outputs[::-1], state

fused_out, fused_state = Reversing()(xs, dtype=tf.float32)
block_fused = rnn.LSTMBlockFusedCell(2)
fetches["fused"] = [fused_out, fused_state]
report("fused_kinds", [isinstance(Reversing(), rnn.FusedRNNCell), isinstance(block_fused, rnn.FusedRNNCell),
                       isinstance(rnn.FusedRNNCellAdaptor(rnn.BasicRNNCell(2)), rnn.FusedRNNCell),
                       isinstance(rnn.TimeReversedFusedRNN(block_fused), rnn.FusedRNNCell)])

with tf.variable_scope("bidi"):
    bidi = tf.contrib.rnn.static_bidirectional_rnn(rnn.BasicRNNCell(3), rnn.BasicRNNCell(2), xs,
                                                   dtype=tf.float32, sequence_length=seq_len)
fetches["bidi"] = bidi
report("bidi_structure", [len(bidi[0]), bidi[0][0].shape.as_list(), len(bidi)])

state_saver = Saver()
with tf.variable_scope("state_saving"):
    saving_out, saving_state = tf.contrib.rnn.static_state_saving_rnn(
        tf.nn.rnn_cell.BasicLSTMCell(2, state_is_tuple=True), xs, state_saver, ("c", "h"), sequence_length=seq_len)
fetches["state_saving"] = [saving_out, saving_state]
report("state_saver_saved", sorted(state_saver.saved))

# tf.contrib.crf's RNN cells, run as crf_log_norm / crf_decode run them
num_tags = 3
transitions = tf.constant(rng.standard_normal([num_tags, num_tags]).astype(np.float32))
unary = tf.constant(rng.standard_normal([B, T, num_tags]).astype(np.float32))
crf = tf.contrib.crf
fwd = crf.CrfForwardRnnCell(transitions)
dec_fwd = crf.CrfDecodeForwardRnnCell(transitions)
dec_bwd = crf.CrfDecodeBackwardRnnCell(num_tags)
alphas, scores, pointers = unary[:, 0], unary[:, 0], []
for t in (1, 2, 3):  # what crf_log_norm / crf_decode's dynamic_rnn runs, step by step
    _, alphas = fwd(unary[:, t], alphas)
    step_pointers, scores = dec_fwd(unary[:, t], scores)
    pointers.append(step_pointers)
best = tf.expand_dims(tf.argmax(scores, 1, output_type=tf.int32), 1)
tags = [best]
for step_pointers in pointers[::-1]:
    previous, best = dec_bwd(step_pointers, best)
    tags.append(previous)
in_rnn, _ = tf.nn.dynamic_rnn(fwd, unary[:, 1:], seq_len - 1, initial_state=unary[:, 0], dtype=tf.float32)
fetches["crf_cells"] = {"log_norm": tf.reduce_logsumexp(alphas, 1), "pointers": pointers, "scores": scores,
                        "tags": tags, "in_rnn": in_rnn}
report("crf_cell_sizes", [fwd.state_size, fwd.output_size, dec_fwd.state_size, dec_fwd.output_size,
                          dec_bwd.state_size, dec_bwd.output_size])

report_variables()
with tf.Session() as sess:
    init_from_numpy(sess, seed=5)
    for key, value in sorted(sess.run(fetches).items()):
        report(key, value)

# tf.contrib.cudnn_rnn's layers without a GPU: built as TF 1.15 built them, failing when run
cudnn = tf.contrib.cudnn_rnn
with tf.Graph().as_default():
    runs = []
    for layer_class in (cudnn.CudnnLSTM, cudnn.CudnnGRU, cudnn.CudnnRNNTanh, cudnn.CudnnRNNRelu):
        key = "cudnn_" + layer_class.__name__
        layer = layer_class(2 if layer_class is cudnn.CudnnLSTM else 1, 3, dropout=0.5, seed=1,
                            direction="bidirectional" if layer_class is cudnn.CudnnGRU else "unidirectional")
        before = {}
        report_errors(key + "/before_build", (("input_size", lambda: before.update(n=layer.input_size)),
                                              ("canonical_weight_shapes",
                                               lambda: before.update(w=layer.canonical_weight_shapes))))
        known = set(tf.global_variables())
        outputs, states = layer(tf.zeros([T, B, 5]))
        report(key, {"props": [layer.num_layers, layer.num_units, layer.input_mode, layer.direction, layer.rnn_mode,
                               layer.num_dirs, layer.input_size, layer.built],
                     "state_shape": [list(s) for s in layer.state_shape(B)],
                     "weights": [list(s) for s in layer.canonical_weight_shapes],
                     "biases": [list(s) for s in layer.canonical_bias_shapes],
                     "outputs": [outputs.shape.as_list(), [s.shape.as_list() for s in states], str(outputs.dtype)],
                     "variables": [[v.op.name, str(v.dtype.base_dtype), v.shape.ndims] for v in tf.global_variables()
                                   if v not in known],
                     "trainable": [v.op.name for v in layer.trainable_variables],
                     "saveable_is_layers": layer.saveable is tf.get_collection(tf.GraphKeys.SAVEABLE_OBJECTS)[-1]})
        runs.append((key, [v for v in tf.global_variables() if v not in known], outputs))
    report("cudnn_saveables", len(tf.get_collection(tf.GraphKeys.SAVEABLE_OBJECTS)))
    with tf.Session() as sess:
        for key, variables, outputs in runs:
            report_errors(key + "/run", (("init", lambda: sess.run(tf.variables_initializer(variables))),))
        report_errors("cudnn_outputs_run", (("outputs", lambda: sess.run(runs[0][2])),))
report_errors("cudnn_errors", (
    ("direction", lambda: cudnn.CudnnLSTM(1, 2, direction="sideways")),
    ("input_mode", lambda: cudnn.CudnnGRU(1, 2, input_mode="no_such_mode")),
    ("dtype", lambda: cudnn.CudnnRNNTanh(1, 2, dtype=tf.int32)),
    ("rank2_input", lambda: cudnn.CudnnLSTM(1, 2)(tf.zeros([3, 4]))),
    ("unknown_depth", lambda: cudnn.CudnnGRU(1, 2)(tf.placeholder(tf.float32, [3, 2, None]))),
    ("state_not_tuple", lambda: cudnn.CudnnRNNRelu(1, 2)(tf.zeros([3, 2, 4]), initial_state=tf.zeros([1, 2, 2])))))
'''


@requires_tf115
def test_contrib_seq2seq_rnn_crf_cudnn_rest_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["cudnn_CudnnLSTM/run"]["init"] == "InvalidArgumentError"  # no CPU kernel on TF 1.15 either
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)

"""`tf.contrib.learn.ops.seq2seq_ops`: the skflow seq2seq helpers (inputs with a sentinel, decoder, classifier).

Place in the data flow (DESIGN.md): contrib.rnn (static_rnn) <- **contrib.learn.ops.seq2seq_ops** <- contrib.learn.

`rnn_decoder` runs the cell over the decoder inputs (training) and again feeding back its own outputs (sampling),
in the variable scope "dnn_decoder" (TF 1.15's name); `rnn_seq2seq` encodes with static_rnn under "rnn_seq2seq".
"""

import tensorflow as tf

V1 = tf.compat.v1


def sequence_classifier(decoding, labels, sampling_decoding=None, name=None):
  """(softmax predictions stacked on axis 1, the summed softmax cross-entropy over the steps)."""
  with V1.name_scope(name, "sequence_classifier", [decoding, labels]):
    predictions, xent_list = [], []
    for i, pred in enumerate(decoding):
      xent_list.append(tf.nn.softmax_cross_entropy_with_logits(labels=labels[i], logits=pred,
                                                               name="sequence_loss/xent_raw{0}".format(i)))
      predictions.append(tf.nn.softmax(sampling_decoding[i] if sampling_decoding else pred))
    xent = tf.add_n(xent_list, name="sequence_loss/xent")
    return tf.stack(predictions, axis=1), tf.reduce_sum(xent, name="sequence_loss")


def seq2seq_inputs(x, y, input_length, output_length, sentinel=None, name=None):
  """(encoder inputs, decoder inputs = [sentinel] + y, decoder targets = y + [sentinel]) as lists of steps."""
  del input_length, output_length  # TF 1.15 took them and did not use them
  with V1.name_scope(name, "seq2seq_inputs", [x, y]):
    in_x = tf.unstack(x, axis=1)
    y = tf.unstack(y, axis=1)
    if not sentinel:
      sentinel = tf.zeros(tf.stack([tf.shape(x)[0], tf.compat.dimension_value(y[0].shape[1])]))
      sentinel.set_shape(y[0].shape)
    return in_x, [sentinel] + y, y + [sentinel]


def rnn_decoder(decoder_inputs, initial_state, cell, scope=None):
  """(outputs, states, sampling outputs, sampling states) of the cell over `decoder_inputs` from initial_state."""
  with V1.variable_scope(scope or "dnn_decoder"):
    states, sampling_states = [initial_state], [initial_state]
    outputs, sampling_outputs = [], []
    with V1.name_scope("training", values=[decoder_inputs, initial_state]):
      for i, inp in enumerate(decoder_inputs):
        if i > 0:
          V1.get_variable_scope().reuse_variables()
        output, new_state = cell(inp, states[-1])
        outputs.append(output)
        states.append(new_state)
    with V1.name_scope("sampling", values=[initial_state]):
      for i, _ in enumerate(decoder_inputs):
        if i == 0:
          sampling_outputs.append(outputs[i])
          sampling_states.append(states[i])
        else:
          sampling_output, sampling_state = cell(sampling_outputs[-1], sampling_states[-1])
          sampling_outputs.append(sampling_output)
          sampling_states.append(sampling_state)
  return outputs, states, sampling_outputs, sampling_states


def rnn_seq2seq(encoder_inputs, decoder_inputs, encoder_cell, decoder_cell=None, dtype=tf.float32, scope=None):
  """Encodes with static_rnn, then rnn_decoder from the last encoder state (decoder_cell or encoder_cell)."""
  with V1.variable_scope(scope or "rnn_seq2seq"):
    _, last_enc_state = V1.nn.static_rnn(encoder_cell, encoder_inputs, dtype=dtype)
    return rnn_decoder(decoder_inputs, last_enc_state, decoder_cell or encoder_cell)

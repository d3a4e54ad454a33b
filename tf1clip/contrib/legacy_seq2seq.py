"""`tf.contrib.legacy_seq2seq`: rnn_decoder, basic_rnn_seq2seq and the sequence losses, as in TF 1.15.

Place in the data flow (DESIGN.md): contrib.rnn (cells, static_rnn) <- **contrib.legacy_seq2seq**
<- compat <- cli. Sequences are Python lists of per-time-step tensors, as in TF1. Variable scopes
match TF1 (`basic_rnn_seq2seq/rnn/...` for the encoder, `basic_rnn_seq2seq/rnn_decoder/...` for
the decoder), so checkpoints restore. The attention and embedding models are not provided.
"""

import copy

import tensorflow as tf

from tf1clip.contrib import catalog


def rnn_decoder(decoder_inputs, initial_state, cell, loop_function=None, scope=None):
  """Runs `cell` over `decoder_inputs` from `initial_state` (the seq2seq decoder).

  Args:
    decoder_inputs: a list of 2-D Tensors [batch_size, input_size].
    initial_state: the cell's initial state (e.g. the encoder's final state).
    cell: an RNNCell.
    loop_function: optional `(prev_output, i) -> next_input`; when given, inputs after the
      first are generated from the previous output (greedy decoding, scheduled sampling).
    scope: variable scope; default "rnn_decoder".

  Returns:
    (outputs, state): the list of outputs [batch_size, output_size] and the final state.
  """
  with tf.compat.v1.variable_scope(scope or "rnn_decoder"):
    state = initial_state
    outputs = []
    prev = None
    for i, inp in enumerate(decoder_inputs):
      if loop_function is not None and prev is not None:
        with tf.compat.v1.variable_scope("loop_function", reuse=True):
          inp = loop_function(prev, i)
      if i > 0:
        tf.compat.v1.get_variable_scope().reuse_variables()
      output, state = cell(inp, state)
      outputs.append(output)
      if loop_function is not None:
        prev = output
  return outputs, state


def basic_rnn_seq2seq(encoder_inputs, decoder_inputs, cell, dtype=tf.float32, scope=None):
  """Encodes `encoder_inputs` with a copy of `cell`, then decodes `decoder_inputs` with `cell`.

  Encoder and decoder have the same cell type and separate parameters.

  Args:
    encoder_inputs: a list of 2-D Tensors [batch_size, input_size].
    decoder_inputs: a list of 2-D Tensors [batch_size, input_size].
    cell: an RNNCell (not yet built: it is deep-copied for the encoder).
    dtype: dtype of the encoder's initial state.
    scope: variable scope; default "basic_rnn_seq2seq".

  Returns:
    (outputs, state): the decoder's outputs (a list) and final state.
  """
  with tf.compat.v1.variable_scope(scope or "basic_rnn_seq2seq"):
    enc_cell = copy.deepcopy(cell)
    _, enc_state = tf.compat.v1.nn.static_rnn(enc_cell, encoder_inputs, dtype=dtype)
    return rnn_decoder(decoder_inputs, enc_state, cell)


def _check_lengths(logits, targets, weights):
  if len(targets) != len(logits) or len(weights) != len(logits):
    raise ValueError("Lengths of logits, weights, and targets must be the same; got %d, %d, %d."
                     % (len(logits), len(weights), len(targets)))


def sequence_loss_by_example(logits, targets, weights, average_across_timesteps=True,
                             softmax_loss_function=None, name=None):
  """Weighted cross-entropy of a sequence, per example.

  loss[b] = sum_t w[t][b] * xent(logits[t][b], targets[t][b]), divided by
  (sum_t w[t][b] + 1e-12) when `average_across_timesteps`.

  Args:
    logits: a list of 2-D Tensors [batch_size, num_symbols].
    targets: a list (same length) of 1-D int Tensors [batch_size].
    weights: a list (same length) of 1-D float Tensors [batch_size].
    average_across_timesteps: divide by the total weight of each example.
    softmax_loss_function: optional `(labels=..., logits=...) -> [batch_size]` used instead of
      sparse softmax cross-entropy (called with keyword arguments).
    name: name scope; default "sequence_loss_by_example".

  Returns:
    A 1-D Tensor [batch_size]: each sequence's log-perplexity.

  Raises:
    ValueError: if the three lists differ in length.
  """
  _check_lengths(logits, targets, weights)
  with tf.compat.v1.name_scope(name, "sequence_loss_by_example",
                               list(logits) + list(targets) + list(weights)):
    log_perp_list = []
    for logit, target, weight in zip(logits, targets, weights):
      if softmax_loss_function is None:
        # TF1 callers sometimes pass [batch_size, 1] targets.
        target = tf.reshape(target, [-1])
        crossent = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=target, logits=logit)
      else:
        crossent = softmax_loss_function(labels=target, logits=logit)
      log_perp_list.append(crossent * weight)
    log_perps = tf.add_n(log_perp_list)
    if average_across_timesteps:
      total_size = tf.add_n(weights)
      total_size += 1e-12  # all-zero weights must not divide by zero
      log_perps /= total_size
  return log_perps


def sequence_loss(logits, targets, weights, average_across_timesteps=True,
                  average_across_batch=True, softmax_loss_function=None, name=None):
  """Weighted cross-entropy of a sequence, summed over the batch (and averaged, by default).

  Args:
    logits, targets, weights, average_across_timesteps, softmax_loss_function: as in
      `sequence_loss_by_example`.
    average_across_batch: divide the sum by the batch size.
    name: name scope; default "sequence_loss".

  Returns:
    A scalar Tensor: the average log-perplexity per symbol (weighted).

  Raises:
    ValueError: if the three lists differ in length.
  """
  _check_lengths(logits, targets, weights)
  with tf.compat.v1.name_scope(name, "sequence_loss",
                               list(logits) + list(targets) + list(weights)):
    cost = tf.reduce_sum(sequence_loss_by_example(
        logits, targets, weights, average_across_timesteps=average_across_timesteps,
        softmax_loss_function=softmax_loss_function))
    if average_across_batch:
      batch_size = tf.shape(targets[0])[0]
      return cost / tf.cast(batch_size, cost.dtype)
    return cost


__getattr__ = catalog.missing_attribute_hook("tf.contrib.legacy_seq2seq")

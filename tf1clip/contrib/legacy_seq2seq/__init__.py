"""`tf.contrib.legacy_seq2seq`: TF 1.15's list-of-tensors seq2seq models, decoders and losses.

Sequences are Python lists of per-time-step tensors, as in TF1 (the translate tutorial's models). TF 1.15's code
step for step, with its variable scopes, so its checkpoints restore:

  basic_rnn_seq2seq            basic_rnn_seq2seq/rnn/<cell>, basic_rnn_seq2seq/rnn_decoder/<cell>
  tied_rnn_seq2seq             combined_tied_rnn_seq2seq/tied_rnn_seq2seq/<cell> (one set for both)
  embedding_rnn_seq2seq        embedding_rnn_seq2seq/rnn/embedding_wrapper/..., .../embedding_rnn_decoder/
                               embedding, .../rnn_decoder/output_projection_wrapper/...
  embedding_attention_seq2seq  .../embedding_attention_decoder/attention_decoder/{AttnW_<h>, AttnV_<h>,
                               kernel, bias, Attention_<h>/{kernel,bias}, AttnOutputProjection/{kernel,bias}}
  one2many_rnn_seq2seq         .../one2many_decoder_<name>/embedding_rnn_decoder/...

`feed_previous` may be a bool (the greedy decoder is built or not) or a boolean Tensor (both decoders are built,
sharing variables, and a `tf.cond` picks one). `model_with_buckets` builds one model per bucket with shared
variables and its loss.
"""

import copy

import tensorflow as tf
from tf_keras.src.layers.rnn import legacy_cells

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.rnn.python.ops._linear import linear
from tf1clip.contrib.rnn.python.ops._rnn_cell_wrappers import EmbeddingWrapper
from tf1clip.contrib.rnn.python.ops._rnn_cell_wrappers import OutputProjectionWrapper

V1 = tf.compat.v1


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


def _extract_argmax_and_embed(embedding, output_projection=None, update_embedding=True):
  """The greedy loop function: the embedding of the previous output's argmax (through the projection)."""

  def loop_function(prev, _):
    if output_projection is not None:
      prev = tf.compat.v1.nn.xw_plus_b(prev, output_projection[0], output_projection[1])
    emb_prev = tf.nn.embedding_lookup(embedding, tf.argmax(prev, 1))
    return emb_prev if update_embedding else tf.stop_gradient(emb_prev)

  return loop_function


def _check_projection(output_projection, num_symbols, dtype, weights=True):
  """TF 1.15's checks of an `output_projection` (W [output_size, num_symbols], B [num_symbols]) pair."""
  if output_projection is None:
    return
  if weights:
    proj_weights = tf.convert_to_tensor(output_projection[0], dtype=dtype)
    proj_weights.shape.assert_is_compatible_with([None, num_symbols])
  proj_biases = tf.convert_to_tensor(output_projection[1], dtype=dtype)
  proj_biases.shape.assert_is_compatible_with([num_symbols])


def _flat_state(outputs, state):
  return outputs + (tf.nest.flatten(state) if tf.nest.is_nested(state) else [state])


def _decode_either(feed_previous, decoder, num_outputs, structure):
  """`decoder(feed_previous_bool)` (outputs, state) for a bool; for a Tensor, both under a tf.cond.

  The greedy branch creates the variables, the other reuses them (TF 1.15's order). `structure` packs the flat
  state the cond returns (None: a single tensor).
  """
  if isinstance(feed_previous, bool):
    return decoder(feed_previous)

  def branch(feed_previous_bool):
    with V1.variable_scope(V1.get_variable_scope(), reuse=None if feed_previous_bool else True):
      return _flat_state(*decoder(feed_previous_bool))

  flat = tf.cond(feed_previous, lambda: branch(True), lambda: branch(False))
  state_list = flat[num_outputs:]
  state = state_list[0]
  if structure is not None and tf.nest.is_nested(structure):
    state = tf.nest.pack_sequence_as(structure=structure, flat_sequence=state_list)
  return flat[:num_outputs], state


def tied_rnn_seq2seq(encoder_inputs, decoder_inputs, cell, loop_function=None, dtype=tf.float32, scope=None):
  """basic_rnn_seq2seq whose encoder and decoder share one cell and its variables.

  Returns:
    (outputs, state) of the decoder.
  """
  with V1.variable_scope("combined_tied_rnn_seq2seq"):
    scope = scope or "tied_rnn_seq2seq"
    _, enc_state = tf.compat.v1.nn.static_rnn(cell, encoder_inputs, dtype=dtype, scope=scope)
    V1.get_variable_scope().reuse_variables()
    return rnn_decoder(decoder_inputs, enc_state, cell, loop_function=loop_function, scope=scope)


def embedding_rnn_decoder(decoder_inputs, initial_state, cell, num_symbols, embedding_size, output_projection=None,
                          feed_previous=False, update_embedding_for_previous=True, scope=None):
  """rnn_decoder on the embeddings (variable `embedding` [num_symbols, embedding_size]) of int symbol inputs.

  With `feed_previous`, every input after the first is the embedding of the previous output's argmax.
  """
  with V1.variable_scope(scope or "embedding_rnn_decoder") as scope:
    _check_projection(output_projection, num_symbols, scope.dtype)
    embedding = V1.get_variable("embedding", [num_symbols, embedding_size])
    loop_function = (_extract_argmax_and_embed(embedding, output_projection, update_embedding_for_previous)
                     if feed_previous else None)
    emb_inp = (tf.nn.embedding_lookup(embedding, i) for i in decoder_inputs)
    return rnn_decoder(emb_inp, initial_state, cell, loop_function=loop_function)


def embedding_rnn_seq2seq(encoder_inputs, decoder_inputs, cell, num_encoder_symbols, num_decoder_symbols,
                          embedding_size, output_projection=None, feed_previous=False, dtype=None, scope=None):
  """An embedding encoder (a copy of `cell` in an EmbeddingWrapper) and an embedding_rnn_decoder.

  Without `output_projection` the decoder's cell is wrapped in an OutputProjectionWrapper to
  `num_decoder_symbols`. `feed_previous` may be a boolean Tensor (see the module docstring).
  """
  with V1.variable_scope(scope or "embedding_rnn_seq2seq") as scope:
    if dtype is not None:
      scope.set_dtype(dtype)
    else:
      dtype = scope.dtype
    encoder_cell = EmbeddingWrapper(copy.deepcopy(cell), embedding_classes=num_encoder_symbols,
                                    embedding_size=embedding_size)
    _, encoder_state = tf.compat.v1.nn.static_rnn(encoder_cell, encoder_inputs, dtype=dtype)
    if output_projection is None:
      cell = OutputProjectionWrapper(cell, num_decoder_symbols)
    return _decode_either(
        feed_previous,
        lambda feed: embedding_rnn_decoder(decoder_inputs, encoder_state, cell, num_decoder_symbols,
                                           embedding_size, output_projection=output_projection, feed_previous=feed,
                                           update_embedding_for_previous=isinstance(feed_previous, bool)),
        len(decoder_inputs), encoder_state)


def embedding_tied_rnn_seq2seq(encoder_inputs, decoder_inputs, cell, num_symbols, embedding_size,
                               num_decoder_symbols=None, output_projection=None, feed_previous=False, dtype=None,
                               scope=None):
  """tied_rnn_seq2seq on the embeddings of encoder and decoder symbols (one `embedding` for both)."""
  with V1.variable_scope(scope or "embedding_tied_rnn_seq2seq", dtype=dtype) as scope:
    dtype = scope.dtype
    _check_projection(output_projection, num_symbols, dtype)
    embedding = V1.get_variable("embedding", [num_symbols, embedding_size], dtype=dtype)
    emb_encoder_inputs = [tf.nn.embedding_lookup(embedding, x) for x in encoder_inputs]
    emb_decoder_inputs = [tf.nn.embedding_lookup(embedding, x) for x in decoder_inputs]
    if output_projection is None:
      cell = OutputProjectionWrapper(cell, num_symbols if num_decoder_symbols is None else num_decoder_symbols)

    def decoder(feed):
      loop_function = (_extract_argmax_and_embed(embedding, output_projection, isinstance(feed_previous, bool))
                       if feed else None)
      return tied_rnn_seq2seq(emb_encoder_inputs, emb_decoder_inputs, cell, loop_function=loop_function,
                              dtype=dtype)

    if isinstance(feed_previous, bool):
      return decoder(feed_previous)
    # TF 1.15 packs the cond's state like the cell's zero state, of the first encoder input's batch size (the
    # others must be compatible with it)
    for inp in encoder_inputs[1:]:
      encoder_inputs[0].shape[:1].merge_with(inp.shape[:1])
    batch_size = tf.compat.dimension_value(encoder_inputs[0].shape[0])
    if batch_size is None:
      batch_size = tf.shape(encoder_inputs[0])[0]
    return _decode_either(feed_previous, decoder, len(decoder_inputs), cell.zero_state(batch_size, dtype))


def attention_decoder(decoder_inputs, initial_state, attention_states, cell, output_size=None, num_heads=1,
                      loop_function=None, dtype=None, scope=None, initial_state_attention=False):
  """rnn_decoder with `num_heads` additive attention reads of `attention_states` [batch, length, size].

  Each step's cell input is a linear map of [input, previous attention reads]; its output is a linear map of
  [cell output, new reads] (scope AttnOutputProjection). With `initial_state_attention`, the first reads come
  from `initial_state` instead of zeros.

  Raises:
    ValueError: no decoder inputs, num_heads < 1, or an unknown attention size or input size.
  """
  if not decoder_inputs:
    raise ValueError("Must provide at least 1 input to attention decoder.")
  if num_heads < 1:
    raise ValueError("With less than 1 heads, use a non-attention decoder.")
  if tf.compat.dimension_value(attention_states.shape[2]) is None:
    raise ValueError("Shape[2] of attention_states must be known: %s" % attention_states.shape)
  if output_size is None:
    output_size = cell.output_size
  with V1.variable_scope(scope or "attention_decoder", dtype=dtype) as scope:
    dtype = scope.dtype
    batch_size = tf.shape(decoder_inputs[0])[0]
    attn_length = tf.compat.dimension_value(attention_states.shape[1])
    if attn_length is None:
      attn_length = tf.shape(attention_states)[1]
    attn_size = tf.compat.dimension_value(attention_states.shape[2])
    # the attention's query-independent part: a 1x1 convolution of the states, per head
    hidden = tf.reshape(attention_states, [-1, attn_length, 1, attn_size])
    hidden_features, v = [], []
    for head in range(num_heads):
      k = V1.get_variable("AttnW_%d" % head, [1, 1, attn_size, attn_size], dtype=dtype)
      hidden_features.append(tf.nn.conv2d(hidden, k, [1, 1, 1, 1], "SAME"))
      v.append(V1.get_variable("AttnV_%d" % head, [attn_size], dtype=dtype))

    def attention(query):
      """The heads' reads [batch, attn_size] for `query` (a state, flattened and concatenated)."""
      if tf.nest.is_nested(query):
        parts = tf.nest.flatten(query)
        for part in parts:
          if part.shape.ndims:
            assert part.shape.ndims == 2
        query = tf.concat(parts, 1)
      reads = []
      for head in range(num_heads):
        with V1.variable_scope("Attention_%d" % head):
          y = tf.reshape(linear(query, attn_size, True), [-1, 1, 1, attn_size])
          y = tf.cast(y, dtype)
          s = tf.reduce_sum(v[head] * tf.tanh(hidden_features[head] + y), [2, 3])
          weights = tf.cast(tf.nn.softmax(tf.cast(s, tf.float32)), dtype)
          d = tf.reduce_sum(tf.reshape(weights, [-1, attn_length, 1, 1]) * hidden, [1, 2])
          reads.append(tf.reshape(d, [-1, attn_size]))
      return reads

    outputs = []
    prev = None
    attns = [tf.zeros(tf.stack([batch_size, attn_size]), dtype=dtype) for _ in range(num_heads)]
    for read in attns:
      read.set_shape([None, attn_size])
    state = initial_state
    if initial_state_attention:
      attns = attention(initial_state)
    for i, inp in enumerate(decoder_inputs):
      if i > 0:
        V1.get_variable_scope().reuse_variables()
      if loop_function is not None and prev is not None:
        with V1.variable_scope("loop_function", reuse=True):
          inp = loop_function(prev, i)
      input_size = tf.compat.dimension_value(inp.shape.with_rank(2)[1])
      if input_size is None:
        raise ValueError("Could not infer input size from input: %s" % inp.name)
      x = linear([tf.cast(e, dtype) for e in [inp] + attns], input_size, True)
      cell_output, state = cell(x, state)
      if i == 0 and initial_state_attention:
        with V1.variable_scope(V1.get_variable_scope(), reuse=True):
          attns = attention(state)
      else:
        attns = attention(state)
      with V1.variable_scope("AttnOutputProjection"):
        output = linear([tf.cast(cell_output, dtype)] + attns, output_size, True)
      if loop_function is not None:
        prev = output
      outputs.append(output)
  return outputs, state


def embedding_attention_decoder(decoder_inputs, initial_state, attention_states, cell, num_symbols,
                                embedding_size, num_heads=1, output_size=None, output_projection=None,
                                feed_previous=False, update_embedding_for_previous=True, dtype=None, scope=None,
                                initial_state_attention=False):
  """attention_decoder on the embeddings (variable `embedding`) of int symbol inputs."""
  if output_size is None:
    output_size = cell.output_size
  _check_projection(output_projection, num_symbols, dtype, weights=False)
  with V1.variable_scope(scope or "embedding_attention_decoder", dtype=dtype):
    embedding = V1.get_variable("embedding", [num_symbols, embedding_size])
    loop_function = (_extract_argmax_and_embed(embedding, output_projection, update_embedding_for_previous)
                     if feed_previous else None)
    emb_inp = [tf.nn.embedding_lookup(embedding, i) for i in decoder_inputs]
    return attention_decoder(emb_inp, initial_state, attention_states, cell, output_size=output_size,
                             num_heads=num_heads, loop_function=loop_function,
                             initial_state_attention=initial_state_attention)


def embedding_attention_seq2seq(encoder_inputs, decoder_inputs, cell, num_encoder_symbols, num_decoder_symbols,
                                embedding_size, num_heads=1, output_projection=None, feed_previous=False,
                                dtype=None, scope=None, initial_state_attention=False):
  """The translate tutorial's model: an embedding encoder whose outputs an embedding_attention_decoder reads."""
  with V1.variable_scope(scope or "embedding_attention_seq2seq", dtype=dtype) as scope:
    dtype = scope.dtype
    encoder_cell = EmbeddingWrapper(copy.deepcopy(cell), embedding_classes=num_encoder_symbols,
                                    embedding_size=embedding_size)
    encoder_outputs, encoder_state = tf.compat.v1.nn.static_rnn(encoder_cell, encoder_inputs, dtype=dtype)
    attention_states = tf.concat([tf.reshape(e, [-1, 1, cell.output_size]) for e in encoder_outputs], 1)
    output_size = None
    if output_projection is None:
      cell = OutputProjectionWrapper(cell, num_decoder_symbols)
      output_size = num_decoder_symbols
    return _decode_either(
        feed_previous,
        lambda feed: embedding_attention_decoder(
            decoder_inputs, encoder_state, attention_states, cell, num_decoder_symbols, embedding_size,
            num_heads=num_heads, output_size=output_size, output_projection=output_projection, feed_previous=feed,
            update_embedding_for_previous=isinstance(feed_previous, bool),
            initial_state_attention=initial_state_attention),
        len(decoder_inputs), encoder_state)


def one2many_rnn_seq2seq(encoder_inputs, decoder_inputs_dict, enc_cell, dec_cells_dict, num_encoder_symbols,
                         num_decoder_symbols_dict, embedding_size, feed_previous=False, dtype=None, scope=None):
  """One embedding encoder, one embedding_rnn_decoder per key of `decoder_inputs_dict` (multi-task).

  Returns:
    ({name: outputs}, {name: final state}).

  Raises:
    TypeError: `enc_cell` or a decoder cell is not an RNNCell.
    ValueError: the keys of `dec_cells_dict` and `decoder_inputs_dict` differ.
  """
  if not isinstance(enc_cell, legacy_cells.RNNCell):
    raise TypeError("enc_cell is not an RNNCell: %s" % type(enc_cell))
  if set(dec_cells_dict) != set(decoder_inputs_dict):
    raise ValueError("keys of dec_cells_dict != keys of decoder_inputs_dict")
  for dec_cell in dec_cells_dict.values():
    if not isinstance(dec_cell, legacy_cells.RNNCell):
      raise TypeError("dec_cell is not an RNNCell: %s" % type(dec_cell))
  outputs_dict, state_dict = {}, {}
  with V1.variable_scope(scope or "one2many_rnn_seq2seq", dtype=dtype) as scope:
    dtype = scope.dtype
    enc_cell = EmbeddingWrapper(enc_cell, embedding_classes=num_encoder_symbols, embedding_size=embedding_size)
    _, encoder_state = tf.compat.v1.nn.static_rnn(enc_cell, encoder_inputs, dtype=dtype)
    for name, decoder_inputs in decoder_inputs_dict.items():
      num_decoder_symbols = num_decoder_symbols_dict[name]
      with V1.variable_scope("one2many_decoder_" + str(name)):
        dec_cell = OutputProjectionWrapper(dec_cells_dict[name], num_decoder_symbols)
        outputs_dict[name], state_dict[name] = _decode_either(
            feed_previous,
            # pylint: disable-next=cell-var-from-loop (called within this iteration)
            lambda feed: embedding_rnn_decoder(decoder_inputs, encoder_state, dec_cell, num_decoder_symbols,
                                               embedding_size, feed_previous=feed),
            len(decoder_inputs), encoder_state)
  return outputs_dict, state_dict


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


def model_with_buckets(encoder_inputs, decoder_inputs, targets, weights, buckets, seq2seq,
                       softmax_loss_function=None, per_example_loss=False, name=None):
  """One `seq2seq(encoder_inputs[:e], decoder_inputs[:d])` model per bucket (e, d), sharing variables.

  Returns:
    (outputs, losses): per bucket, the model's outputs and its sequence_loss (or, with `per_example_loss`,
    sequence_loss_by_example).

  Raises:
    ValueError: the inputs, targets or weights are shorter than the last bucket.
  """
  if len(encoder_inputs) < buckets[-1][0]:
    raise ValueError("Length of encoder_inputs (%d) must be at least that of last bucket (%d)."
                     % (len(encoder_inputs), buckets[-1][0]))
  if len(targets) < buckets[-1][1]:
    raise ValueError("Length of targets (%d) must be at least that of last bucket (%d)."
                     % (len(targets), buckets[-1][1]))
  if len(weights) < buckets[-1][1]:
    raise ValueError("Length of weights (%d) must be at least that of last bucket (%d)."
                     % (len(weights), buckets[-1][1]))
  loss_fn = sequence_loss_by_example if per_example_loss else sequence_loss
  losses, outputs = [], []
  with tf.compat.v1.name_scope(name, "model_with_buckets",
                               list(encoder_inputs) + list(decoder_inputs) + list(targets) + list(weights)):
    for j, (enc_len, dec_len) in enumerate(buckets):
      with V1.variable_scope(V1.get_variable_scope(), reuse=True if j > 0 else None):
        bucket_outputs, _ = seq2seq(encoder_inputs[:enc_len], decoder_inputs[:dec_len])
        outputs.append(bucket_outputs)
        losses.append(loss_fn(bucket_outputs, targets[:dec_len], weights[:dec_len],
                              softmax_loss_function=softmax_loss_function))
  return outputs, losses


__getattr__ = _catalog.module_getattr(__name__)

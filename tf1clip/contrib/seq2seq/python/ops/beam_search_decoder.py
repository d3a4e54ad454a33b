"""`tf.contrib.seq2seq.BeamSearchDecoder`, its state/output tuples and `tile_batch` (TF 1.15).

Place in the data flow (DESIGN.md): cell (+ AttentionWrapper over a `tile_batch`-ed memory) ->
**BeamSearchDecoder** -> dynamic_decode -> finalize (gather_tree) -> FinalBeamSearchDecoderOutput.
Each step scores every (beam, word) continuation by its total log probability, divided by the
GNMT length penalty and plus the coverage penalty when their weights are non-zero, keeps the
`beam_width` best per batch entry, and reorders the cell states to follow their parents.
Finished beams only extend with `end_token` at no cost. Same variables as BasicDecoder
(`decoder/<cell>/...`, `decoder/<output layer>/...`), so a model trained with a TrainingHelper
decodes with beam search from the same checkpoint.
"""

import collections

import numpy as np
import tensorflow as tf
from absl import logging

from tf1clip.contrib.seq2seq.python.ops import decoder
from tf1clip.contrib.seq2seq.python.ops.attention_wrapper import AttentionWrapperState
from tf1clip.contrib.seq2seq.python.ops.basic_decoder import check_output_layer
from tf1clip.contrib.seq2seq.python.ops.basic_decoder import check_rnn_cell
from tf1clip.contrib.seq2seq.python.ops.basic_decoder import projected_size
from tf1clip.contrib.seq2seq.python.ops.beam_search_ops import gather_tree

_V1 = tf.compat.v1


class BeamSearchDecoderState(collections.namedtuple("BeamSearchDecoderState", (
    "cell_state", "log_probs", "finished", "lengths", "accumulated_attention_probs"))):
  """The beam search loop's state: the cell's state and each beam's log prob, finished flag,
  length and (coverage penalty) accumulated attention, all `[batch_size, beam_width, ...]`."""


class BeamSearchDecoderOutput(collections.namedtuple("BeamSearchDecoderOutput", (
    "scores", "predicted_ids", "parent_ids"))):
  """One step's output per beam: its score, the id it chose and the beam it extended."""


class FinalBeamSearchDecoderOutput(collections.namedtuple("FinalBeamDecoderOutput", (
    "predicted_ids", "beam_search_decoder_output"))):
  """dynamic_decode's result for beam search: `predicted_ids` `[batch, time, beam_width]` (beams
  best first, backtracked by gather_tree) and the raw per-step BeamSearchDecoderOutput."""


def _tile_one(t, multiplier):
  t = tf.convert_to_tensor(t, name="t")
  if t.shape.ndims is None or t.shape.ndims < 1:
    raise ValueError("t must have statically known rank (at least 1); got shape %s" % t.shape)
  shape_t = tf.shape(t)
  tiling = [1] * (t.shape.ndims + 1)
  tiling[1] = multiplier
  static_batch = tf.compat.dimension_value(t.shape[0])
  tiled = tf.tile(tf.expand_dims(t, 1), tiling)
  tiled = tf.reshape(tiled, tf.concat(([shape_t[0] * multiplier], shape_t[1:]), 0))
  tiled.set_shape(tf.TensorShape([None if static_batch is None else static_batch * multiplier])
                  .concatenate(t.shape[1:]))
  return tiled


def tile_batch(t, multiplier, name=None):
  """Repeats each batch entry `multiplier` times in place: [a, b] -> [a, a, b, b] (for beams).

  Use it on the encoder outputs, their lengths and the encoder state before building an
  AttentionWrapper for a BeamSearchDecoder with `beam_width=multiplier`.

  Args:
    t: a Tensor `[batch_size, ...]` or a nested structure of them.
    multiplier: int, the beam width.
    name: name scope; default "tile_batch".

  Returns:
    The same structure with Tensors `[batch_size * multiplier, ...]`.

  Raises:
    ValueError: if a Tensor's rank is unknown or 0.
  """
  flat = tf.nest.flatten(t)
  with _V1.name_scope(name, "tile_batch", flat + [multiplier]):
    return tf.nest.map_structure(lambda t_: _tile_one(t_, multiplier), t)


def _check_known_rank(t):
  if t.shape.ndims is None:
    raise ValueError("Expected tensor (%s) to have known rank, but ndims == None." % t)


def _gather_beams(gather_indices, gather_from, batch_size, range_size, gather_shape, name=None):
  """Picks, per batch entry, the rows `gather_indices` ([batch, beam]) of `gather_from`."""
  with _V1.name_scope(name, "tensor_gather_helper"):
    offsets = tf.expand_dims(tf.range(batch_size) * range_size, 1)
    flat_indices = tf.reshape(gather_indices + offsets, [-1])
    output = tf.gather(tf.reshape(gather_from, gather_shape), flat_indices)
    final_shape = tf.shape(gather_from)[:1 + len(gather_shape)]
    static_batch = tf.get_static_value(batch_size)
    output = tf.reshape(output, final_shape, name="output")
    output.set_shape(tf.TensorShape([static_batch]).concatenate(
        gather_from.shape[1:1 + len(gather_shape)]))
    return output


def _maybe_gather_beams(gather_indices, gather_from, batch_size, range_size, gather_shape):
  if isinstance(gather_from, tf.TensorArray):
    return gather_from
  _check_known_rank(gather_from)
  if gather_from.shape.ndims >= len(gather_shape):
    return _gather_beams(gather_indices, gather_from, batch_size, range_size, gather_shape)
  return gather_from


def gather_tree_from_array(t, parent_ids, sequence_length):
  """Reorders a stacked `[time, batch * beam, ...]` history (e.g. alignment_history) like the ids.

  Args:
    t: Tensor `[max_time, batch_size * beam_width, ...]` or `[max_time, batch, beam, ...]`.
    parent_ids: int32 `[max_time, batch_size, beam_width]`.
    sequence_length: `[batch_size, beam_width]` lengths.

  Returns:
    `t` with each beam's entries taken along its backtracked path (steps past a beam's length
    keep their own beam).
  """
  max_time = tf.compat.dimension_value(parent_ids.shape[0]) or tf.shape(parent_ids)[0]
  batch_size = tf.compat.dimension_value(parent_ids.shape[1]) or tf.shape(parent_ids)[1]
  beam_width = tf.compat.dimension_value(parent_ids.shape[2]) or tf.shape(parent_ids)[2]
  beam_ids = tf.tile(tf.range(beam_width)[None, None, :], [max_time, batch_size, 1])
  max_sequence_lengths = tf.cast(tf.reduce_max(sequence_length, axis=1), tf.int32)
  # end_token beam_width + 1 never occurs among beam ids, so nothing is cut.
  sorted_beam_ids = gather_tree(beam_ids, parent_ids, max_sequence_lengths, beam_width + 1)
  in_bound_steps = tf.transpose(tf.sequence_mask(sequence_length, maxlen=max_time), [2, 0, 1])
  sorted_beam_ids = tf.where(in_bound_steps, sorted_beam_ids, beam_ids)
  time_ind = tf.tile(tf.reshape(tf.range(max_time), [-1, 1, 1]), [1, batch_size, beam_width])
  batch_ind = tf.transpose(tf.tile(tf.reshape(tf.range(batch_size), [-1, 1, 1]),
                                   [1, max_time, beam_width]), [1, 0, 2])
  indices = tf.stack([time_ind, batch_ind, sorted_beam_ids], -1)
  final_shape = tf.shape(t)
  ordered = tf.gather_nd(tf.reshape(t, [max_time, batch_size, beam_width, -1]), indices)
  return tf.reshape(ordered, final_shape)


def _length_penalty(sequence_lengths, penalty_factor):
  """GNMT's length penalty ((5 + length) / 6) ** alpha (1.0 when alpha is statically 0)."""
  penalty_factor = tf.convert_to_tensor(penalty_factor, name="penalty_factor")
  penalty_factor.set_shape(())
  static_penalty = tf.get_static_value(penalty_factor)
  if static_penalty is not None and static_penalty == 0:
    return 1.0
  return ((5. + tf.cast(sequence_lengths, tf.float32)) ** penalty_factor
          / (5. + 1.) ** penalty_factor)


def _attention_probs(attention_state):
  probs = attention_state.alignments
  if isinstance(probs, tuple):
    probs = tf.reduce_mean(tf.stack(probs, -1), -1)
  return probs


def get_attention_probs(next_cell_state, coverage_penalty_weight):
  """The (mean over attention layers) alignments in a cell state, or None without coverage.

  Raises:
    ValueError: if the coverage penalty is on and no part of the state is an
      AttentionWrapperState.
  """
  if coverage_penalty_weight == 0.0:
    return None
  per_layer = []
  if isinstance(next_cell_state, AttentionWrapperState):
    per_layer = [_attention_probs(next_cell_state)]
  elif isinstance(next_cell_state, tuple):
    per_layer = [_attention_probs(s) for s in next_cell_state
                 if isinstance(s, AttentionWrapperState)]
  if not per_layer:
    raise ValueError("coverage_penalty_weight must be 0.0 if no cell is attentional.")
  if len(per_layer) == 1:
    return per_layer[0]
  return tf.reduce_mean(tf.stack(per_layer, -1), -1)


def _get_scores(log_probs, sequence_lengths, length_penalty_weight, coverage_penalty_weight,
                finished, accumulated_attention_probs):
  """log_probs / length penalty, plus weight * sum(log(min(coverage, 1))) on finished beams.

  References:
    Wu et al., "Google's Neural Machine Translation System", 2016 (arXiv:1609.08144), eq. 14.
  """
  scores = log_probs / tf.cast(_length_penalty(sequence_lengths, length_penalty_weight),
                               log_probs.dtype)
  coverage_penalty_weight = tf.convert_to_tensor(coverage_penalty_weight,
                                                 name="coverage_penalty_weight")
  if coverage_penalty_weight.shape.ndims != 0:
    raise ValueError("coverage_penalty_weight should be a scalar, but saw shape: %s"
                     % coverage_penalty_weight.shape)
  if tf.get_static_value(coverage_penalty_weight) == 0.0:
    return scores
  if accumulated_attention_probs is None:
    raise ValueError("accumulated_attention_probs can be None only if coverage penalty is "
                     "disabled.")
  # Memory positions never attended (padding) do not count.
  accumulated = tf.where(tf.equal(accumulated_attention_probs, 0.0),
                         tf.ones_like(accumulated_attention_probs), accumulated_attention_probs)
  coverage_penalty = tf.reduce_sum(tf.math.log(tf.minimum(accumulated, 1.0)), 2)
  coverage_penalty *= tf.cast(finished, coverage_penalty.dtype)
  return scores + tf.expand_dims(coverage_penalty * coverage_penalty_weight, 2)


def _mask_probs(probs, eos_token, finished):
  """Finished beams put all their probability on `eos_token` (log 0 there, dtype.min elsewhere)."""
  vocab_size = tf.shape(probs)[2]
  finished_row = tf.one_hot(eos_token, vocab_size, dtype=probs.dtype,
                            on_value=tf.constant(0., probs.dtype), off_value=probs.dtype.min)
  finished_probs = tf.tile(tf.reshape(finished_row, [1, 1, -1]),
                           tf.concat([tf.shape(finished), [1]], 0))
  finished_mask = tf.tile(tf.expand_dims(finished, 2), [1, 1, vocab_size])
  return tf.where(finished_mask, finished_probs, probs)


def _beam_search_step(time, logits, next_cell_state, beam_state, batch_size, beam_width,
                      end_token, length_penalty_weight, coverage_penalty_weight):
  """One beam search step (TF 1.15's _beam_search_step)."""
  static_batch_size = tf.get_static_value(batch_size)
  prediction_lengths = beam_state.lengths
  previously_finished = beam_state.finished
  not_finished = tf.logical_not(previously_finished)

  step_log_probs = _mask_probs(tf.nn.log_softmax(logits), end_token, previously_finished)
  total_probs = tf.expand_dims(beam_state.log_probs, 2) + step_log_probs

  vocab_size = tf.compat.dimension_value(logits.shape[-1]) or tf.shape(logits)[-1]
  lengths_to_add = tf.one_hot(tf.fill([batch_size, beam_width], end_token), depth=vocab_size,
                              on_value=np.int64(0), off_value=np.int64(1), dtype=tf.int64)
  lengths_to_add *= tf.expand_dims(tf.cast(not_finished, tf.int64), 2)
  new_prediction_lengths = lengths_to_add + tf.expand_dims(prediction_lengths, 2)

  accumulated_attention_probs = None
  attention_probs = get_attention_probs(next_cell_state, coverage_penalty_weight)
  if attention_probs is not None:
    attention_probs *= tf.expand_dims(tf.cast(not_finished, attention_probs.dtype), 2)
    accumulated_attention_probs = beam_state.accumulated_attention_probs + attention_probs

  scores = _get_scores(total_probs, new_prediction_lengths, length_penalty_weight,
                       coverage_penalty_weight, previously_finished,
                       accumulated_attention_probs)
  scores_flat = tf.reshape(scores, [batch_size, -1])
  next_beam_scores, word_indices = tf.nn.top_k(scores_flat, k=beam_width)
  next_beam_scores.set_shape([static_batch_size, beam_width])
  word_indices.set_shape([static_batch_size, beam_width])

  next_beam_probs = _gather_beams(word_indices, total_probs, batch_size,
                                  beam_width * vocab_size, [-1], name="next_beam_probs")
  next_word_ids = tf.cast(tf.math.floormod(word_indices, vocab_size, name="next_beam_word_ids"),
                          tf.int32)
  next_beam_ids = tf.cast(word_indices // vocab_size, tf.int32, name="next_beam_parent_ids")

  previously_finished = _gather_beams(next_beam_ids, previously_finished, batch_size,
                                      beam_width, [-1])
  next_finished = tf.logical_or(previously_finished, tf.equal(next_word_ids, end_token),
                                name="next_beam_finished")
  # A beam that was finished keeps its length; all others (including the one that just chose
  # end_token) grow by one.
  next_prediction_len = _gather_beams(next_beam_ids, beam_state.lengths, batch_size,
                                      beam_width, [-1])
  next_prediction_len += tf.cast(tf.logical_not(previously_finished), tf.int64)
  next_accumulated_attention_probs = ()
  if accumulated_attention_probs is not None:
    next_accumulated_attention_probs = _gather_beams(
        next_beam_ids, accumulated_attention_probs, batch_size, beam_width,
        [batch_size * beam_width, -1], name="next_accumulated_attention_probs")
  next_cell_state = tf.nest.map_structure(
      lambda gather_from: _maybe_gather_beams(next_beam_ids, gather_from, batch_size,
                                              beam_width, [batch_size * beam_width, -1]),
      next_cell_state)
  next_state = BeamSearchDecoderState(
      cell_state=next_cell_state, log_probs=next_beam_probs, lengths=next_prediction_len,
      finished=next_finished, accumulated_attention_probs=next_accumulated_attention_probs)
  output = BeamSearchDecoderOutput(scores=next_beam_scores, predicted_ids=next_word_ids,
                                   parent_ids=next_beam_ids)
  return output, next_state


class BeamSearchDecoder(decoder.Decoder):
  """Beam search decoding with an RNN cell (TF 1.15 semantics).

  The cell runs on `batch_size * beam_width` rows: an AttentionWrapper's memory (and the
  initial state) must be `tile_batch`-ed by `beam_width`, and its zero_state built with
  `batch_size * beam_width`.
  """

  def __init__(self, cell, embedding, start_tokens, end_token, initial_state, beam_width,
               output_layer=None, length_penalty_weight=0.0, coverage_penalty_weight=0.0,
               reorder_tensor_arrays=True):
    """Creates the decoder.

    Args:
      cell: an RNNCell.
      embedding: the embedding matrix, or a callable `ids -> inputs`.
      start_tokens: int32 vector `[batch_size]`.
      end_token: int32 scalar.
      initial_state: the cell's initial state, `[batch_size * beam_width, ...]` (tile_batch).
      beam_width: int, the number of beams.
      output_layer: optional layer producing the logits from the cell output (e.g. Dense(vocab)).
      length_penalty_weight: float alpha of the GNMT length penalty (0 disables it).
      coverage_penalty_weight: float beta of the GNMT coverage penalty (0 disables it; non-zero
        needs an attentional cell).
      reorder_tensor_arrays: reorder TensorArrays in the final cell state (alignment_history)
        along the backtracked beams.

    Raises:
      TypeError: if cell or output_layer has the wrong type.
      ValueError: if start_tokens is not a vector or end_token not a scalar, or beam_width < 1.
    """
    check_rnn_cell("cell", cell)
    check_output_layer(output_layer)
    if not isinstance(beam_width, int) or beam_width < 1:
      raise ValueError("beam_width must be a positive int; got %r" % (beam_width,))
    self._cell = cell
    self._output_layer = output_layer
    self._reorder_tensor_arrays = reorder_tensor_arrays
    self._beam_width = beam_width
    self._length_penalty_weight = length_penalty_weight
    self._coverage_penalty_weight = coverage_penalty_weight
    self._embedding_fn = (embedding if callable(embedding)
                          else lambda ids: tf.nn.embedding_lookup(embedding, ids))
    self._start_tokens = tf.convert_to_tensor(start_tokens, dtype=tf.int32, name="start_tokens")
    if self._start_tokens.shape.ndims != 1:
      raise ValueError("start_tokens must be a vector; got shape %s" % self._start_tokens.shape)
    self._end_token = tf.convert_to_tensor(end_token, dtype=tf.int32, name="end_token")
    if self._end_token.shape.ndims != 0:
      raise ValueError("end_token must be a scalar; got shape %s" % self._end_token.shape)
    self._batch_size = tf.size(start_tokens)
    self._initial_cell_state = tf.nest.map_structure(self._maybe_split_batch_beams,
                                                     initial_state, self._cell.state_size)
    self._start_tokens = tf.tile(tf.expand_dims(self._start_tokens, 1), [1, self._beam_width])
    self._start_inputs = self._embedding_fn(self._start_tokens)
    # Only beam 0 is live at the start, so the first step does not pick W copies of one word.
    self._finished = tf.one_hot(tf.zeros([self._batch_size], dtype=tf.int32),
                                depth=self._beam_width, on_value=False, off_value=True,
                                dtype=tf.bool)

  @property
  def batch_size(self):
    return self._batch_size

  @property
  def tracks_own_finished(self):
    # Finished beams are reordered with their parents, so "finished" is recomputed every step.
    return True

  def _rnn_output_size(self):
    return projected_size(self._cell.output_size, self._output_layer)

  @property
  def output_size(self):
    return BeamSearchDecoderOutput(scores=tf.TensorShape([self._beam_width]),
                                   predicted_ids=tf.TensorShape([self._beam_width]),
                                   parent_ids=tf.TensorShape([self._beam_width]))

  @property
  def output_dtype(self):
    dtype = tf.nest.flatten(self._initial_cell_state)[0].dtype
    return BeamSearchDecoderOutput(
        scores=tf.nest.map_structure(lambda _: dtype, self._rnn_output_size()),
        predicted_ids=tf.int32, parent_ids=tf.int32)

  def initialize(self, name=None):
    """Returns `(finished, start_inputs, BeamSearchDecoderState)`; beam 0 has log prob 0, the
    others -inf."""
    dtype = tf.nest.flatten(self._initial_cell_state)[0].dtype
    log_probs = tf.one_hot(tf.zeros([self._batch_size], dtype=tf.int32), depth=self._beam_width,
                           on_value=tf.constant(0.0, dtype), off_value=tf.constant(-np.inf, dtype),
                           dtype=dtype)
    init_attention_probs = get_attention_probs(self._initial_cell_state,
                                               self._coverage_penalty_weight)
    initial_state = BeamSearchDecoderState(
        cell_state=self._initial_cell_state, log_probs=log_probs, finished=self._finished,
        lengths=tf.zeros([self._batch_size, self._beam_width], dtype=tf.int64),
        accumulated_attention_probs=() if init_attention_probs is None else init_attention_probs)
    return self._finished, self._start_inputs, initial_state

  def finalize(self, outputs, final_state, sequence_lengths):
    """Backtracks the beams with gather_tree; returns (FinalBeamSearchDecoderOutput, state)."""
    del sequence_lengths
    max_sequence_lengths = tf.cast(tf.reduce_max(final_state.lengths, axis=1), tf.int32)
    predicted_ids = gather_tree(outputs.predicted_ids, outputs.parent_ids,
                                max_sequence_lengths=max_sequence_lengths,
                                end_token=self._end_token)
    if self._reorder_tensor_arrays:
      final_state = final_state._replace(cell_state=tf.nest.map_structure(
          lambda t: self._maybe_sort_array_beams(t, outputs.parent_ids, final_state.lengths),
          final_state.cell_state))
    return (FinalBeamSearchDecoderOutput(beam_search_decoder_output=outputs,
                                         predicted_ids=predicted_ids), final_state)

  def _merge_batch_beams(self, t, s=None):
    s = tf.TensorShape(decoder.as_shape(s) if s is not None else None)
    static_batch = tf.get_static_value(self._batch_size)
    reshaped = tf.reshape(t, tf.concat(([self._batch_size * self._beam_width], tf.shape(t)[2:]),
                                       0))
    reshaped.set_shape(tf.TensorShape([None if static_batch is None
                                       else static_batch * self._beam_width]).concatenate(s))
    return reshaped

  def _split_batch_beams(self, t, s=None):
    s = tf.TensorShape(decoder.as_shape(s) if s is not None else None)
    static_batch = tf.get_static_value(self._batch_size)
    rows = tf.compat.dimension_value(t.shape[0])
    expected = tf.TensorShape([static_batch, self._beam_width]).concatenate(s)
    # Checked before the reshape, whose own shape error would not say what to do.
    if static_batch is not None and rows is not None and rows != static_batch * self._beam_width:
      raise ValueError(
          "Unexpected behavior when reshaping between beam width and batch size.  The tensor "
          "has %d rows; batch_size * beam_width is %d * %d.  Perhaps you forgot to create a "
          "zero_state with batch_size=encoder_batch_size * beam_width?"
          % (rows, static_batch, self._beam_width))
    reshaped = tf.reshape(t, tf.concat(([self._batch_size, self._beam_width], tf.shape(t)[1:]),
                                       0))
    if not reshaped.shape.is_compatible_with(expected):
      raise ValueError(
          "Unexpected behavior when reshaping between beam width and batch size.  The reshaped "
          "tensor has shape: %s.  We expected it to have shape (batch_size, beam_width, depth) "
          "== %s.  Perhaps you forgot to create a zero_state with "
          "batch_size=encoder_batch_size * beam_width?" % (reshaped.shape, expected))
    reshaped.set_shape(expected)
    return reshaped

  def _maybe_split_batch_beams(self, t, s):
    if isinstance(t, tf.TensorArray):
      return t
    _check_known_rank(t)
    return self._split_batch_beams(t, s) if t.shape.ndims >= 1 else t

  def _maybe_merge_batch_beams(self, t, s):
    if isinstance(t, tf.TensorArray):
      return t
    _check_known_rank(t)
    return self._merge_batch_beams(t, s) if t.shape.ndims >= 2 else t

  def _maybe_sort_array_beams(self, t, parent_ids, sequence_length):
    if not isinstance(t, tf.TensorArray):
      return t
    element_shape = t.element_shape
    if element_shape.ndims is None or element_shape.ndims < 1:
      logging.warning("The TensorArray %s in the cell state is not amenable to sorting based on "
                      "the beam search result (element shape %s).", t.handle.name, element_shape)
      return t
    static_batch = tf.get_static_value(self._batch_size)
    first = tf.compat.dimension_value(element_shape[0])
    if static_batch is not None and first is not None and first != static_batch * self._beam_width:
      logging.warning("TensorArray reordering expects elements to be reshapable to [batch_size, "
                      "beam_size, -1], incompatible with %s; set reorder_tensor_arrays=False.",
                      element_shape)
      return t
    return gather_tree_from_array(t.stack(), parent_ids, sequence_length)

  def step(self, time, inputs, state, name=None):
    """One beam search step: `(BeamSearchDecoderOutput, state, next_inputs, finished)`."""
    with _V1.name_scope(name, "BeamSearchDecoderStep", (time, inputs, state)):
      inputs = tf.nest.map_structure(lambda inp: self._merge_batch_beams(inp, s=inp.shape[2:]),
                                     inputs)
      cell_state = tf.nest.map_structure(self._maybe_merge_batch_beams, state.cell_state,
                                         self._cell.state_size)
      cell_outputs, next_cell_state = self._cell(inputs, cell_state)
      cell_outputs = tf.nest.map_structure(
          lambda out: self._split_batch_beams(out, out.shape[1:]), cell_outputs)
      next_cell_state = tf.nest.map_structure(self._maybe_split_batch_beams, next_cell_state,
                                              self._cell.state_size)
      if self._output_layer is not None:
        cell_outputs = self._output_layer(cell_outputs)
      beam_search_output, beam_search_state = _beam_search_step(
          time=time, logits=cell_outputs, next_cell_state=next_cell_state, beam_state=state,
          batch_size=self._batch_size, beam_width=self._beam_width, end_token=self._end_token,
          length_penalty_weight=self._length_penalty_weight,
          coverage_penalty_weight=self._coverage_penalty_weight)
      finished = beam_search_state.finished
      sample_ids = beam_search_output.predicted_ids
      next_inputs = tf.cond(tf.reduce_all(finished), lambda: self._start_inputs,
                            lambda: self._embedding_fn(sample_ids))
    return beam_search_output, beam_search_state, next_inputs, finished

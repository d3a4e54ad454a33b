"""`tf.contrib.crf`: a linear-chain conditional random field, as TensorFlow 1.15 had it.

Our own code (nothing maintained serves TF1's API), step for step TF 1.15's
`tensorflow/contrib/crf/python/ops/crf.py`:

  crf_log_likelihood(inputs, tag_indices, sequence_lengths, transition_params=None)
      -> (log_likelihood [batch], transition_params); without transition_params it creates the
      variable "transitions" [num_tags, num_tags] with tf.compat.v1.get_variable, as TF 1.15 did.
  crf_sequence_score = crf_unary_score + crf_binary_score; crf_log_norm (the forward algorithm, a
      dynamic_rnn of CrfForwardRnnCell); crf_decode (Viterbi in the graph: CrfDecodeForwardRnnCell,
      then CrfDecodeBackwardRnnCell over the reversed backpointers); viterbi_decode (numpy).

Shapes: inputs/potentials [batch, max_seq_len, num_tags], tag_indices [batch, max_seq_len] int,
sequence_lengths [batch]. Positions past a sequence's length are ignored; a sequence of length 0
scores 0 and has log-norm 0. A max_seq_len of 1 takes the single-step path.
"""

import numpy as np
import tensorflow as tf
from tf_keras.src.layers.rnn import legacy_cells

from tf1clip.contrib import catalog as _catalog

V1 = tf.compat.v1

__all__ = [
    "crf_sequence_score", "crf_unary_score", "crf_binary_score", "crf_log_norm",
    "crf_log_likelihood", "crf_decode", "viterbi_decode", "CrfForwardRnnCell",
    "CrfDecodeForwardRnnCell", "CrfDecodeBackwardRnnCell", "crf_multitag_sequence_score",
]


def _by_max_length(inputs, single_fn, multi_fn):
  """single_fn() when max_seq_len is 1, else multi_fn(); a Python choice when the length is static."""
  max_len = tf.compat.dimension_value(inputs.shape[1])
  if max_len is not None:
    return single_fn() if max_len == 1 else multi_fn()
  return tf.cond(tf.equal(tf.shape(inputs)[1], 1), single_fn, multi_fn)


def _check_rank(tensor, rank, arg, function):
  if tensor.shape.rank is not None and tensor.shape.rank != rank:
    raise ValueError("%s expects `%s` of rank %d; got shape %s" % (function, arg, rank, tensor.shape))


def crf_sequence_score(inputs, tag_indices, sequence_lengths, transition_params):
  """The unnormalized score of each tag sequence: unary scores plus transition scores.

  Args:
    inputs: [batch, max_seq_len, num_tags] unary potentials.
    tag_indices: [batch, max_seq_len] int32/int64 tags.
    sequence_lengths: [batch] lengths.
    transition_params: [num_tags, num_tags] transition scores (from row tag to column tag).

  Returns:
    [batch] scores.

  Raises:
    ValueError: inputs not of rank 3 or tag_indices not of rank 2.
  """
  inputs = tf.convert_to_tensor(inputs)
  tag_indices = tf.convert_to_tensor(tag_indices)
  sequence_lengths = tf.convert_to_tensor(sequence_lengths)
  _check_rank(inputs, 3, "inputs", "crf_sequence_score")
  _check_rank(tag_indices, 2, "tag_indices", "crf_sequence_score")

  def single_seq_fn():
    batch_size = tf.shape(inputs, out_type=tag_indices.dtype)[0]
    example_inds = tf.reshape(tf.range(batch_size, dtype=tag_indices.dtype), [-1, 1])
    scores = tf.gather_nd(tf.squeeze(inputs, [1]), tf.concat([example_inds, tag_indices], axis=1))
    return tf.where(tf.less_equal(sequence_lengths, 0), tf.zeros_like(scores), scores)

  def multi_seq_fn():
    return (crf_unary_score(tag_indices, sequence_lengths, inputs)
            + crf_binary_score(tag_indices, sequence_lengths, transition_params))

  return _by_max_length(inputs, single_seq_fn, multi_seq_fn)


def crf_multitag_sequence_score(inputs, tag_bitmap, sequence_lengths, transition_params):
  """The log of the summed scores of every tag sequence whose tags are all allowed by `tag_bitmap`.

  With one-hot rows in `tag_bitmap` this is crf_sequence_score.

  Args:
    inputs: [batch, max_seq_len, num_tags] unary potentials.
    tag_bitmap: [batch, max_seq_len, num_tags] booleans: the tags allowed at each step.
    sequence_lengths: [batch] lengths.
    transition_params: [num_tags, num_tags] transition scores.

  Returns:
    [batch] scores.
  """
  inputs = tf.convert_to_tensor(inputs)
  # the disallowed tags' potentials become -inf, so only matching sequences count in the log-sum-exp
  filtered = tf.where(tag_bitmap, inputs, tf.fill(tf.shape(inputs), float("-inf")))
  return _by_max_length(
      inputs, lambda: tf.reduce_logsumexp(filtered, axis=[1, 2], keepdims=False),
      lambda: crf_log_norm(inputs=filtered, sequence_lengths=sequence_lengths,
                           transition_params=transition_params))


def crf_unary_score(tag_indices, sequence_lengths, inputs):
  """The sum of each sequence's unary potentials of its tags, up to its length.

  Args:
    tag_indices: [batch, max_seq_len] int32/int64 tags.
    sequence_lengths: [batch] lengths.
    inputs: [batch, max_seq_len, num_tags] unary potentials.

  Returns:
    [batch] unary scores.
  """
  inputs = tf.convert_to_tensor(inputs)
  tag_indices = tf.convert_to_tensor(tag_indices)
  batch_size, max_seq_len, num_tags = tf.unstack(tf.shape(inputs))
  flattened_inputs = tf.reshape(inputs, [-1])
  offsets = tf.expand_dims(tf.range(batch_size) * max_seq_len * num_tags, 1)
  offsets += tf.expand_dims(tf.range(max_seq_len) * num_tags, 0)
  offsets = tf.cast(offsets, tag_indices.dtype)
  flattened_tag_indices = tf.reshape(offsets + tag_indices, [-1])
  unary_scores = tf.reshape(tf.gather(flattened_inputs, flattened_tag_indices),
                            [batch_size, max_seq_len])
  masks = tf.sequence_mask(sequence_lengths, maxlen=tf.shape(tag_indices)[1], dtype=inputs.dtype)
  return tf.reduce_sum(unary_scores * masks, 1)


def crf_binary_score(tag_indices, sequence_lengths, transition_params):
  """The sum of each sequence's transition scores between consecutive tags, up to its length.

  Args:
    tag_indices: [batch, max_seq_len] int32/int64 tags.
    sequence_lengths: [batch] lengths.
    transition_params: [num_tags, num_tags] transition scores.

  Returns:
    [batch] binary scores.
  """
  tag_indices = tf.convert_to_tensor(tag_indices)
  transition_params = tf.convert_to_tensor(transition_params)
  num_tags = tf.cast(tf.shape(transition_params)[0], tag_indices.dtype)
  num_transitions = tf.shape(tag_indices)[1] - 1
  start_tag_indices = tf.slice(tag_indices, [0, 0], [-1, num_transitions])
  end_tag_indices = tf.slice(tag_indices, [0, 1], [-1, num_transitions])
  flattened_transition_indices = start_tag_indices * num_tags + end_tag_indices
  binary_scores = tf.gather(tf.reshape(transition_params, [-1]), flattened_transition_indices)
  masks = tf.sequence_mask(sequence_lengths, maxlen=tf.shape(tag_indices)[1],
                           dtype=transition_params.dtype)
  return tf.reduce_sum(binary_scores * masks[:, 1:], 1)


def crf_log_norm(inputs, sequence_lengths, transition_params):
  """The log partition function: logsumexp over every tag sequence's score (forward algorithm).

  Args:
    inputs: [batch, max_seq_len, num_tags] unary potentials.
    sequence_lengths: [batch] lengths.
    transition_params: [num_tags, num_tags] transition scores.

  Returns:
    [batch] log-norms (0 for a length-0 sequence).
  """
  inputs = tf.convert_to_tensor(inputs)
  sequence_lengths = tf.convert_to_tensor(sequence_lengths)
  _check_rank(inputs, 3, "inputs", "crf_log_norm")
  first_input = tf.squeeze(tf.slice(inputs, [0, 0, 0], [-1, 1, -1]), [1])

  def single_seq_fn():
    log_norm = tf.reduce_logsumexp(first_input, [1])
    return tf.where(tf.less_equal(sequence_lengths, 0), tf.zeros_like(log_norm), log_norm)

  def multi_seq_fn():
    rest_of_input = tf.slice(inputs, [0, 1, 0], [-1, -1, -1])
    lengths_less_one = tf.maximum(tf.constant(0, dtype=sequence_lengths.dtype), sequence_lengths - 1)
    _, alphas = V1.nn.dynamic_rnn(
        cell=CrfForwardRnnCell(transition_params), inputs=rest_of_input,
        sequence_length=lengths_less_one, initial_state=first_input, dtype=inputs.dtype)
    log_norm = tf.reduce_logsumexp(alphas, [1])
    return tf.where(tf.less_equal(sequence_lengths, 0), tf.zeros_like(log_norm), log_norm)

  return _by_max_length(inputs, single_seq_fn, multi_seq_fn)


def crf_log_likelihood(inputs, tag_indices, sequence_lengths, transition_params=None):
  """The log-likelihood of tag sequences under a linear-chain CRF.

  Args:
    inputs: [batch, max_seq_len, num_tags] unary potentials (num_tags must be static).
    tag_indices: [batch, max_seq_len] int32/int64 gold tags.
    sequence_lengths: [batch] lengths.
    transition_params: optional [num_tags, num_tags] transition scores; None creates the variable
      "transitions" in the current variable scope (tf.compat.v1.get_variable, as TF 1.15 did).

  Returns:
    (log_likelihood [batch], transition_params).

  Raises:
    ValueError: inputs not of rank 3, or an unknown num_tags without transition_params.

  References:
    Lafferty, McCallum, Pereira, "Conditional Random Fields: Probabilistic Models for Segmenting
    and Labeling Sequence Data", ICML 2001.
  """
  inputs = tf.convert_to_tensor(inputs)
  _check_rank(inputs, 3, "inputs", "crf_log_likelihood")
  if transition_params is None:
    num_tags = tf.compat.dimension_value(inputs.shape[2])
    if num_tags is None:
      raise ValueError("crf_log_likelihood needs the number of tags (inputs' last dimension) to "
                       "create `transitions`; got inputs of shape %s" % inputs.shape)
    transition_params = V1.get_variable("transitions", [num_tags, num_tags])
  sequence_scores = crf_sequence_score(inputs, tag_indices, sequence_lengths, transition_params)
  log_norm = crf_log_norm(inputs, sequence_lengths, transition_params)
  return sequence_scores - log_norm, transition_params


class _TransitionCell(legacy_cells.RNNCell):
  """A cell over the tag dimension that adds the transition scores to its state each step."""

  def __init__(self, transition_params):
    """Creates the cell.

    Args:
      transition_params: [num_tags, num_tags] transition scores (num_tags static).
    """
    super().__init__()
    transition_params = tf.convert_to_tensor(transition_params)
    self._transition_params = tf.expand_dims(transition_params, 0)
    self._num_tags = tf.compat.dimension_value(transition_params.shape[0])

  @property
  def state_size(self):
    return self._num_tags

  @property
  def output_size(self):
    return self._num_tags

  def _transition_scores(self, state):
    """[batch, from_tag, to_tag]: the state of each previous tag plus the transition score."""
    return tf.expand_dims(state, 2) + self._transition_params


class CrfForwardRnnCell(_TransitionCell):
  """One step of the CRF forward algorithm: alphas' = inputs + logsumexp_i(alphas_i + T[i, :])."""

  def __call__(self, inputs, state, scope=None):
    """Returns (new_alphas, new_alphas), each [batch, num_tags]."""
    new_alphas = inputs + tf.reduce_logsumexp(self._transition_scores(state), [1])
    return new_alphas, new_alphas


class CrfDecodeForwardRnnCell(_TransitionCell):
  """One Viterbi forward step: outputs the backpointers, carries the best scores."""

  def __call__(self, inputs, state, scope=None):
    """Returns (backpointers [batch, num_tags] int32, new scores [batch, num_tags])."""
    transition_scores = self._transition_scores(state)
    new_state = inputs + tf.reduce_max(transition_scores, [1])
    backpointers = tf.cast(tf.argmax(transition_scores, 1), tf.int32)
    return backpointers, new_state


class CrfDecodeBackwardRnnCell(legacy_cells.RNNCell):
  """One Viterbi backtrack step over reversed backpointers: the previous best tag."""

  def __init__(self, num_tags):
    """Creates the cell.

    Args:
      num_tags: the number of tags.
    """
    super().__init__()
    self._num_tags = num_tags

  @property
  def state_size(self):
    return 1

  @property
  def output_size(self):
    return 1

  def __call__(self, inputs, state, scope=None):
    """Returns (new_tags, new_tags), each [batch, 1] int32, from backpointers `inputs`."""
    state = tf.squeeze(state[0] if isinstance(state, (list, tuple)) else state, [1])
    indices = tf.stack([tf.range(tf.shape(inputs)[0]), state], axis=1)
    new_tags = tf.expand_dims(tf.gather_nd(inputs, indices), axis=-1)
    return new_tags, new_tags


def crf_decode(potentials, transition_params, sequence_length):
  """The highest-scoring tag sequence of each batch element (Viterbi, in the graph).

  Args:
    potentials: [batch, max_seq_len, num_tags] unary potentials (num_tags static).
    transition_params: [num_tags, num_tags] transition scores.
    sequence_length: [batch] lengths.

  Returns:
    (decode_tags [batch, max_seq_len] int32, best_score [batch]). Tags past a sequence's length
    are 0 (a length-1 sequence's tag is the argmax of its first potentials).

  Raises:
    ValueError: potentials not of rank 3.
  """
  potentials = tf.convert_to_tensor(potentials)
  sequence_length = tf.convert_to_tensor(sequence_length)
  _check_rank(potentials, 3, "potentials", "crf_decode")

  def single_seq_fn():
    squeezed = tf.squeeze(potentials, [1])
    decode_tags = tf.expand_dims(tf.argmax(squeezed, axis=1), 1)
    return tf.cast(decode_tags, tf.int32), tf.reduce_max(squeezed, axis=1)

  def multi_seq_fn():
    num_tags = tf.compat.dimension_value(potentials.shape[2])
    initial_state = tf.squeeze(tf.slice(potentials, [0, 0, 0], [-1, 1, -1]), axis=[1])
    inputs = tf.slice(potentials, [0, 1, 0], [-1, -1, -1])
    lengths_less_one = tf.maximum(tf.constant(0, dtype=sequence_length.dtype), sequence_length - 1)
    backpointers, last_score = V1.nn.dynamic_rnn(
        CrfDecodeForwardRnnCell(transition_params), inputs=inputs, sequence_length=lengths_less_one,
        initial_state=initial_state, time_major=False, dtype=tf.int32)
    backpointers = tf.reverse_sequence(backpointers, lengths_less_one, seq_axis=1)
    initial_state = tf.expand_dims(tf.cast(tf.argmax(last_score, axis=1), tf.int32), axis=-1)
    decode_tags, _ = V1.nn.dynamic_rnn(
        CrfDecodeBackwardRnnCell(num_tags), inputs=backpointers, sequence_length=lengths_less_one,
        initial_state=initial_state, time_major=False, dtype=tf.int32)
    decode_tags = tf.squeeze(decode_tags, axis=[2])
    decode_tags = tf.concat([initial_state, decode_tags], axis=1)
    decode_tags = tf.reverse_sequence(decode_tags, sequence_length, seq_axis=1)
    return decode_tags, tf.reduce_max(last_score, axis=1)

  return _by_max_length(potentials, single_seq_fn, multi_seq_fn)


def viterbi_decode(score, transition_params):
  """The highest-scoring tag sequence of one sequence, in numpy (outside the graph).

  Args:
    score: [seq_len, num_tags] numpy array of unary potentials.
    transition_params: [num_tags, num_tags] numpy array of transition scores.

  Returns:
    (viterbi, viterbi_score): the list of seq_len int tags and its score (a float).
  """
  score = np.asarray(score)
  transition_params = np.asarray(transition_params)
  trellis = np.zeros_like(score)
  backpointers = np.zeros_like(score, dtype=np.int32)
  trellis[0] = score[0]
  for t in range(1, score.shape[0]):
    v = np.expand_dims(trellis[t - 1], 1) + transition_params
    trellis[t] = score[t] + np.max(v, 0)
    backpointers[t] = np.argmax(v, 0)
  viterbi = [np.argmax(trellis[-1])]
  for bp in reversed(backpointers[1:]):
    viterbi.append(bp[viterbi[-1]])
  viterbi.reverse()
  return viterbi, np.max(trellis[-1])


__getattr__ = _catalog.module_getattr(__name__)

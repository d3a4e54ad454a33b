"""`tf.contrib.seq2seq.Decoder` and `dynamic_decode`: the graph-mode decoding loop of TF 1.15.

Place in the data flow (DESIGN.md): a Decoder (BasicDecoder, BeamSearchDecoder) <- **dynamic_decode**
<- the script's loss / inference outputs. `dynamic_decode` opens the variable scope "decoder", so a
decoder cell's variables are named `decoder/<cell>/kernel` as in TF 1.15, and runs one
`tf.while_loop` that calls `decoder.step` until every batch entry is finished or
`maximum_iterations` is reached.
"""

import abc

import tensorflow as tf

_V1 = tf.compat.v1


class Decoder(metaclass=abc.ABCMeta):
  """The interface `dynamic_decode` drives (TF 1.15's `tf.contrib.seq2seq.Decoder`).

  A subclass provides `batch_size`, `output_size`, `output_dtype`, `initialize` and `step`; it may
  provide `finalize(outputs, final_state, sequence_lengths)` and set `tracks_own_finished`.
  """

  @property
  def batch_size(self):
    """The batch size of the input values (an int or a scalar int32 Tensor)."""
    raise NotImplementedError

  @property
  def output_size(self):
    """A (possibly nested) structure of TensorShapes or ints: each output's shape without batch."""
    raise NotImplementedError

  @property
  def output_dtype(self):
    """A (possibly nested) structure of dtypes, the same structure as `output_size`."""
    raise NotImplementedError

  @abc.abstractmethod
  def initialize(self, name=None):
    """Returns `(finished, initial_inputs, initial_state)` before the first step."""
    raise NotImplementedError

  @abc.abstractmethod
  def step(self, time, inputs, state, name=None):
    """Returns `(outputs, next_state, next_inputs, finished)` for one decoding step."""
    raise NotImplementedError

  @property
  def tracks_own_finished(self):
    """True when `step`'s `finished` is final (dynamic_decode then does not OR it with the past)."""
    return False

  def finalize(self, outputs, final_state, sequence_lengths):
    """Optional post-processing of the stacked outputs (e.g. beam search's backtracking)."""
    raise NotImplementedError


def as_shape(size):
  """An output size (int, list or TensorShape) as a TensorShape; an int n is the shape [n]."""
  if isinstance(size, int):
    return tf.TensorShape([size])
  if isinstance(size, tf.Tensor):  # a dynamic size, e.g. an unknown memory length
    return tf.TensorShape([tf.get_static_value(size)])
  return tf.TensorShape(size)


def _zero_outputs(size, dtype, batch_size):
  def _zeros(s, d):
    dims = tf.constant(as_shape(s).as_list(), tf.int32, shape=[as_shape(s).ndims])
    return tf.zeros(tf.concat([[batch_size], dims], 0), dtype=d)
  return tf.nest.map_structure(_zeros, size, dtype)


def transpose_batch_time(x):
  """Swaps the first two dimensions of `x` (batch-major <-> time-major); rank < 2 passes through."""
  x = tf.convert_to_tensor(x)
  ndims = x.shape.ndims
  if ndims is not None and ndims < 2:
    return x
  if ndims is None:
    perm = tf.concat([[1, 0], tf.range(2, tf.rank(x))], 0)
    return tf.transpose(x, perm)
  return tf.transpose(x, [1, 0] + list(range(2, ndims)))


def _element_shape(batch_size, size):
  # As TF 1.15: only a TensorShape output size gives the TensorArray a static element shape.
  if not isinstance(size, tf.TensorShape) or size.ndims == 0:
    return None
  static_batch = tf.get_static_value(tf.convert_to_tensor(batch_size))
  return tf.TensorShape([static_batch]).concatenate(size)


def _in_while_loop():
  context = _V1.get_default_graph()._get_control_flow_context()  # pylint: disable=protected-access
  while context is not None:
    if context.IsWhileContext():
      return True
    context = context.outer_context
  return False


def dynamic_decode(decoder, output_time_major=False, impute_finished=False,
                   maximum_iterations=None, parallel_iterations=32, swap_memory=False, scope=None,
                   **kwargs):
  """Runs `decoder` step by step in a `tf.while_loop` until every batch entry is finished.

  Args:
    decoder: a `Decoder` (BasicDecoder, BeamSearchDecoder or your own subclass).
    output_time_major: return outputs `[time, batch, ...]` instead of `[batch, time, ...]`.
    impute_finished: once an entry is finished, its outputs are zeros and its state is copied
      through unchanged (slower; gives correct gradients past each sequence's end).
    maximum_iterations: optional scalar int32: stop after this many steps even if not finished.
    parallel_iterations: passed to the while loop.
    swap_memory: let the while loop swap tensors to host memory (long sequences on GPU).
    scope: variable scope; default "decoder".
    **kwargs: TF 1.15 passes these to the Keras-layer decoders' `initialize` (not ported); for the
      TF1 `Decoder`s served here it ignores them, and so does this function.

  Returns:
    `(final_outputs, final_state, final_sequence_lengths)`: the stacked outputs (after
    `decoder.finalize` when it is implemented), the last state, and each entry's length: the step
    at which it finished, plus one (int32 `[batch_size]`).

  Raises:
    TypeError: if `decoder` is not a `Decoder`.
    ValueError: if `maximum_iterations` is not a scalar.
  """
  if not isinstance(decoder, Decoder):
    raise TypeError("Expected decoder to be a tf.contrib.seq2seq.Decoder, but saw: %s (%r)"
                    % (type(decoder).__name__, decoder))
  with _V1.variable_scope(scope, "decoder") as varscope:
    # As TF 1.15: read variables once on the device that uses them, except inside an outer while
    # loop (training steps in a loop must see each step's updated weights).
    if (varscope.caching_device is None and not tf.executing_eagerly()
        and not _in_while_loop()):
      varscope.set_caching_device(lambda op: op.device)

    if maximum_iterations is not None:
      maximum_iterations = tf.convert_to_tensor(maximum_iterations, dtype=tf.int32,
                                                name="maximum_iterations")
      if maximum_iterations.shape.ndims != 0:
        raise ValueError("maximum_iterations must be a scalar; got shape %s"
                         % maximum_iterations.shape)

    initial_finished, initial_inputs, initial_state = decoder.initialize()
    zero_outputs = _zero_outputs(decoder.output_size, decoder.output_dtype, decoder.batch_size)
    if maximum_iterations is not None:
      initial_finished = tf.logical_or(initial_finished, 0 >= maximum_iterations)
    initial_sequence_lengths = tf.zeros_like(initial_finished, dtype=tf.int32)
    initial_time = tf.constant(0, dtype=tf.int32)

    initial_outputs_ta = tf.nest.map_structure(
        lambda s, d: tf.TensorArray(dtype=d, size=0, dynamic_size=True,
                                    element_shape=_element_shape(decoder.batch_size, s)),
        decoder.output_size, decoder.output_dtype)

    def condition(unused_time, unused_outputs_ta, unused_state, unused_inputs, finished,
                  unused_sequence_lengths):
      return tf.logical_not(tf.reduce_all(finished))

    def body(time, outputs_ta, state, inputs, finished, sequence_lengths):
      next_outputs, decoder_state, next_inputs, decoder_finished = decoder.step(
          time, inputs, state)
      if decoder.tracks_own_finished:
        next_finished = decoder_finished
      else:
        next_finished = tf.logical_or(decoder_finished, finished)
      next_sequence_lengths = _V1.where(
          tf.logical_not(finished), tf.fill(tf.shape(sequence_lengths), time + 1),
          sequence_lengths)

      tf.nest.assert_same_structure(state, decoder_state)
      tf.nest.assert_same_structure(outputs_ta, next_outputs)
      tf.nest.assert_same_structure(inputs, next_inputs)

      if impute_finished:
        emit = tf.nest.map_structure(lambda out, zero: _V1.where(finished, zero, out),
                                     next_outputs, zero_outputs)

        def _copy_through(new, cur):
          if isinstance(cur, tf.TensorArray):
            return new
          new.set_shape(cur.shape)
          return new if new.shape.ndims == 0 else _V1.where(finished, cur, new)

        next_state = tf.nest.map_structure(_copy_through, decoder_state, state)
      else:
        emit = next_outputs
        next_state = decoder_state

      outputs_ta = tf.nest.map_structure(lambda ta, out: ta.write(time, out), outputs_ta, emit)
      return (time + 1, outputs_ta, next_state, next_inputs, next_finished,
              next_sequence_lengths)

    res = _V1.while_loop(
        condition, body,
        loop_vars=(initial_time, initial_outputs_ta, initial_state, initial_inputs,
                   initial_finished, initial_sequence_lengths),
        parallel_iterations=parallel_iterations, maximum_iterations=maximum_iterations,
        swap_memory=swap_memory)

    final_outputs = tf.nest.map_structure(lambda ta: ta.stack(), res[1])
    final_state = res[2]
    final_sequence_lengths = res[5]
    try:
      final_outputs, final_state = decoder.finalize(final_outputs, final_state,
                                                    final_sequence_lengths)
    except NotImplementedError:
      pass
    if not output_time_major:
      final_outputs = tf.nest.map_structure(transpose_batch_time, final_outputs)
  return final_outputs, final_state, final_sequence_lengths

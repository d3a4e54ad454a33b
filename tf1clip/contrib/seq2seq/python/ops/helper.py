"""The `tf.contrib.seq2seq` Helpers: how a BasicDecoder picks sample ids and its next inputs.

Place in the data flow (DESIGN.md): **Helper** -> BasicDecoder (basic_decoder) -> dynamic_decode.
TF 1.15's helpers, step for step: teacher forcing (TrainingHelper), scheduled sampling
(ScheduledEmbeddingTrainingHelper, ScheduledOutputTrainingHelper), greedy and sampled inference
from an embedding (GreedyEmbeddingHelper, SampleEmbeddingHelper), and user functions
(InferenceHelper, CustomHelper). Random draws use `tf.random.uniform` / `tf.random.categorical`
with the given seeds (the distributions TF 1.15 drew from, not its exact random streams).
"""

import abc

import tensorflow as tf

from tf1clip.contrib.seq2seq.python.ops.decoder import transpose_batch_time

_V1 = tf.compat.v1


def _unstack_ta(inp):
  return tf.TensorArray(dtype=inp.dtype, size=tf.shape(inp)[0],
                        element_shape=inp.shape[1:]).unstack(inp)


def _embedding_fn(embedding):
  if callable(embedding):
    return embedding
  return lambda ids: tf.nn.embedding_lookup(embedding, ids)


def _check_sampling_probability(sampling_probability):
  probability = tf.convert_to_tensor(sampling_probability, name="sampling_probability")
  if probability.shape.ndims not in (0, 1):
    raise ValueError("sampling_probability must be either a scalar or a vector. saw shape: %s"
                     % probability.shape)
  return probability


def _bernoulli(probability, batch_size, seed, dtype):
  draw = tf.random.uniform(tf.reshape(batch_size, [1]), seed=seed, dtype=probability.dtype)
  return tf.cast(draw < probability, dtype)


def _categorical(logits, seed):
  return tf.reshape(tf.random.categorical(logits, 1, dtype=tf.int32, seed=seed), [-1])


def _check_single_tensor(outputs):
  if not isinstance(outputs, tf.Tensor):
    raise TypeError("Expected outputs to be a single Tensor, got: %s" % type(outputs))


class Helper(metaclass=abc.ABCMeta):
  """The interface BasicDecoder calls: batch_size, sample ids' shape/dtype, initialize, sample,
  next_inputs."""

  @property
  @abc.abstractmethod
  def batch_size(self):
    """The batch size (an int or a scalar int32 Tensor)."""

  @property
  @abc.abstractmethod
  def sample_ids_shape(self):
    """The TensorShape of one entry's sample id (without batch)."""

  @property
  @abc.abstractmethod
  def sample_ids_dtype(self):
    """The dtype of the sample ids."""

  @abc.abstractmethod
  def initialize(self, name=None):
    """Returns `(initial_finished, initial_inputs)`."""

  @abc.abstractmethod
  def sample(self, time, outputs, state, name=None):
    """Returns the sample ids for this step."""

  @abc.abstractmethod
  def next_inputs(self, time, outputs, state, sample_ids, name=None):
    """Returns `(finished, next_inputs, next_state)`."""


class CustomHelper(Helper):
  """A Helper made of three user functions."""

  def __init__(self, initialize_fn, sample_fn, next_inputs_fn, sample_ids_shape=None,
               sample_ids_dtype=None):
    """Creates the helper.

    Args:
      initialize_fn: `() -> (finished, next_inputs)` for the first step.
      sample_fn: `(time, outputs, state) -> sample_ids` (called with keywords).
      next_inputs_fn: `(time, outputs, state, sample_ids) -> (finished, next_inputs, next_state)`
        (called with keywords).
      sample_ids_shape: shape of one entry's sample id; default `[]`.
      sample_ids_dtype: dtype of the sample ids; default int32.
    """
    self._initialize_fn = initialize_fn
    self._sample_fn = sample_fn
    self._next_inputs_fn = next_inputs_fn
    self._batch_size = None
    self._sample_ids_shape = tf.TensorShape(sample_ids_shape or [])
    self._sample_ids_dtype = sample_ids_dtype or tf.int32

  @property
  def batch_size(self):
    if self._batch_size is None:
      raise ValueError("batch_size accessed before initialize was called")
    return self._batch_size

  @property
  def sample_ids_shape(self):
    return self._sample_ids_shape

  @property
  def sample_ids_dtype(self):
    return self._sample_ids_dtype

  def initialize(self, name=None):
    with _V1.name_scope(name, "%sInitialize" % type(self).__name__):
      finished, next_inputs = self._initialize_fn()
      if self._batch_size is None:
        self._batch_size = tf.size(finished)
    return finished, next_inputs

  def sample(self, time, outputs, state, name=None):
    with _V1.name_scope(name, "%sSample" % type(self).__name__, (time, outputs, state)):
      return self._sample_fn(time=time, outputs=outputs, state=state)

  def next_inputs(self, time, outputs, state, sample_ids, name=None):
    with _V1.name_scope(name, "%sNextInputs" % type(self).__name__, (time, outputs, state)):
      return self._next_inputs_fn(time=time, outputs=outputs, state=state, sample_ids=sample_ids)


class TrainingHelper(Helper):
  """Teacher forcing: step t's input is `inputs[:, t]`; sample ids are the argmax of the outputs."""

  def __init__(self, inputs, sequence_length, time_major=False, name=None):
    """Creates the helper.

    Args:
      inputs: the decoder inputs `[batch, time, ...]` (`[time, batch, ...]` when time_major), or a
        nested structure of such tensors.
      sequence_length: int vector `[batch]`: how many steps each entry reads.
      time_major: whether `inputs` is time-major.
      name: name scope; default "TrainingHelper".

    Raises:
      ValueError: if `sequence_length` is not a vector.
    """
    with _V1.name_scope(name, "TrainingHelper", [inputs, sequence_length]):
      inputs = tf.nest.map_structure(lambda x: tf.convert_to_tensor(x, name="inputs"), inputs)
      self._inputs = inputs
      if not time_major:
        inputs = tf.nest.map_structure(transpose_batch_time, inputs)
      self._input_tas = tf.nest.map_structure(_unstack_ta, inputs)
      self._sequence_length = tf.convert_to_tensor(sequence_length, name="sequence_length")
      if self._sequence_length.shape.ndims != 1:
        raise ValueError("Expected sequence_length to be a vector, but received shape: %s"
                         % self._sequence_length.shape)
      self._zero_inputs = tf.nest.map_structure(lambda inp: tf.zeros_like(inp[0, :]), inputs)
      self._batch_size = tf.size(sequence_length)

  @property
  def inputs(self):
    return self._inputs

  @property
  def sequence_length(self):
    return self._sequence_length

  @property
  def batch_size(self):
    return self._batch_size

  @property
  def sample_ids_shape(self):
    return tf.TensorShape([])

  @property
  def sample_ids_dtype(self):
    return tf.int32

  def _read_or_zeros(self, finished, time):
    return tf.cond(tf.reduce_all(finished), lambda: self._zero_inputs,
                   lambda: tf.nest.map_structure(lambda ta: ta.read(time), self._input_tas))

  def initialize(self, name=None):
    with _V1.name_scope(name, "TrainingHelperInitialize"):
      finished = tf.equal(0, self._sequence_length)
      return finished, self._read_or_zeros(finished, 0)

  def sample(self, time, outputs, name=None, **unused_kwargs):
    with _V1.name_scope(name, "TrainingHelperSample", [time, outputs]):
      return tf.cast(tf.argmax(outputs, axis=-1), tf.int32)

  def next_inputs(self, time, outputs, state, name=None, **unused_kwargs):
    with _V1.name_scope(name, "TrainingHelperNextInputs", [time, outputs, state]):
      next_time = time + 1
      finished = next_time >= self._sequence_length
      return finished, self._read_or_zeros(finished, next_time), state


class ScheduledEmbeddingTrainingHelper(TrainingHelper):
  """Scheduled sampling: with `sampling_probability`, feed the embedding of an id sampled from
  the outputs (logits) instead of the ground-truth input; sample id -1 marks "not sampled".

  References:
    Bengio, Vinyals, Jaitly, Shazeer, "Scheduled Sampling for Sequence Prediction with Recurrent
    Neural Networks", NIPS 2015 (arXiv:1506.03099).
  """

  def __init__(self, inputs, sequence_length, embedding, sampling_probability, time_major=False,
               seed=None, scheduling_seed=None, name=None):
    """Creates the helper.

    Args:
      inputs, sequence_length, time_major: as TrainingHelper.
      embedding: the embedding matrix, or a callable `ids -> inputs`.
      sampling_probability: scalar or `[batch]` float: the chance of sampling per entry and step.
      seed: seed of the id sampling.
      scheduling_seed: seed of the sample-or-not choice.
      name: name scope; default "ScheduledEmbeddingSamplingWrapper".

    Raises:
      ValueError: if `sampling_probability` is neither a scalar nor a vector.
    """
    with _V1.name_scope(name, "ScheduledEmbeddingSamplingWrapper",
                        [embedding, sampling_probability]):
      self._embedding_fn = _embedding_fn(embedding)
      self._sampling_probability = _check_sampling_probability(sampling_probability)
      self._seed = seed
      self._scheduling_seed = scheduling_seed
      super().__init__(inputs=inputs, sequence_length=sequence_length, time_major=time_major,
                       name=name)

  def sample(self, time, outputs, state, name=None):
    with _V1.name_scope(name, "ScheduledEmbeddingTrainingHelperSample", [time, outputs, state]):
      select_sample = _bernoulli(self._sampling_probability, self.batch_size,
                                 self._scheduling_seed, tf.bool)
      return _V1.where(select_sample, _categorical(outputs, self._seed),
                       tf.fill([self.batch_size], -1))

  def next_inputs(self, time, outputs, state, sample_ids, name=None):
    with _V1.name_scope(name, "ScheduledEmbeddingTrainingHelperNextInputs",
                        [time, outputs, state, sample_ids]):
      finished, base_next_inputs, state = super().next_inputs(
          time=time, outputs=outputs, state=state, sample_ids=sample_ids, name=name)

      def maybe_sample():
        where_sampling = tf.cast(_V1.where(sample_ids > -1), tf.int32)
        where_not_sampling = tf.cast(_V1.where(sample_ids <= -1), tf.int32)
        sampled_next_inputs = self._embedding_fn(tf.gather_nd(sample_ids, where_sampling))
        inputs_not_sampling = tf.gather_nd(base_next_inputs, where_not_sampling)
        base_shape = tf.shape(base_next_inputs)
        return (tf.scatter_nd(where_sampling, sampled_next_inputs, base_shape)
                + tf.scatter_nd(where_not_sampling, inputs_not_sampling, base_shape))

      next_inputs = tf.cond(tf.reduce_all(finished), lambda: base_next_inputs, maybe_sample)
      return finished, next_inputs, state


class ScheduledOutputTrainingHelper(TrainingHelper):
  """Scheduled sampling on outputs: with `sampling_probability`, feed the cell output (through
  `next_inputs_fn`, concatenated with `auxiliary_inputs`) instead of the ground-truth input.
  Sample ids are 1 where the output was fed, 0 elsewhere.
  """

  def __init__(self, inputs, sequence_length, sampling_probability, time_major=False, seed=None,
               next_inputs_fn=None, auxiliary_inputs=None, name=None):
    """Creates the helper.

    Args:
      inputs, sequence_length, time_major: as TrainingHelper.
      sampling_probability: scalar or `[batch]` float: the chance of feeding the output.
      seed: seed of the choice.
      next_inputs_fn: optional `outputs -> next_inputs` applied to the fed outputs.
      auxiliary_inputs: optional extra inputs `[batch, time, ...]` concatenated (last axis) to
        both the ground-truth inputs and the fed outputs.
      name: name scope; default "ScheduledOutputTrainingHelper".

    Raises:
      ValueError: if `sampling_probability` is neither a scalar nor a vector.
    """
    with _V1.name_scope(name, "ScheduledOutputTrainingHelper",
                        [inputs, auxiliary_inputs, sampling_probability]):
      self._sampling_probability = _check_sampling_probability(sampling_probability)
      if auxiliary_inputs is None:
        maybe_concatenated_inputs = inputs
      else:
        inputs = tf.convert_to_tensor(inputs, name="inputs")
        auxiliary_inputs = tf.convert_to_tensor(auxiliary_inputs, name="auxiliary_inputs")
        maybe_concatenated_inputs = tf.nest.map_structure(
            lambda x, y: tf.concat((x, y), -1), inputs, auxiliary_inputs)
        if not time_major:
          auxiliary_inputs = tf.nest.map_structure(transpose_batch_time, auxiliary_inputs)
      self._auxiliary_input_tas = (None if auxiliary_inputs is None
                                   else tf.nest.map_structure(_unstack_ta, auxiliary_inputs))
      self._seed = seed
      self._next_inputs_fn = next_inputs_fn
      super().__init__(inputs=maybe_concatenated_inputs, sequence_length=sequence_length,
                       time_major=time_major, name=name)

  def sample(self, time, outputs, state, name=None):
    with _V1.name_scope(name, "ScheduledOutputTrainingHelperSample", [time, outputs, state]):
      return _bernoulli(self._sampling_probability, self.batch_size, self._seed, tf.int32)

  def next_inputs(self, time, outputs, state, sample_ids, name=None):
    with _V1.name_scope(name, "ScheduledOutputTrainingHelperNextInputs",
                        [time, outputs, state, sample_ids]):
      finished, base_next_inputs, state = super().next_inputs(
          time=time, outputs=outputs, state=state, sample_ids=sample_ids, name=name)
      sample_ids = tf.cast(sample_ids, tf.bool)

      def with_auxiliary(outputs_, indices=None):
        if self._auxiliary_input_tas is None:
          return outputs_
        auxiliary = tf.nest.map_structure(lambda ta: ta.read(time + 1), self._auxiliary_input_tas)
        if indices is not None:
          auxiliary = tf.gather_nd(auxiliary, indices)
        return tf.nest.map_structure(lambda x, y: tf.concat((x, y), -1), outputs_, auxiliary)

      def maybe_sample():
        if self._next_inputs_fn is None:
          return _V1.where(sample_ids, with_auxiliary(outputs), base_next_inputs)
        where_sampling = tf.cast(_V1.where(sample_ids), tf.int32)
        where_not_sampling = tf.cast(_V1.where(tf.logical_not(sample_ids)), tf.int32)
        sampled_next_inputs = with_auxiliary(
            self._next_inputs_fn(tf.gather_nd(outputs, where_sampling)), where_sampling)
        inputs_not_sampling = tf.gather_nd(base_next_inputs, where_not_sampling)
        base_shape = tf.shape(base_next_inputs)
        return (tf.scatter_nd(where_sampling, sampled_next_inputs, base_shape)
                + tf.scatter_nd(where_not_sampling, inputs_not_sampling, base_shape))

      no_samples = tf.logical_not(tf.reduce_any(sample_ids))
      next_inputs = tf.cond(tf.logical_or(tf.reduce_all(finished), no_samples),
                            lambda: base_next_inputs, maybe_sample)
      return finished, next_inputs, state


class GreedyEmbeddingHelper(Helper):
  """Greedy inference: the next input is the embedding of the argmax of the outputs; an entry
  finishes when it emits `end_token`."""

  def __init__(self, embedding, start_tokens, end_token):
    """Creates the helper.

    Args:
      embedding: the embedding matrix, or a callable `ids -> inputs`.
      start_tokens: int32 vector `[batch]`, the first ids.
      end_token: int32 scalar, the id that ends a sequence.

    Raises:
      ValueError: if `start_tokens` is not a vector or `end_token` not a scalar.
    """
    self._embedding_fn = _embedding_fn(embedding)
    self._start_tokens = tf.convert_to_tensor(start_tokens, dtype=tf.int32, name="start_tokens")
    self._end_token = tf.convert_to_tensor(end_token, dtype=tf.int32, name="end_token")
    if self._start_tokens.shape.ndims != 1:
      raise ValueError("start_tokens must be a vector; got shape %s" % self._start_tokens.shape)
    if self._end_token.shape.ndims != 0:
      raise ValueError("end_token must be a scalar; got shape %s" % self._end_token.shape)
    self._batch_size = tf.size(start_tokens)
    self._start_inputs = self._embedding_fn(self._start_tokens)

  @property
  def batch_size(self):
    return self._batch_size

  @property
  def sample_ids_shape(self):
    return tf.TensorShape([])

  @property
  def sample_ids_dtype(self):
    return tf.int32

  def initialize(self, name=None):
    return tf.tile([False], [self._batch_size]), self._start_inputs

  def sample(self, time, outputs, state, name=None):
    del time, state
    _check_single_tensor(outputs)
    return tf.argmax(outputs, axis=-1, output_type=tf.int32)

  def next_inputs(self, time, outputs, state, sample_ids, name=None):
    del time, outputs
    finished = tf.equal(sample_ids, self._end_token)
    next_inputs = tf.cond(tf.reduce_all(finished), lambda: self._start_inputs,
                          lambda: self._embedding_fn(sample_ids))
    return finished, next_inputs, state


class SampleEmbeddingHelper(GreedyEmbeddingHelper):
  """Sampled inference: like GreedyEmbeddingHelper, but the id is drawn from the softmax of the
  outputs divided by `softmax_temperature`."""

  def __init__(self, embedding, start_tokens, end_token, softmax_temperature=None, seed=None):
    """Creates the helper.

    Args:
      embedding, start_tokens, end_token: as GreedyEmbeddingHelper.
      softmax_temperature: optional float > 0; the logits are divided by it (1.0 when None).
      seed: the sampling seed.
    """
    super().__init__(embedding, start_tokens, end_token)
    self._softmax_temperature = softmax_temperature
    self._seed = seed

  def sample(self, time, outputs, state, name=None):
    del time, state
    _check_single_tensor(outputs)
    logits = outputs if self._softmax_temperature is None else outputs / self._softmax_temperature
    return _categorical(logits, self._seed)


class InferenceHelper(Helper):
  """Inference with user functions: `sample_fn(outputs)` gives the sample, which (through
  `next_inputs_fn`) is the next input; `end_fn(sample_ids)` says which entries finished."""

  def __init__(self, sample_fn, sample_shape, sample_dtype, start_inputs, end_fn,
               next_inputs_fn=None):
    """Creates the helper.

    Args:
      sample_fn: `outputs -> sample_ids`.
      sample_shape: shape of one entry's sample (without batch).
      sample_dtype: dtype of the samples.
      start_inputs: the first inputs `[batch, ...]`.
      end_fn: `sample_ids -> bool [batch]`, True where an entry is finished.
      next_inputs_fn: optional `sample_ids -> next_inputs` (default: the samples themselves).
    """
    self._sample_fn = sample_fn
    self._end_fn = end_fn
    self._sample_shape = tf.TensorShape(sample_shape)
    self._sample_dtype = sample_dtype
    self._next_inputs_fn = next_inputs_fn
    self._batch_size = tf.shape(start_inputs)[0]
    self._start_inputs = tf.convert_to_tensor(start_inputs, name="start_inputs")

  @property
  def batch_size(self):
    return self._batch_size

  @property
  def sample_ids_shape(self):
    return self._sample_shape

  @property
  def sample_ids_dtype(self):
    return self._sample_dtype

  def initialize(self, name=None):
    return tf.tile([False], [self._batch_size]), self._start_inputs

  def sample(self, time, outputs, state, name=None):
    del time, state
    return self._sample_fn(outputs)

  def next_inputs(self, time, outputs, state, sample_ids, name=None):
    del time, outputs
    next_inputs = sample_ids if self._next_inputs_fn is None else self._next_inputs_fn(sample_ids)
    return self._end_fn(sample_ids), next_inputs, state

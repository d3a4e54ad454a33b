"""contrib.training's sequence state saver: TF 1.15's `SequenceQueueingStateSaver`, `NextQueuedSequenceBatch` and
`batch_sequences_with_states` (truncated BPTT input queues that keep each sequence's state between segments).

TF 1.15's code (contrib/training/python/training/sequence_queueing_state_saver.py) on tf.compat.v1 in graph mode:
the same barrier layout (`__length`, `__total_length`, `__next_key`, `__sequence`, `__sequence_count`, then the
sequences, context and states in name order), segment keys (`00001_of_00003:key`, `STOP:key`), padding, the
SparseTensor round trip through a tensors map, name scopes (`InputQueueingStateSaver`,
`batch_sequences_with_states`) and the `queue/<barrier>/ready_segment_batches_` summary. Use it with
`tf.compat.v1.nn.static_state_saving_rnn` (TF 2.21 still has it). The barrier is TensorFlow's own
`data_flow_ops.Barrier` (TF 1.15's class, not in the public API; `state_saver.barrier` returns it); the sparse
tensors map uses `tf.raw_ops`' AddManySparseToTensorsMap / TakeManySparseFromTensorsMap.
"""

import collections
import numbers


def _tf():
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  return tf


def _is_sparse(value):
  tf = _tf()
  return isinstance(value, (tf.SparseTensor, tf.SparseTensorValue))


def _store_sparse(sp_input, shared_name=None):
  tf = _tf()
  sp_input = tf.convert_to_tensor_or_sparse_tensor(sp_input)
  return tf.raw_ops.AddManySparseToTensorsMap(
      sparse_indices=sp_input.indices, sparse_values=sp_input.values, sparse_shape=sp_input.dense_shape,
      container="", shared_name=shared_name or "")


def _restore_sparse(sparse_map_op, sparse_handles, rank=None):
  tf = _tf()
  with tf.colocate_with(sparse_map_op):
    shared_name = sparse_map_op.get_attr("shared_name") or sparse_map_op.name
    output_indices, output_values, output_shape = tf.raw_ops.TakeManySparseFromTensorsMap(
        sparse_handles=sparse_handles, dtype=sparse_map_op.get_attr("T"),
        container=sparse_map_op.get_attr("container"), shared_name=shared_name)
  output_indices.set_shape([None, rank])
  output_shape.set_shape([rank])
  return tf.SparseTensor(output_indices, output_values, output_shape)


class _SequenceInputWrapper(object):
  """A wrapper object for storing sequence-related input (length, key, sequences, context)."""

  def __init__(self, length, key, sequences, context):
    tf = _tf()
    length = tf.convert_to_tensor(length, name="length")
    key = tf.convert_to_tensor(key, name="key")
    if not isinstance(sequences, dict):
      raise TypeError("sequences must be a dict")
    if not isinstance(context, dict):
      raise TypeError("context must be a dict")
    if not sequences:
      raise ValueError("must have at least one sequence tensor")
    for k in sequences.keys():
      if not isinstance(k, str):
        raise TypeError("sequence key must be string: %s" % k)
      if ":" in k:
        raise ValueError("sequence key may not have a colon: '%s'" % k)
    for k in context.keys():
      if not isinstance(k, str):
        raise TypeError("context key must be string: %s" % k)
      if ":" in k:
        raise ValueError("context key may not have a colon: '%s'" % k)
    sequences = dict((k, tf.convert_to_tensor(v, name="sequence_%s" % k)) for k, v in sequences.items())
    context = dict((k, tf.convert_to_tensor(v, name="context_%s" % k)) for k, v in context.items())
    self._length = length
    self._key = key
    self._sequences = sequences
    self._context = context

  @property
  def length(self):
    return self._length

  @property
  def key(self):
    return self._key

  @property
  def sequences(self):
    return self._sequences

  @property
  def context(self):
    return self._context


def _check_multiple_of(value, multiple_of):
  """Checks that value `value` is a non-zero multiple of `multiple_of`."""
  tf = _tf()
  assert isinstance(value, tf.Tensor)
  with tf.control_dependencies([
      tf.Assert(
          tf.logical_and(tf.equal(tf.mod(value, multiple_of), 0), tf.not_equal(value, 0)),
          [tf.strings.join(["Tensor %s should be a multiple of: " % value.name, tf.as_string(multiple_of),
                            ", but saw value: ", tf.as_string(value), ". Consider setting pad=True."])])]):
    new_value = tf.identity(value, name="multiple_of_checked")
    return new_value


def _check_rank(value, expected_rank):
  """Check the rank of Tensor `value`, via shape inference and assertions."""
  tf = _tf()
  assert isinstance(value, tf.Tensor)
  with tf.control_dependencies([
      tf.Assert(
          tf.equal(expected_rank, tf.rank(value)),
          [tf.strings.join(["Rank of tensor %s should be: " % value.name, tf.as_string(expected_rank),
                            ", shape received:"]), tf.shape(value)])]):
    new_value = tf.identity(value, name="rank_checked")
    if isinstance(expected_rank, tf.Tensor):
      expected_rank_value = tf.get_static_value(expected_rank)
      if expected_rank_value is not None:
        expected_rank = int(expected_rank_value)
    if not isinstance(expected_rank, tf.Tensor):
      try:
        new_value.set_shape(new_value.get_shape().with_rank(expected_rank))
      except ValueError as e:
        raise ValueError("Rank check failed for %s: %s" % (value.name, str(e)))
    return new_value


def _check_shape(value, expected_shape):
  """Check the shape of Tensor `value`, via shape inference and assertions."""
  tf = _tf()
  assert isinstance(value, tf.Tensor)
  if isinstance(expected_shape, tf.TensorShape):
    expected_shape = expected_shape.as_list()
  if isinstance(expected_shape, tf.Tensor):
    expected_shape_value = tf.get_static_value(expected_shape)
    if expected_shape_value is not None:
      expected_shape = [int(d) for d in expected_shape_value]
  if isinstance(expected_shape, tf.Tensor):
    value = _check_rank(value, tf.size(expected_shape))
  else:
    value = _check_rank(value, len(expected_shape))
  with tf.control_dependencies([
      tf.Assert(
          tf.reduce_all(tf.equal(expected_shape, tf.shape(value))),
          [tf.strings.join(["Shape of tensor %s should be: " % value.name, tf.as_string(expected_shape),
                            ", shape received: ", tf.as_string(tf.shape(value))])])]):
    new_value = tf.identity(value, name="shape_checked")
    if not isinstance(expected_shape, tf.Tensor):
      try:
        new_value.set_shape(new_value.get_shape().merge_with(expected_shape))
      except ValueError as e:
        raise ValueError("Shape check failed for %s: %s" % (value.name, str(e)))
    return new_value


def _check_dimensions(value, dimensions, expected_sizes, debug_prefix):
  """Check the dimensions of Tensor `value`, via shape inference and assertions."""
  tf = _tf()
  if not isinstance(dimensions, (list, tuple)):
    raise TypeError("dimensions must be a list or tuple")
  if len(set(dimensions)) != len(dimensions):
    raise ValueError("dimensions are not unique: %s" % dimensions)
  if not isinstance(value, tf.Tensor):
    raise TypeError("value is not a Tensor: %s" % value)
  value_shape = value.get_shape()
  if not isinstance(expected_sizes, tf.Tensor):
    if len(dimensions) != len(expected_sizes):
      raise ValueError("len(dimensions) != len(expected_sizes): %d vs. %d"
                       % (len(dimensions), len(expected_sizes)))
    if value_shape.ndims is not None:
      if value_shape.ndims <= max(dimensions):
        raise ValueError("%s: rank of input is not greater than max(dimensions): %d vs. %d"
                         % (debug_prefix, value.get_shape().ndims, max(dimensions)))
      value_dims = value_shape.as_list()
      for d, s in zip(dimensions, expected_sizes):
        if not isinstance(s, tf.Tensor):
          value_dims[d] = s
      try:
        value.set_shape(value.get_shape().merge_with(value_dims))
      except ValueError as e:
        raise ValueError("Dimensions check failed for %s: %s" % (debug_prefix, str(e)))
  with tf.control_dependencies([
      tf.Assert(
          tf.equal(expected_size, tf.shape(value)[dimension]),
          [tf.strings.join(["Dimension %d of tensor labeled %s should be: " % (dimension, debug_prefix),
                            tf.as_string(expected_size), ", shape received: ",
                            tf.as_string(tf.shape(value))])])
      for (dimension, expected_size) in zip(dimensions, expected_sizes)]):
    new_value = tf.identity(value, name="dims_checked_%s" % debug_prefix)
    return new_value


def _prepare_sequence_inputs(inputs, states):
  """Convert input to tensors and validate shape information: (length, key, states, sequences, context)."""
  tf = _tf()
  states = dict((k, tf.convert_to_tensor(v, name="state_%s" % k)) for k, v in states.items())

  def _assert_fully_defined(label, dict_, ignore_first_dimension=False):
    start_dimension = 1 if ignore_first_dimension else 0
    for k, v in dict_.items():
      if not v.get_shape()[start_dimension:].is_fully_defined():
        raise ValueError("Shape for %s %s is not fully defined %s: %s"
                         % (label, k, "(ignoring first dimension)" if ignore_first_dimension else "",
                            v.get_shape()))

  _assert_fully_defined("state", states)
  _assert_fully_defined("context", inputs.context)
  # Sequences' first dimension (time) may be variable
  _assert_fully_defined("sequence", inputs.sequences, ignore_first_dimension=True)

  def _sort_by_name(d):
    return collections.OrderedDict(sorted(d.items(), key=lambda k_v: k_v[0]))

  sorted_sequences = _sort_by_name(inputs.sequences)
  sorted_context = _sort_by_name(inputs.context)
  sorted_states = _sort_by_name(states)

  length = _check_rank(inputs.length, 0)
  key = _check_rank(inputs.key, 0)

  if length.dtype != tf.int32:
    raise TypeError("length dtype must be int32, but received: %s" % length.dtype)
  if key.dtype != tf.string:
    raise TypeError("key dtype must be string, but received: %s" % key.dtype)

  return (length, key, sorted_states, sorted_sequences, sorted_context)


class NextQueuedSequenceBatch(object):
  """The batch a SequenceQueueingStateSaver's `next_batch` returns (TF 1.15's object)."""

  def __init__(self, state_saver):
    self._state_saver = state_saver

  @property
  def total_length(self):
    """The lengths of the original (non-truncated) unrolled examples: int32 `[batch_size]`."""
    return self._state_saver._received_total_length  # pylint: disable=protected-access

  @property
  def length(self):
    """The lengths of the given truncated unrolled examples: int32 `[batch_size]`."""
    return self._state_saver._received_length  # pylint: disable=protected-access

  @property
  def batch_size(self):
    """The batch_size of the given batch (int32 scalar; less than batch_size when small batches are allowed)."""
    return self._state_saver._received_batch_size  # pylint: disable=protected-access

  @property
  def insertion_index(self):
    """The insertion indices of the examples (when they were first added to the queue): int64 `[batch_size]`."""
    return self._state_saver._received_indices  # pylint: disable=protected-access

  @property
  def key(self):
    """The key names of the given truncated unrolled examples (`00001_of_00003:key`): string `[batch_size]`."""
    return self._state_saver._received_keys  # pylint: disable=protected-access

  @property
  def next_key(self):
    """The key names of the next (in iteration) truncated unrolled examples (`STOP:key` at the end)."""
    return self._state_saver._received_next_key  # pylint: disable=protected-access

  @property
  def sequence(self):
    """An int32 vector, length `batch_size`: the segment index of each entry (0-based)."""
    return self._state_saver._received_sequence  # pylint: disable=protected-access

  @property
  def sequence_count(self):
    """An int32 vector, length `batch_size`: the number of segments of each entry's sequence."""
    return self._state_saver._received_sequence_count  # pylint: disable=protected-access

  @property
  def context(self):
    """A dict mapping keys of `input_context` to batched context: `[batch_size, ...]`."""
    return self._state_saver._received_context  # pylint: disable=protected-access

  @property
  def sequences(self):
    """A dict mapping keys of `input_sequences` to split and rebatched data: `[batch_size, num_unroll, ...]`."""
    return self._state_saver._received_sequences  # pylint: disable=protected-access

  def state(self, state_name):
    """Returns batched state tensors: `[batch_size, ...]`."""
    return self._state_saver._received_states[state_name]  # pylint: disable=protected-access

  def save_state(self, state_name, value, name=None):
    """Returns an op to save the current batch of state `state_name` (for the sequences not done)."""
    tf = _tf()
    saver = self._state_saver
    # pylint: disable=protected-access
    if state_name not in saver._received_states.keys():
      raise KeyError("state was not declared: %s" % state_name)
    default_name = "InputQueueingStateSaver_SaveState"
    with tf.name_scope(name, default_name, values=[value]):
      # Place all operations on the CPU. Barriers and queues are only implemented for CPU, but all the other
      # book-keeping operations (reshape, shape, range, ...) would be placed on GPUs if available, unless we
      # explicitly tie them to CPU.
      with tf.colocate_with(saver._capacity_queue.queue_ref):
        indices_where_not_done = tf.reshape(tf.where(tf.logical_not(saver._sequence_is_done)), [-1])
        keeping_next_key = tf.gather(saver._received_next_key, indices_where_not_done)
        value = _check_shape(tf.identity(value, name="convert_%s" % state_name),
                             tf.shape(saver._received_states[state_name]))
        keeping_state = tf.gather(value, indices_where_not_done)
        return saver._barrier.insert_many(
            saver._get_barrier_index("state", state_name), keeping_next_key, keeping_state,
            name="BarrierInsertState_%s" % state_name)
    # pylint: enable=protected-access


class SequenceQueueingStateSaver(object):
  """SequenceQueueingStateSaver provides access to stateful values from input (TF 1.15's class).

  Splits each input sequence into `num_unroll`-step segments, batches segments of different sequences, and
  keeps each sequence's state (`initial_states` for its first segment, `save_state` for the next ones) in a
  barrier until its next segment is batched.
  """

  def __init__(self, batch_size, num_unroll, input_length, input_key, input_sequences, input_context,
               initial_states, capacity=None, allow_small_batch=False, name=None):
    tf = _tf()
    # TF 1.15's Barrier class (not in the public API; the raw Barrier ops are)
    # pylint: disable-next=import-outside-toplevel,g-direct-tensorflow-import
    from tensorflow.python.ops import data_flow_ops
    self._data_flow_ops = data_flow_ops
    if capacity is not None and isinstance(batch_size, tf.Tensor):
      with tf.control_dependencies([tf.assert_greater_equal(
          tf.cast(capacity, dtype=tf.int64), tf.cast(batch_size, dtype=tf.int64),
          message="capacity needs to be >= batch_size.")]):
        input_key = tf.identity(input_key)
    elif capacity is not None and capacity < batch_size:
      raise ValueError("capacity %d needs to be >= batch_size %d" % (capacity, batch_size))
    # The barrier is ignorant of the number of actual examples, since a long example that requires many
    # iterations produces more elements in the barrier than a short example. Furthermore, we don't have an
    # upper bound on the length of examples, and hence have no way of knowing how many iterations are
    # needed. The capacity queue keeps the number of examples in flight bounded.
    self._capacity_queue = tf.FIFOQueue(capacity=capacity, dtypes=[tf.int32], shapes=[[]])
    with tf.colocate_with(self._capacity_queue.queue_ref):
      if not isinstance(initial_states, dict):
        raise TypeError("initial_states must be a dictionary")
      if not initial_states:
        raise ValueError("initial_states may not be empty: at least one state variable is required to "
                         "properly enqueue split sequences to run in separate iterations")
      for k in initial_states:
        if not isinstance(k, str):
          raise TypeError("state name must be a string: %s" % k)
        if ":" in k:
          raise ValueError("state name may not have a colon: '%s'" % k)

      op_vars = ([input_length, input_key] + list(input_sequences.values()) + list(input_context.values()))
      with tf.name_scope(name, "InputQueueingStateSaver", op_vars) as scope:
        inputs = _SequenceInputWrapper(input_length, input_key, input_sequences, input_context)
        self._batch_size = batch_size
        self._num_unroll = num_unroll
        self._name = scope

        # This step makes sure all shapes are well defined. We can now use get_shape() on any tensor in the
        # output of this function and get a fully-defined shape.
        (self._length, self._key, self._sorted_states, self._sorted_sequences,
         self._sorted_context) = _prepare_sequence_inputs(inputs, initial_states)
        self._padded_length = tf.identity(tf.shape(next(iter(self._sorted_sequences.values())))[0],
                                          name="padded_length")  # The name is useful for debugging
        self._padded_length = _check_multiple_of(self._padded_length, self._num_unroll)

        # sequences should have length == all matching
        self._sorted_sequences = collections.OrderedDict(
            (k, _check_dimensions(v, [0], [self._padded_length], debug_prefix="sorted_sequences_%s" % k))
            for k, v in self._sorted_sequences.items())
        self._uninitialized_states = self._sorted_states

        # Once this is set, self._get_barrier_*_index are available for use.
        self._store_index_maps(self._sorted_sequences, self._sorted_context, self._sorted_states)

        # Make sure that the length is <= the padded_length
        with tf.control_dependencies([
            tf.Assert(tf.less_equal(self._length, self._padded_length),
                      ["Input length should be <= than length from sequences:", self._length, " vs. ",
                       self._padded_length])]):
          self._length = tf.identity(self._length)

        # Only create barrier; enqueue and dequeue operations happen when you access prefetch_op and
        # next_batch.
        self._create_barrier()
        self._scope = scope
      self._allow_small_batch = allow_small_batch
      self._prefetch_op = None
      self._next_batch = None

  @property
  def name(self):
    return self._name

  @property
  def barrier(self):
    return self._barrier

  @property
  def batch_size(self):
    return self._batch_size

  @property
  def num_unroll(self):
    return self._num_unroll

  @property
  def prefetch_op(self):
    """The op used to prefetch new data into the state saver (run it in a QueueRunner)."""
    tf = _tf()
    if not self._prefetch_op:
      with tf.name_scope(None), tf.name_scope(self._scope, values=[self._barrier.barrier_ref]):
        self._create_prefetch_op()
    return self._prefetch_op

  @property
  def next_batch(self):
    """The NextQueuedSequenceBatch containing the next batch of data."""
    tf = _tf()
    if not self._prefetch_op:
      with tf.name_scope(None), tf.name_scope(self._scope, values=[self._barrier.barrier_ref]):
        self._create_prefetch_op()
    if not self._next_batch:
      with tf.name_scope(None), tf.name_scope(self._scope, values=[self._barrier.barrier_ref]):
        self._prepare_barrier_reads()
    return self._next_batch

  def close(self, cancel_pending_enqueues=False, name=None):
    """Closes the barrier and the FIFOQueue."""
    tf = _tf()
    with tf.name_scope(name, "SQSSClose", [self._prefetch_op]) as name:
      barrier_close = self.barrier.close(cancel_pending_enqueues, "BarrierClose")
      fifo_queue_close = self._capacity_queue.close(cancel_pending_enqueues, "FIFOClose")
      return tf.group(barrier_close, fifo_queue_close, name=name)

  def _store_index_maps(self, sequences, context, states):
    """Prepares the internal dictionaries _name_to_index and _index_to_name."""
    assert isinstance(sequences, dict)
    assert isinstance(context, dict)
    assert isinstance(states, dict)
    self._name_to_index = {
        name: ix for (ix, name) in enumerate(
            ["__length", "__total_length", "__next_key", "__sequence", "__sequence_count"]
            + ["__sequence__%s" % k for k in sequences.keys()]
            + ["__context__%s" % k for k in context.keys()]
            + ["__state__%s" % k for k in states.keys()])}
    self._index_to_name = [name for (name, _) in sorted(self._name_to_index.items(), key=lambda n_ix: n_ix[1])]

  def _get_barrier_length_index(self):
    return self._name_to_index["__length"]

  def _get_barrier_total_length_index(self):
    return self._name_to_index["__total_length"]

  def _get_barrier_next_key_index(self):
    return self._name_to_index["__next_key"]

  def _get_barrier_sequence_index(self):
    return self._name_to_index["__sequence"]

  def _get_barrier_sequence_count_index(self):
    return self._name_to_index["__sequence_count"]

  def _get_barrier_index(self, index_type, name):
    assert index_type in ("sequence", "context", "state")
    key = "__%s__%s" % (index_type, name)
    assert key in self._name_to_index, ("Requested a name not in the value type %s: %s" % (index_type, name))
    return self._name_to_index[key]

  def _create_barrier(self):
    """Create the barrier (called in __init__): length, total_length, next_key, sequence, sequence_count, ..."""
    tf = _tf()
    sequence_dtypes = [v.dtype for k, v in self._sorted_sequences.items()]
    context_dtypes = [v.dtype for k, v in self._sorted_context.items()]
    state_dtypes = [v.dtype for k, v in self._sorted_states.items()]
    types = ([tf.int32, tf.int32, tf.string, tf.int32, tf.int32]
             + sequence_dtypes + context_dtypes + state_dtypes)
    sequence_shapes = [[self._num_unroll] + self._sorted_sequences[k].get_shape().as_list()[1:]
                       for k in self._sorted_sequences.keys()]
    context_shapes = [self._sorted_context[k].get_shape().as_list() for k in self._sorted_context.keys()]
    state_shapes = [self._sorted_states[k].get_shape().as_list() for k in self._sorted_states.keys()]
    shapes = ([(), (), (), (), ()] + sequence_shapes + context_shapes + state_shapes)
    self._barrier = self._data_flow_ops.Barrier(types=types, shapes=shapes)

  def _create_prefetch_op(self):
    """Group insert_many ops and create prefetch_op (split the sequence into num_unroll segments)."""
    tf = _tf()
    # Step 1: identify how many barrier entries to split this input into, store the result as a scalar
    sequence_count = tf.div(self._padded_length, self._num_unroll)
    sequence_count_vec = tf.expand_dims(sequence_count, 0)

    # The final unrolled sequence's length is num_unroll only in the case that num_unroll divides it evenly.
    ones = tf.ones(sequence_count_vec, dtype=tf.int32)
    sequence = tf.range(sequence_count)
    expanded_length = tf.maximum(0, self._length - self._num_unroll * sequence)
    expanded_length = tf.minimum(self._num_unroll, expanded_length)
    expanded_total_length = self._length * ones
    expanded_sequence_count = sequence_count * ones
    current_keys = tf.strings.join(
        [tf.as_string(sequence, width=5, fill="0"), "_of_", tf.as_string(sequence_count, width=5, fill="0"),
         ":", self._key], name="StringJoinCurrentKeys")
    next_keys = tf.concat(
        [tf.slice(current_keys, [1], [-1]),
         tf.expand_dims(tf.strings.join(["STOP:", self._key], name="StringJoinStop"), 0)],
        0, name="concat_next_keys")
    reshaped_sequences = collections.OrderedDict(
        (k, _check_dimensions(
            # Reshape sequences to sequence_count rows
            tf.reshape(v, tf.concat([tf.expand_dims(sequence_count, 0), tf.expand_dims(self._num_unroll, 0),
                                     v.get_shape().as_list()[1:]], 0, name="concat_sequences_%s" % k),
                       name="reshape_sequences_%s" % k),
            [0, 1] + list(range(2, v.get_shape().ndims + 1)),
            [sequence_count, self._num_unroll] + v.get_shape().as_list()[1:],
            debug_prefix="reshaped_sequences_%s" % k))
        for k, v in self._sorted_sequences.items())
    expanded_context = collections.OrderedDict(
        (k, _check_dimensions(
            # Copy context to be sequence_count rows
            tf.tile(tf.expand_dims(v, 0),
                    tf.concat([tf.expand_dims(sequence_count, 0), [1] * v.get_shape().ndims], 0,
                              name="concat_context_%s" % k),
                    name="tile_context_%s" % k),
            [0] + list(range(1, v.get_shape().ndims + 1)),
            [sequence_count] + v.get_shape().as_list(),
            debug_prefix="expanded_context_%s" % k))
        for k, v in self._sorted_context.items())

    # Step 2: enqueue the data and the initial states
    insert_sequence_op = self._barrier.insert_many(
        self._get_barrier_sequence_index(), current_keys, sequence, name="BarrierInsertSequence")
    insert_sequence_count_op = self._barrier.insert_many(
        self._get_barrier_sequence_count_index(), current_keys, expanded_sequence_count,
        name="BarrierInsertSequenceCount")
    insert_next_key_op = self._barrier.insert_many(
        self._get_barrier_next_key_index(), current_keys, next_keys, name="BarrierInsertNextKey")
    insert_length_op = self._barrier.insert_many(
        self._get_barrier_length_index(), current_keys, expanded_length, name="BarrierInsertLength")
    insert_total_length_op = self._barrier.insert_many(
        self._get_barrier_total_length_index(), current_keys, expanded_total_length,
        name="BarrierInsertTotalLength")
    insert_context_ops = dict(
        (name, self._barrier.insert_many(self._get_barrier_index("context", name), current_keys, value,
                                         name="BarrierInsertContext_%s" % name))
        for (name, value) in expanded_context.items())
    insert_sequences_ops = dict(
        (name, self._barrier.insert_many(self._get_barrier_index("sequence", name), current_keys, value,
                                         name="BarrierInsertSequences_%s" % name))
        for (name, value) in reshaped_sequences.items())

    # An op that blocks if we reached capacity in number of active examples.
    token_with_ignored_value = 21051976  # pylint: disable=invalid-name
    insert_capacity_token_op = self._capacity_queue.enqueue((token_with_ignored_value,))

    # Insert just the initial state. Specifically force this to run the insert sequence op *first* so
    # that the Barrier receives an insert with *all* the segments and the segments all get the same index.
    with tf.control_dependencies([insert_sequence_op, insert_capacity_token_op]):
      insert_initial_state_ops = dict(
          (name, self._barrier.insert_many(self._get_barrier_index("state", name),
                                           tf.stack([current_keys[0]]), tf.stack([value]),
                                           name="BarrierInitialInsertState_%s" % name))
          for (name, value) in self._uninitialized_states.items())

    all_inserts = ([insert_capacity_token_op, insert_sequence_op, insert_sequence_count_op, insert_next_key_op,
                    insert_length_op, insert_total_length_op] + list(insert_initial_state_ops.values())
                   + list(insert_context_ops.values()) + list(insert_sequences_ops.values()))
    self._prefetch_op = tf.group(*all_inserts, name="StateSaverPrefetchGroup")

  def _prepare_barrier_reads(self):
    """Creates ops for reading the barrier, as used by properties like `length`."""
    tf = _tf()
    # Ops for reading from the barrier. These ops must be run in a different thread than the prefetcher op
    # to avoid blocking.
    received = self._barrier.take_many(self._batch_size, self._allow_small_batch, name="BarrierTakeMany")

    self._received_indices = received[0]
    self._received_keys = received[1]
    received_values = received[2]

    self._received_sequence = received_values[self._get_barrier_sequence_index()]
    self._received_sequence_count = received_values[self._get_barrier_sequence_count_index()]
    self._received_next_key = received_values[self._get_barrier_next_key_index()]
    self._received_length = received_values[self._get_barrier_length_index()]
    self._received_total_length = received_values[self._get_barrier_total_length_index()]
    self._received_context = collections.OrderedDict(
        (name, received_values[self._get_barrier_index("context", name)])
        for name in self._sorted_context.keys())
    self._received_sequences = collections.OrderedDict(
        (name, received_values[self._get_barrier_index("sequence", name)])
        for name in self._sorted_sequences.keys())

    self._received_batch_size = tf.squeeze(tf.shape(self._received_length))

    # Which examples are we done with?
    self._sequence_is_done = (self._received_sequence + 1 >= self._received_sequence_count)

    # Compute the number of finished sequences and dequeue as many tokens from the capacity queue.
    finished_sequences = (tf.reduce_sum(tf.cast(self._sequence_is_done, tf.int32)))
    dequeue_op = self._capacity_queue.dequeue_many(finished_sequences)

    # Tie the dequeue_op to the received_state, such that it is definitely carried out.
    with tf.control_dependencies([dequeue_op]):
      self._received_states = collections.OrderedDict(
          (name, tf.identity(received_values[self._get_barrier_index("state", name)]))
          for name in self._sorted_states.keys())
    self._next_batch = NextQueuedSequenceBatch(self)


def batch_sequences_with_states(input_key, input_sequences, input_context, input_length, initial_states,
                                num_unroll, batch_size, num_threads=3, capacity=1000, allow_small_batch=True,
                                pad=True, make_keys_unique=False, make_keys_unique_seed=None, name=None):
  """Creates batches of segments of sequential input (TF 1.15's function): a NextQueuedSequenceBatch.

  Pads (or checks) the sequences to a multiple of `num_unroll`, builds a SequenceQueueingStateSaver, registers
  a QueueRunner of `num_threads` prefetch ops and a `queue/<barrier>/ready_segment_batches_` summary, and
  returns its `next_batch` (SparseTensor sequences and context restored).
  """
  tf = _tf()
  tensor_list = (list(input_sequences.values()) + list(input_context.values()) + list(initial_states.values()))
  with tf.name_scope(name, "batch_sequences_with_states", tensor_list) as name:
    if pad:
      length, input_sequences = _padding(input_sequences, num_unroll)
      input_length = input_length if input_length is not None else length
    elif input_sequences:
      # Assert that value has the same length as input_length
      checked_input_sequences = {}
      for key, value in input_sequences.items():
        if _is_sparse(value):
          value_length = value.dense_shape[0]
          with tf.control_dependencies([
              tf.Assert(
                  tf.logical_and(tf.equal(value_length % num_unroll, 0), tf.not_equal(value_length, 0)),
                  [tf.strings.join(["SparseTensor %s first dimension should be a multiple of: " % key,
                                    tf.as_string(num_unroll), ", but saw value: ", tf.as_string(value_length),
                                    ". Consider setting pad=True."])])]):
            checked_input_sequences[key] = tf.SparseTensor(
                indices=tf.identity(value.indices, name="multiple_of_checked"),
                values=tf.identity(value.values, name="multiple_of_checked"),
                dense_shape=tf.identity(value.dense_shape, name="multiple_of_checked"))
        else:
          if not isinstance(value, tf.Tensor):
            try:
              value = tf.convert_to_tensor(value)
            except TypeError:
              raise TypeError("Unsupported input_sequences expected Tensor or SparseTensor values, got: %s "
                              "for key %s" % (str(type(value)), key))
          value_length = tf.shape(value)[0]
          with tf.control_dependencies([
              tf.Assert(
                  tf.logical_and(tf.equal(value_length % num_unroll, 0), tf.not_equal(value_length, 0)),
                  [tf.strings.join(["Tensor %s first dimension should be a multiple of: " % key,
                                    tf.as_string(num_unroll), ", but saw value: ", tf.as_string(value_length),
                                    ". Consider setting pad=True."])])]):
            checked_input_sequences[key] = tf.identity(value, name="multiple_of_checked")
      input_sequences = checked_input_sequences
    # Move SparseTensors in context into input_sequences.
    _move_sparse_tensor_out_context(input_context, input_sequences, num_unroll)
    # Deconstruct SparseTensors in sequence into a dense Tensor before inputting to SQSS.
    (transformed_input_seq, sparse_tensor_keys, tensor_list) = _deconstruct_sparse_tensor_seq(input_sequences)

    if make_keys_unique:
      input_key = tf.strings.join([input_key, tf.as_string(tf.random_uniform(
          (), minval=0, maxval=100000000, dtype=tf.int32, seed=make_keys_unique_seed))])

    # setup stateful queue reader
    stateful_reader = SequenceQueueingStateSaver(
        batch_size, num_unroll, input_length=input_length, input_key=input_key,
        input_sequences=transformed_input_seq, input_context=input_context, initial_states=initial_states,
        capacity=capacity, allow_small_batch=allow_small_batch)

    barrier = stateful_reader.barrier
    tf.summary.scalar("queue/%s/ready_segment_batches_" % barrier.name, tf.cast(barrier.ready_size(), tf.float32))

    q_runner = tf.train.QueueRunner(stateful_reader, [stateful_reader.prefetch_op] * num_threads,
                                    queue_closed_exception_types=(tf.errors.OutOfRangeError,
                                                                  tf.errors.CancelledError))
    tf.train.add_queue_runner(q_runner)
    batch = stateful_reader.next_batch

    # Reconstruct SparseTensors in sequence.
    _reconstruct_sparse_tensor_seq(batch.sequences, sparse_tensor_keys, tensor_list, batch_size, num_unroll)
    # Move select SparseTensors back to context.
    _move_sparse_tensor_in_context(batch.context, batch.sequences)
    return batch


def _padding(sequences, num_unroll):
  """For a dictionary of sequences, pads tensors to a multiple of `num_unroll`: (length, padded sequences)."""
  tf = _tf()
  if not isinstance(num_unroll, numbers.Integral):
    raise ValueError("Unsupported num_unroll expected int, got: %s" % str(num_unroll))
  if not isinstance(sequences, dict):
    raise TypeError("Unsupported sequences expected dict, got: %s" % str(sequences))
  for key, value in sequences.items():
    if not isinstance(key, str):
      raise TypeError("Unsupported sequences key expected string, got: %s" % str(key))
  if not sequences:
    return 0, {}

  # Sort 'sequences_dict' so 'length' will have a predictable value below.
  sequences_dict = collections.OrderedDict()
  for key, value in sorted(sequences.items()):
    if not _is_sparse(value):
      sequences_dict[key] = tf.convert_to_tensor(value)
    else:
      sequences_dict[key] = value

  lengths = [tf.shape(value)[0] for value in sequences_dict.values() if isinstance(value, tf.Tensor)]
  if lengths:
    length = lengths[0]
    all_lengths_equal = [
        tf.Assert(tf.equal(l, length),
                  [tf.strings.join(["All sequence lengths must match, but received lengths: ",
                                    tf.as_string(lengths)])])
        for l in lengths]
    with tf.name_scope(None, "control_dependency", all_lengths_equal + [length]):
      with tf.control_dependencies(all_lengths_equal):
        length = tf.identity(length)
  else:  # Only have SparseTensors
    sparse_lengths = [value.dense_shape[0] for value in sequences_dict.values() if isinstance(value, tf.SparseTensor)]
    length = tf.reduce_max(tf.cast(sparse_lengths, tf.int32))

  unroll = tf.constant(num_unroll)
  padded_length = length + ((unroll - (length % unroll)) % unroll)
  padded_sequences = {}
  for key, value in sequences_dict.items():
    if isinstance(value, tf.Tensor):
      # 1. create shape of paddings; first dimension of value will be increased by num_paddings to
      # padded_length
      num_paddings = [padded_length - tf.shape(value)[0]]
      # the shape of the paddings that we concat with the original value will be
      # [num_paddings, tf.shape(value)[1], tf.shape(value)[2], ..., tf.shape(value)[tf.rank(value)-1])]
      padding_shape = tf.concat((num_paddings, tf.shape(value)[1:]), 0)
      # 2. fill padding shape with dummies
      dummy = tf.constant("" if value.dtype == tf.string else 0, dtype=value.dtype)
      paddings = tf.fill(dims=padding_shape, value=dummy)
      # 3. concat values with paddings
      padded_sequences[key] = tf.concat([value, paddings], 0)
    else:
      padded_shape = tf.concat([[tf.cast(padded_length, tf.int64)], value.dense_shape[1:]], 0)
      padded_sequences[key] = tf.SparseTensor(indices=value.indices, values=value.values, dense_shape=padded_shape)
  return length, padded_sequences


_SPARSE_CONTEXT_PREFIX_KEY = "_context_in_seq_"


def _move_sparse_tensor_out_context(input_context, input_sequences, num_unroll):
  """Moves SparseTensors from `input_context` into `input_sequences` as seq (copied once per segment)."""
  tf = _tf()
  value_length = tf.constant(1)
  if input_sequences:
    seq = list(input_sequences.values())[0]
    if isinstance(seq, tf.Tensor):
      with tf.control_dependencies([seq]):
        value_length = tf.shape(seq)[0]
    else:
      value_length = seq.dense_shape[0]
  value_length = tf.cast(value_length, dtype=tf.int64)

  def _copy_sparse_tensor(sp_tensor):
    """Operation to tile a sparse tensor along a newly added 0 dimension."""
    n = value_length // num_unroll
    n = tf.cast(n, dtype=tf.int32)
    values = tf.tile(sp_tensor.values, tf.expand_dims(n, 0))
    shape = tf.concat([tf.expand_dims(value_length, 0), sp_tensor.dense_shape], 0)

    # Construct new indices by multiplying old ones and prepending [0, n).
    # First multiply indices n times along a newly created 0-dimension.
    multiplied_indices = tf.tile(tf.expand_dims(sp_tensor.indices, 0), tf.stack([n, 1, 1]))

    # Construct indicator for [0, n).
    # [ [ [0] [0] ... [0] ]
    #   [ [num_unroll] [num_unroll] ... [num_unroll] ]
    #     ...
    #   [ [num_unroll*(n-1)] [num_unroll*(n-1)] ... [num_unroll*(n-1)] ] ]
    # of shape [n, shape(sp_tensor.indices)[0], 1]
    # Get current dimensions of indices.
    dim0 = tf.shape(sp_tensor.indices)[0]
    dim1 = tf.shape(sp_tensor.indices)[1]
    ind = tf.range(start=0, limit=value_length, delta=num_unroll)

    # ind.set_shape([n])
    ind = tf.expand_dims(ind, 1)
    ind = tf.expand_dims(ind, 2)
    ind = tf.tile(ind, [1, dim0, 1])

    # Concatenate both and reshape.
    indices = tf.concat([ind, multiplied_indices], 2)
    indices = tf.reshape(indices, [dim0 * n, dim1 + 1])

    return tf.SparseTensor(indices=indices, values=values, dense_shape=shape)

  sparse_tensor_keys = [k for k in sorted(input_context.keys()) if _is_sparse(input_context[k])]
  for key in sparse_tensor_keys:
    input_sequences[_SPARSE_CONTEXT_PREFIX_KEY + key] = _copy_sparse_tensor(input_context[key])
    del input_context[key]


def _move_sparse_tensor_in_context(context, sequences):
  """Moves the SparseTensors `_move_sparse_tensor_out_context` moved into sequences back into context."""
  tf = _tf()
  sparse_tensor_keys = [k for k in sorted(sequences) if k.startswith(_SPARSE_CONTEXT_PREFIX_KEY)]
  for key in sparse_tensor_keys:
    new_key = key[len(_SPARSE_CONTEXT_PREFIX_KEY):]
    sp_tensor = sequences[key]
    # Take out time dimension.
    sp_tensor = tf.SparseTensor(
        sp_tensor.indices,  # with only 0s at column 1 representing time.
        sp_tensor.values,
        tf.concat([[sp_tensor.dense_shape[0]],  # batch
                   [1],  # time
                   sp_tensor.dense_shape[2:]], 0))  # SparseTensor shape
    new_shape = tf.concat([[sp_tensor.dense_shape[0]], sp_tensor.dense_shape[2:]], 0)
    context[new_key] = tf.sparse.reshape(sp_tensor, new_shape)
    del sequences[key]


def _deconstruct_sparse_tensor_seq(input_sequence, shared_name=None):
  """Converts the SparseTensors in `input_sequence` into handles of a tensors map (one per time step)."""
  sparse_tensor_keys = [k for k in sorted(input_sequence.keys()) if _is_sparse(input_sequence[k])]
  if not sparse_tensor_keys:
    return input_sequence, None, sparse_tensor_keys
  sparse_tensor_list = [input_sequence[k] for k in sparse_tensor_keys]
  tensor_list = [_store_sparse(sp_tensor, shared_name=shared_name) for sp_tensor in sparse_tensor_list]
  transformed_input_seq = dict(input_sequence)
  tensor_op_list = []
  for i, k in enumerate(sparse_tensor_keys):
    transformed_input_seq[k] = tensor_list[i]
    tensor_op_list += [tensor_list[i].op]
  return transformed_input_seq, sparse_tensor_keys, tensor_op_list


def _reconstruct_sparse_tensor_seq(sequence, sparse_tensor_keys, tensor_op_list, batch_size, num_unroll):
  """Inverse of _deconstruct_sparse_tensor_seq: `[batch_size, num_unroll, ...]` SparseTensors in `sequence`."""
  tf = _tf()

  def _flatten_tensor(tensor):
    """Flattens `Tensor` of `shape [batch_size, num_unroll]` into a 1D `Tensor` of `shape [batch_size * num_unroll]`."""
    return tf.reshape(tensor, [-1])

  def _unflatten_sparse_tensor(sp_tensor):
    """Recreates `[batch_size, num_unroll]` dimensions in the SparseTensor."""
    idx_batch = tf.cast(tf.floor(sp_tensor.indices[:, 0] / num_unroll), tf.int64)
    idx_time = tf.mod(sp_tensor.indices[:, 0], num_unroll)
    indices = tf.concat([tf.expand_dims(idx_batch, 1), tf.expand_dims(idx_time, 1), sp_tensor.indices[:, 1:]],
                        axis=1)
    dense_shape = tf.concat([[tf.cast(batch_size, dtype=tf.int64)], [tf.cast(num_unroll, dtype=tf.int64)],
                             sp_tensor.dense_shape[1:]], axis=0)
    return tf.SparseTensor(indices=indices, values=sp_tensor.values, dense_shape=dense_shape)

  if not sparse_tensor_keys:
    return
  tensor_list = [sequence[k] for k in sparse_tensor_keys]
  sp_tensors = [_restore_sparse(sparse_map_op=i,
                                # Flatten the 2D Tensor [batch_size, num_unroll] of handles to a 1D Tensor.
                                # Reconstruct the dimensions later.
                                # TODO(b/34247140): Remove this workaround.
                                sparse_handles=_flatten_tensor(s), rank=None)
                for i, s in zip(tensor_op_list, tensor_list)]
  num_unroll = tf.convert_to_tensor(num_unroll, dtype=tf.int64, name="num_unroll_int64")

  # Recreate the [batch_size, num_unroll] dimensions in the SparseTensors.
  # The dense_shape will have a +1 higher rank.
  # TODO(b/34247140): Remove this workaround.
  sp_tensors_higher_dim = [_unflatten_sparse_tensor(s) for s in sp_tensors]

  # Set values to SparseTensors for sparse_tensor_keys.
  for i, key in enumerate(sparse_tensor_keys):
    sequence[key] = sp_tensors_higher_dim[i]
  return


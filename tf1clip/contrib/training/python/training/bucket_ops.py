"""`tf.contrib.training.bucket` and `bucket_by_sequence_length`: TF 1.15's queue-runner bucketing.

TF 1.15's versions are gone; tf.data's `bucket_by_sequence_length` is a dataset transformation, not a drop-in. These
are tf1clip's own, on `tf.compat.v1` queues, with TF 1.15's behaviour: each bucket has its own (Padding)FIFOQueue; a
bucket that holds `batch_size` examples pushes one batch onto a top queue; the returned tensors dequeue the next
batch from the top queue. The queue runners join the graph's QUEUE_RUNNERS collection, so
`tf.train.start_queue_runners` / `MonitoredTrainingSession` drive them. Sparse tensors are not supported (TF 1.15
serialized them through the queues); a clear TypeError says so.
"""

import numpy as np
import tensorflow as tf


def _tensor_list(tensors):
  """(list of tensors, function restoring `tensors`' type) for a list or dict of tensors."""
  if isinstance(tensors, dict):
    keys = sorted(tensors)
    values = [tensors[k] for k in keys]
    restore = lambda out: dict(zip(keys, out))
  elif isinstance(tensors, (list, tuple)):
    values = list(tensors)
    restore = list
  else:
    raise TypeError("tensors must be a list or dict of tensors; got %s" % type(tensors).__name__)
  if not values:
    raise ValueError("tensors must hold at least one tensor; got an empty %s"
                     % type(tensors).__name__)
  converted = []
  for value in values:
    if isinstance(value, (tf.SparseTensor, tf.compat.v1.SparseTensorValue)):
      raise TypeError("tf1clip's tf.contrib.training.bucket takes dense tensors only; got a "
                      "SparseTensor (densify it, or use tf.data.experimental.bucket_by_sequence_length)")
    converted.append(tf.convert_to_tensor(value))
  return converted, restore


def _example_shapes(tensor_list, shapes, dynamic_pad):
  if shapes is not None:
    shapes = [tf.TensorShape(s) for s in shapes]
    if len(shapes) != len(tensor_list):
      raise ValueError("shapes must have one shape per tensor (%d); got %d"
                       % (len(tensor_list), len(shapes)))
    return shapes
  shapes = [t.get_shape() for t in tensor_list]
  for tensor, shape in zip(tensor_list, shapes):
    if dynamic_pad and shape.ndims is None:
      raise ValueError("dynamic_pad needs tensors of known rank; %s has unknown rank" % tensor.name)
    if not dynamic_pad and not shape.is_fully_defined():
      raise ValueError("tensor %s has shape %s that is not fully defined: pass shapes=... or "
                       "dynamic_pad=True" % (tensor.name, shape))
  return shapes


def bucket(tensors, which_bucket, batch_size, num_buckets, num_threads=1, capacity=32,
           bucket_capacities=None, shapes=None, dynamic_pad=False, allow_smaller_final_batch=False,
           keep_input=True, shared_name=None, name=None):
  """Batches examples per bucket: each dequeue gives a batch whose examples share one bucket.

  Args:
    tensors: a list or dict of dense tensors: one example.
    which_bucket: an int32 scalar in [0, num_buckets): the example's bucket.
    batch_size: an int (or an int32 scalar), or a list of num_buckets of them.
    num_buckets: the number of buckets (a Python int).
    num_threads: the number of threads enqueuing examples.
    capacity: the capacity of the top queue (batches), and of each bucket by default (examples).
    bucket_capacities: optional list of num_buckets capacities.
    shapes: optional shapes of the example tensors (default: their static shapes).
    dynamic_pad: pad variable dimensions to the longest example of the batch (0 or "").
    allow_smaller_final_batch: let the last batches of a closed input be smaller.
    keep_input: a bool scalar; False drops the example.
    shared_name: optional name prefix to share the queues across sessions.
    name: the name scope.

  Returns:
    (bucket id of the batch, the batched tensors as a list or dict like `tensors`).

  Raises:
    ValueError: `batch_size` or `bucket_capacities` is a list of the wrong length, or shapes are
      not known.
    TypeError: `tensors` is not a list/dict of dense tensors.
  """
  per_bucket = isinstance(batch_size, (list, tuple))
  if per_bucket and len(batch_size) != num_buckets:
    raise ValueError("batch_size as a list must have num_buckets (%d) entries; got %d"
                     % (num_buckets, len(batch_size)))
  batch_sizes = list(batch_size) if per_bucket else [batch_size] * num_buckets
  if bucket_capacities is None:
    bucket_capacities = [capacity] * num_buckets
  if len(bucket_capacities) != num_buckets:
    raise ValueError("bucket_capacities must have num_buckets (%d) entries; got %s"
                     % (num_buckets, bucket_capacities))
  tensor_list, restore = _tensor_list(tensors)
  with tf.compat.v1.name_scope(name, "bucket", tensor_list):
    shapes = _example_shapes(tensor_list, shapes, dynamic_pad)
    dtypes = [t.dtype for t in tensor_list]
    static_batch = None
    for i, size in enumerate(batch_sizes):
      size = tf.convert_to_tensor(size, tf.int32, name="batch_size")
      static = tf.get_static_value(size)
      batch_sizes[i] = int(static) if static is not None else size
      static_batch = batch_sizes[i] if static is not None else None
    which_bucket = tf.convert_to_tensor(which_bucket, tf.int32, name="which_bucket")
    queue_class = tf.queue.PaddingFIFOQueue if dynamic_pad else tf.queue.FIFOQueue
    bucket_queues = [
        queue_class(capacity=bucket_capacities[i], dtypes=dtypes, shapes=shapes,
                    shared_name=None if shared_name is None else "%s_%d" % (shared_name, i),
                    name="bucket_queue_%d" % i)
        for i in range(num_buckets)]
    top_batch = None if (allow_smaller_final_batch or per_bucket) else static_batch
    # A padding queue on top even without dynamic_pad: a smaller final batch has shape [None, ...].
    top_queue = tf.queue.PaddingFIFOQueue(
        capacity=capacity, dtypes=[tf.int32] + dtypes,
        shapes=[tf.TensorShape([])] + [tf.TensorShape([top_batch]).concatenate(s) for s in shapes],
        shared_name=shared_name, name="top_queue")

    def enqueue_in_its_bucket():
      enqueues = [tf.compat.v1.cond(tf.equal(which_bucket, i),
                                    lambda q=q: q.enqueue(tensor_list), tf.no_op)
                  for i, q in enumerate(bucket_queues)]
      return tf.group(*enqueues, name="group_enqueues")

    if isinstance(keep_input, bool):
      maybe_enqueue = enqueue_in_its_bucket() if keep_input else tf.no_op()
    else:
      keep_input = tf.convert_to_tensor(keep_input, tf.bool, name="keep_input")
      if keep_input.get_shape().ndims != 0:
        raise ValueError("keep_input must be a bool scalar; got shape %s" % keep_input.get_shape())
      maybe_enqueue = tf.compat.v1.cond(keep_input, enqueue_in_its_bucket, tf.no_op)
    # TF 1.15's two queue runners: one enqueues each example into its bucket (closing every bucket queue
    # when the input ends), one moves full batches to the top queue (closing it when every bucket is
    # closed and drained), so the last batches of a finite input still come out.
    dequeue = (lambda q: q.dequeue_up_to) if allow_smaller_final_batch else (lambda q: q.dequeue_many)
    enqueues_to_top = []
    for i, (q, size) in enumerate(zip(bucket_queues, batch_sizes)):
      batch = dequeue(q)(size, name="read_bucket_%d" % i)
      if not isinstance(batch, (list, tuple)):  # one tensor per example: a bare tensor
        batch = [batch]
      enqueues_to_top.append(top_queue.enqueue([tf.constant(i)] + list(batch),
                                               name="enqueue_from_bucket_%d" % i))
    closed = (tf.errors.OutOfRangeError, tf.errors.CancelledError)
    tf.compat.v1.train.add_queue_runner(tf.compat.v1.train.QueueRunner(
        bucket_queues[0], enqueues_to_top, close_op=top_queue.close(),
        cancel_op=top_queue.close(cancel_pending_enqueues=True), queue_closed_exception_types=closed))
    tf.compat.v1.train.add_queue_runner(tf.compat.v1.train.QueueRunner(
        top_queue, [maybe_enqueue] * num_threads,
        close_op=tf.group(*[q.close() for q in bucket_queues]),
        cancel_op=tf.group(*[q.close(cancel_pending_enqueues=True) for q in bucket_queues]),
        queue_closed_exception_types=closed))
    # TF 1.15's summaries (each "bucket size" reports the top queue's size, as TF 1.15's did)
    for q in bucket_queues:
      tf.compat.v1.summary.scalar("bucket/%s/size" % q.name, tf.cast(top_queue.size(), tf.float32))
    tf.compat.v1.summary.scalar("bucket/%s/fraction_of_%d_full" % (top_queue.name, capacity),
                                tf.cast(top_queue.size(), tf.float32) * (1. / capacity))
    dequeued = top_queue.dequeue(name="dequeue_top")
    batched = dequeued[1:]
    if isinstance(tensors, dict):
      return dequeued[0], restore(batched)
    return dequeued[0], batched[0] if len(batched) == 1 else batched  # TF 1.15: one tensor comes back bare


def bucket_by_sequence_length(input_length, tensors, batch_size, bucket_boundaries, num_threads=1,
                              capacity=32, bucket_capacities=None, shapes=None, dynamic_pad=False,
                              allow_smaller_final_batch=False, keep_input=True, shared_name=None,
                              name=None):
  """`bucket` by length: bucket i holds lengths in [boundaries[i-1], boundaries[i]).

  Args:
    input_length: the example's int32 length.
    tensors: a list or dict of dense tensors: one example.
    batch_size: an int, or a list of len(bucket_boundaries) + 1 of them.
    bucket_boundaries: increasing Python ints; two extra buckets take lengths below the first and
      from the last on.
    num_threads, capacity, bucket_capacities, shapes, dynamic_pad, allow_smaller_final_batch,
      keep_input, shared_name: as for `bucket`.
    name: the name scope.

  Returns:
    (the batch's lengths, a 1-D int32 tensor; the batched tensors as a list or dict).

  Raises:
    TypeError: `bucket_boundaries` is not a list/tuple of ints.
    ValueError: `bucket_boundaries` is empty or not increasing.
  """
  if not isinstance(bucket_boundaries, (list, tuple)):
    raise TypeError("bucket_boundaries must be a list or tuple of ints; got %r"
                    % (bucket_boundaries,))
  if not bucket_boundaries:
    raise ValueError("bucket_boundaries must not be empty")
  for start, end in zip(bucket_boundaries[:-1], bucket_boundaries[1:]):
    if not isinstance(start, int) or not isinstance(end, int):
      raise TypeError("bucket_boundaries must be ints; got %r and %r" % (start, end))
    if start >= end:
      raise ValueError("bucket_boundaries must increase; got %d before %d" % (start, end))
  tensor_list, restore = _tensor_list(tensors)
  with tf.compat.v1.name_scope(name, "bucket_by_sequence_length", tensor_list):
    input_length = tf.convert_to_tensor(input_length, tf.int32, name="input_length")
    lower = [np.iinfo(np.int32).min] + list(bucket_boundaries)
    upper = list(bucket_boundaries) + [np.iinfo(np.int32).max]
    inside = tf.logical_and(tf.less_equal(lower, input_length), tf.less(input_length, upper))
    which_bucket = tf.cast(tf.reduce_min(tf.where(inside)), tf.int32)
    if shapes is not None:
      shapes = [tf.TensorShape([])] + list(shapes)
    _, dequeued = bucket(
        [input_length] + tensor_list, which_bucket, batch_size,
        num_buckets=len(bucket_boundaries) + 1, num_threads=num_threads, capacity=capacity,
        bucket_capacities=bucket_capacities, shapes=shapes, dynamic_pad=dynamic_pad,
        allow_smaller_final_batch=allow_smaller_final_batch, keep_input=keep_input,
        shared_name=shared_name)
    return dequeued[0], restore(dequeued[1:])

"""`tf.contrib.training.rejection_sample` and `stratified_sample`: queue-runner batches of accepted examples (TF 1.15's code).

`rejection_sample` keeps each example with probability `accept_prob_fn(example)`; `stratified_sample`
keeps an example of class c with probability proportional to target_probs[c] / init_probs[c] (init_probs
estimated from the classes seen so far when not given), so the batches follow `target_probs`. Both batch
through `tf.compat.v1.train.batch` / `maybe_batch` queues, whose runners join QUEUE_RUNNERS (run them with
`tf.train.start_queue_runners` or a MonitoredSession). tf.data's `rejection_resample` is the successor.
"""

import tensorflow as tf

V1 = tf.compat.v1


def rejection_sample(tensors, accept_prob_fn, batch_size, queue_threads=1, enqueue_many=False,
                     prebatch_capacity=16, prebatch_threads=1, runtime_checks=False, name=None):
  """Batches of `batch_size` examples, each kept with probability accept_prob_fn(example)."""
  with V1.variable_scope(name, "rejection_sample", tensors):
    tensor_list = [V1.convert_to_tensor_or_indexed_slices(t) for t in tensors]
    if enqueue_many:
      tensor_list = _verify_data_inputs(tensor_list)
      batched = V1.train.batch(tensor_list, batch_size=1, num_threads=prebatch_threads,
                               capacity=prebatch_capacity, enqueue_many=True)
      tensor_list = [tf.squeeze(x, [0]) for x in batched]
    cur_prob = accept_prob_fn(tensor_list)
    if runtime_checks:
      with tf.control_dependencies([V1.assert_less_equal(0.0, cur_prob),
                                    V1.assert_less_equal(cur_prob, 1.0)]):
        cur_prob = tf.identity(cur_prob, name="prob_with_checks")
    minibatch = V1.train.maybe_batch(tensor_list, keep_input=V1.random_uniform([]) < cur_prob,
                                     batch_size=batch_size, num_threads=queue_threads)
    if isinstance(minibatch, tf.Tensor):
      minibatch = [minibatch]
    return minibatch


def stratified_sample(tensors, labels, target_probs, batch_size, init_probs=None, enqueue_many=False,
                      queue_capacity=16, threads_per_queue=1, name=None):
  """(batch of `tensors`, batch of labels) whose class frequencies follow `target_probs`."""
  with V1.name_scope(name, "stratified_sample", list(tensors) + [labels]):
    tensor_list = [V1.convert_to_tensor_or_indexed_slices(t) for t in tensors]
    labels = tf.convert_to_tensor(labels)
    target_probs = tf.convert_to_tensor(target_probs, dtype=tf.float32)
    if not enqueue_many:
      tensor_list = [tf.expand_dims(tensor, 0) for tensor in tensor_list]
      labels = tf.expand_dims(labels, 0)
    if init_probs is None:
      target_probs.shape.assert_is_fully_defined()
      init_probs = _estimate_data_distribution(labels, target_probs.shape.num_elements())
    else:
      init_probs = tf.convert_to_tensor(init_probs, dtype=tf.float32)
    tensor_list, labels, [init_probs, target_probs] = _verify_input(tensor_list, labels,
                                                                    [init_probs, target_probs])
    assert_op = V1.Assert(
        tf.reduce_all(tf.logical_or(tf.not_equal(init_probs, 0), tf.equal(target_probs, 0))),
        ["All classes with zero initial probability must also have zero target probability: ",
         init_probs, target_probs])
    with tf.control_dependencies([assert_op]):
      init_probs = tf.identity(init_probs)
    accept_probs = _calculate_acceptance_probabilities(init_probs, target_probs)
    proportion_rejected = tf.reduce_sum((1 - accept_probs) * init_probs)
    accept_probs = V1.cond(
        tf.less(proportion_rejected, 0.5), lambda: accept_probs,
        lambda: V1.Print(accept_probs, [accept_probs],
                         message="Proportion of examples rejected by sampler is high.", first_n=10))
    batched = V1.train.batch(tensor_list + [labels], batch_size=1, num_threads=threads_per_queue,
                             capacity=queue_capacity, enqueue_many=True)
    val_list = [tf.squeeze(x, [0]) for x in batched[:-1]]
    label = tf.squeeze(batched[-1], [0])
    cur_prob = tf.gather(accept_probs, label)
    batched = V1.train.maybe_batch(val_list + [label], keep_input=V1.random_uniform([]) < cur_prob,
                                   batch_size=batch_size, num_threads=threads_per_queue)
    return batched[:-1], batched[-1]


def _estimate_data_distribution(labels, num_classes, smoothing_constant=10):
  """The class frequencies seen so far (a counter variable starting at `smoothing_constant` each)."""
  if smoothing_constant <= 0:
    raise ValueError("smoothing_constant must be nonzero.")
  seen = V1.Variable(initial_value=[smoothing_constant] * num_classes, trainable=False,
                     name="class_count", dtype=tf.int64)
  seen = seen.assign_add(tf.reduce_sum(tf.one_hot(labels, num_classes, dtype=tf.int64), 0))
  seen += 0
  return tf.cast(tf.truediv(seen, tf.reduce_sum(seen)), tf.float32)


def _verify_data_inputs(tensor_list):
  for tensor in tensor_list:
    shape = tensor.shape.with_rank_at_least(1)
    tf.compat.dimension_at_index(shape, 0).assert_is_compatible_with(tensor_list[0].shape[0])
  return tensor_list


def _verify_input(tensor_list, labels, probs_list):
  """Static and runtime checks of the probabilities (non-negative, summing to 1) and the labels."""
  checked_probs_list = []
  for probs in probs_list:
    probs.shape.assert_is_fully_defined()
    probs.shape.assert_has_rank(1)
    tol = 1e-6
    prob_sum = tf.reduce_sum(probs)
    with tf.control_dependencies([V1.assert_non_negative(probs), V1.assert_less(prob_sum, 1.0 + tol),
                                  V1.assert_less(1.0 - tol, prob_sum)]):
      checked_probs_list.append(tf.identity(probs))
  prob_length = checked_probs_list[0].shape.num_elements()
  for checked in checked_probs_list:
    if checked.shape.num_elements() != prob_length:
      raise ValueError("Probability parameters must have the same length.")
  labels.shape.assert_has_rank(1)
  for tensor in tensor_list:
    shape = tensor.shape.with_rank_at_least(1)
    tf.compat.dimension_at_index(shape, 0).assert_is_compatible_with(labels.shape[0])
  labels_batch_size = tf.shape(labels)[0]
  lbl_assert = V1.assert_positive(labels_batch_size)
  with tf.control_dependencies([lbl_assert]):
    labels = tf.identity(labels)
  checked_list = []
  for x in tensor_list:
    with tf.control_dependencies([lbl_assert, V1.assert_equal(tf.shape(x)[0], labels_batch_size)]):
      checked_list.append(tf.identity(x))
  with tf.control_dependencies([V1.assert_integer(labels), V1.assert_non_negative(labels),
                                V1.assert_less(labels, tf.cast(prob_length, labels.dtype))]):
    labels = tf.identity(labels)
  return checked_list, labels, checked_probs_list


def _calculate_acceptance_probabilities(init_probs, target_probs):
  """target / init per class (0 where init is 0), scaled so the largest is 1."""
  ratio = target_probs / init_probs
  ratio = tf.where(tf.math.is_nan(ratio), tf.zeros_like(ratio), ratio)
  return ratio / tf.reduce_max(ratio)

"""`tf.contrib.learn.io.graph_io`: TF 1.15's queue-based Example readers (read_batch_*), its code on tf.compat.v1.

Place in the data flow (DESIGN.md): tf.compat.v1.train queues <- **contrib.learn.io.graph_io** <- contrib.learn.io
<- contrib.learn <- compat <- cli.

The readers build what TF 1.15's built, with TensorFlow 2.21's v1 queue ops: a file-name queue
(`string_input_producer`, or for the `_shared_queue` variants a capacity-1 FIFOQueue fed round robin from a
variable list by `contrib.input_pipeline.obtain_next`), `num_threads` readers (`read`, or `read_up_to` when
`read_batch_size` > 1), and `batch_join` / `shuffle_batch_join` under the same name scopes; the `*_features`
variants parse the batch with `parse_example` and put it through one more FIFOQueue (`queue_parsed_features`).
Every queue gets its QueueRunner in the QUEUE_RUNNERS collection: start them with
`tf.train.start_queue_runners`. With `num_threads=1` (and one enqueue thread) and `randomize_input=False` the
batches come in TF 1.15's order; a `num_epochs` adds local variables (run `tf.local_variables_initializer()`).
"""

import random

import tensorflow as tf

import tf1clip.contrib.input_pipeline as input_pipeline
from tf1clip.contrib import catalog as _catalog

# Default name for key in the feature dict.
KEY_FEATURE_NAME = "__key__"


def read_batch_examples(file_pattern, batch_size, reader, randomize_input=True, num_epochs=None,
                        queue_capacity=10000, num_threads=1, read_batch_size=1, parse_fn=None, name=None,
                        seed=None):
  """Reads, queues and batches `Example` protos: a string Tensor of serialized examples (see the keyed variant)."""
  _, examples = read_keyed_batch_examples(
      file_pattern=file_pattern, batch_size=batch_size, reader=reader, randomize_input=randomize_input,
      num_epochs=num_epochs, queue_capacity=queue_capacity, num_threads=num_threads,
      read_batch_size=read_batch_size, parse_fn=parse_fn, name=name, seed=seed)
  return examples


def read_keyed_batch_examples(file_pattern, batch_size, reader, randomize_input=True, num_epochs=None,
                              queue_capacity=10000, num_threads=1, read_batch_size=1, parse_fn=None, name=None,
                              seed=None):
  """Reads, queues and batches `Example` protos from the files `file_pattern` matches.

  Args:
    file_pattern: List of files or patterns of file paths containing `Example` records.
    batch_size: An int or scalar `Tensor` specifying the batch size to use.
    reader: A function or class that returns an object with `read` method, (filename tensor) -> (example tensor).
    randomize_input: Whether the input should be randomized.
    num_epochs: Integer number of passes over the files, or `None` to cycle forever (a local variable).
    queue_capacity: Capacity for input queue.
    num_threads: The number of threads enqueuing examples (1 for a repeatable order).
    read_batch_size: An int or scalar `Tensor` specifying the number of records to read at once.
    parse_fn: Parsing function, takes `Example` Tensor returns parsed representation; `None` for none.
    name: Name of resulting op.
    seed: An integer (optional). Seed used if randomize_input == True.

  Returns:
    A tuple of a `Tensor` of string keys and a string `Tensor` of batched `Example` protos.

  Raises:
    ValueError: for invalid inputs.
  """
  return _read_keyed_batch_examples_helper(
      file_pattern, batch_size, reader, randomize_input=randomize_input, num_epochs=num_epochs,
      queue_capacity=queue_capacity, num_threads=num_threads, read_batch_size=read_batch_size,
      parse_fn=parse_fn, setup_shared_queue=False, name=name, seed=seed)


def read_keyed_batch_examples_shared_queue(file_pattern, batch_size, reader, randomize_input=True,
                                           num_epochs=None, queue_capacity=10000, num_threads=1,
                                           read_batch_size=1, parse_fn=None, name=None, seed=None):
  """As `read_keyed_batch_examples`, the file names coming from a shared queue (at most one visit per file)."""
  return _read_keyed_batch_examples_helper(
      file_pattern, batch_size, reader, randomize_input=randomize_input, num_epochs=num_epochs,
      queue_capacity=queue_capacity, num_threads=num_threads, read_batch_size=read_batch_size,
      parse_fn=parse_fn, setup_shared_queue=True, name=name, seed=seed)


def _get_file_names(file_pattern, randomize_input):
  """The files `file_pattern` (a glob or a list of them) matches; sorted unless `randomize_input`."""
  if isinstance(file_pattern, list):
    if not file_pattern:
      raise ValueError("No files given to dequeue_examples.")
    file_names = []
    for entry in file_pattern:
      file_names.extend(tf.io.gfile.glob(entry))
  else:
    file_names = list(tf.io.gfile.glob(file_pattern))
  if not file_names:
    raise ValueError("No files match %s." % file_pattern)
  # Sorted so it is deterministic; string_input_producer shuffles them when randomize_input is set.
  if not randomize_input:
    file_names = sorted(file_names)
  return file_names


def _smart_cond(pred, true_fn, false_fn):
  """TF 1.15's layers.utils.smart_cond: a Python branch when `pred` is known, else tf.cond."""
  value = pred if isinstance(pred, (bool, int)) else tf.get_static_value(pred)
  if value is None:
    return tf.compat.v1.cond(pred, true_fn, false_fn)
  return true_fn() if value else false_fn()


def _get_examples(file_name_queue, reader, num_threads, read_batch_size, filter_fn, parse_fn):
  """One (keys, examples) pair (or parsed dict) per reader thread, under the `read` name scope."""
  with tf.compat.v1.name_scope("read"):
    example_list = []
    for _ in range(num_threads):
      keys, examples_proto = _smart_cond(
          read_batch_size > 1,
          lambda: reader().read_up_to(file_name_queue, read_batch_size),
          lambda: reader().read(file_name_queue))
      if filter_fn:
        mask = filter_fn(keys, examples_proto)
        keys = tf.boolean_mask(keys, mask)
        examples_proto = tf.boolean_mask(examples_proto, mask)
      if parse_fn:
        parsed_examples = parse_fn(examples_proto)
        # batch_join takes no tuple of Tensor + dict: the keys go into the dict.
        if isinstance(parsed_examples, dict):
          parsed_examples[KEY_FEATURE_NAME] = keys
          example_list.append(parsed_examples)
        else:
          example_list.append((keys, parsed_examples))
      else:
        example_list.append((keys, examples_proto))
    return example_list


def _seek_next(string_list, shuffle=False, seed=None, num_epochs=None):
  """TF 1.15's contrib.input_pipeline seek_next: the next file name of an expanded list, round robin."""
  def maybe_randomized(strings):
    if shuffle:
      random.shuffle(strings)  # Python's global generator, seeded by `seed`, as TF 1.15's
    return strings

  if shuffle and seed:
    random.seed(seed)
  expanded_list = maybe_randomized(string_list)[:]
  if num_epochs:
    for _ in range(num_epochs - 1):
      expanded_list.extend(maybe_randomized(string_list))
  with tf.compat.v1.variable_scope("obtain_next"):
    counter = tf.compat.v1.get_variable(
        name="obtain_next_counter", initializer=tf.constant(-1, dtype=tf.int64), dtype=tf.int64,
        trainable=False, use_resource=False)
    with tf.compat.v1.colocate_with(counter):
      string_tensor = tf.compat.v1.get_variable(
          name="obtain_next_expanded_list", initializer=tf.constant(expanded_list), dtype=tf.string,
          trainable=False, use_resource=False)
    if num_epochs:
      filename_counter = tf.compat.v1.get_variable(
          name="obtain_next_filename_counter", initializer=tf.constant(0, dtype=tf.int64), dtype=tf.int64,
          trainable=False, use_resource=False)
      c = tf.compat.v1.count_up_to(filename_counter, len(expanded_list))
      with tf.control_dependencies([c]):
        return input_pipeline.obtain_next(string_tensor, counter)
    return input_pipeline.obtain_next(string_tensor, counter)


def _read_keyed_batch_examples_helper(file_pattern, batch_size, reader, randomize_input=True, num_epochs=None,
                                      queue_capacity=10000, num_threads=1, read_batch_size=1, filter_fn=None,
                                      parse_fn=None, setup_shared_queue=False, name=None, seed=None):
  """The readers' common body: checks the arguments, builds the file-name queue, readers and batch queue."""
  file_names = _get_file_names(file_pattern, randomize_input)

  if (not queue_capacity) or (queue_capacity <= 0):
    raise ValueError("Invalid queue_capacity %s." % queue_capacity)
  if (batch_size is None) or ((not isinstance(batch_size, tf.Tensor)) and
                              (batch_size <= 0 or batch_size >= queue_capacity)):
    raise ValueError("Invalid batch_size %s, with queue_capacity %s." % (batch_size, queue_capacity))
  if (read_batch_size is None) or ((not isinstance(read_batch_size, tf.Tensor)) and (read_batch_size <= 0)):
    raise ValueError("Invalid read_batch_size %s." % read_batch_size)
  if (not num_threads) or (num_threads <= 0):
    raise ValueError("Invalid num_threads %s." % num_threads)
  if (num_epochs is not None) and (num_epochs <= 0):
    raise ValueError("Invalid num_epochs %s." % num_epochs)

  with tf.compat.v1.name_scope(name, "read_batch_examples", [file_pattern]) as scope:
    with tf.compat.v1.name_scope("file_name_queue") as file_name_queue_scope:
      if setup_shared_queue:
        file_name_queue = tf.queue.FIFOQueue(capacity=1, dtypes=[tf.string], shapes=[[]])
        enqueue_op = file_name_queue.enqueue(
            _seek_next(file_names, shuffle=randomize_input, num_epochs=num_epochs, seed=seed))
        tf.compat.v1.train.queue_runner.add_queue_runner(
            tf.compat.v1.train.queue_runner.QueueRunner(file_name_queue, [enqueue_op]))
      else:
        file_name_queue = tf.compat.v1.train.string_input_producer(
            tf.constant(file_names, name="input"), shuffle=randomize_input, num_epochs=num_epochs,
            name=file_name_queue_scope, seed=seed)

    example_list = _get_examples(file_name_queue, reader, num_threads, read_batch_size, filter_fn, parse_fn)
    enqueue_many = read_batch_size > 1
    allow_smaller_final_batch = num_epochs is not None

    if randomize_input:
      if isinstance(batch_size, tf.Tensor):
        min_after_dequeue = int(queue_capacity * 0.4)
      else:
        min_after_dequeue = max(queue_capacity - (3 * batch_size), batch_size)
      queued_examples_with_keys = tf.compat.v1.train.shuffle_batch_join(
          example_list, batch_size, capacity=queue_capacity, min_after_dequeue=min_after_dequeue,
          enqueue_many=enqueue_many, name=scope, allow_smaller_final_batch=allow_smaller_final_batch, seed=seed)
    else:
      queued_examples_with_keys = tf.compat.v1.train.batch_join(
          example_list, batch_size, capacity=queue_capacity, enqueue_many=enqueue_many, name=scope,
          allow_smaller_final_batch=allow_smaller_final_batch)
    if parse_fn and isinstance(queued_examples_with_keys, dict):
      queued_keys = queued_examples_with_keys.pop(KEY_FEATURE_NAME)
      return queued_keys, queued_examples_with_keys
    return queued_examples_with_keys


def read_keyed_batch_features(file_pattern, batch_size, features, reader, randomize_input=True, num_epochs=None,
                              queue_capacity=10000, reader_num_threads=1, feature_queue_capacity=100,
                              num_enqueue_threads=2, parse_fn=None, name=None, read_batch_size=None):
  """Reads, batches and parses `Example` protos by `features`: (keys, dict of Tensor / SparseTensor).

  `read_batch_size` defaults to `batch_size`; the parsed batch goes through `queue_parsed_features`.
  """
  with tf.compat.v1.name_scope(name, "read_batch_features", [file_pattern]) as scope:
    if read_batch_size is None:
      read_batch_size = batch_size
    keys, examples = read_keyed_batch_examples(
        file_pattern, batch_size, reader, randomize_input=randomize_input, num_epochs=num_epochs,
        queue_capacity=queue_capacity, num_threads=reader_num_threads, read_batch_size=read_batch_size,
        parse_fn=parse_fn, name=scope)
    feature_map = tf.compat.v1.io.parse_example(examples, features)
    return queue_parsed_features(
        feature_map, keys=keys, feature_queue_capacity=feature_queue_capacity,
        num_enqueue_threads=num_enqueue_threads, name=scope)


def read_keyed_batch_features_shared_queue(file_pattern, batch_size, features, reader, randomize_input=True,
                                           num_epochs=None, queue_capacity=10000, reader_num_threads=1,
                                           feature_queue_capacity=100, num_queue_runners=2, parse_fn=None,
                                           name=None):
  """As `read_keyed_batch_features`, the file names coming from a shared queue (reads `batch_size` at once)."""
  with tf.compat.v1.name_scope(name, "read_batch_features", [file_pattern]) as scope:
    keys, examples = read_keyed_batch_examples_shared_queue(
        file_pattern, batch_size, reader, randomize_input=randomize_input, num_epochs=num_epochs,
        queue_capacity=queue_capacity, num_threads=reader_num_threads, read_batch_size=batch_size,
        parse_fn=parse_fn, name=scope)
    feature_map = tf.compat.v1.io.parse_example(examples, features)
    return queue_parsed_features(
        feature_map, keys=keys, feature_queue_capacity=feature_queue_capacity,
        num_enqueue_threads=num_queue_runners, name=scope)


def queue_parsed_features(parsed_features, keys=None, feature_queue_capacity=100, num_enqueue_threads=2,
                          name=None):
  """Puts parsed features (and keys) through a FIFOQueue filled by a QueueRunner: (keys or None, features).

  Sparse tensors travel as their indices, values and dense shape; a scalar summary
  `queue/parsed_features/<queue name>/fraction_of_<capacity>_full` reports how full the queue is.
  """
  args = list(parsed_features.values())
  if keys is not None:
    args += [keys]

  with tf.compat.v1.name_scope(name, "queue_parsed_features", args):
    tensors_to_enqueue = []
    tensors_mapping = []  # (key, whether it is a SparseTensor)
    for key in sorted(parsed_features.keys()):
      tensor = parsed_features[key]
      if isinstance(tensor, tf.SparseTensor):
        tensors_mapping.append((key, True))
        tensors_to_enqueue.extend([tensor.indices, tensor.values, tensor.dense_shape])
      else:
        tensors_mapping.append((key, False))
        tensors_to_enqueue.append(tensor)
    if keys is not None:
      tensors_to_enqueue.append(keys)

    queue_dtypes = [x.dtype for x in tensors_to_enqueue]
    input_queue = tf.queue.FIFOQueue(feature_queue_capacity, queue_dtypes)
    tf.compat.v1.summary.scalar(
        "queue/parsed_features/%s/fraction_of_%d_full" % (input_queue.name, feature_queue_capacity),
        tf.cast(input_queue.size(), tf.float32) * (1. / feature_queue_capacity))

    # One QueueRunner with several enqueue ops keeps the queue full; the last batch is not lost.
    enqueue_ops = [input_queue.enqueue(tensors_to_enqueue) for _ in range(num_enqueue_threads)]
    tf.compat.v1.train.queue_runner.add_queue_runner(tf.compat.v1.train.queue_runner.QueueRunner(
        input_queue, enqueue_ops,
        queue_closed_exception_types=(tf.errors.OutOfRangeError, tf.errors.CancelledError)))

    dequeued_tensors = input_queue.dequeue()
    if not isinstance(dequeued_tensors, list):
      dequeued_tensors = [dequeued_tensors]  # a queue of one component dequeues a Tensor, not a list
    for i, tensor in enumerate(tensors_to_enqueue):
      dequeued_tensors[i].set_shape(tensor.get_shape())

    dequeued_parsed_features = {}
    index = 0
    for key, is_sparse_tensor in tensors_mapping:
      if is_sparse_tensor:
        dequeued_parsed_features[key] = tf.SparseTensor(
            dequeued_tensors[index], dequeued_tensors[index + 1], dequeued_tensors[index + 2])
        index += 3
      else:
        dequeued_parsed_features[key] = dequeued_tensors[index]
        index += 1

    dequeued_keys = dequeued_tensors[-1] if keys is not None else None
    return dequeued_keys, dequeued_parsed_features


def read_batch_features(file_pattern, batch_size, features, reader, randomize_input=True, num_epochs=None,
                        queue_capacity=10000, feature_queue_capacity=100, reader_num_threads=1,
                        num_enqueue_threads=2, parse_fn=None, name=None, read_batch_size=None):
  """Reads, batches and parses `Example` protos by `features`: a dict of Tensor / SparseTensor."""
  _, features = read_keyed_batch_features(
      file_pattern, batch_size, features, reader, randomize_input=randomize_input, num_epochs=num_epochs,
      queue_capacity=queue_capacity, reader_num_threads=reader_num_threads,
      feature_queue_capacity=feature_queue_capacity, num_enqueue_threads=num_enqueue_threads,
      read_batch_size=read_batch_size, parse_fn=parse_fn, name=name)
  return features


def read_batch_record_features(file_pattern, batch_size, features, randomize_input=True, num_epochs=None,
                               queue_capacity=10000, reader_num_threads=1, name="dequeue_record_examples"):
  """`read_batch_features` of TFRecord files (a `TFRecordReader`)."""
  return read_batch_features(
      file_pattern=file_pattern, batch_size=batch_size, features=features, reader=tf.compat.v1.TFRecordReader,
      randomize_input=randomize_input, num_epochs=num_epochs, queue_capacity=queue_capacity,
      reader_num_threads=reader_num_threads, name=name)


__getattr__ = _catalog.module_getattr(__name__)

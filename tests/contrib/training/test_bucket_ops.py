"""tf.contrib.training.bucket_by_sequence_length: TF 1.15's queue-runner bucketing, on tf.compat.v1 queues."""

import numpy as np
import pytest
import tensorflow as tf

import tf1clip.contrib as contrib

LENGTHS = np.array([1, 5, 2, 6, 3, 7, 2, 4], np.int32)
DATA = np.stack([np.pad(np.arange(1, n + 1), (0, 8 - n)) for n in LENGTHS]).astype(np.int32)


def _batches(sess, fetches, count):
  coord = tf.compat.v1.train.Coordinator()
  threads = tf.compat.v1.train.start_queue_runners(sess=sess, coord=coord)
  try:
    return [sess.run(fetches) for _ in range(count)]
  finally:
    coord.request_stop()
    coord.join(threads, stop_grace_period_secs=5)


def test_every_batch_holds_one_bucket_padded_to_its_longest_sequence(sess):
  length, row = tf.compat.v1.train.slice_input_producer([LENGTHS, DATA], shuffle=False)
  sequence = row[:length]  # a variable-length example, as read from a file
  lengths, (sequences,) = contrib.training.bucket_by_sequence_length(
      length, [sequence], batch_size=2, bucket_boundaries=[4], dynamic_pad=True, capacity=8)
  assert lengths.shape.as_list() == [2] and sequences.shape.as_list() == [2, None]
  seen = []
  for got_lengths, got in _batches(sess, [lengths, sequences], 8):
    assert len(set(got_lengths >= 4)) == 1, got_lengths  # one bucket per batch
    assert got.shape == (2, got_lengths.max())
    for n, padded in zip(got_lengths, got):
      np.testing.assert_array_equal(padded, np.pad(np.arange(1, n + 1), (0, got.shape[1] - n)))
    seen += got_lengths.tolist()
  # The input cycles, so the short and long buckets both keep delivering.
  assert min(seen) < 4 <= max(seen)


def test_dict_input_and_per_bucket_batch_sizes(sess):
  length, row = tf.compat.v1.train.slice_input_producer([LENGTHS, DATA], shuffle=False)
  lengths, out = contrib.training.bucket_by_sequence_length(
      length, {"ids": row, "n": length}, batch_size=[1, 3], bucket_boundaries=[4], capacity=8)
  assert sorted(out) == ["ids", "n"]
  for got_lengths, got in _batches(sess, [lengths, out], 4):
    assert len(got_lengths) == (1 if got_lengths[0] < 4 else 3)
    np.testing.assert_array_equal(got["n"], got_lengths)
    for n, ids in zip(got_lengths, got["ids"]):
      np.testing.assert_array_equal(ids, DATA[list(LENGTHS).index(n)])


def test_bad_boundaries_and_sparse_input_are_refused(graph):
  with pytest.raises(ValueError, match="must increase; got 5 before 3"):
    contrib.training.bucket_by_sequence_length(3, [tf.zeros([2])], 2, [5, 3])
  with pytest.raises(TypeError, match="bucket_boundaries must be a list"):
    contrib.training.bucket_by_sequence_length(3, [tf.zeros([2])], 2, 5)
  sparse = tf.SparseTensor([[0]], [1.0], [3])
  with pytest.raises(TypeError, match="dense tensors only"):
    contrib.training.bucket_by_sequence_length(3, [sparse], 2, [5])
  with pytest.raises(ValueError, match="not fully defined"):
    contrib.training.bucket_by_sequence_length(
        3, [tf.compat.v1.placeholder(tf.float32, [None])], 2, [5])

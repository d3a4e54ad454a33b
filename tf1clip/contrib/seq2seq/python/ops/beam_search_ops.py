"""`tf.contrib.seq2seq.gather_tree`: beam search's backtracking, in TensorFlow ops.

Place in the data flow (DESIGN.md): BeamSearchDecoder.finalize -> **gather_tree** -> the final
predicted ids. TF 1.15 ran a contrib C++ kernel (`GatherTree`) that TensorFlow 2.21 does not ship
(`tf.raw_ops` has no GatherTree), so this is the same computation as one `tf.scan` backwards over
time, vectorised over batch and beam; it runs on any device.
"""

import tensorflow as tf


def gather_tree(step_ids, parent_ids, max_sequence_lengths, end_token, name=None):
  """Follows parent pointers back from the last step to recover each beam's full id sequence.

  For each batch entry b with L = min(max_time, max_sequence_lengths[b]) and each beam w:
  beams[L-1, b, w] = step_ids[L-1, b, w]; going back, p = parent_ids[t+1, ...] chains
  beams[t, b, w] = step_ids[t, b, p]. Steps at or after L are `end_token`, and so is every step
  after the first `end_token` in a beam (as TF 1.15's kernel).

  Args:
    step_ids: int32 `[max_time, batch_size, beam_width]`, the id chosen at each step.
    parent_ids: int32 `[max_time, batch_size, beam_width]`, the beam each id extended.
    max_sequence_lengths: int32 `[batch_size]`, the decoded length of each batch entry.
    end_token: int32 scalar.
    name: name scope; default "GatherTree".

  Returns:
    int32 `[max_time, batch_size, beam_width]`: the backtracked ids.

  Raises:
    tf.errors.InvalidArgumentError (at run time): if a parent id within a sequence is outside
      [0, beam_width).
  """
  with tf.compat.v1.name_scope(name, "GatherTree",
                               [step_ids, parent_ids, max_sequence_lengths, end_token]):
    step_ids = tf.convert_to_tensor(step_ids, tf.int32, name="step_ids")
    parent_ids = tf.convert_to_tensor(parent_ids, tf.int32, name="parent_ids")
    max_sequence_lengths = tf.convert_to_tensor(max_sequence_lengths, tf.int32,
                                                name="max_sequence_lengths")
    end_token = tf.convert_to_tensor(end_token, tf.int32, name="end_token")
    shape = tf.shape(parent_ids)
    max_time, beam_width = shape[0], shape[2]
    in_range = (tf.range(max_time)[:, None] < max_sequence_lengths[None, :])  # [time, batch]
    in_range = tf.broadcast_to(in_range[:, :, None], shape)
    check = tf.debugging.assert_equal(
        tf.reduce_all(tf.logical_or(tf.logical_not(in_range), tf.logical_and(
            parent_ids >= 0, parent_ids < beam_width))), True,
        message="gather_tree saw an invalid parent id (outside [0, beam_width)) within a sequence")

    def backtrack(carry, step):
      pointer = carry[1]
      ids, parents, valid = step
      picked = tf.gather(ids, pointer, batch_dims=1)
      next_pointer = tf.gather(parents, pointer, batch_dims=1)
      return (tf.where(valid, picked, end_token), tf.where(valid, next_pointer, pointer))

    identity = tf.broadcast_to(tf.range(beam_width)[None, :], shape[1:])
    with tf.control_dependencies([check]):
      beams, _ = tf.scan(backtrack, (step_ids, parent_ids, in_range),
                         initializer=(tf.zeros_like(identity), identity), reverse=True)
    # Everything after a beam's first end_token is end_token too.
    is_end = tf.cast(tf.equal(beams, end_token), tf.int32)
    after_end = tf.cumsum(is_end, axis=0, exclusive=True) > 0
    beams = tf.where(after_end, tf.fill(shape, end_token), beams)
    beams.set_shape(step_ids.shape)
    return beams

"""tf1clip.transforms.all_finite's cheap paths (issue 16) give the exact answer.

The flag is built from one sum per gradient, with an element-wise check run lazily only when that
sum is not finite, or from the global norm of the clip_by_global_norm that produced the gradients,
passed explicitly (`run_with_guard_norm`), and only when the clip is the last transform. These tests hit each path with the cases that could fool it: finite values whose sums
overflow, inf + -inf, mixed dtypes, and gradients changed after the clip.
"""

import numpy as np
import pytest
import tensorflow as tf

from tf1clip import transforms

BIG = np.float32(3e38)  # finite; two of them sum to inf in float32


def _run(sess, flag, feed=None):
  return bool(sess.run(flag, feed))


def test_finite_values_whose_sum_overflows_count_as_finite(sess):
  v = tf.compat.v1.Variable(tf.zeros([3]))
  g = tf.compat.v1.placeholder(tf.float32, [3])
  flag = transforms.all_finite([(g, v)])
  assert _run(sess, flag, {g: [BIG, BIG, BIG]})
  assert _run(sess, flag, {g: [BIG, -BIG, 1.0]})
  assert not _run(sess, flag, {g: [BIG, np.inf, 1.0]})
  assert not _run(sess, flag, {g: [np.inf, -np.inf, 0.0]})  # sums to NaN: must still say False
  assert not _run(sess, flag, {g: [np.nan, 0.0, 0.0]})


def test_overflowing_sums_across_gradients_and_dtypes(sess):
  v32 = tf.compat.v1.Variable(tf.zeros([2]))
  v16 = tf.compat.v1.Variable(tf.zeros([2], tf.float16))
  g32 = tf.compat.v1.placeholder(tf.float32, [2])
  g16 = tf.compat.v1.placeholder(tf.float16, [2])
  flag = transforms.all_finite([(g32, v32), (g16, v16), (None, v32)])
  assert _run(sess, flag, {g32: [BIG, 0.0], g16: [60000.0, 60000.0]})  # f16 sum overflows
  assert not _run(sess, flag, {g32: [BIG, 0.0], g16: [np.nan, 1.0]})
  assert not _run(sess, flag, {g32: [-np.inf, 0.0], g16: [1.0, 1.0]})


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_after_a_global_clip_the_flag_is_the_norms(sess, bad):
  v = tf.compat.v1.Variable(tf.zeros([2]))
  e = tf.compat.v1.Variable(tf.zeros([4, 2]))
  g = tf.compat.v1.placeholder(tf.float32, [2])
  slices = tf.IndexedSlices(tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([1, 1]),
                            tf.constant([4, 2]))
  clipped, norm = transforms.run_with_guard_norm(transforms.clip_by_global_norm(1.0),
                                                 [(g, v), (slices, e)])
  assert norm is not None
  flag = transforms.all_finite(clipped, global_norm=norm)
  # No second pass: the flag reads the clip's norm (no IsFinite over the gradients themselves).
  assert flag.op.type == "IsFinite" and "global_norm" in flag.op.inputs[0].name
  exact = transforms.all_finite(clipped)  # the per-gradient path, as the reference
  for feed in ([BIG, 1.0], [1.0, 2.0], [bad, 2.0]):
    assert _run(sess, flag, {g: feed}) == _run(sess, exact, {g: feed})
  assert _run(sess, flag, {g: [BIG, 1.0]}) is False  # the norm overflows: the clip gives NaN
  assert _run(sess, flag, {g: [1.0, 2.0]})
  assert not _run(sess, flag, {g: [bad, 2.0]})


def _sum_ops_under_all_finite(graph):
  return [op for op in graph.get_operations()
          if op.type == "Sum" and "all_finite" in op.name]


def test_gradients_changed_after_the_clip_are_checked_themselves(sess):
  v = tf.compat.v1.Variable(tf.zeros([2]))
  g = tf.compat.v1.placeholder(tf.float32, [2])
  clipped = transforms.clip_by_global_norm(1.0)([(g, v)])
  changed = [(clipped[0][0] * np.float32(np.inf), v)]
  flag = transforms.all_finite(changed)  # no norm given: the gradients are read
  assert _sum_ops_under_all_finite(sess.graph)
  assert not _run(sess, flag, {g: [1.0, 2.0]})


def _times_two(grads_and_vars):
  return [(None if g is None else g * np.float32(2.0), v) for g, v in grads_and_vars]


def _times_inf(grads_and_vars):
  return [(None if g is None else g * np.float32(np.inf), v) for g, v in grads_and_vars]


@pytest.mark.parametrize("observed", [False, True])
def test_a_chain_whose_clip_is_not_last_gives_no_norm(sess, observed):
  from tf1clip import summaries  # pylint: disable=g-import-not-at-top
  v = tf.compat.v1.Variable(tf.zeros([2]))
  g = tf.compat.v1.placeholder(tf.float32, [2])
  chain = transforms.chain(transforms.clip_by_global_norm(1.0), _times_inf)
  run = summaries.observe(chain) if observed else chain
  run.build([v])
  out, norm = transforms.run_with_guard_norm(run, [(g, v)])
  assert norm is None  # _times_inf makes a finite norm's gradients inf
  flag = transforms.all_finite(out, global_norm=norm)
  sess.run(tf.compat.v1.global_variables_initializer())  # the observer's counters
  assert not _run(sess, flag, {g: [1.0, 2.0]})


@pytest.mark.parametrize("observed", [False, True])
def test_a_chain_whose_clip_is_last_gives_its_norm(sess, observed):
  from tf1clip import summaries  # pylint: disable=g-import-not-at-top
  v = tf.compat.v1.Variable(tf.zeros([2]))
  g = tf.compat.v1.placeholder(tf.float32, [2])
  chain = transforms.chain(_times_two, transforms.clip_by_global_norm(1.0))
  run = summaries.observe(chain) if observed else chain
  run.build([v])
  out, norm = transforms.run_with_guard_norm(run, [(g, v)])
  assert norm is not None
  # Computed once: the observer records the clip's norm instead of a second one.
  assert len([op for op in sess.graph.get_operations() if op.type == "Sqrt"]) == 1
  flag = transforms.all_finite(out, global_norm=norm)
  sess.run(tf.compat.v1.global_variables_initializer())  # the observer's counters
  assert _run(sess, flag, {g: [1.0, 2.0]})
  assert not _run(sess, flag, {g: [np.nan, 2.0]})
  assert not _run(sess, flag, {g: [BIG, 2.0]})  # 2 * BIG overflows to inf

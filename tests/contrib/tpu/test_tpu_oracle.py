"""contrib.tpu's program building blocks against TF 1.15: the infeed / outfeed ops and InfeedQueue as
built, repeat / while_loop run on the CPU."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.tpu." + n for n in (
    "InfeedQueue", "infeed_dequeue", "infeed_dequeue_tuple", "infeed_enqueue", "infeed_enqueue_tuple",
    "outfeed_dequeue", "outfeed_dequeue_tuple", "outfeed_enqueue", "outfeed_enqueue_tuple", "repeat",
    "while_loop"))

SNIPPET = r'''
import tensorflow as tf
c = tf.contrib
# tpu: ops are built (they run only on a TPU); the loops run anywhere
T = c.tpu
def op_summary(out):
    outs = out if isinstance(out, (list, tuple)) else [out]
    return [[o.type, [[str(i.dtype), str(i.shape)] for i in o.outputs]] for o in
            {(t.op if hasattr(t, "op") else t).name: (t.op if hasattr(t, "op") else t) for t in outs}.values()]
with tf.Graph().as_default():  # a TPU-only graph: built, never run
    report("tpu_ops", [op_summary(T.infeed_dequeue(tf.float32, [2, 3])),
                       op_summary(T.infeed_dequeue_tuple([tf.int32, tf.float32], [[2], [1, 4]])),
                       op_summary(T.infeed_enqueue(tf.zeros([2, 3]))),
                       op_summary(T.infeed_enqueue_tuple([tf.zeros([2], tf.int32), tf.zeros([1, 4])], [[2], [1, 4]])),
                       op_summary(T.outfeed_dequeue(tf.float32, [5])),
                       op_summary(T.outfeed_dequeue_tuple([tf.float32, tf.int32], [[5], []])),
                       op_summary(T.outfeed_enqueue(tf.zeros([5]))),
                       op_summary(T.outfeed_enqueue_tuple([tf.zeros([5]), tf.zeros([], tf.int32)]))])
    queue = T.InfeedQueue(number_of_tuple_elements=2)
    queue.set_tuple_types([tf.float32, tf.int32])
    queue.set_tuple_shapes([[4, 2], [4]])
    queue.set_number_of_shards(2)
    report("infeed_queue", [queue.number_of_tuple_elements, [str(t) for t in queue.tuple_types],
                            [str(sh) for sh in queue.tuple_shapes], queue.number_of_shards,
                            op_summary(queue.generate_dequeue_op())])
with tf.Graph().as_default():
    looped = T.repeat(4, lambda x, y: [x * 2.0, y + 1], [tf.constant(1.0), tf.constant(0)])
    counted = T.while_loop(lambda i, total: i < 5, lambda i, total: [i + 1, total + i], [0, 0])
    with tf.Session() as sess:
        report("tpu_loops", sess.run([looped, counted]))
'''


@requires_tf115
def test_tpu_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6)

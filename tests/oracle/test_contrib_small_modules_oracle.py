"""Small contrib modules against TF 1.15: staging.StagingArea, proto.encode_proto / decode_proto, batching.
batch_function (TF 1.15's list of outputs), autograph (to_graph / do_not_convert / stack),
deprecated's tag-named summaries (the same serialized Summary protos), and sparsemax / sparsemax_loss (values and
gradients, NaN rows), and tpu's program building blocks (the infeed / outfeed ops and InfeedQueue as built,
repeat / while_loop run on the CPU)."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = (
    "tf.contrib.staging.StagingArea", "tf.contrib.proto.decode_proto", "tf.contrib.proto.encode_proto",
    "tf.contrib.batching.batch_function", "tf.contrib.autograph.to_graph",
    "tf.contrib.autograph.do_not_convert", "tf.contrib.autograph.stack",
    "tf.contrib.deprecated.scalar_summary",
    "tf.contrib.deprecated.histogram_summary", "tf.contrib.deprecated.image_summary",
    "tf.contrib.deprecated.audio_summary", "tf.contrib.deprecated.merge_summary",
    "tf.contrib.deprecated.merge_all_summaries", "tf.contrib.sparsemax.sparsemax",
    "tf.contrib.sparsemax.sparsemax_loss") + tuple("tf.contrib.tpu." + n for n in (
        "InfeedQueue", "infeed_dequeue", "infeed_dequeue_tuple", "infeed_enqueue", "infeed_enqueue_tuple",
        "outfeed_dequeue", "outfeed_dequeue_tuple", "outfeed_enqueue", "outfeed_enqueue_tuple", "repeat",
        "while_loop"))

SNIPPET = r'''
import numpy as np
import tensorflow as tf
c = tf.contrib
# staging
area = c.staging.StagingArea([tf.float32, tf.int32], shapes=[[2], []])
put = area.put([tf.constant([1.0, 2.0]), tf.constant(7)])
got = area.get()
report("staging_size_op", type(area.size()).__name__ in ("Tensor", "SymbolicTensor"))
# proto: a TensorShapeProto.Dim (a message TensorFlow's own descriptor pool has)
dims = c.proto.encode_proto(sizes=tf.constant([[1, 1]]), values=[tf.constant([[5]], tf.int64),
                                                                   tf.constant([["batch"]])],
                            field_names=["size", "name"], message_type="tensorflow.TensorShapeProto.Dim")
decoded_sizes, decoded = c.proto.decode_proto(dims, "tensorflow.TensorShapeProto.Dim", ["size", "name"],
                                              [tf.int64, tf.string])
# batching (graph mode: a batched function, called once)
@c.batching.batch_function(1, 4, 100000)
def doubled(x):
    return x * 2
batched = doubled(tf.constant([[1.0], [2.0]]))
# autograph (the conversion itself is TensorFlow's: checked by name here, not run; TF 1.15's converter does
# not convert a function defined in this generated snippet file)
def collatz(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps
report("to_graph_callable", callable(c.autograph.to_graph(collatz)))
report("do_not_convert_callable", callable(c.autograph.do_not_convert(collatz)))
stacked = c.autograph.stack(tf.constant([1.0, 2.0]))
report_errors("autograph_errors", (("stack_python_list", lambda: c.autograph.stack([tf.constant(1.0)])),))
# deprecated summaries
s1 = c.deprecated.scalar_summary(["a", "b"], tf.constant([1.5, 2.5]))
s2 = c.deprecated.histogram_summary("h", tf.constant([1.0, 2.0, 2.0, 3.0]))
s3 = c.deprecated.image_summary("img", tf.zeros([2, 4, 4, 3]), max_images=1)
s4 = c.deprecated.audio_summary("snd", tf.zeros([1, 8]), sample_rate=8000)
merged = c.deprecated.merge_all_summaries()
merged_two = c.deprecated.merge_summary([s1, s2])
report("summary_collection", len(tf.get_collection(tf.GraphKeys.SUMMARIES)))
report("merge_none", c.deprecated.merge_all_summaries(key="nothing_here") is None)
# sparsemax
logits = tf.constant([[1.0, 2.0, 0.5, -1.0], [0.1, 0.1, 0.1, 0.1], [3.0, -2.0, 1.0, 2.9],
                      [float("nan"), 1.0, 0.0, 0.0]])
labels = tf.constant([[0.0, 1.0, 0.0, 0.0], [0.25, 0.25, 0.25, 0.25], [1.0, 0.0, 0.0, 0.0],
                      [0.0, 1.0, 0.0, 0.0]])
p = c.sparsemax.sparsemax(logits)
loss = c.sparsemax.sparsemax_loss(logits, p, labels)
good = tf.constant([[1.0, 2.0, 0.5, -1.0], [3.0, -2.0, 1.0, 2.9]])
grad = tf.gradients(tf.reduce_sum(c.sparsemax.sparsemax(good) * [[1.0, 2.0, 3.0, 4.0]]), good)[0]
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
with tf.Session() as sess:
    sess.run(put)
    report("staged", sess.run(got))
    report("proto", sess.run([decoded_sizes, decoded]))
    report("batched", sess.run(batched))
    report("stacked", sess.run(stacked))
    report("summaries", [sess.run(s) for s in (s1, s2, s3, s4, merged, merged_two)])
    report("sparsemax", sess.run({"p": p, "loss": loss, "grad": grad}))
'''


@requires_tf115
def test_small_modules_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6)

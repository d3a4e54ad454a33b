"""contrib.proto against TF 1.15: encode_proto / decode_proto of a TensorShapeProto.Dim."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.proto.decode_proto", "tf.contrib.proto.encode_proto")

SNIPPET = r'''
import tensorflow as tf
c = tf.contrib
# proto: a TensorShapeProto.Dim (a message TensorFlow's own descriptor pool has)
dims = c.proto.encode_proto(sizes=tf.constant([[1, 1]]), values=[tf.constant([[5]], tf.int64),
                                                                   tf.constant([["batch"]])],
                            field_names=["size", "name"], message_type="tensorflow.TensorShapeProto.Dim")
decoded_sizes, decoded = c.proto.decode_proto(dims, "tensorflow.TensorShapeProto.Dim", ["size", "name"],
                                              [tf.int64, tf.string])
with tf.Session() as sess:
    report("proto", sess.run([decoded_sizes, decoded]))
'''


@requires_tf115
def test_proto_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6)

"""tf.contrib.feature_column against TF 1.15: sequence columns (identity, hash bucket, vocabulary list and file,
numeric) through sequence_input_layer: the same variables, input tensor and sequence lengths from the same
weights, and gradients; the error for a column that is not a sequence dense column."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.feature_column." + n for n in (
    "sequence_categorical_column_with_hash_bucket", "sequence_categorical_column_with_identity",
    "sequence_categorical_column_with_vocabulary_file", "sequence_categorical_column_with_vocabulary_list",
    "sequence_numeric_column", "sequence_input_layer"))

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
sfc = tf.contrib.feature_column
vocab = os.path.abspath("vocab.txt")
with open(vocab, "w") as f:
    f.write("a\nb\nc\n")
ids = sfc.sequence_categorical_column_with_identity("ids", num_buckets=5)
hashed = sfc.sequence_categorical_column_with_hash_bucket("words", hash_bucket_size=7)
listed = sfc.sequence_categorical_column_with_vocabulary_list("tags", ["x", "y", "z"], num_oov_buckets=1)
filed = sfc.sequence_categorical_column_with_vocabulary_file("letters", vocab)
numeric = sfc.sequence_numeric_column("values", shape=(2,))
columns = [tf.feature_column.embedding_column(ids, 3), tf.feature_column.embedding_column(hashed, 2),
           tf.feature_column.indicator_column(listed), tf.feature_column.embedding_column(filed, 2), numeric]
def sparse(indices, values, shape):
    return tf.SparseTensor(indices=indices, values=values, dense_shape=shape)
rows = [[0, 0], [0, 1], [1, 0], [2, 0], [2, 1], [2, 2]]
features = {
    "ids": sparse(rows, tf.constant([1, 4, 2, 0, 3, 3], tf.int64), [3, 3]),
    "words": sparse(rows, ["the", "cat", "dog", "a", "b", "the"], [3, 3]),
    "tags": sparse(rows, ["x", "q", "z", "y", "y", "x"], [3, 3]),
    "letters": sparse(rows, ["a", "c", "b", "b", "a", "d"], [3, 3]),
    "values": sparse([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1], [2, 0], [2, 1], [2, 2], [2, 3], [2, 4], [2, 5]],
                     np.arange(12, dtype=np.float32), [3, 6])}
layer, lengths = sfc.sequence_input_layer(features, columns)
report("static_shape", layer.shape.as_list())
grads = tf.gradients(tf.reduce_sum(layer * layer), tf.trainable_variables())
report_variables()
report_errors("errors", (("not_sequence", lambda: sfc.sequence_input_layer(
    features, [tf.feature_column.numeric_column("values")])),))
with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
    init_from_numpy(sess, seed=3, scale=0.5)
    report("values", sess.run({"layer": layer, "lengths": lengths, "grads": [tf.convert_to_tensor(g) for g in grads]}))
'''


@requires_tf115
def test_sequence_columns_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["errors"] == {"not_sequence": "ValueError"}
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)

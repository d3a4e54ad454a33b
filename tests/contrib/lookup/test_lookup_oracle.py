"""contrib.lookup against TF 1.15: tables built from tensors and from a vocabulary file TF 1.15's scripts would
read, with OOV buckets and defaults; mutable and dense hash tables.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.lookup." + n for n in (
    "HashTable", "KeyValueTensorInitializer", "MutableHashTable", "MutableDenseHashTable", "TextFileInitializer",
    "TextFileIndex", "IdTableWithHashBuckets", "index_table_from_file", "index_table_from_tensor",
    "index_to_string_table_from_file", "index_to_string_table_from_tensor", "string_to_index", "index_to_string",
    "string_to_index_table_from_tensor", "string_to_index_table_from_file"))

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
lookup = tf.contrib.lookup
vocab = os.path.join(ORACLE_SHARED, "vocab.txt")
with open(vocab, "w") as f:
    f.write("the\ncat\nsat\nmat\n")
words = tf.constant(["cat", "dog", "the", "mat", "zebra"])
keys = tf.constant(["a", "b", "c"])
values = tf.constant([10, 20, 30], tf.int64)
table = lookup.HashTable(lookup.KeyValueTensorInitializer(keys, values), -1)
from_file = lookup.index_table_from_file(vocab, num_oov_buckets=2)
from_file_default = lookup.index_table_from_file(vocab, default_value=7)
from_tensor = lookup.index_table_from_tensor(tf.constant(["the", "cat"]), num_oov_buckets=1)
to_string = lookup.index_to_string_table_from_file(vocab, default_value="UNKNOWN")
to_string_tensor = lookup.index_to_string_table_from_tensor(tf.constant(["x", "y"]))
text_init = lookup.HashTable(lookup.TextFileInitializer(vocab, tf.string, lookup.TextFileIndex.WHOLE_LINE,
                                                        tf.int64, lookup.TextFileIndex.LINE_NUMBER), -5)
buckets = lookup.IdTableWithHashBuckets(table, 3, key_dtype=tf.string)
mutable = lookup.MutableHashTable(tf.string, tf.int64, -1)
insert = mutable.insert(tf.constant(["p", "q"]), tf.constant([1, 2], tf.int64))
dense = lookup.MutableDenseHashTable(tf.int64, tf.int64, default_value=-1, empty_key=0, deleted_key=-1)
dense_insert = dense.insert(tf.constant([5, 6], tf.int64), tf.constant([50, 60], tf.int64))
fetches = {
    "hash": table.lookup(tf.constant(["b", "z", "a"])), "hash_size": table.size(),
    "from_file": from_file.lookup(words), "from_file_default": from_file_default.lookup(words),
    "from_tensor": from_tensor.lookup(words), "to_string": to_string.lookup(tf.constant([0, 3, 9], tf.int64)),
    "to_string_tensor": to_string_tensor.lookup(tf.constant([1, 5], tf.int64)),
    "text_init": text_init.lookup(words), "buckets": buckets.lookup(tf.constant(["a", "unknown", "zz"])),
    "string_to_index": lookup.string_to_index(words, tf.constant(["the", "mat"])),
    "index_to_string": lookup.index_to_string(tf.constant([1, 4], tf.int64), tf.constant(["x", "y"])),
    "s2i_tensor": lookup.string_to_index_table_from_tensor(tf.constant(["sat"])).lookup(words),
    "s2i_file": lookup.string_to_index_table_from_file(vocab).lookup(words),
}
with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
    sess.run([insert, dense_insert])
    fetches["mutable"] = mutable.lookup(tf.constant(["q", "r"]))
    fetches["dense"] = dense.lookup(tf.constant([6, 7], tf.int64))
    for k, v in sorted(sess.run(fetches).items()):
        report(k, v)
'''


@requires_tf115
def test_lookup_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5)

"""tf.contrib.data.LMDBDataset against TF 1.15: two LMDB files written here (with the `lmdb` package, which
tf1clip's LMDBDataset also reads them with; TF 1.15 used its own kernel) give the same (key, value) pairs in the
same order on both sides: one file by name, both in a list, through map and batch; the element types and
shapes; a TF2-style dataset (no make_one_shot_iterator method) as in TF 1.15; and the errors of a file that does
not exist and of a rank-2 filenames tensor."""

import os
import tempfile

import lmdb

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.data.LMDBDataset",)

SNIPPET = r'''
import os
import tensorflow as tf
first = os.path.join(ORACLE_SHARED, "first.mdb")
second = os.path.join(ORACLE_SHARED, "second.mdb")

def read_all(dataset):
    next_element = tf.data.make_one_shot_iterator(dataset).get_next()
    values = []
    with tf.Session() as sess:
        while True:
            try:
                values.append(sess.run(next_element))
            except tf.errors.OutOfRangeError:
                return values

one = tf.contrib.data.LMDBDataset(first)
report("v1_methods", [hasattr(one, "make_one_shot_iterator"), isinstance(one, tf.data.Dataset)])
report("types", [str(t) for t in tf.compat.v1.data.get_output_types(one)])
report("shapes", [str(s) for s in tf.compat.v1.data.get_output_shapes(one)])
report("one", [[k.decode("latin-1"), v.decode("latin-1")] for k, v in read_all(one)])
both = tf.contrib.data.LMDBDataset([first, second])
report("both", [[k.decode("latin-1"), v.decode("latin-1")] for k, v in read_all(both)])
mapped = both.map(lambda k, v: tf.strings.join([k, v], separator="=")).batch(3)
report("mapped", [[x.decode("latin-1") for x in batch] for batch in read_all(mapped)])
with case("missing_file"):
    read_all(tf.contrib.data.LMDBDataset(os.path.join(ORACLE_SHARED, "missing.mdb")))
with case("rank_2_filenames"):
    read_all(tf.contrib.data.LMDBDataset([[first]]))
'''


def _write(path, items):
  env = lmdb.open(path, subdir=False, map_size=1 << 20)  # one data file (TF's reader opens it MDB_NOSUBDIR)
  with env.begin(write=True) as txn:
    for key, value in items:
      txn.put(key, value)
  env.close()


@requires_tf115
def test_lmdb_dataset_reads_what_tf115_reads():
  with tempfile.TemporaryDirectory() as shared:
    # keys put out of order: LMDB keeps them sorted, and both readers walk the sorted keys
    _write(os.path.join(shared, "first.mdb"), [(b"key-%02d" % i, b"value %d" % (i * i)) for i in (3, 0, 7, 1)])
    _write(os.path.join(shared, "second.mdb"), [(b"b", b"\x00\xff binary"), (b"a", b"")])
    tf115, ours = run_both(SNIPPET, shared=shared)
  assert tf115["one"][0] == ["key-00", "value 0"] and len(tf115["both"]) == 6
  assert tf115["missing_file:error"] == tf115["rank_2_filenames:error"] == "InvalidArgumentError"
  assert_same(tf115, ours)

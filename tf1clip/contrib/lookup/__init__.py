"""`tf.contrib.lookup`: TF 1.15's table API. The tables, initializers and `index_*_from_file` functions are
TensorFlow's own objects (TF 1.15's contrib.lookup re-exported `lookup_ops`, which TF 2.21 still has); ours, as
thin calls of those: the four deprecated `string_to_index*` / `index_to_string` functions TF 1.15 kept, and
`index_table_from_tensor` / `index_to_string_table_from_tensor` under TF 1.15's parameter name `mapping`
(TF 2.21 renamed it `vocabulary_list`).
"""

import tensorflow as tf
from tensorflow.python.ops import lookup_ops  # pylint: disable=g-direct-tensorflow-import

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tensorflow.python.ops.lookup_ops import (
    DenseHashTable as MutableDenseHashTable, FastHashSpec, HasherSpec, HashTable, IdTableWithHashBuckets,
    index_table_from_file, index_to_string_table_from_file, InitializableLookupTableBase, KeyValueTensorInitializer,
    LookupInterface, MutableHashTable, StrongHashSpec, TableInitializerBase, TextFileIdTableInitializer,
    TextFileIndex, TextFileInitializer, TextFileStringTableInitializer)


def _ops():
  return lookup_ops


def index_table_from_tensor(mapping, num_oov_buckets=0, default_value=-1, hasher_spec=lookup_ops.FastHashSpec,
                            dtype=tf.string, name=None):
  """A table from the strings (or ints) of `mapping` to their index, with `num_oov_buckets` hash buckets."""
  return lookup_ops.index_table_from_tensor(mapping, num_oov_buckets, default_value, hasher_spec, dtype, name)


def index_to_string_table_from_tensor(mapping, default_value="UNK", name=None):
  """A table from an index to the string of `mapping` at it (`default_value` out of range)."""
  return lookup_ops.index_to_string_table_from_tensor(mapping, default_value, name)


def string_to_index_table_from_file(vocabulary_file=None, num_oov_buckets=0, vocab_size=None, default_value=-1,
                                    hasher_spec=lookup_ops.FastHashSpec, name=None):
  """TF 1.15's deprecated alias of `index_table_from_file` (string keys)."""
  ops = _ops()
  return ops.index_table_from_file(vocabulary_file, num_oov_buckets, vocab_size, default_value,
                                   hasher_spec, name=name)


def string_to_index_table_from_tensor(mapping, num_oov_buckets=0, default_value=-1,
                                      hasher_spec=lookup_ops.FastHashSpec, name=None):
  """TF 1.15's deprecated alias of `index_table_from_tensor` (string keys)."""
  ops = _ops()
  return ops.index_table_from_tensor(mapping, num_oov_buckets, default_value, hasher_spec, name=name)


def string_to_index(tensor, mapping, default_value=-1, name=None):
  """TF 1.15's `string_to_index`: the index of each string of `tensor` in `mapping` (else `default_value`)."""
  with tf.compat.v1.name_scope(name, "string_to_index") as scope:
    table = _ops().index_table_from_tensor(mapping, default_value=default_value, name=scope)
    return table.lookup(tensor)


def index_to_string(tensor, mapping, default_value="UNK", name=None):
  """TF 1.15's `index_to_string`: the string of `mapping` at each index of `tensor` (else `default_value`)."""
  with tf.compat.v1.name_scope(name, "index_to_string") as scope:
    table = _ops().index_to_string_table_from_tensor(mapping, default_value=default_value, name=scope)
    return table.lookup(tensor)


# The declaration: served names whose parameters differ from TF 1.15's in a way a TF 1.15 call can notice.
SIGNATURE_DIFFERENCES = {
    "HashTable": (
        "TensorFlow 2.21's lookup_ops.HashTable (TF 1.15's own class): `shared_name` is gone (tables are "
        "no longer shared between sessions by name); pass `name=` by keyword"),
}

# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = 'tf.lookup'

__getattr__ = _catalog.module_getattr(__name__)

"""`tf.contrib.feature_column`: TF 1.15's sequence feature columns and `sequence_input_layer`.

The five sequence-column constructors moved into TensorFlow (`tf.feature_column.sequence_*`) and are served
as those functions (imported below). `sequence_input_layer(features, feature_columns)` is gone from TensorFlow;
here it is TF 1.15's code on TensorFlow's column machinery: each column's sequence dense tensor, flattened to
[batch, time, size] inside `sequence_input_layer/<column>/`, concatenated, and the sequence length every column
agrees on.
"""

import tensorflow as tf
from tensorflow.python.feature_column import feature_column as _fc
from tensorflow.python.feature_column import feature_column_v2 as _fc2
from tensorflow.python.feature_column import sequence_feature_column as _sfc

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tensorflow.feature_column import (
    sequence_categorical_column_with_hash_bucket, sequence_categorical_column_with_identity,
    sequence_categorical_column_with_vocabulary_file, sequence_categorical_column_with_vocabulary_list,
    sequence_numeric_column)


def sequence_input_layer(features, feature_columns, weight_collections=None, trainable=True):
  """(input [batch, max time, total size], sequence_length [batch]) of sequence dense columns."""
  feature_columns = _fc2._normalize_feature_columns(feature_columns)  # pylint: disable=protected-access
  for column in feature_columns:
    if not (hasattr(column, "_get_sequence_dense_tensor")
            or isinstance(column, _fc2.SequenceDenseColumn)):
      raise ValueError(
          "All feature_columns must be of type _SequenceDenseColumn. You can wrap a "
          "sequence_categorical_column with an embedding_column or indicator_column. "
          "Given (type {}): {}".format(type(column), column))
  with tf.compat.v1.variable_scope(None, default_name="sequence_input_layer",
                                   values=features.values()):
    builder = _fc._LazyBuilder(features)  # pylint: disable=protected-access
    cache = _fc2.FeatureTransformationCache(features)
    output_tensors, sequence_lengths, ordered_columns = [], [], []
    for column in sorted(feature_columns, key=lambda x: x.name):
      ordered_columns.append(column)
      # TF 1.15's columns all had the old (_-prefixed) interface; TF 2.21's sequence_numeric_column
      # has only the new one (and no variables, so no state manager).
      old = hasattr(column, "_get_sequence_dense_tensor")
      scope_name = column._var_scope_name if old else column.name  # pylint: disable=protected-access
      with tf.compat.v1.variable_scope(None, default_name=scope_name):
        if old:
          dense_tensor, sequence_length = column._get_sequence_dense_tensor(  # pylint: disable=protected-access
              builder, weight_collections=weight_collections, trainable=trainable)
          num_elements = column._variable_shape.num_elements()  # pylint: disable=protected-access
        else:
          dense_tensor, sequence_length = column.get_sequence_dense_tensor(cache, None)
          num_elements = column.variable_shape.num_elements()
        shape = tf.shape(dense_tensor)
        output_tensors.append(tf.reshape(dense_tensor, shape=[shape[0], shape[1], num_elements]))
        sequence_lengths.append(sequence_length)
    _fc._verify_static_batch_size_equality(output_tensors, ordered_columns)  # pylint: disable=protected-access
    _fc._verify_static_batch_size_equality(sequence_lengths, ordered_columns)  # pylint: disable=protected-access
    sequence_length = _sfc._assert_all_equal_and_return(sequence_lengths)  # pylint: disable=protected-access
    return tf.concat(output_tensors, -1), sequence_length


# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = ("tf.feature_column's sequence columns (tf1clip serves contrib.feature_column's six names), or Keras "
             'preprocessing layers')

__getattr__ = _catalog.module_getattr(__name__)

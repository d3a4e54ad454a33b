"""TF 1.15's first feature-column API (`tf.contrib.layers.real_valued_column`, ...) on `tf.feature_column`.

Each constructor returns the `tf.compat.v1.feature_column` column TF itself made its successor, with the
TF 1.15 arguments mapped (`real_valued_column(name, dimension)` is `numeric_column(name, shape=(dimension,))`,
`sparse_column_with_keys` a vocabulary-list column, `one_hot_column` an indicator column, ...), so the
columns work with tf.estimator's canned estimators, `input_layer`, `linear_model` and
`make_parse_example_spec`. What differs from TF 1.15 (docs/contrib.md states it too): the column classes
are the new ones (`.name`, not `.column_name`; a one-hot column keeps TF 1.15's name `<column>_one_hot`).
`input_from_feature_columns` is TF 1.15's (feature_column_ops), with its variable names
(`input_from_feature_columns/<column>_embedding/weights`); inside tf.feature_column's own `input_layer` the columns'
variables have tf.feature_column's names. A sparse column's `combiner` was used only by linear models; it is kept
(`combiner_of`) for feature_column_ops' weighted sums. The columns these constructors build are recorded
(`is_contrib_column`): contrib.learn's models take TF 1.15's contrib path (its variable names) for them only, as
TF 1.15 did for its `_FeatureColumn`s, and tf.feature_column's for the columns of `tf.feature_column`.
`scattered_embedding_column` (no successor in tf.feature_column) is TF 1.15's column, built as a
tf.compat.v1.feature_column dense column on embedding_ops.scattered_embedding_lookup_sparse;
`make_place_holder_tensors_for_base_features` is TF 1.15's, on the columns' parse spec.
"""

import numpy as np
import tensorflow as _tf

from tf1clip.contrib import catalog as _catalog

_COMBINERS = {}
_CONTRIB = {}  # id -> column: the columns these constructors built (TF 1.15's contrib `_FeatureColumn`s)


def _contrib(column):
  _CONTRIB[id(column)] = column
  return column


def is_contrib_column(column):
  """Whether `column` came from these constructors (TF 1.15: a contrib `_FeatureColumn`), not tf.feature_column.

  TF 1.15's contrib.learn models took their contrib path (input_from_feature_columns,
  weighted_sum_from_feature_columns: TF 1.15's contrib variable names) only for those columns.
  """
  return _CONTRIB.get(id(column)) is column or type(column).__name__ in ("_OneHotColumn",
                                                                         "_ScatteredEmbeddingColumn")


def _fc():
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  return tf.feature_column


def _check_combiner(combiner, function):
  if combiner not in ("sum", "mean", "sqrtn"):
    raise ValueError("%s: combiner must be one of 'sum', 'mean', 'sqrtn'; got %r"
                     % (function, combiner))


def _remember(column, combiner):
  _COMBINERS[column] = combiner
  return _contrib(column)


def combiner_of(column, default="sum"):
  """The `combiner` a TF 1.15 sparse column was created with (`default` for other columns)."""
  try:
    return _COMBINERS.get(column, default)
  except TypeError:  # an unhashable column
    return default


def real_valued_column(column_name, dimension=1, default_value=None, dtype=_tf.float32,
                       normalizer=None):
  """A dense column of `dimension` values: `numeric_column(column_name, shape=(dimension,))`."""
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  dtype = tf.float32 if dtype is None else tf.as_dtype(dtype)
  if dimension is None:  # TF 1.15 pointed to _real_valued_var_len_column, which tf1clip does not serve
    raise TypeError("dimension must be an integer (a variable-length real_valued_column is not "
                    "served: use tf.compat.v1.feature_column.sequence_numeric_column). "
                    "column_name: {}".format(column_name))
  if not isinstance(dimension, (int, np.integer)):
    raise TypeError("dimension must be an integer. dimension: {}, column_name: {}".format(
        dimension, column_name))
  if dimension < 1:
    raise ValueError("dimension must be greater than 0. dimension: {}, column_name: {}".format(
        dimension, column_name))
  if not (dtype.is_integer or dtype.is_floating):
    raise ValueError("dtype must be convertible to float. dtype: {}, column_name: {}".format(
        dtype, column_name))
  if default_value is not None and not isinstance(default_value, (int, float, list, tuple)):
    raise TypeError("default_value must be int, float, list or tuple; got %r" % (default_value,))
  if isinstance(default_value, (list, tuple)) and len(default_value) != dimension:
    raise ValueError("The length of default_value must be equal to dimension. default_value: {}, "
                     "dimension: {}, column_name: {}".format(default_value, dimension, column_name))
  return _contrib(_fc().numeric_column(column_name, shape=(int(dimension),), default_value=default_value,
                                       dtype=dtype, normalizer_fn=normalizer))


def sparse_column_with_keys(column_name, keys, default_value=-1, combiner="sum",
                            dtype=_tf.string):
  """Ids from a list of keys: `categorical_column_with_vocabulary_list` (unknown keys get `default_value`)."""
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  _check_combiner(combiner, "sparse_column_with_keys")
  dtype = tf.string if dtype is None else tf.as_dtype(dtype)
  return _remember(_fc().categorical_column_with_vocabulary_list(
      column_name, tuple(keys), dtype=dtype, default_value=default_value), combiner)


def sparse_column_with_hash_bucket(column_name, hash_bucket_size, combiner="sum",
                                   dtype=_tf.string, hash_keys=None):
  """Ids by hashing: `categorical_column_with_hash_bucket` (hash_keys, TF 1.15's multi-hash, is refused)."""
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  _check_combiner(combiner, "sparse_column_with_hash_bucket")
  if hash_keys is not None:
    raise ValueError("sparse_column_with_hash_bucket: hash_keys (several hash functions per "
                     "value) has no successor in tf.feature_column; leave it None")
  dtype = tf.string if dtype is None else tf.as_dtype(dtype)
  return _remember(_fc().categorical_column_with_hash_bucket(
      column_name, hash_bucket_size, dtype=dtype), combiner)


def sparse_column_with_integerized_feature(column_name, bucket_size, combiner="sum",
                                           dtype=_tf.int64):
  """Integer ids as they are: `categorical_column_with_identity(column_name, num_buckets=bucket_size)`."""
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  _check_combiner(combiner, "sparse_column_with_integerized_feature")
  dtype = tf.int64 if dtype is None else tf.as_dtype(dtype)
  if not dtype.is_integer:
    raise ValueError("dtype must be an integer. dtype: {}, column_name: {}".format(
        dtype, column_name))
  return _remember(_fc().categorical_column_with_identity(column_name, num_buckets=bucket_size),
                   combiner)


def sparse_column_with_vocabulary_file(column_name, vocabulary_file, num_oov_buckets=0,
                                       vocab_size=None, default_value=-1, combiner="sum",
                                       dtype=_tf.string):
  """Ids from a vocabulary file: `categorical_column_with_vocabulary_file`."""
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  _check_combiner(combiner, "sparse_column_with_vocabulary_file")
  if vocab_size is None:
    raise ValueError("vocab_size should be defined. column_name: {}".format(column_name))
  dtype = tf.string if dtype is None else tf.as_dtype(dtype)
  if num_oov_buckets:
    default_value = None
  return _remember(_fc().categorical_column_with_vocabulary_file(
      column_name, vocabulary_file, vocabulary_size=vocab_size, num_oov_buckets=num_oov_buckets,
      default_value=default_value, dtype=dtype), combiner)


def weighted_sparse_column(sparse_id_column, weight_column_name, dtype=_tf.float32):
  """Ids with a weight feature: `weighted_categorical_column`."""
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  dtype = tf.float32 if dtype is None else tf.as_dtype(dtype)
  return _remember(_fc().weighted_categorical_column(sparse_id_column, weight_column_name,
                                                     dtype=dtype),
                   combiner_of(sparse_id_column))


def embedding_column(sparse_id_column, dimension, combiner="mean", initializer=None,
                     ckpt_to_load_from=None, tensor_name_in_ckpt=None, max_norm=None,
                     trainable=True):
  """A dense embedding of a sparse column: `tf.compat.v1.feature_column.embedding_column`."""
  _check_combiner(combiner, "embedding_column")
  return _contrib(_fc().embedding_column(
      sparse_id_column, dimension, combiner=combiner, initializer=initializer,
      ckpt_to_load_from=ckpt_to_load_from, tensor_name_in_ckpt=tensor_name_in_ckpt,
      max_norm=max_norm, trainable=trainable))


def shared_embedding_columns(sparse_id_columns, dimension, combiner="mean",
                             shared_embedding_name=None, initializer=None, ckpt_to_load_from=None,
                             tensor_name_in_ckpt=None, max_norm=None, trainable=True):
  """Embeddings of several sparse columns sharing one table: `shared_embedding_columns` (TF 1.15's name).

  As in TF 1.15: a single column without a shared name is a plain embedding column; the default shared name
  joins the columns' names (sorted, weighted columns last; the first three and `_plus_<n>_others`) and ends in
  `_shared_embedding`.
  """
  import collections.abc  # pylint: disable=import-outside-toplevel
  _check_combiner(combiner, "shared_embedding_columns")
  if not isinstance(sparse_id_columns, collections.abc.Sequence) or isinstance(sparse_id_columns, str):
    raise TypeError("sparse_id_columns must be a non-string sequence (ex: list or tuple) instead of type "
                    "{}.".format(type(sparse_id_columns)))
  if len(sparse_id_columns) < 1:
    raise ValueError("The input sparse_id_columns should have at least one element.")
  for column in sparse_id_columns:
    if not (hasattr(column, "num_buckets") or hasattr(column, "_num_buckets")):
      raise TypeError("Elements of sparse_id_columns must be _SparseColumn or _WeightedSparseColumn, but {} "
                      "is not.".format(column))
  if len(sparse_id_columns) == 1 and not shared_embedding_name:
    return [embedding_column(sparse_id_columns[0], dimension, combiner=combiner, initializer=initializer,
                             ckpt_to_load_from=ckpt_to_load_from, tensor_name_in_ckpt=tensor_name_in_ckpt,
                             max_norm=max_norm, trainable=trainable)]
  if not shared_embedding_name:
    weighted_type = type(_fc().weighted_categorical_column(_fc().categorical_column_with_identity("c", 1), "w"))
    ordered = (sorted((c for c in sparse_id_columns if not isinstance(c, weighted_type)), key=lambda c: c.name) +
               sorted((c for c in sparse_id_columns if isinstance(c, weighted_type)), key=lambda c: c.name))
    shared_embedding_name = "_".join(c.name for c in ordered[:3])
    if len(ordered) > 3:
      shared_embedding_name += "_plus_{}_others".format(len(ordered) - 3)
    shared_embedding_name += "_shared_embedding"
  return [_contrib(c) for c in _fc().shared_embedding_columns(
      list(sparse_id_columns), dimension, combiner=combiner, initializer=initializer,
      shared_embedding_collection_name=shared_embedding_name,
      ckpt_to_load_from=ckpt_to_load_from, tensor_name_in_ckpt=tensor_name_in_ckpt,
      max_norm=max_norm, trainable=trainable)]


_ONE_HOT = []


def _one_hot_class():
  """tf.feature_column's indicator column, named `<column>_one_hot` as TF 1.15's one-hot column was."""
  if not _ONE_HOT:
    base = type(_fc().indicator_column(_fc().categorical_column_with_identity("c", 1)))

    class _OneHotColumn(base):
      __slots__ = ()

      @property
      def name(self):
        return "{}_one_hot".format(self.categorical_column.name)

    _ONE_HOT.append(_OneHotColumn)
  return _ONE_HOT[0]


def one_hot_column(sparse_id_column):
  """A multi-hot dense encoding of a sparse column: an `indicator_column` named `<column>_one_hot`."""
  _fc().indicator_column(sparse_id_column)  # its argument checks
  return _one_hot_class()(sparse_id_column)


def bucketized_column(source_column, boundaries):
  """A real-valued column split at `boundaries`: `bucketized_column` (boundaries sorted, as TF 1.15)."""
  if not isinstance(boundaries, (list, tuple)) or not boundaries:
    raise ValueError("boundaries must be a non-empty list or tuple; got %r" % (boundaries,))
  return _contrib(_fc().bucketized_column(source_column, sorted(set(float(b) for b in boundaries))))


def crossed_column(columns, hash_bucket_size, combiner="sum", ckpt_to_load_from=None,
                   tensor_name_in_ckpt=None, hash_key=None):
  """A hashed cross of sparse / bucketized columns: `crossed_column`.

  The crosses are TF 1.15's (raw values of sparse columns, bucket ids of bucketized ones), but they
  land in other buckets: TF 1.15 hashed them with its contrib-only SparseFeatureCross kernel (a legacy
  hash, or its own use of `hash_key`), tf1clip with tf.feature_column's. A model trains the same way;
  a TF 1.15 model's cross weights do not carry over (stated in docs/contrib.md).
  """
  _check_combiner(combiner, "crossed_column")
  if ckpt_to_load_from is not None or tensor_name_in_ckpt is not None:
    raise ValueError("crossed_column: ckpt_to_load_from / tensor_name_in_ckpt have no successor; "
                     "use tf.estimator.WarmStartSettings")
  # TF 1.15 crossed the raw values of a sparse column (its feature), and bucket ids of a bucketized one.
  keys = [c if isinstance(c, str) or not hasattr(c, "key") or _is_bucketized_or_crossed(c)
          else c.key for c in columns]
  return _remember(_fc().crossed_column(keys, hash_bucket_size, hash_key=hash_key), combiner)


def _is_bucketized_or_crossed(column):
  return type(column).__name__ in ("BucketizedColumn", "CrossedColumn", "_BucketizedColumn",
                                   "_CrossedColumn")


def _dimension(tensor, key):
  shape = tensor.shape[1:]
  if not shape.is_fully_defined():
    raise ValueError("infer_real_valued_columns: feature %r has a shape %s whose non-batch "
                     "dimensions are not all known" % (key, tensor.shape))
  return int(np.prod(shape.as_list())) if shape.rank else 1


def infer_real_valued_columns(features):
  """One real-valued column per dense feature (`''` for a single Tensor), as TF 1.15 inferred them."""
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  if not isinstance(features, dict):
    return [real_valued_column("", dimension=_dimension(features, ""), dtype=features.dtype)]
  columns = []
  for key, value in features.items():
    if isinstance(value, tf.SparseTensor):
      continue
    columns.append(real_valued_column(key, dimension=_dimension(value, key), dtype=value.dtype))
  return columns


def create_feature_spec_for_parsing(feature_columns):
  """The `parse_example` spec of the columns: `make_parse_example_spec` (a set or dict is accepted)."""
  if isinstance(feature_columns, dict):
    feature_columns = list(feature_columns.values())
  return _fc().make_parse_example_spec(list(feature_columns))


def input_from_feature_columns(columns_to_tensors, feature_columns, weight_collections=None,
                               trainable=True, scope=None, cols_to_outs=None):
  """A DNN's input layer from the columns: TF 1.15's (feature_column_ops.input_from_feature_columns)."""
  import tf1clip.contrib.layers.python.layers.feature_column_ops as ops  # pylint: disable=import-outside-toplevel
  if not isinstance(columns_to_tensors, dict):
    columns_to_tensors = {"": columns_to_tensors}
  return ops.input_from_feature_columns(columns_to_tensors, feature_columns, weight_collections=weight_collections,
                                        trainable=trainable, scope=scope, cols_to_outs=cols_to_outs)


def make_place_holder_tensors_for_base_features(feature_columns):
  """{feature: placeholder} for the columns' base features (a sparse placeholder for a VarLenFeature)."""
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  placeholders = {}
  for column_name, column_type in create_feature_spec_for_parsing(feature_columns).items():
    if isinstance(column_type, tf.io.VarLenFeature):
      placeholders[column_name] = tf.sparse_placeholder(column_type.dtype,
                                                        name="Placeholder_{}".format(column_name))
    else:
      placeholders[column_name] = tf.placeholder(column_type.dtype, shape=(None, column_type.shape[0]),
                                                 name="Placeholder_{}".format(column_name))
  return placeholders


def scattered_embedding_column(column_name, size, dimension, hash_key, combiner="mean", initializer=None):
  """An embedding of a string feature by parameter hashing: each component at `fingerprint(i, value) % size`."""
  if (dimension < 1) or (size < 1):
    raise ValueError("Dimension and size must be greater than 0. dimension: {}, size: {}, column_name: {}".format(
        dimension, size, column_name))
  if combiner not in ("mean", "sqrtn", "sum"):
    raise ValueError("Combiner must be one of 'mean', 'sqrtn' or 'sum'. combiner: {}, column_name: {}".format(
        combiner, column_name))
  return _scattered_embedding_column_class()(column_name, size, dimension, hash_key, combiner, initializer)


_SCATTERED = []


def _scattered_embedding_column_class():
  """TF 1.15's _ScatteredEmbeddingColumn, as a tf.compat.v1.feature_column dense column (built on first use)."""
  if _SCATTERED:
    return _SCATTERED[0]
  import collections  # pylint: disable=import-outside-toplevel
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  import tf_slim  # pylint: disable=import-outside-toplevel
  from tensorflow.python.feature_column import feature_column as fc_old  # pylint: disable=import-outside-toplevel

  import tf1clip.contrib.layers.python.layers.embedding_ops as embedding_ops  # pylint: disable=import-outside-toplevel

  class _ScatteredEmbeddingColumn(
      fc_old._DenseColumn,  # pylint: disable=protected-access
      collections.namedtuple("_ScatteredEmbeddingColumn",
                             ["column_name", "size", "dimension", "hash_key", "combiner", "initializer"])):
    """See `scattered_embedding_column`."""

    def __new__(cls, column_name, size, dimension, hash_key, combiner="sqrtn", initializer=None):
      if initializer is not None and not callable(initializer):
        raise ValueError("initializer must be callable if specified. column_name: {}".format(column_name))
      if initializer is None:
        initializer = tf.truncated_normal_initializer(mean=0.0, stddev=0.1)
      return super(_ScatteredEmbeddingColumn, cls).__new__(cls, column_name, size, dimension, hash_key,
                                                           combiner, initializer)

    @property
    def name(self):
      return "{}_scattered_embedding".format(self.column_name)

    @property
    def config(self):
      return {self.column_name: tf.io.VarLenFeature(tf.string)}

    @property
    def _parse_example_spec(self):
      return self.config

    def _transform_feature(self, inputs):
      return inputs.get(self.column_name)

    @property
    def _variable_shape(self):
      return _tf.TensorShape([self.dimension])

    def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
      input_tensor = inputs.get(self)
      embeddings = tf_slim.model_variable("weights", shape=[self.size], dtype=tf.float32,
                                          initializer=self.initializer, trainable=trainable is not False,
                                          collections=weight_collections)
      return embedding_ops.scattered_embedding_lookup_sparse(embeddings, input_tensor, self.dimension,
                                                             hash_key=self.hash_key, combiner=self.combiner,
                                                             name="lookup")

  _SCATTERED.append(_ScatteredEmbeddingColumn)
  return _ScatteredEmbeddingColumn


# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = ("tf.compat.v1.feature_column (tf1clip serves the first feature-column API's constructors and helpers "
             'on it; its column classes are gone, and DataFrameColumn wrapped a contrib.learn dataframe Series, '
             'which TF 1.15 no longer had: no TF 1.15 script could build one)')

__getattr__ = _catalog.module_getattr(__name__, symbol="tf.contrib.layers.feature_column")

"""TF 1.15's `tf.contrib.layers.feature_column_ops`: linear and sequence models on the first feature-column API.

TF 1.15's code, on the columns tf1clip's `feature_column` constructors return (tf.compat.v1.feature_column's): each
column's ids / dense values come from TensorFlow's own column transformations (`FeatureTransformationCache`), and
the variables are created as TF 1.15 created them, with its names: `weighted_sum_from_feature_columns` makes
`<scope>/<column name>/weights` ([buckets, num_outputs], a sparse or bucketized column) or
`<scope>/<column name>/weight` ([dimension, num_outputs], a real-valued column) and `<scope>/bias_weight`, all
zeros, model variables, partitioned when the enclosing variable scope has a partitioner;
`joint_weighted_sum_from_feature_columns` one `<scope>/linear_weights/weights`; `sequence_input_from_feature_columns`
an embedding's `<scope>/<column name>/weights`; `input_from_feature_columns` (a DNN's input layer) an embedding's
`<scope>/<column name>/weights`, a shared embedding's `<scope>/<first column's name>/<shared name>` (one variable per
shared name, kept in TF 1.15's `SHARED_EMBEDDING_COLLECTION_<NAME>` collection), one-hot and bucketized columns as
multi-hot / one-hot blocks. Columns are visited in TF 1.15's order (its sort key: the column class's name, then the
column it wraps, ...). A crossed column's ids are tf.feature_column's hash of the cross, not TF 1.15's (see
feature_column.crossed_column).
Uses TensorFlow internals (tensorflow.python.feature_column.feature_column_v2): the public API has no other
way to get one column's ids or values out of a feature dict.
"""

import functools
import importlib

import tensorflow.compat.v1 as tf
from tensorflow.python.feature_column import feature_column_v2 as _fc2

import tf1clip.contrib.layers.python.layers.feature_column as fc
from tf1clip.contrib import catalog as _catalog


def experimental(func):
  """Marks `func` experimental: each call logs that it may change or be removed (TF 1.15's decorator)."""
  if not callable(func):
    raise ValueError("experimental is not a function or method: %r" % (func,))

  @functools.wraps(func)
  def new_func(*args, **kwargs):
    tf.logging.warning("%s (from %s) is experimental and may change or be removed at any time, and without "
                       "warning.", getattr(func, "__qualname__", func.__name__), func.__module__)
    return func(*args, **kwargs)
  doc = func.__doc__ or "DEPRECATED FUNCTION"
  lines = doc.split("\n")
  new_func.__doc__ = "\n".join([lines[0] + " (experimental)", "",
                                "THIS FUNCTION IS EXPERIMENTAL. It may change or be removed at any time, "
                                "and without warning."] + lines[1:])
  return new_func


# TF 1.15 sorted columns by `key`, a string that began with the column's class name.
_TF115_CLASS = (
    (_fc2.BucketizedColumn, "_BucketizedColumn"),
    (_fc2.CrossedColumn, "_CrossedColumn"),
    (_fc2.EmbeddingColumn, "_EmbeddingColumn"),
    (_fc2.IndicatorColumn, "_OneHotColumn"),
    (_fc2.NumericColumn, "_RealValuedColumn"),
    (_fc2.HashedCategoricalColumn, "_SparseColumnHashed"),
    (_fc2.IdentityCategoricalColumn, "_SparseColumnIntegerized"),
    (_fc2.VocabularyListCategoricalColumn, "_SparseColumnKeys"),
    (_fc2.VocabularyFileCategoricalColumn, "_SparseColumnVocabulary"),
    (_fc2.WeightedCategoricalColumn, "_WeightedSparseColumn"),
)


def _tf115_class(column):
  if type(column).__name__ == "_SharedEmbeddingColumn":  # TF 1.15: an _EmbeddingColumn with a shared name
    return "_EmbeddingColumn"
  return next((name for cls, name in _TF115_CLASS if isinstance(column, cls)), type(column).__name__)


def _tf115_key(column):
  """TF 1.15's `column.key` order: its class name, then the column it wraps (its key), then its name."""
  parent = getattr(column, "categorical_column", None)
  if parent is None and isinstance(column, _fc2.BucketizedColumn):
    parent = column.source_column
  if parent is not None and not isinstance(column, _fc2.CrossedColumn):
    # an embedding's key went on with its dimension, combiner, ..., shared name
    more = tuple(str(getattr(column, field, "")) for field in ("dimension", "combiner",
                                                               "shared_embedding_collection_name"))
    return (_tf115_class(column),) + _tf115_key(parent) + more + (column.name,)
  return (_tf115_class(column), column.name)


def _sorted(feature_columns):
  return sorted(set(feature_columns), key=_tf115_key)


def _is_categorical(column):
  return isinstance(column, _fc2.CategoricalColumn)


def check_feature_columns(feature_columns):
  """Raises ValueError for a dict of columns or two columns with the same key (TF 1.15's check)."""
  if isinstance(feature_columns, dict):
    raise ValueError("Expected feature_columns to be iterable, found dict.")
  seen = set()
  for f in feature_columns:
    if f in seen:
      raise ValueError("Duplicate feature column key found for column: {}. This usually means that the column "
                       "is almost identical to another column, and one must be discarded.".format(f.name))
    seen.add(f)


def _add_variable_collection(weight_collections):
  if weight_collections:
    weight_collections = list(set(list(weight_collections) + [tf.GraphKeys.GLOBAL_VARIABLES]))
  return weight_collections


def _model_variable(name, shape, initializer, trainable, collections):
  import tf_slim  # pylint: disable=import-outside-toplevel
  return tf_slim.model_variable(name, shape=shape, dtype=tf.float32, initializer=initializer,
                                trainable=trainable, collections=collections)


def _variable_list(variable):
  return [variable] if isinstance(variable, tf.Variable) else list(variable)  # a PartitionedVariable


def _maybe_reshape_input_tensor(tensor, column_name, output_rank):
  """TF 1.15's reshape of a column's tensor to `output_rank` (expand one dimension, or flatten inner ones)."""
  input_rank = tensor.get_shape().ndims
  if input_rank is None and isinstance(tensor, tf.SparseTensor):
    input_rank = tensor.dense_shape.get_shape().as_list()[0]
  if input_rank is None:
    raise ValueError("Error while processing column {}. Rank of input Tensor can not be None.".format(column_name))
  if output_rank > input_rank + 1:
    raise ValueError("Error while processing column {}. Rank of input Tensor ({}) should be the same as "
                     "output_rank ({}). For example, sequence data should typically be 3 dimensional (rank 3) "
                     "while non-sequence data is typically 2 dimensional (rank 2).".format(
                         column_name, input_rank, output_rank))
  if output_rank == input_rank + 1:
    if isinstance(tensor, tf.SparseTensor):
      return tf.sparse.reshape(tensor, tf.concat([tensor.dense_shape, [1]], 0))
    reshaped = tf.expand_dims(tensor, -1)
    if tensor.get_shape().dims is not None:
      reshaped.set_shape(tensor.get_shape().as_list() + [1])
    return reshaped
  if output_rank < input_rank:
    return _inner_flatten(tensor, output_rank)
  return tensor


def _inner_flatten(tensor, output_rank):
  """Flattens the dimensions from `output_rank - 1` on into one (dense or sparse)."""
  import tf1clip.contrib.slim  # pylint: disable=import-outside-toplevel,unused-import  (tf-slim's shim first)
  slim_layers = importlib.import_module("tf_slim.layers.layers")
  return slim_layers._inner_flatten(tensor, output_rank)  # pylint: disable=protected-access


def _wide_arguments(column, cache):
  """(ids, weights, vocab size, combiner) of a sparse / bucketized / crossed column, as TF 1.15 looked it up."""
  if isinstance(column, _fc2.EmbeddingColumn):
    raise ValueError("Column {} is not supported in linear models. Please use sparse_column.".format(column))
  if not _is_categorical(column):
    raise NotImplementedError("No wide embedding lookup arguments for column {}.".format(column))
  pair = column.get_sparse_tensors(cache, None)
  combiner = "sum" if isinstance(column, _fc2.BucketizedColumn) else fc.combiner_of(column)
  return pair.id_tensor, pair.weight_tensor, column.num_buckets, combiner


def _dense_tensor(column, cache):
  if not isinstance(column, _fc2.NumericColumn):
    raise NotImplementedError("No dense tensor representation for column {}.".format(column))
  return tf.cast(cache.get(column, None), tf.float32)


def weighted_sum_from_feature_columns(columns_to_tensors, feature_columns, num_outputs, weight_collections=None,
                                      trainable=True, scope=None):
  """A linear model's logits: (predictions, {column: [variables]}, bias), TF 1.15's variables and names."""
  columns_to_tensors = columns_to_tensors.copy()
  check_feature_columns(feature_columns)
  with tf.variable_scope(scope, default_name="weighted_sum_from_feature_columns",
                         values=columns_to_tensors.values()):
    output_tensors = []
    column_to_variable = {}
    cache = _fc2.FeatureTransformationCache(columns_to_tensors)
    for column in _sorted(feature_columns):
      try:
        try:
          ids, weights, vocab_size, combiner = _wide_arguments(column, cache)
          with tf.variable_scope(None, default_name=column.name, values=columns_to_tensors.values()):
            variable = _variable_list(_model_variable("weights", [vocab_size, num_outputs],
                                                      tf.zeros_initializer(), trainable, weight_collections))
            predictions = tf.nn.safe_embedding_lookup_sparse(variable, ids, sparse_weights=weights,
                                                             combiner=combiner, name=column.name + "_weights")
        except NotImplementedError:
          with tf.variable_scope(None, default_name=column.name, values=columns_to_tensors.values()):
            tensor = _maybe_reshape_input_tensor(_dense_tensor(column, cache), column.name, output_rank=2)
            variable = [_model_variable("weight", [tensor.get_shape()[1], num_outputs], tf.zeros_initializer(),
                                        trainable, weight_collections)]
            predictions = tf.matmul(tensor, variable[0], name="matmul")
      except ValueError as ee:
        raise ValueError("Error creating weighted sum for column: {}.\n{}".format(column.name, ee))
      output_tensors.append(tf.reshape(predictions, shape=(-1, num_outputs)))
      column_to_variable[column] = variable
    predictions_no_bias = tf.add_n(output_tensors)
    bias = _model_variable("bias_weight", [num_outputs], tf.zeros_initializer(), trainable,
                           _add_variable_collection(weight_collections))
    return tf.nn.bias_add(predictions_no_bias, bias), column_to_variable, bias


def joint_weighted_sum_from_feature_columns(columns_to_tensors, feature_columns, num_outputs,
                                            weight_collections=None, trainable=True, scope=None):
  """A linear model of sparse columns with all weights in one variable: (predictions, [variables], bias)."""
  columns_to_tensors = columns_to_tensors.copy()
  check_feature_columns(feature_columns)
  with tf.variable_scope(scope, default_name="joint_weighted_sum_from_feature_columns",
                         values=columns_to_tensors.values()):
    cache = _fc2.FeatureTransformationCache(columns_to_tensors)
    arguments = []
    for column in _sorted(feature_columns):
      try:
        arguments.append(_wide_arguments(column, cache))
      except NotImplementedError:
        raise NotImplementedError("Real-valued columns are not supported. Use weighted_sum_from_feature_columns "
                                  "instead, or bucketize these columns.")
    for _, weights, _, combiner in arguments:
      assert weights is None, ("Joint sums for weighted sparse columns are not supported. "
                               "Please use weighted_sum_from_feature_columns instead.")
      assert combiner == "sum", ("Combiners other than sum are not supported for joint sums. "
                                 "Please use weighted_sum_from_feature_columns instead.")
    assert arguments, "At least one column must be in the model."
    prev_size = 0
    sparse_tensors = []
    for ids, _, vocab_size, _ in arguments:
      sparse_tensors.append(tf.SparseTensor(ids.indices, ids.values + prev_size, ids.dense_shape))
      prev_size += vocab_size
    sparse_tensor = tf.sparse.concat(1, sparse_tensors)
    with tf.variable_scope(None, default_name="linear_weights", values=columns_to_tensors.values()):
      variable = _variable_list(_model_variable("weights", [prev_size, num_outputs], tf.zeros_initializer(),
                                                trainable, weight_collections))
      predictions_no_bias = tf.nn.safe_embedding_lookup_sparse(variable, sparse_tensor, sparse_weights=None,
                                                               combiner="sum", name="_weights")
    bias = _model_variable("bias_weight", [num_outputs], tf.zeros_initializer(), trainable,
                           _add_variable_collection(weight_collections))
    return tf.nn.bias_add(predictions_no_bias, bias), variable, bias


def _sequence_input(column, cache, weight_collections, trainable):
  """One column's [batch, time, size] input (TF 1.15's embedding / one-hot / real-valued cases)."""
  if isinstance(column, (_fc2.EmbeddingColumn, _fc2.IndicatorColumn)):
    pair = column.categorical_column.get_sparse_tensors(cache, None)
    ids = _maybe_reshape_input_tensor(pair.id_tensor, column.name, 3)
    weights = pair.weight_tensor
    if weights is not None:
      weights = _inner_flatten(_maybe_reshape_input_tensor(weights, column.name, 3), 3)
    ids = _inner_flatten(ids, 3)
    if isinstance(column, _fc2.IndicatorColumn):
      if weights is not None:
        raise ValueError("one_hot_column of a weighted_sparse_column is not served for sequences: %s"
                         % column.name)
      depth = column.categorical_column.num_buckets
      dense_ids = tf.sparse.to_dense(ids, default_value=-1)
      return tf.reduce_sum(tf.one_hot(dense_ids, depth=depth, on_value=1.0, off_value=0.0), axis=-2)
    embeddings = _variable_list(_model_variable(
        "weights", [column.categorical_column.num_buckets, column.dimension], column.initializer,
        trainable and column.trainable, weight_collections))
    return tf.nn.safe_embedding_lookup_sparse(embeddings, ids, sparse_weights=weights, combiner=column.combiner,
                                              name=column.name + "weights", max_norm=column.max_norm)
  tensor = _maybe_reshape_input_tensor(_dense_tensor(column, cache), column.name, 3)
  return _inner_flatten(tensor, 3) if tensor.get_shape().ndims > 3 else tensor


@experimental
def sequence_input_from_feature_columns(columns_to_tensors, feature_columns, weight_collections=None,
                                        trainable=True, scope=None):
  """The [batch, time, size] input of embedding / one-hot / real-valued columns over sequence features."""
  for col in feature_columns:
    if not isinstance(col, (_fc2.IndicatorColumn, _fc2.EmbeddingColumn, _fc2.NumericColumn)):
      raise ValueError("FeatureColumn type {} is not currently supported for sequence data.".format(
          _tf115_class(col)))
    parent = getattr(col, "categorical_column", None)
    while parent is not None:
      if isinstance(parent, (_fc2.BucketizedColumn, _fc2.CrossedColumn)):
        raise ValueError("Column {} is of type {}, which is not currently supported for sequences.".format(
            parent.name, _tf115_class(parent)))
      parent = getattr(parent, "categorical_column", None)
  columns_to_tensors = columns_to_tensors.copy()
  check_feature_columns(feature_columns)
  with tf.variable_scope(scope, default_name="sequence_input_from_feature_columns",
                         values=columns_to_tensors.values()):
    weight_collections = _add_variable_collection(weight_collections)
    cache = _fc2.FeatureTransformationCache(columns_to_tensors)
    output_tensors = []
    for column in _sorted(feature_columns):
      with tf.variable_scope(None, default_name=column.name, values=columns_to_tensors.values()):
        output_tensors.append(_sequence_input(column, cache, weight_collections, trainable))
    return tf.concat(output_tensors, 2)


def _embedding_input(column, cache, columns_to_tensors, weight_collections, trainable, output_rank):
  """TF 1.15's _embeddings_from_arguments: an embedding / shared / scattered column's looked-up input."""
  if type(column).__name__ == "_ScatteredEmbeddingColumn":  # tf1clip's own class (feature_column.py)
    from tf1clip.contrib.layers.python.layers import embedding_ops  # pylint: disable=import-outside-toplevel
    ids = _inner_flatten(columns_to_tensors[column.column_name], output_rank)
    embeddings = _model_variable("weights", [column.size], column.initializer, trainable, weight_collections)
    return embedding_ops.scattered_embedding_lookup_sparse(embeddings, ids, column.dimension,
                                                           hash_key=column.hash_key, combiner=column.combiner,
                                                           name="lookup")
  pair = column.categorical_column.get_sparse_tensors(cache, None)
  ids = _inner_flatten(pair.id_tensor, output_rank)
  weights = None if pair.weight_tensor is None else _inner_flatten(pair.weight_tensor, output_rank)
  shape = [column.categorical_column.num_buckets, column.dimension]
  trainable = trainable and column.trainable
  shared_name = getattr(column, "shared_embedding_collection_name", None)
  if shared_name is not None:
    collection_name = "SHARED_EMBEDDING_COLLECTION_" + shared_name.upper()
    shared = tf.get_default_graph().get_collection_ref(collection_name)
    if shared:
      if len(shared) > 1:
        raise ValueError("Collection %s can only contain one (partitioned) variable." % collection_name)
      embeddings = shared[0]
      if embeddings.get_shape() != shape:
        raise ValueError("The embedding variable with name {} already exists, but its shape does not match "
                         "required embedding shape here. Please make sure to use different "
                         "shared_embedding_name for different shared embeddings.".format(shared_name))
    else:
      embeddings = _model_variable(shared_name, shape, column.initializer, trainable, weight_collections)
      tf.add_to_collection(collection_name, embeddings)
  else:
    embeddings = _model_variable("weights", shape, column.initializer, trainable, weight_collections)
  embeddings = _variable_list(embeddings)
  if column.ckpt_to_load_from is not None:
    tf.train.init_from_checkpoint(column.ckpt_to_load_from, {
        column.tensor_name_in_ckpt: embeddings[0] if len(embeddings) == 1 else embeddings})
  return tf.nn.safe_embedding_lookup_sparse(embeddings, ids, sparse_weights=weights, combiner=column.combiner,
                                            name=column.name + "weights", max_norm=column.max_norm)


def _dnn_input(column, cache, columns_to_tensors, weight_collections, trainable, output_rank):
  """One column's input to a DNN (TF 1.15's `_deep_embedding_lookup_arguments`, else `_to_dnn_input_layer`)."""
  if isinstance(column, _fc2.EmbeddingColumn) or type(column).__name__ in ("_SharedEmbeddingColumn",
                                                                           "_ScatteredEmbeddingColumn"):
    return _embedding_input(column, cache, columns_to_tensors, weight_collections, trainable, output_rank)
  if isinstance(column, _fc2.IndicatorColumn):
    length = column.categorical_column.num_buckets
    pair = column.categorical_column.get_sparse_tensors(cache, None)
    ids = _inner_flatten(pair.id_tensor, output_rank)
    if pair.weight_tensor is not None:
      weighted = tf.sparse_merge(sp_ids=ids, sp_values=pair.weight_tensor, vocab_size=length)
      weighted = tf.sparse.slice(weighted, tf.zeros_like(weighted.dense_shape), weighted.dense_shape)
      dense = tf.sparse.to_dense(weighted)
      return tf.reshape(dense, tf.concat([tf.shape(dense)[:-1], [length]], axis=0))
    dense_ids = tf.sparse.to_dense(ids, default_value=-1)
    return tf.reduce_sum(tf.one_hot(dense_ids, depth=length, on_value=1.0, off_value=0.0), axis=[output_rank - 1])
  if isinstance(column, _fc2.BucketizedColumn):
    if output_rank != 2:
      raise ValueError("BucketizedColumn currently only supports output_rank=2")
    length = len(column.boundaries) + 1
    dimension = int(column.source_column.shape[0]) if column.source_column.shape else 1
    return tf.reshape(tf.one_hot(tf.cast(cache.get(column, None), tf.int64), length, 1., 0., name="one_hot"),
                      [-1, length * dimension], name="reshape")
  if isinstance(column, _fc2.NumericColumn):
    return _maybe_reshape_input_tensor(_dense_tensor(column, cache), column.name, output_rank)
  if isinstance(column, _fc2.CrossedColumn):
    raise ValueError("CrossedColumn is not supported in DNN. Please use embedding_column. column: {}".format(
        column.name))
  if isinstance(column, _fc2.WeightedCategoricalColumn):
    raise ValueError("WeightedSparseColumn is not supported in DNN. Please use embedding_column or "
                     "one_hot_column. column: {}".format(column.name))
  if _is_categorical(column):
    raise ValueError("SparseColumn is not supported in DNN. Please use embedding_column or one_hot_column. "
                     "column: {}".format(column.name))
  raise ValueError("Calling an abstract method.")


def input_from_feature_columns(columns_to_tensors, feature_columns, weight_collections=None, trainable=True,
                               scope=None, cols_to_outs=None):
  """A DNN's input layer from the columns, TF 1.15's: `<scope>/<column name>/weights` per embedding."""
  columns_to_tensors = columns_to_tensors.copy()
  check_feature_columns(feature_columns)
  if cols_to_outs is not None and not isinstance(cols_to_outs, dict):
    raise ValueError("cols_to_outs must be a dict unless None")
  with tf.variable_scope(scope, default_name="input_from_feature_columns", values=columns_to_tensors.values()):
    output_tensors = []
    weight_collections = _add_variable_collection(weight_collections)
    cache = _fc2.FeatureTransformationCache(columns_to_tensors)
    for column in _sorted(feature_columns):
      with tf.variable_scope(None, default_name=column.name, values=columns_to_tensors.values()):
        try:
          output_tensors.append(_dnn_input(column, cache, columns_to_tensors, weight_collections, trainable, 2))
        except ValueError as e:
          raise ValueError("Error creating input layer for column: {}.\n{}".format(column.name, e))
      if cols_to_outs is not None:
        cols_to_outs[column] = output_tensors[-1]
    return tf.concat(output_tensors, 1)


def _parents(column):
  """The columns `column` is built on (TF 1.15's transformer transformed them too, first)."""
  if isinstance(column, (_fc2.EmbeddingColumn, _fc2.IndicatorColumn, _fc2.WeightedCategoricalColumn)):
    return [column.categorical_column]
  if isinstance(column, _fc2.BucketizedColumn):
    return [column.source_column]
  if isinstance(column, _fc2.CrossedColumn):
    return [k for k in column.keys if not isinstance(k, str)]
  return []


def _transform(column, cache, columns_to_tensor):
  """Inserts `column`'s transformed tensor (and its parents') into `columns_to_tensor`, as TF 1.15's _Transformer."""
  if column in columns_to_tensor:
    return columns_to_tensor[column]
  for parent in _parents(column):
    _transform(parent, cache, columns_to_tensor)
  if isinstance(column, (_fc2.EmbeddingColumn, _fc2.IndicatorColumn)):
    columns_to_tensor[column] = columns_to_tensor[column.categorical_column]  # TF 1.15: the ids it embeds
  else:
    columns_to_tensor[column] = cache.get(column, None)
  return columns_to_tensor[column]


def transform_features(features, feature_columns):
  """{column: its transformed tensor} (ids of a sparse column, (ids, weights) of a weighted one, ...)."""
  columns_to_tensor = features.copy()
  check_feature_columns(feature_columns)
  cache = _fc2.FeatureTransformationCache(features)
  for column in _sorted(feature_columns):
    _transform(column, cache, columns_to_tensor)
  for k in list(columns_to_tensor.keys()):
    if k not in feature_columns:
      columns_to_tensor.pop(k)
  return columns_to_tensor


def parse_feature_columns_from_examples(serialized, feature_columns, name=None, example_names=None):
  """`tf.io.parse_example` of the columns' spec, plus each column's transformed tensor (keyed by the column)."""
  check_feature_columns(feature_columns)
  columns_to_tensors = tf.io.parse_example(serialized=serialized,
                                           features=fc.create_feature_spec_for_parsing(feature_columns),
                                           name=name, example_names=example_names)
  cache = _fc2.FeatureTransformationCache(dict(columns_to_tensors))
  for column in _sorted(feature_columns):
    _transform(column, cache, columns_to_tensors)
  return columns_to_tensors


def parse_feature_columns_from_sequence_examples(serialized, context_feature_columns, sequence_feature_columns,
                                                 name=None, example_name=None):
  """(context features, sequence features) of one serialized SequenceExample, by the columns' specs."""
  try:
    serialized = tf.reshape(serialized, [])
  except ValueError as e:
    raise ValueError("serialized must contain as single sequence example. Batching must be done after parsing "
                     "for sequence examples. Error: {}".format(e))
  context_feature_columns = context_feature_columns or []
  sequence_feature_columns = sequence_feature_columns or []
  check_feature_columns(context_feature_columns)
  context_feature_spec = fc.create_feature_spec_for_parsing(context_feature_columns)
  check_feature_columns(sequence_feature_columns)
  sequence_feature_spec = {}
  for key, spec in fc.create_feature_spec_for_parsing(sequence_feature_columns).items():
    if isinstance(spec, tf.io.FixedLenFeature):  # TF 1.15: FixedLenSequenceFeature, missing not allowed
      spec = tf.io.FixedLenSequenceFeature(spec.shape, spec.dtype, allow_missing=False)
    sequence_feature_spec[key] = spec
  return tf.io.parse_single_sequence_example(serialized, context_feature_spec, sequence_feature_spec,
                                             example_name, name)


__getattr__ = _catalog.module_getattr(__name__, delegate="tf1clip.contrib.layers")

"""TF 1.15's contrib.layers embedding_ops: `embedding_lookup_unique`, the scattered (parameter-hashing) lookups, ...

TensorFlow 2.21 has none of these functions; they are TF 1.15's, on TensorFlow's public ops.
`embedding_lookup_unique` runs `tf.unique` + `tf.compat.v1.nn.embedding_lookup` + `tf.gather`, so its gradient with
respect to `params` stays a sparse `IndexedSlices` over the distinct ids. `scattered_embedding_lookup(_sparse)` find
each embedding component with sparse_feature_cross_op.sparse_feature_cross, so they need a `hash_key` (TF 1.15's
default `None` was its legacy hash, which TensorFlow 2.21 cannot compute: a clear NotImplementedError).
`embedding_lookup_sparse_with_distributed_ aggregation` is TF 1.15's partition-wise lookup and segment sums.
"""

import tensorflow as tf

import tf1clip.contrib.layers.python.ops.sparse_feature_cross_op as sparse_feature_cross_op
from tf1clip.contrib import catalog as _catalog


def embedding_lookup_unique(params, ids, partition_strategy="mod", name=None):
  """`tf.nn.embedding_lookup` for ids of any rank, looking each distinct id up only once.

  Args:
    params: the embedding tensor, variable, or list of partitions (as for
      `tf.compat.v1.nn.embedding_lookup`).
    ids: an int32/int64 tensor of ids, any shape.
    partition_strategy: "mod" or "div", for a partitioned `params`.
    name: the name scope (default "EmbeddingLookupUnique").

  Returns:
    A tensor of shape `ids.shape + params.shape[1:]`.

  Raises:
    ValueError: `partition_strategy` is not "mod" or "div".
  """
  if partition_strategy not in ("mod", "div"):
    raise ValueError("partition_strategy must be 'mod' or 'div'; got %r" % (partition_strategy,))
  with tf.compat.v1.name_scope(name, "EmbeddingLookupUnique", [params, ids]):
    ids = tf.convert_to_tensor(ids)
    shape = tf.shape(ids)
    ids_flat = tf.reshape(ids, tf.reduce_prod(shape, keepdims=True))
    unique_ids, idx = tf.unique(ids_flat)
    unique_embeddings = tf.compat.v1.nn.embedding_lookup(params, unique_ids, partition_strategy)
    embeds_flat = tf.gather(unique_embeddings, idx)
    embed_shape = tf.concat([shape, tf.shape(unique_embeddings)[1:]], 0)
    embeds = tf.reshape(embeds_flat, embed_shape)
    embeds.set_shape(ids.get_shape().concatenate(unique_embeddings.get_shape()[1:]))
    return embeds


def _params_list(params):
  if hasattr(params, "_get_variable_list"):  # a PartitionedVariable (not public in TensorFlow 2.21)
    params = list(params)
  return params if isinstance(params, list) else [params]


def scattered_embedding_lookup(params, values, dimension, name=None, hash_key=None):
  """Embeddings of `values` whose i-th component is `params[fingerprint(i, value) % size]` ([..., dimension])."""
  if dimension is None:
    raise ValueError("You must specify dimension.")
  return _sampled_scattered_embedding_lookup(params, values, dimension=dimension, sampled_candidates=None,
                                             hash_key=hash_key, name=name)


def _sampled_scattered_embedding_lookup(params, values, dimension=None, sampled_candidates=None, hash_key=None,
                                        name=None):
  """TF 1.15's lookup of the `sampled_candidates` components (all `dimension` of them when None)."""
  params = _params_list(params)
  with tf.compat.v1.name_scope(name, "scattered_embedding_lookup", params + [dimension, values]):
    values_shape = tf.shape(values)
    values = tf.reshape(values, [-1, 1])
    if sampled_candidates is None:
      if dimension is None:
        raise ValueError("You must specify either dimension or sampled_candidates.")
      if dimension <= 0:
        raise ValueError("Dimension must be >0. Given is %d" % dimension)
      sampled_candidates = tf.tile(tf.expand_dims(tf.range(0, dimension), 0), tf.shape(values))
    else:
      dimension = tf.shape(sampled_candidates)[tf.subtract(tf.rank(sampled_candidates), 1)]
      sampled_candidates_shape = tf.shape(sampled_candidates)
      expected_shape = tf.concat([values_shape, tf.reshape(dimension, shape=[1])], 0)
      with tf.control_dependencies([tf.debugging.Assert(
          tf.reduce_all(tf.equal(sampled_candidates_shape, expected_shape)),
          ["The shape of sampled_candidates: ", sampled_candidates_shape,
           " does not match the shape of values: ", values_shape])]):
        sampled_candidates = tf.reshape(sampled_candidates, [-1, dimension])
    num_partitions = len(params)
    partition_sizes = []
    for p in range(num_partitions):
      shape = params[p].get_shape()
      shape.assert_has_rank(1)
      shape.assert_is_fully_defined()
      partition_sizes.append(tf.compat.dimension_value(shape[0]))
    num_params = sum(partition_sizes)  # Total number of parameters.
    for p in range(num_partitions):
      expected_size = (num_params - p - 1) // num_partitions + 1
      if partition_sizes[p] != expected_size:
        raise ValueError("Tensor %d in params has size %d, expected %d." % (p, partition_sizes[p], expected_size))
    ids = sparse_feature_cross_op.sparse_feature_cross([sampled_candidates, values], hashed_output=True,
                                                       num_buckets=num_params, hash_key=hash_key)
    ids = tf.sparse.to_dense(ids)
    result = tf.compat.v1.nn.embedding_lookup(params, ids, partition_strategy="div")
    return tf.reshape(result, tf.concat([values_shape, [dimension]], 0))


def scattered_embedding_lookup_sparse(params, sparse_values, dimension, combiner=None, default_value=None,
                                      name=None, hash_key=None):
  """`scattered_embedding_lookup` of a 2-D SparseTensor's values, combined per row ([rows, dimension])."""
  if combiner is None:
    tf.compat.v1.logging.warn("The default value of combiner will change from \"mean\" to \"sqrtn\" after "
                              "2016/11/01.")
    combiner = "mean"
  params = _params_list(params)
  if not isinstance(sparse_values, tf.SparseTensor):
    raise TypeError("sparse_values must be SparseTensor")
  with tf.compat.v1.name_scope(name, "scattered_embedding_lookup_sparse", params + [sparse_values]) as scope:
    if default_value is None:  # TF 1.15's placeholders for an empty row
      default_value = "6ZxWzWOHxZ" if sparse_values.dtype == tf.string else 1288896567
    sparse_values, _ = tf.sparse.fill_empty_rows(sparse_values, default_value)
    segment_ids = sparse_values.indices[:, 0]
    if segment_ids.dtype != tf.int32:
      segment_ids = tf.cast(segment_ids, tf.int32)
    values, idx = tf.unique(sparse_values.values)
    embeddings = scattered_embedding_lookup(params, values, dimension, hash_key=hash_key)
    if combiner == "sum":
      embeddings = tf.sparse.segment_sum(embeddings, idx, segment_ids, name=scope)
    elif combiner == "mean":
      embeddings = tf.sparse.segment_mean(embeddings, idx, segment_ids, name=scope)
    elif combiner == "sqrtn":
      embeddings = tf.sparse.segment_sqrt_n(embeddings, idx, segment_ids, name=scope)
    else:
      raise ValueError("Combiner must be one of 'mean', 'sqrtn' or 'sum'.")
    return embeddings


def _broadcast_weights(weights, like):
  """`weights` reshaped to [n, 1, ..., 1] to multiply `like` ([n, ...])."""
  ones = tf.fill(tf.expand_dims(tf.rank(like) - 1, 0), 1)
  orig_weights_shape = weights.get_shape()
  weights = tf.reshape(weights, tf.concat([tf.shape(weights), ones], 0))
  if like.get_shape().ndims is not None:
    weights.set_shape(orig_weights_shape.concatenate([1 for _ in range(like.get_shape().ndims - 1)]))
  return weights


def embedding_lookup_sparse_with_distributed_aggregation(params, sp_ids, sp_weights, partition_strategy="mod",
                                                         name=None, combiner=None, max_norm=None):
  """`embedding_lookup_sparse` whose per-row sums are taken on each partition first (TF 1.15's)."""
  if combiner is None:
    tf.compat.v1.logging.warn("The default value of combiner will change from \"mean\" to \"sqrtn\" after "
                              "2016/11/01.")
    combiner = "mean"
  if combiner not in ("mean", "sqrtn", "sum"):
    raise ValueError("combiner must be one of 'mean', 'sqrtn' or 'sum'")
  params = _params_list(params)
  if not isinstance(sp_ids, tf.SparseTensor):
    raise TypeError("sp_ids must be SparseTensor")
  ignore_weights = sp_weights is None
  if not ignore_weights:
    if not isinstance(sp_weights, tf.SparseTensor):
      raise TypeError("sp_weights must be either None or SparseTensor")
    sp_ids.values.get_shape().assert_is_compatible_with(sp_weights.values.get_shape())
    sp_ids.indices.get_shape().assert_is_compatible_with(sp_weights.indices.get_shape())
    sp_ids.dense_shape.get_shape().assert_is_compatible_with(sp_weights.dense_shape.get_shape())
  with tf.compat.v1.name_scope(name, "embedding_lookup_sparse", params + [sp_ids]) as name:
    segment_ids = sp_ids.indices[:, 0]
    if segment_ids.dtype != tf.int32:
      segment_ids = tf.cast(segment_ids, tf.int32)
    ids = sp_ids.values
    if ignore_weights:
      ids, idx = tf.unique(ids)
    else:
      idx = None
    weights = None if ignore_weights else sp_weights.values
    embeddings = _embedding_lookup_with_distributed_aggregation(
        params, ids, partition_strategy=partition_strategy, max_norm=max_norm, weights=weights, idx=idx,
        segment_ids=segment_ids)
    if ignore_weights:
      weights = tf.fill([tf.shape(segment_ids)[0]], 1)
    if weights.dtype != embeddings.dtype:
      weights = tf.cast(weights, embeddings.dtype)
    weights = _broadcast_weights(weights, embeddings)
    if combiner == "mean":
      embeddings = tf.compat.v1.div(embeddings, tf.math.segment_sum(weights, segment_ids))
    elif combiner == "sqrtn":
      embeddings = tf.compat.v1.div(embeddings, tf.sqrt(tf.math.segment_sum(tf.pow(weights, 2), segment_ids)))
    return embeddings


def _do_gather(params, ids, name=None):
  if isinstance(params, tf.Variable) and hasattr(params, "sparse_read"):
    return params.sparse_read(ids, name=name)
  return tf.gather(params, ids, name=name)


def _embedding_lookup_with_distributed_aggregation(params, ids, partition_strategy="mod", name=None,
                                                   max_norm=None, weights=None, idx=None, segment_ids=None):
  """TF 1.15's lookup + per-partition segment sums, combined by an unsorted segment sum."""
  if params is None or params == []:  # pylint: disable=g-explicit-bool-comparison
    raise ValueError("Need at least one param")
  params = _params_list(params)

  def maybe_normalize(x):
    if max_norm is not None:
      ndims = x.get_shape().ndims if x.get_shape().ndims is not None else tf.size(tf.shape(x))
      return tf.clip_by_norm(x, max_norm, axes=list(range(1, ndims)))
    return x

  with tf.compat.v1.name_scope(name, "embedding_lookup_with_distributed_aggregation", params + [ids]) as name:
    np = len(params)  # Number of partitions
    if not any(isinstance(p, tf.Variable) for p in params):
      params = [tf.convert_to_tensor(p, name="params") for p in params]
    if np == 1:
      with tf.compat.v1.colocate_with(params[0]):
        ret = maybe_normalize(_do_gather(params[0], ids))
        if weights is not None:
          if weights.dtype != ret.dtype:
            weights = tf.cast(weights, ret.dtype)
          ret *= _broadcast_weights(weights, ret)
          return tf.math.segment_sum(ret, segment_ids, name=name)
        return tf.sparse.segment_sum(ret, idx, segment_ids, name=name)
    ids = tf.convert_to_tensor(ids, name="ids")
    flat_ids = tf.reshape(ids, [-1])
    original_indices = tf.range(tf.size(flat_ids))
    if partition_strategy == "mod":
      p_assignments = flat_ids % np
      new_ids = flat_ids // np
    elif partition_strategy == "div":
      dim_0_sizes = [tf.compat.dimension_value(p.get_shape()[0]) for p in params]
      if all(d is not None for d in dim_0_sizes):
        num_total_ids = tf.constant(sum(dim_0_sizes), flat_ids.dtype)
      else:
        num_total_ids = tf.reduce_sum(tf.cast(tf.stack(
            [d if d is not None else tf.shape(p)[0] for d, p in zip(dim_0_sizes, params)]), flat_ids.dtype))
      ids_per_partition = num_total_ids // np
      extras = num_total_ids % np
      p_assignments = tf.maximum(flat_ids // (ids_per_partition + 1), (flat_ids - extras) // ids_per_partition)
      is_in_first_extras_partitions = tf.cast(p_assignments < extras, flat_ids.dtype)
      new_ids = (is_in_first_extras_partitions * (flat_ids % (ids_per_partition + 1)) +
                 (1 - is_in_first_extras_partitions) * ((flat_ids - extras) % ids_per_partition))
    else:
      raise ValueError("Unrecognized partition strategy: " + partition_strategy)
    p_assignments = tf.cast(p_assignments, tf.int32)
    gather_ids = tf.dynamic_partition(new_ids, p_assignments, np)
    pindices = tf.dynamic_partition(original_indices, p_assignments, np)
    partitioned_result = []
    for p in range(np):
      with tf.compat.v1.colocate_with(params[p]):
        partitioned_result.append(_do_gather(params[p], gather_ids[p]))
    if weights is not None:
      partitioned_weight = [tf.gather(weights, pindices[p]) for p in range(np)]
    element_shape = params[0].get_shape()[1:]
    for p in params[1:]:
      element_shape = element_shape.merge_with(p.get_shape()[1:])
    if element_shape.is_fully_defined():
      for p in range(np):
        with tf.compat.v1.colocate_with(params[p]):
          partitioned_result[p] = tf.reshape(partitioned_result[p],
                                             tf.concat([tf.shape(pindices[p]), element_shape], 0))
    else:
      with tf.compat.v1.colocate_with(params[0]):
        params_shape = tf.shape(params[0])
      for p in range(np):
        with tf.compat.v1.colocate_with(params[p]):
          partitioned_result[p] = tf.reshape(
              partitioned_result[p], tf.concat([tf.shape(pindices[p]), tf.slice(params_shape, [1], [-1])], 0))
    for p in range(np):
      with tf.compat.v1.colocate_with(params[p]):
        partitioned_result[p] = maybe_normalize(partitioned_result[p])
    if weights is not None:
      for p in range(np):
        with tf.compat.v1.colocate_with(params[p]):
          if partitioned_weight[p].dtype != partitioned_result[p].dtype:
            partitioned_weight[p] = tf.cast(partitioned_weight[p], partitioned_result[p].dtype)
          partitioned_result[p] *= _broadcast_weights(partitioned_weight[p], partitioned_result[p])
    partitioned_segment_ids = []
    for p in range(np):
      if weights is not None:
        p_segment_ids = tf.gather(segment_ids, pindices[p])
        unique_p_segment_ids, unique_p_segment_idx = tf.unique(p_segment_ids)
        partitioned_segment_ids.append(unique_p_segment_ids)
        with tf.compat.v1.colocate_with(params[p]):
          partitioned_result[p] = tf.math.segment_sum(partitioned_result[p], unique_p_segment_idx)
      else:
        _, exclude_idx = tf.compat.v1.setdiff1d(idx, pindices[p])
        all_idx = tf.range(tf.shape(idx)[0])
        _, include_idx = tf.compat.v1.setdiff1d(all_idx, exclude_idx)
        p_segment_ids = tf.gather(segment_ids, include_idx)
        p_idx = tf.gather(idx, include_idx)
        unique_p_segment_ids, unique_p_segment_idx = tf.unique(p_segment_ids)
        _, unique_p_idx_idx = tf.unique(p_idx)
        partitioned_segment_ids.append(unique_p_segment_ids)
        with tf.compat.v1.colocate_with(params[p]):
          partitioned_result[p] = tf.sparse.segment_sum(partitioned_result[p], unique_p_idx_idx,
                                                        unique_p_segment_idx)
    concat_segment_ids = tf.concat(partitioned_segment_ids, 0)
    concat_partitioned_result = tf.concat(partitioned_result, 0)
    return tf.math.unsorted_segment_sum(concat_partitioned_result, concat_segment_ids,
                                        tf.reduce_max(concat_segment_ids) + 1, name=name)


__getattr__ = _catalog.module_getattr(__name__, delegate="tf1clip.contrib.layers")

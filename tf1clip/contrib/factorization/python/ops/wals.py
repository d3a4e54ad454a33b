"""`tf.contrib.factorization.WALSModel` and `WALSMatrixFactorization`: TF 1.15's weighted alternating least squares.

TF 1.15's factorization_ops.WALSModel (the graph: sharded `row_factors_shard_N` / `col_factors_shard_N`,
`row_weights_shard_N` / `col_weights_shard_N`, `row_gramian` / `col_gramian`, local caches under
`transient_vars/`, the update, projection and loss subgraphs) and wals.WALSMatrixFactorization (the
contrib.learn Estimator sweeping rows and columns in turns with its session hooks), ported onto tf.compat.v1.

TF 1.15 built the normal equations with two kernels of its own (`_factorization_ops.so`), gone from TF 2.21 (no
tf.raw_ops survivor). They are composed here from TF ops with the kernels' arithmetic:
`wals_compute_partial_lhs_and_rhs`, per updated row i, lhs_i = sum_j w_ij f_j f_j^T and rhs_i = sum_j a_ij
(w_0 + w_ij) f_j over its observed entries (w_ij = row_weight_i * col_weight_j), as segment sums; and
`masked_matmul`, the products <u_i, v_j> at the observed (i, j) only, as gathers and a row-wise dot product.
"""

import collections.abc
import numbers

import tensorflow as tf

from tf1clip.contrib.learn import estimator as estimator_lib

V1 = tf.compat.v1
ModeKeys = estimator_lib.ModeKeys


def _wals_compute_partial_lhs_and_rhs(factors, factor_weights, unobserved_weights, input_weights, input_indices,
                                      input_values, num_rows, input_is_transpose, name=None):
  """TF 1.15's WALSComputePartialLhsAndRhs kernel (without entry_weights), composed from TF ops."""
  with tf.name_scope(name or "wals_compute_partial_lhs_rhs"):
    column = 1 if input_is_transpose else 0
    input_index = input_indices[:, column]
    factor_index = input_indices[:, 1 - column]
    weight = tf.gather(input_weights, input_index) * tf.gather(factor_weights, factor_index)
    picked = tf.gather(factors, factor_index)
    outer = weight[:, None, None] * (picked[:, :, None] * picked[:, None, :])
    lhs = tf.math.unsorted_segment_sum(outer, input_index, num_rows)
    rhs = tf.math.unsorted_segment_sum(
        (input_values * (unobserved_weights + weight))[:, None] * picked, input_index, num_rows)
    return lhs, rhs


def _masked_matmul(a, b, mask_indices, transpose_a, transpose_b):
  """TF 1.15's MaskedMatmul kernel: (op(a) op(b))[i, j] at each mask index (i, j) only."""
  rows = tf.gather(tf.transpose(a) if transpose_a else a, mask_indices[:, 0])
  cols = tf.gather(b if transpose_b else tf.transpose(b), mask_indices[:, 1])
  return tf.reduce_sum(rows * cols, axis=1)


class WALSModel(object):
  r"""TF 1.15's model for Weighted Alternating Least Squares matrix factorization.

  Minimizes \|\sqrt W \odot (A - U V^T)\|_F^2 + \lambda (\|U\|_F^2 + \|V\|_F^2) over U, V with
  W_ij = W_0 + R_i * C_j where A_ij is observed, W_0 elsewhere (see TF 1.15's docstring for the protocol of
  initialize_op, worker_init, *_prep_gramian_op, initialize_*_update_op and update_*_factors).
  """

  def __init__(self, input_rows, input_cols, n_components, unobserved_weight=0.1, regularization=None,
               row_init="random", col_init="random", num_row_shards=1, num_col_shards=1, row_weights=1,
               col_weights=1, use_factors_weights_cache=True, use_gramian_cache=True, use_scoped_vars=False):
    self._input_rows = input_rows
    self._input_cols = input_cols
    self._num_row_shards = num_row_shards
    self._num_col_shards = num_col_shards
    self._n_components = n_components
    self._unobserved_weight = unobserved_weight
    self._regularization = regularization
    self._regularization_matrix = (regularization * tf.eye(self._n_components)
                                   if regularization is not None else None)
    assert (row_weights is None) == (col_weights is None)
    self._use_factors_weights_cache = use_factors_weights_cache
    self._use_gramian_cache = use_gramian_cache

    if use_scoped_vars:
      with tf.name_scope("row_weights"):
        self._row_weights = WALSModel._create_weights(row_weights, self._input_rows, self._num_row_shards,
                                                      "row_weights")
      with tf.name_scope("col_weights"):
        self._col_weights = WALSModel._create_weights(col_weights, self._input_cols, self._num_col_shards,
                                                      "col_weights")
      with tf.name_scope("row_factors"):
        self._row_factors = self._create_factors(self._input_rows, self._n_components, self._num_row_shards,
                                                 row_init, "row_factors")
      with tf.name_scope("col_factors"):
        self._col_factors = self._create_factors(self._input_cols, self._n_components, self._num_col_shards,
                                                 col_init, "col_factors")
    else:
      self._row_weights = WALSModel._create_weights(row_weights, self._input_rows, self._num_row_shards,
                                                    "row_weights")
      self._col_weights = WALSModel._create_weights(col_weights, self._input_cols, self._num_col_shards,
                                                    "col_weights")
      self._row_factors = self._create_factors(self._input_rows, self._n_components, self._num_row_shards,
                                               row_init, "row_factors")
      self._col_factors = self._create_factors(self._input_cols, self._n_components, self._num_col_shards,
                                               col_init, "col_factors")

    self._row_gramian = self._create_gramian(self._n_components, "row_gramian")
    self._col_gramian = self._create_gramian(self._n_components, "col_gramian")
    with tf.name_scope("row_prepare_gramian"):
      self._row_update_prep_gramian = self._prepare_gramian(self._col_factors, self._col_gramian)
    with tf.name_scope("col_prepare_gramian"):
      self._col_update_prep_gramian = self._prepare_gramian(self._row_factors, self._row_gramian)
    with tf.name_scope("transient_vars"):
      self._create_transient_vars()

  @property
  def row_factors(self):
    """Returns a list of tensors corresponding to row factor shards."""
    return self._row_factors

  @property
  def col_factors(self):
    """Returns a list of tensors corresponding to column factor shards."""
    return self._col_factors

  @property
  def row_weights(self):
    """Returns a list of tensors corresponding to row weight shards."""
    return self._row_weights

  @property
  def col_weights(self):
    """Returns a list of tensors corresponding to col weight shards."""
    return self._col_weights

  @property
  def initialize_op(self):
    """Returns an op for initializing tensorflow variables."""
    all_vars = self._row_factors + self._col_factors
    all_vars.extend([self._row_gramian, self._col_gramian])
    if self._row_weights is not None:
      assert self._col_weights is not None
      all_vars.extend(self._row_weights + self._col_weights)
    return V1.variables_initializer(all_vars)

  @classmethod
  def _shard_sizes(cls, dims, num_shards):
    shard_size, residual = divmod(dims, num_shards)
    return [shard_size + 1] * residual + [shard_size] * (num_shards - residual)

  @classmethod
  def _create_factors(cls, rows, cols, num_shards, init, name):
    """Helper function to create row and column factors."""
    if callable(init):
      init = init()
    if isinstance(init, list):
      assert len(init) == num_shards
    elif isinstance(init, str) and init == "random":
      pass
    elif num_shards == 1:
      init = [init]
    sharded_matrix = []
    sizes = cls._shard_sizes(rows, num_shards)
    assert len(sizes) == num_shards

    def make_initializer(i, size):

      def initializer():
        if isinstance(init, str) and init == "random":
          return V1.random_normal([size, cols])
        return init[i]

      return initializer

    for i, size in enumerate(sizes):
      sharded_matrix.append(V1.Variable(make_initializer(i, size), dtype=tf.float32,
                                        name="%s_shard_%d" % (name, i)))
    return sharded_matrix

  @classmethod
  def _create_weights(cls, wt_init, num_wts, num_shards, name):
    """Helper function to create sharded weight vector (None, a non-negative number, or lists per shard)."""
    if wt_init is None:
      return None
    init_mode = "list"
    if isinstance(wt_init, collections.abc.Iterable):
      if num_shards == 1 and len(wt_init) == num_wts:
        wt_init = [wt_init]
      assert len(wt_init) == num_shards
    elif isinstance(wt_init, numbers.Real) and wt_init >= 0:
      init_mode = "scalar"
    else:
      raise ValueError(
          "Invalid weight initialization argument. Must be one of these: "
          "None, a real non-negative real number, or a list of lists of "
          "non-negative real numbers (or equivalent iterables) corresponding "
          "to sharded factors.")

    sizes = cls._shard_sizes(num_wts, num_shards)
    assert len(sizes) == num_shards

    def make_wt_initializer(i, size):

      def initializer():
        if init_mode == "scalar":
          return wt_init * tf.ones([size])
        return wt_init[i]

      return initializer

    sharded_weight = []
    for i, size in enumerate(sizes):
      sharded_weight.append(V1.Variable(make_wt_initializer(i, size), dtype=tf.float32,
                                        name="%s_shard_%d" % (name, i)))
    return sharded_weight

  @staticmethod
  def _create_gramian(n_components, name):
    return V1.Variable(tf.zeros([n_components, n_components]), dtype=tf.float32, name=name)

  @staticmethod
  def _transient_var(name):
    return V1.Variable(1.0, trainable=False, collections=[V1.GraphKeys.LOCAL_VARIABLES], validate_shape=False,
                       name=name)

  def _prepare_gramian(self, factors, gramian):
    """An op setting `gramian` to the sum of the factor shards' F^T F."""
    partial_gramians = []
    for f in factors:
      with V1.colocate_with(f):
        partial_gramians.append(tf.matmul(f, f, transpose_a=True))
    with V1.colocate_with(gramian):
      prep_gramian = V1.assign(gramian, tf.add_n(partial_gramians)).op
    return prep_gramian

  def _cached_copy(self, var, name, pass_through=False):
    """(cache, cache_init, cache_reset): a worker-local copy of a Variable or list of Variables."""
    if var is None:
      return None, None, None
    elif pass_through:
      cache = var
      cache_init = tf.no_op()
      cache_reset = tf.no_op()
    elif isinstance(var, tf.Variable):
      cache = WALSModel._transient_var(name=name)
      with V1.colocate_with(cache):
        cache_init = V1.assign(cache, var, validate_shape=False)
        cache_reset = V1.assign(cache, 1.0, validate_shape=False)
    else:
      assert isinstance(var, list)
      assert var
      cache = [WALSModel._transient_var(name="%s_shard_%d" % (name, i)) for i in range(len(var))]
      reset_ops = []
      for i, c in enumerate(cache):
        with V1.colocate_with(c):
          if i == 0:
            cache_init = V1.assign(c, var[i], validate_shape=False)
          else:
            with tf.control_dependencies([cache_init]):
              cache_init = V1.assign(c, var[i], validate_shape=False)
          reset_ops.append(V1.assign(c, 1.0, validate_shape=False))
      cache_reset = tf.group(*reset_ops)
    return cache, cache_init, cache_reset

  def _create_transient_vars(self):
    """Creates local cache of factors, weights and gramian for rows and columns."""
    (self._row_factors_cache, row_factors_cache_init, row_factors_cache_reset) = self._cached_copy(
        self._row_factors, "row_factors_cache", pass_through=not self._use_factors_weights_cache)
    (self._col_factors_cache, col_factors_cache_init, col_factors_cache_reset) = self._cached_copy(
        self._col_factors, "col_factors_cache", pass_through=not self._use_factors_weights_cache)
    (self._row_wt_cache, row_wt_cache_init, _) = self._cached_copy(
        self._row_weights, "row_wt_cache", pass_through=not self._use_factors_weights_cache)
    (self._col_wt_cache, col_wt_cache_init, _) = self._cached_copy(
        self._col_weights, "col_wt_cache", pass_through=not self._use_factors_weights_cache)
    (self._row_gramian_cache, row_gramian_cache_init, row_gramian_cache_reset) = self._cached_copy(
        self._row_gramian, "row_gramian_cache", pass_through=not self._use_gramian_cache)
    (self._col_gramian_cache, col_gramian_cache_init, col_gramian_cache_reset) = self._cached_copy(
        self._col_gramian, "col_gramian_cache", pass_through=not self._use_gramian_cache)

    self._row_updates_init = tf.group(col_factors_cache_init, row_factors_cache_reset, col_gramian_cache_init,
                                      row_gramian_cache_reset)
    self._col_updates_init = tf.group(row_factors_cache_init, col_factors_cache_reset, row_gramian_cache_init,
                                      col_gramian_cache_reset)
    if self._row_wt_cache is not None:
      assert self._col_wt_cache is not None
      self._worker_init = tf.group(row_wt_cache_init, col_wt_cache_init, name="worker_init")
    else:
      self._worker_init = tf.no_op(name="worker_init")

  @property
  def worker_init(self):
    """Op to initialize worker state (the weights caches) once before starting any updates."""
    return self._worker_init

  @property
  def row_update_prep_gramian_op(self):
    """Op to form the gramian before starting row updates."""
    return self._row_update_prep_gramian

  @property
  def col_update_prep_gramian_op(self):
    """Op to form the gramian before starting col updates."""
    return self._col_update_prep_gramian

  @property
  def initialize_row_update_op(self):
    """Op to initialize worker state before starting row updates."""
    return self._row_updates_init

  @property
  def initialize_col_update_op(self):
    """Op to initialize worker state before starting column updates."""
    return self._col_updates_init

  @staticmethod
  def _get_sharding_func(size, num_shards):
    """Create sharding function for scatter update."""

    def func(ids):
      if num_shards == 1:
        return None, ids
      ids_per_shard = size // num_shards
      extras = size % num_shards
      assignments = tf.maximum(ids // (ids_per_shard + 1), (ids - extras) // ids_per_shard)
      new_ids = tf.where(assignments < extras, ids % (ids_per_shard + 1), (ids - extras) % ids_per_shard)
      return assignments, new_ids

    return func

  @classmethod
  def scatter_update(cls, factor, indices, values, sharding_func, name=None):
    """Helper function for doing sharded scatter update."""
    assert isinstance(factor, list)
    if len(factor) == 1:
      with V1.colocate_with(factor[0]):
        return V1.scatter_update(factor[0], indices, values, name=name).op
    num_shards = len(factor)
    assignments, new_ids = sharding_func(indices)
    assert assignments is not None
    assignments = tf.cast(assignments, tf.int32)
    sharded_ids = tf.dynamic_partition(new_ids, assignments, num_shards)
    sharded_values = tf.dynamic_partition(values, assignments, num_shards)
    updates = [V1.scatter_update(factor[i], sharded_ids[i], sharded_values[i]) for i in range(num_shards)]
    return tf.group(*updates, name=name)

  def update_row_factors(self, sp_input=None, transpose_input=False):
    """(new_values, update_op, unregularized_loss, regularization, sum_weights) of a row update."""
    return self._process_input_helper(True, sp_input=sp_input, transpose_input=transpose_input)

  def update_col_factors(self, sp_input=None, transpose_input=False):
    """(new_values, update_op, unregularized_loss, regularization, sum_weights) of a column update."""
    return self._process_input_helper(False, sp_input=sp_input, transpose_input=transpose_input)

  def project_row_factors(self, sp_input=None, transpose_input=False, projection_weights=None):
    """The row embeddings of the rows of `sp_input`, one iteration of the update equations."""
    if projection_weights is None:
      projection_weights = 1
    return self._process_input_helper(True, sp_input=sp_input, transpose_input=transpose_input,
                                      row_weights=projection_weights)[0]

  def project_col_factors(self, sp_input=None, transpose_input=False, projection_weights=None):
    """The column embeddings of the columns of `sp_input`, one iteration of the update equations."""
    if projection_weights is None:
      projection_weights = 1
    return self._process_input_helper(False, sp_input=sp_input, transpose_input=transpose_input,
                                      row_weights=projection_weights)[0]

  def _process_input_helper(self, update_row_factors, sp_input=None, transpose_input=False, row_weights=None):
    """The graph processing a sparse slice of input (TF 1.15's)."""
    assert isinstance(sp_input, tf.SparseTensor)

    if update_row_factors:
      left = self._row_factors
      right_factors = self._col_factors_cache
      row_wt = self._row_wt_cache
      col_wt = self._col_wt_cache
      total_rows = self._input_rows
      total_cols = self._input_cols
      sharding_func = WALSModel._get_sharding_func(self._input_rows, self._num_row_shards)
      gramian = self._col_gramian_cache
    else:
      left = self._col_factors
      right_factors = self._row_factors_cache
      row_wt = self._col_wt_cache
      col_wt = self._row_wt_cache
      total_rows = self._input_cols
      total_cols = self._input_rows
      sharding_func = WALSModel._get_sharding_func(self._input_cols, self._num_col_shards)
      gramian = self._row_gramian_cache
      transpose_input = not transpose_input

    # Reindex the rows (and columns) of sp_input to contiguous ids from 0, as TF 1.15 did with tf.unique.
    row_ids, col_ids = tf.split(value=sp_input.indices, num_or_size_splits=2, axis=1)
    update_row_indices, all_row_ids = tf.unique(row_ids[:, 0])
    update_col_indices, all_col_ids = tf.unique(col_ids[:, 0])
    col_ids = tf.expand_dims(tf.cast(all_col_ids, tf.int64), 1)
    row_ids = tf.expand_dims(tf.cast(all_row_ids, tf.int64), 1)

    if transpose_input:
      update_indices = update_col_indices
      row_shape = [tf.cast(tf.shape(update_row_indices)[0], tf.int64)]
      gather_indices = update_row_indices
    else:
      update_indices = update_row_indices
      row_shape = [tf.cast(tf.shape(update_col_indices)[0], tf.int64)]
      gather_indices = update_col_indices

    num_rows = tf.cast(tf.shape(update_indices)[0], tf.int64)
    col_shape = [num_rows]
    right = V1.nn.embedding_lookup(right_factors, gather_indices, partition_strategy="div")
    new_sp_indices = tf.concat([row_ids, col_ids], 1)
    new_sp_shape = (tf.concat([row_shape, col_shape], 0) if transpose_input else
                    tf.concat([col_shape, row_shape], 0))
    new_sp_input = tf.SparseTensor(indices=new_sp_indices, values=sp_input.values, dense_shape=new_sp_shape)

    # Compute lhs and rhs of the normal equations
    total_lhs = (self._unobserved_weight * gramian)
    if self._regularization_matrix is not None:
      total_lhs += self._regularization_matrix
    if self._row_weights is None:
      # Special case of ALS. Use a much simpler update rule.
      total_rhs = (self._unobserved_weight * V1.sparse_tensor_dense_matmul(new_sp_input, right,
                                                                          adjoint_a=transpose_input))
      new_left_values = tf.transpose(tf.linalg.solve(total_lhs, tf.transpose(total_rhs)))
    else:
      if row_weights is None:
        row_weights_slice = V1.nn.embedding_lookup(row_wt, update_indices, partition_strategy="div")
      else:
        num_indices = tf.shape(update_indices)[0]
        with tf.control_dependencies([V1.assert_less_equal(tf.rank(row_weights), 1)]):
          row_weights_slice = V1.cond(tf.equal(tf.rank(row_weights), 0),
                                      lambda: (tf.ones([num_indices]) * row_weights),
                                      lambda: tf.cast(row_weights, tf.float32))

      col_weights = V1.nn.embedding_lookup(col_wt, gather_indices, partition_strategy="div")
      partial_lhs, total_rhs = _wals_compute_partial_lhs_and_rhs(
          right, col_weights, self._unobserved_weight, row_weights_slice, new_sp_input.indices,
          new_sp_input.values, num_rows, transpose_input, name="wals_compute_partial_lhs_rhs")
      total_lhs = tf.expand_dims(total_lhs, 0) + partial_lhs
      total_rhs = tf.expand_dims(total_rhs, -1)
      new_left_values = tf.squeeze(tf.linalg.solve(total_lhs, total_rhs), [2])

    update_op_name = "row_update" if update_row_factors else "col_update"
    update_op = self.scatter_update(left, update_indices, new_left_values, sharding_func, name=update_op_name)

    # Create the loss subgraph
    loss_sp_input = (V1.sparse_transpose(new_sp_input) if transpose_input else new_sp_input)
    # sp_approx: the low rank estimate <u_i, v_j> at each (i, j) of loss_sp_input.indices.
    sp_approx_vals = _masked_matmul(new_left_values, right, loss_sp_input.indices, transpose_a=False,
                                    transpose_b=True)
    sp_approx = tf.SparseTensor(loss_sp_input.indices, sp_approx_vals, loss_sp_input.dense_shape)
    sp_approx_sq = tf.square(sp_approx)
    sp_residual = V1.sparse_add(loss_sp_input, sp_approx * (-1))
    sp_residual_sq = tf.square(sp_residual)
    row_wt_mat = (tf.constant(0.) if self._row_weights is None else tf.expand_dims(row_weights_slice, 1))
    col_wt_mat = (tf.constant(0.) if self._col_weights is None else tf.expand_dims(col_weights, 0))

    # We return the normalized loss
    partial_row_gramian = tf.matmul(new_left_values, new_left_values, transpose_a=True)
    normalization_factor = total_rows / tf.cast(num_rows, tf.float32)

    unregularized_loss = (
        self._unobserved_weight * (
            V1.sparse_reduce_sum(sp_residual_sq) - V1.sparse_reduce_sum(sp_approx_sq) +
            tf.linalg.trace(tf.matmul(partial_row_gramian, gramian))) +
        V1.sparse_reduce_sum(row_wt_mat * (sp_residual_sq * col_wt_mat))
    ) * normalization_factor

    if self._regularization is not None:
      regularization = self._regularization * (
          tf.linalg.trace(partial_row_gramian) * normalization_factor + tf.linalg.trace(gramian))
    else:
      regularization = tf.constant(0.)

    sum_weights = self._unobserved_weight * tf.cast(total_rows * total_cols, tf.float32)
    if self._row_weights is not None and self._col_weights is not None:
      ones = tf.SparseTensor(indices=loss_sp_input.indices, values=tf.ones(tf.shape(loss_sp_input.values)),
                             dense_shape=loss_sp_input.dense_shape)
      sum_weights += V1.sparse_reduce_sum(row_wt_mat * (ones * col_wt_mat)) * normalization_factor

    return (new_left_values, update_op, unregularized_loss, regularization, sum_weights)



class _SweepHook(V1.train.SessionRunHook):
  """Keeps track of row/col sweeps, and runs prep ops before each sweep."""

  def __init__(self, is_row_sweep_var, is_sweep_done_var, init_op, row_prep_ops, col_prep_ops, row_train_op,
               col_train_op, switch_op):
    self._is_row_sweep_var = is_row_sweep_var
    self._is_sweep_done_var = is_sweep_done_var
    self._init_op = init_op
    self._row_prep_ops = row_prep_ops
    self._col_prep_ops = col_prep_ops
    self._row_train_op = row_train_op
    self._col_train_op = col_train_op
    self._switch_op = switch_op
    self._is_initialized = False

  def before_run(self, run_context):
    """Runs the appropriate prep ops, and requests running update ops."""
    sess = run_context.session
    is_sweep_done = sess.run(self._is_sweep_done_var)
    if not self._is_initialized:
      V1.logging.info("SweepHook running init op.")
      sess.run(self._init_op)
    if is_sweep_done:
      V1.logging.info("SweepHook starting the next sweep.")
      sess.run(self._switch_op)
    is_row_sweep = sess.run(self._is_row_sweep_var)
    if is_sweep_done or not self._is_initialized:
      V1.logging.info("SweepHook running prep ops for the {} sweep.".format("row" if is_row_sweep else "col"))
      prep_ops = self._row_prep_ops if is_row_sweep else self._col_prep_ops
      for prep_op in prep_ops:
        sess.run(prep_op)
    self._is_initialized = True
    V1.logging.info("Next fit step starting.")
    return V1.train.SessionRunArgs(fetches=[self._row_train_op if is_row_sweep else self._col_train_op])


class _IncrementGlobalStepHook(V1.train.SessionRunHook):
  """Hook that increments the global step."""

  def __init__(self):
    global_step = V1.train.get_global_step()
    if global_step:
      self._global_step_incr_op = V1.assign_add(global_step, 1, name="global_step_incr").op
    else:
      self._global_step_incr_op = None

  def before_run(self, run_context):
    if self._global_step_incr_op:
      run_context.session.run(self._global_step_incr_op)


class _StopAtSweepHook(V1.train.SessionRunHook):
  """Hook that requests stop at a given sweep (reads the COMPLETED_SWEEPS variable)."""

  def __init__(self, last_sweep):
    self._last_sweep = last_sweep

  def begin(self):
    try:
      self._completed_sweeps_var = V1.get_default_graph().get_tensor_by_name(
          WALSMatrixFactorization.COMPLETED_SWEEPS + ":0")
    except KeyError:
      raise RuntimeError(WALSMatrixFactorization.COMPLETED_SWEEPS +  # pylint: disable=raise-missing-from
                         " counter should be created to use StopAtSweepHook.")

  def before_run(self, run_context):
    return V1.train.SessionRunArgs(self._completed_sweeps_var)

  def after_run(self, run_context, run_values):
    if run_values.results >= self._last_sweep:
      run_context.request_stop()


def _wals_factorization_model_function(features, labels, mode, params):
  """Model function for the WALSFactorization estimator (TF 1.15's)."""
  assert labels is None
  use_factors_weights_cache = (params["use_factors_weights_cache_for_training"] and mode == ModeKeys.TRAIN)
  use_gramian_cache = (params["use_gramian_cache_for_training"] and mode == ModeKeys.TRAIN)
  max_sweeps = params["max_sweeps"]
  model = WALSModel(
      params["num_rows"], params["num_cols"], params["embedding_dimension"],
      unobserved_weight=params["unobserved_weight"], regularization=params["regularization_coeff"],
      row_init=params["row_init"], col_init=params["col_init"], num_row_shards=params["num_row_shards"],
      num_col_shards=params["num_col_shards"], row_weights=params["row_weights"],
      col_weights=params["col_weights"], use_factors_weights_cache=use_factors_weights_cache,
      use_gramian_cache=use_gramian_cache)

  input_rows = features[WALSMatrixFactorization.INPUT_ROWS]
  input_cols = features[WALSMatrixFactorization.INPUT_COLS]

  if mode == ModeKeys.TRAIN:
    def bookkeeping(initial_value, name):
      return V1.Variable(initial_value, trainable=False, name=name, collections=[V1.GraphKeys.GLOBAL_VARIABLES])
    is_row_sweep_var = bookkeeping(True, "is_row_sweep")
    is_sweep_done_var = bookkeeping(False, "is_sweep_done")
    completed_sweeps_var = bookkeeping(0, WALSMatrixFactorization.COMPLETED_SWEEPS)
    loss_var = bookkeeping(0., WALSMatrixFactorization.LOSS)
    # The root weighted squared error = \sqrt( \sum_{i,j} w_ij * (a_ij - r_ij)^2 / \sum_{i,j} w_ij )
    rwse_var = bookkeeping(0., WALSMatrixFactorization.RWSE)

    V1.summary.scalar("loss", loss_var)
    V1.summary.scalar("root_weighted_squared_error", rwse_var)
    V1.summary.scalar("completed_sweeps", completed_sweeps_var)

    def create_axis_ops(sp_input, num_items, update_fn, axis_name):
      """(reset_processed_items_op, axis_train_op) of one axis."""
      processed_items_init = tf.fill(dims=[num_items], value=False)
      with V1.colocate_with(processed_items_init):
        processed_items = V1.Variable(processed_items_init, collections=[V1.GraphKeys.GLOBAL_VARIABLES],
                                      trainable=False, name="processed_" + axis_name)
      _, update_op, loss, reg, sum_weights = update_fn(sp_input)
      input_indices = sp_input.indices[:, 0]
      with tf.control_dependencies([update_op, V1.assign(loss_var, loss + reg),
                                    V1.assign(rwse_var, tf.sqrt(loss / sum_weights))]):
        with V1.colocate_with(processed_items):
          update_processed_items = V1.scatter_update(
              processed_items, input_indices, tf.ones_like(input_indices, dtype=tf.bool),
              name="update_processed_{}_indices".format(axis_name))
        with tf.control_dependencies([update_processed_items]):
          is_sweep_done = tf.reduce_all(processed_items)
          axis_train_op = tf.group(
              V1.assign(is_sweep_done_var, is_sweep_done),
              V1.assign_add(completed_sweeps_var, tf.cast(is_sweep_done, tf.int32)),
              name="{}_sweep_train_op".format(axis_name))
      return processed_items.initializer, axis_train_op

    reset_processed_rows_op, row_train_op = create_axis_ops(
        input_rows, params["num_rows"], lambda x: model.update_row_factors(sp_input=x, transpose_input=False),
        "rows")
    reset_processed_cols_op, col_train_op = create_axis_ops(
        input_cols, params["num_cols"], lambda x: model.update_col_factors(sp_input=x, transpose_input=True),
        "cols")
    switch_op = tf.group(V1.assign(is_row_sweep_var, tf.logical_not(is_row_sweep_var)),
                         reset_processed_rows_op, reset_processed_cols_op, name="sweep_switch_op")
    row_prep_ops = [model.row_update_prep_gramian_op, model.initialize_row_update_op]
    col_prep_ops = [model.col_update_prep_gramian_op, model.initialize_col_update_op]
    init_op = model.worker_init
    sweep_hook = _SweepHook(is_row_sweep_var, is_sweep_done_var, init_op, row_prep_ops, col_prep_ops,
                            row_train_op, col_train_op, switch_op)
    global_step_hook = _IncrementGlobalStepHook()
    training_hooks = [sweep_hook, global_step_hook]
    if max_sweeps is not None:
      training_hooks.append(_StopAtSweepHook(max_sweeps))
    return estimator_lib.ModelFnOps(mode=ModeKeys.TRAIN, predictions={}, loss=loss_var, eval_metric_ops={},
                                    train_op=tf.no_op(), training_hooks=training_hooks)

  elif mode == ModeKeys.INFER:
    projection_weights = features.get(WALSMatrixFactorization.PROJECTION_WEIGHTS)

    def get_row_projection():
      return model.project_row_factors(sp_input=input_rows, projection_weights=projection_weights,
                                       transpose_input=False)

    def get_col_projection():
      return model.project_col_factors(sp_input=input_cols, projection_weights=projection_weights,
                                       transpose_input=True)

    predictions = {WALSMatrixFactorization.PROJECTION_RESULT: V1.cond(
        features[WALSMatrixFactorization.PROJECT_ROW], get_row_projection, get_col_projection)}
    return estimator_lib.ModelFnOps(mode=ModeKeys.INFER, predictions=predictions, loss=None,
                                    eval_metric_ops={}, train_op=tf.no_op(), training_hooks=[])

  elif mode == ModeKeys.EVAL:
    def get_row_loss():
      _, _, loss, reg, _ = model.update_row_factors(sp_input=input_rows, transpose_input=False)
      return loss + reg

    def get_col_loss():
      _, _, loss, reg, _ = model.update_col_factors(sp_input=input_cols, transpose_input=True)
      return loss + reg

    loss = V1.cond(features[WALSMatrixFactorization.PROJECT_ROW], get_row_loss, get_col_loss)
    return estimator_lib.ModelFnOps(mode=ModeKeys.EVAL, predictions={}, loss=loss, eval_metric_ops={},
                                    train_op=tf.no_op(), training_hooks=[])

  else:
    raise ValueError("mode=%s is not recognized." % str(mode))


class WALSMatrixFactorization(estimator_lib.Estimator):
  """TF 1.15's contrib.learn Estimator for weighted matrix factorization by WALS.

  `fit(input_fn=)`: features {INPUT_ROWS: row slices, INPUT_COLS: transposed column slices} (float32
  SparseTensors); rows and columns are swept in turns. `get_projections(input_fn=)` adds PROJECT_ROW (and
  optionally PROJECTION_WEIGHTS); `evaluate` the same features for the loss.
  """
  INPUT_ROWS = "input_rows"
  INPUT_COLS = "input_cols"
  PROJECT_ROW = "project_row"
  PROJECTION_WEIGHTS = "projection_weights"
  PROJECTION_RESULT = "projection"
  COMPLETED_SWEEPS = "completed_sweeps"
  LOSS = "WALS_loss"
  RWSE = "WALS_RWSE"

  def __init__(self, num_rows, num_cols, embedding_dimension, unobserved_weight=0.1, regularization_coeff=None,
               row_init="random", col_init="random", num_row_shards=1, num_col_shards=1, row_weights=1,
               col_weights=1, use_factors_weights_cache_for_training=True, use_gramian_cache_for_training=True,
               max_sweeps=None, model_dir=None, config=None):
    params = {
        "num_rows": num_rows, "num_cols": num_cols, "embedding_dimension": embedding_dimension,
        "unobserved_weight": unobserved_weight, "regularization_coeff": regularization_coeff,
        "row_init": row_init, "col_init": col_init, "num_row_shards": num_row_shards,
        "num_col_shards": num_col_shards, "row_weights": row_weights, "col_weights": col_weights,
        "max_sweeps": max_sweeps,
        "use_factors_weights_cache_for_training": use_factors_weights_cache_for_training,
        "use_gramian_cache_for_training": use_gramian_cache_for_training}
    self._row_factors_names = ["row_factors_shard_%d" % i for i in range(num_row_shards)]
    self._col_factors_names = ["col_factors_shard_%d" % i for i in range(num_col_shards)]
    super(WALSMatrixFactorization, self).__init__(model_fn=_wals_factorization_model_function, params=params,
                                                  model_dir=model_dir, config=config)
    if self._config is not None and self._config.num_worker_replicas > 1:
      raise ValueError("WALSMatrixFactorization must be run on a single worker replica.")

  def get_row_factors(self):
    """Returns the row factors of the model, loading them from checkpoint."""
    return [self.get_variable_value(name) for name in self._row_factors_names]

  def get_col_factors(self):
    """Returns the column factors of the model, loading them from checkpoint."""
    return [self.get_variable_value(name) for name in self._col_factors_names]

  def get_projections(self, input_fn):
    """A generator of the projected factors of the rows or columns given in input_fn."""
    return (result[WALSMatrixFactorization.PROJECTION_RESULT] for result in self.predict(input_fn=input_fn))

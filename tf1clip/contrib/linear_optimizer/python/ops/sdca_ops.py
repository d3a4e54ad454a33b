"""`tf.contrib.linear_optimizer.SdcaModel`: TF 1.15's SDCA solver for linear models, on tensorflow-estimator's.

TF 1.15's `SdcaModel` moved to tensorflow-estimator (canned/linear_optimizer/python/utils/sdca_ops.py) as
`_SDCAModel`, with the same `minimize` (the SdcaOptimizerV2 step, the example-state hash table, partitioned
variables) and the same losses, but a few rules changed. This subclass keeps the library's code and puts TF 1.15's
rules back:
- the options: TF 1.15 accepted `symmetric_l2_regularization=0` (any non-negative value) and ran the solver with
  max(l2, 1.0); the library refuses l2 <= 0 and uses l2 as given (other weights for l2 < 1). TF 1.15's errors
  ("Unsupported loss_type", "... should be non-negative. Found (...)");
- the unshrinked slot variables keep TF 1.15's names (`<variable>_unshrinked/SDCAOptimizer`, the library names
  them `<variable>_unshrunk`), so TF 1.15 checkpoints of a model trained by SdcaModel restore;
- `predictions` / `unregularized_loss` compute w*x as TF 1.15 did (no `example_ids` needed), and
  `regularized_loss` uses the l2 the user gave (not max(l2, 1)), as TF 1.15 did.
The proximal L1 step of `update_weights` (sign(w) * max(|w| - l1 / l2, 0)) is the library's, the same numbers as
TF 1.15's SdcaShrinkL1 kernel.

Internals used (no public way): tensorflow-estimator's `_SDCAModel` and `_ShardedMutableDenseHashTable`.
"""

import collections

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog

_LIBRARY = "tensorflow_estimator.python.estimator.canned.linear_optimizer.python.utils."
_SUPPORTED_LOSSES = ("logistic_loss", "squared_loss", "hinge_loss", "smooth_hinge_loss", "poisson_loss")
# tensorflow-estimator's modules (catalog.resolve applies its shim first).
_library_sdca_ops = _catalog.resolve(_LIBRARY + "sdca_ops:")
_ShardedMutableDenseHashTable = _catalog.resolve(
    _LIBRARY + "sharded_mutable_dense_hashtable:_ShardedMutableDenseHashTable")


class SdcaModel(_library_sdca_ops._SDCAModel):  # pylint: disable=protected-access
  """Stochastic dual coordinate ascent solver for linear models (TF 1.15's `tf.contrib.linear_optimizer.SdcaModel`).

  Loss functions: logistic_loss, squared_loss, hinge_loss, smooth_hinge_loss, poisson_loss.

  ```python
  lr = tf.contrib.linear_optimizer.SdcaModel(examples, variables, options)
  min_op = lr.minimize()
  opt_op = lr.update_weights(min_op)
  predictions = lr.predictions(examples)
  regularized_loss = lr.regularized_loss(examples)     # primal loss + L1 loss + L2 loss
  unregularized_loss = lr.unregularized_loss(examples) # primal loss only
  ```
  examples: {sparse_features: list of SparseFeatureColumn, dense_features: list of float32 [batch, dim]
  tensors, example_labels: float32 [batch], example_weights: float32 [batch], example_ids: string [batch]};
  variables: {sparse_features_weights: list of [vocab] variables, dense_features_weights: list of [dim]
  variables}; options: {symmetric_l1_regularization, symmetric_l2_regularization, loss_type,
  num_loss_partitions (1), num_table_shards (1), adaptive (True)}.
  """

  def __init__(self, examples, variables, options):  # pylint: disable=super-init-not-called
    """Create a new sdca optimizer (TF 1.15's checks, then the library's state)."""
    if not examples or not variables or not options:
      raise ValueError("examples, variables and options must all be specified.")
    if options["loss_type"] not in _SUPPORTED_LOSSES:
      raise ValueError("Unsupported loss_type: ", options["loss_type"])
    self._assert_specified(["example_labels", "example_weights", "example_ids", "sparse_features",
                            "dense_features"], examples)
    self._assert_list(["sparse_features", "dense_features"], examples)
    self._assert_specified(["sparse_features_weights", "dense_features_weights"], variables)
    self._assert_list(["sparse_features_weights", "dense_features_weights"], variables)
    self._assert_specified(["loss_type", "symmetric_l2_regularization", "symmetric_l1_regularization"],
                           options)
    for name in ["symmetric_l1_regularization", "symmetric_l2_regularization"]:
      value = options[name]
      if value < 0.0:
        raise ValueError("%s should be non-negative. Found (%f)" % (name, value))
    self._examples = examples
    self._variables = variables
    self._options = options
    self._create_slots()
    self._hashtable = _ShardedMutableDenseHashTable(
        key_dtype=tf.int64, value_dtype=tf.float32, num_shards=self._num_table_shards(),
        default_value=[0.0, 0.0, 0.0, 0.0],
        # SdcaFprint never returns 0 or 1 for the low64 bits, so this a safe empty_key.
        empty_key=[0, 0], deleted_key=[1, 1])
    tf.compat.v1.summary.scalar("approximate_duality_gap", self.approximate_duality_gap())
    tf.compat.v1.summary.scalar("examples_seen", self._hashtable.size())

  def _symmetric_l2_regularization(self):
    # TF 1.15's algorithmic requirement: a minimal l2 of 1.0.
    return max(self._options["symmetric_l2_regularization"], 1.0)

  def _create_slots(self):
    """The unshrinked weights (before the L1 step), named as TF 1.15 named them."""
    self._slots = collections.defaultdict(list)

    def zeros_like(var):
      initial = tf.cond(tf.compat.v1.is_variable_initialized(var), var.read_value, lambda: var.initial_value)
      return tf.compat.v1.zeros_like(initial, tf.float32)

    for name in ["sparse_features_weights", "dense_features_weights"]:
      for var in self._variables[name]:
        if not isinstance(var, tf.Variable):  # a list of Variables or a PartitionedVariable
          var_list = []
          for v in var:
            with tf.compat.v1.colocate_with(v):
              var_list.append(tf.compat.v1.Variable(
                  initial_value=zeros_like(v), name=v.op.name + "_unshrinked/SDCAOptimizer"))
          # The library's minimize / update_weights read the slots under "unshrunk_".
          self._slots["unshrunk_" + name].append(var_list)
        else:
          with tf.compat.v1.device(var.device):
            self._slots["unshrunk_" + name].append(tf.compat.v1.Variable(
                zeros_like(var), name=var.op.name + "_unshrinked/SDCAOptimizer"))

  def _l2_loss(self, l2=None):
    """The (un-normalized) l2 loss: l2 * sum(weights^2) / 2 (max(l2, 1) when not given)."""
    l2 = self._symmetric_l2_regularization() if l2 is None else l2
    with tf.compat.v1.name_scope("sdca/l2_loss"):
      sums = []
      for name in ["sparse_features_weights", "dense_features_weights"]:
        for var in self._variables[name]:
          for v in self._var_to_list(var):
            weights = tf.convert_to_tensor(v)
            with tf.compat.v1.device(weights.device):
              sums.append(tf.reduce_sum(tf.square(tf.cast(weights, tf.float64))))
      return l2 * tf.add_n(sums) / 2.0

  def _linear_predictions(self, examples):
    """TF 1.15's w*x (the library's pads to the number of example_ids)."""
    with tf.compat.v1.name_scope("sdca/prediction"):
      sparse_variables = self._convert_n_to_tensor(self._variables["sparse_features_weights"])
      result_sparse = 0.0
      for sfc, sv in zip(examples["sparse_features"], sparse_variables):
        result_sparse += tf.math.segment_sum(
            tf.multiply(tf.gather(sv, sfc.feature_indices), sfc.feature_values), sfc.example_indices)
      dense_features = self._convert_n_to_tensor(examples["dense_features"])
      dense_variables = self._convert_n_to_tensor(self._variables["dense_features_weights"])
      result_dense = 0.0
      for i in range(len(dense_variables)):
        result_dense += tf.matmul(dense_features[i], tf.expand_dims(dense_variables[i], -1))
    # Reshaping to allow shape inference at graph construction time.
    return tf.reshape(result_dense, [-1]) + result_sparse

  def regularized_loss(self, examples):
    """The mean loss with the regularization loss (TF 1.15: the l2 the user gave, not max(l2, 1))."""
    self._assert_specified(["example_labels", "example_weights", "sparse_features", "dense_features"], examples)
    self._assert_list(["sparse_features", "dense_features"], examples)
    with tf.compat.v1.name_scope("sdca/regularized_loss"):
      weights = tf.convert_to_tensor(examples["example_weights"])
      return ((self._l1_loss() + self._l2_loss(self._options["symmetric_l2_regularization"])) /
              tf.reduce_sum(tf.cast(weights, tf.float64)) + self.unregularized_loss(examples))


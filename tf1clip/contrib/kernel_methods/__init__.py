"""`tf.contrib.kernel_methods`: explicit kernel maps (random Fourier features), the multiclass hinge loss, and
`KernelLinearClassifier`, TF 1.15's code.

Place in the data flow (DESIGN.md): contrib.learn.canned (LinearClassifier), contrib.layers.feature_column <-
**contrib.kernel_methods** <- compat <- cli.

- `RandomFourierFeatureMapper(input_dim, output_dim, stddev, seed, name)`: `map(x)` is
  sqrt(2 / D) * cos(x Omega + b), Omega ~ N(0, 1 / stddev^2) [d, D] and b ~ U[0, 2 pi) [D] drawn by numpy
  exactly as TF 1.15 drew them (`np.random.seed(seed)`, then `np.random.normal` and `np.random.uniform`, so
  the values are TF 1.15's and, as in TF 1.15, numpy's global generator is left reseeded), stored as float32
  constants. A rank other than 2 or a known feature dimension other than `input_dim` raises
  `InvalidShapeError` (subclasses of `DenseKernelMapper`, the abstract base, are what the classifier takes).
- `sparse_multiclass_hinge_loss(labels, logits, ...)`: Crammer-Singer's max_c (logits_c - logits_label +
  [c != label])^+ per example, weighted and reduced by `tf.compat.v1.losses.compute_weighted_loss`.
- `KernelLinearClassifier`: tf1clip's contrib.learn `LinearClassifier` (same head, default Ftrl rate
  min(0.2, 1 / sqrt(#columns)), metric names) whose model first adds, for each real-valued column with kernel
  mappers, the concatenated mapped features as a real-valued column `<name>_MAPPED`, as TF 1.15's
  `_kernel_model_fn` did. Its `predict` yields TF 1.15's contrib Estimator dicts (`classes`, `probabilities`,
  `logits`, and `logistic` for two classes); `predict_classes` / `predict_proba` take `input_fn` only.
  The variables are TF 1.15's (`linear/<column>_MAPPED/weight`, `linear/bias_weight`), as contrib.learn's
  LinearClassifier's.
"""

import abc
import math

import numpy as np
import tensorflow as tf

from tf1clip.contrib import catalog as _catalog
import tf1clip.contrib.layers.feature_column as feature_column_lib
import tf1clip.contrib.learn.canned as canned
import tf1clip.contrib.learn.estimator as estimator_lib


# ----------------------------------------------------------------------------------------------------
# Mappers (TF 1.15's mappers/dense_kernel_mapper.py and mappers/random_fourier_features.py)

class InvalidShapeError(Exception):
  """Exception thrown when a tensor's shape deviates from an expected shape."""


class DenseKernelMapper(abc.ABC):
  """Abstract class for a kernel mapper that maps dense inputs to dense outputs."""

  @abc.abstractmethod
  def map(self, input_tensor):
    """Maps the dense `input_tensor` with the (approximate) kernel map."""
    raise NotImplementedError("map is not implemented for {}.".format(self))

  @property
  @abc.abstractmethod
  def name(self):
    """Returns the name of the kernel mapper."""

  @property
  @abc.abstractmethod
  def output_dim(self):
    """Returns the output dimension of the mapping."""


class RandomFourierFeatureMapper(DenseKernelMapper):
  r"""Random Fourier Feature Mapping (Rahimi & Recht), approximating the RBF kernel exp(-||x-y||^2 / (2 sigma^2)).

  `map(x)` = sqrt(2 / D) * cos(x Omega + b) with Omega [input_dim, output_dim] ~ N(0, 1 / stddev^2) and
  b [output_dim] ~ U[0, 2 pi), drawn from numpy with `seed` (the same for every call).
  """

  def __init__(self, input_dim, output_dim, stddev=1.0, seed=1, name=None):
    self._input_dim = input_dim
    self._output_dim = output_dim
    self._stddev = stddev
    self._seed = seed
    self._name = name

  @property
  def name(self):
    """The name given to the constructor, else the object's id as a string."""
    return self._name or str(id(self))

  @property
  def input_dim(self):
    return self._input_dim

  @property
  def output_dim(self):
    return self._output_dim

  def map(self, input_tensor):
    """The [batch_size, output_dim] random Fourier features of `input_tensor` [batch_size, input_dim].

    Raises:
      InvalidShapeError: if `input_tensor` is not of rank 2 or its feature dimension is not `input_dim`.
    """
    input_tensor_shape = input_tensor.get_shape()
    if len(input_tensor_shape) != 2:
      raise InvalidShapeError("The shape of the tensor should be 2. Got %d instead." % len(input_tensor_shape))
    features_dim = tf.compat.dimension_value(input_tensor_shape[1])
    if features_dim is not None and features_dim != self._input_dim:  # unknown: no check, as in TF 1.15
      raise InvalidShapeError("Invalid dimension: expected %d input features, got %d instead." %
                              (self._input_dim, features_dim))
    # TF 1.15 seeded numpy's global generator (and left it so); the draws below are its draws.
    np.random.seed(self._seed)
    omega_matrix = tf.constant(np.random.normal(scale=1.0 / self._stddev,
                                                size=[self._input_dim, self._output_dim]), dtype=tf.float32)
    bias = tf.constant(np.random.uniform(low=0.0, high=2 * np.pi, size=[self._output_dim]), dtype=tf.float32)
    x_omega_plus_bias = tf.add(tf.matmul(input_tensor, omega_matrix), bias)
    return math.sqrt(2.0 / self._output_dim) * tf.cos(x_omega_plus_bias)


# ----------------------------------------------------------------------------------------------------
# Losses (TF 1.15's losses.py)

def sparse_multiclass_hinge_loss(labels, logits, weights=1.0, scope=None, loss_collection="losses",
                                 reduction="weighted_sum_by_nonzero_weights"):
  r"""Crammer-Singer multiclass hinge loss: max_c {logits_c - logits_{c*} + [c != c*]} per example, weighted.

  Args:
    labels: int32 / int64 `Tensor` [batch_size] or [batch_size, 1] of class indices in [0, num_classes).
    logits: `Tensor` [batch_size, num_classes] (cast to float32).
    weights: Optional scalar or `Tensor` of rank 1 ([batch_size]) or 2 ([batch_size, 1]).
    scope: The scope for the operations performed in computing the loss.
    loss_collection: collection to which the loss will be added (tf.GraphKeys.LOSSES).
    reduction: Type of reduction to apply to loss (tf.losses.Reduction.SUM_BY_NONZERO_WEIGHTS).

  Returns:
    Weighted loss float `Tensor`: the shape of `labels` for reduction NONE, else a scalar.

  Raises:
    ValueError: If `logits`, `labels` or `weights` have invalid or inconsistent shapes, or `labels` an invalid
      dtype.
  """
  with tf.compat.v1.name_scope(scope, "sparse_multiclass_hinge_loss", (logits, labels)) as scope:
    logits_rank = logits.get_shape().ndims
    if logits_rank != 2:
      raise ValueError("logits should have rank 2 ([batch_size, num_classes]). Given rank is"
                       " {}".format(logits_rank))
    logits_shape = tf.shape(logits)
    batch_size, num_classes = logits_shape[0], logits_shape[1]
    logits = tf.cast(logits, tf.float32)

    if labels.dtype != tf.int32 and labels.dtype != tf.int64:
      raise ValueError("Invalid dtype for labels: {}. Acceptable dtypes: int32 and int64".format(labels.dtype))

    labels_rank = labels.get_shape().ndims
    if labels_rank not in [1, 2]:
      raise ValueError("labels should have rank 1 ([batch_size]) or 2 ([batch_size, 1]). "
                       "Given rank is {}".format(labels_rank))
    with tf.control_dependencies([tf.compat.v1.assert_less(labels, tf.cast(num_classes, labels.dtype))]):
      labels = tf.reshape(labels, shape=[-1])

    weights = tf.convert_to_tensor(weights)
    weights_rank = weights.get_shape().ndims
    if weights_rank not in [0, 1, 2]:
      # (TF 1.15's message gives the labels' rank)
      raise ValueError("non-scalar weights should have rank 1 ([batch_size]) or 2 "
                       "([batch_size, 1]). Given rank is {}".format(labels_rank))
    if weights_rank > 0:
      weights = tf.reshape(weights, shape=[-1])
      weights.get_shape().assert_is_compatible_with(labels.get_shape())

    example_indices = tf.reshape(tf.range(batch_size), shape=[batch_size, 1])
    indices = tf.concat([example_indices,
                         tf.reshape(tf.cast(labels, example_indices.dtype), shape=[batch_size, 1])], axis=1)
    label_logits = tf.reshape(tf.gather_nd(params=logits, indices=indices), shape=[batch_size, 1])

    one_cold_labels = tf.one_hot(indices=labels, depth=num_classes, on_value=0.0, off_value=1.0)
    margin = tf.nn.relu(logits - label_logits + one_cold_labels)
    loss = tf.reduce_max(margin, axis=1)
    return tf.compat.v1.losses.compute_weighted_loss(loss, weights, scope, loss_collection, reduction=reduction)


# ----------------------------------------------------------------------------------------------------
# Estimators (TF 1.15's kernel_estimators.py)

def _check_valid_kernel_mappers(kernel_mappers):
  if kernel_mappers is None:
    return True
  return all(isinstance(mapper, DenseKernelMapper)
             for mappers in kernel_mappers.values() for mapper in mappers)


def _is_real_valued(column):
  """Whether `column` is what contrib.layers.real_valued_column makes (tf.feature_column's numeric column)."""
  return isinstance(column, type(tf.compat.v1.feature_column.numeric_column("_")))


def _mapped_columns(kernel_mappers_dict):
  """{column: `<name>_MAPPED` real-valued column of the summed output dims} for the real-valued columns."""
  mapped = {}
  for column in kernel_mappers_dict or {}:
    if not _is_real_valued(column):
      tf.compat.v1.logging.warning(
          "Updates are currently supported on RealValuedColumns only. Metadata "
          "for FeatureColumn {} will not be updated.".format(column.name))
      continue
    new_dim = sum(mapper.output_dim for mapper in kernel_mappers_dict[column])
    mapped[column] = feature_column_lib.real_valued_column(column.name + "_MAPPED", new_dim)
  return mapped


def _map_features(features, kernel_mappers_dict, mapped_columns):
  """`features` plus each mapped column's tensor: its mappers' outputs concatenated (TF 1.15's order)."""
  if not mapped_columns or not isinstance(features, dict):
    return features
  features = dict(features)
  for column, mapped_column in mapped_columns.items():
    outputs = [mapper.map(features[column.name]) for mapper in kernel_mappers_dict[column]]
    features[mapped_column.name] = tf.concat(outputs, 1)
  return features


class KernelLinearClassifier(canned.LinearClassifier):
  """Linear classifier on (possibly) kernel-mapped features: TF 1.15's `tf.contrib.kernel_methods` estimator.

  `kernel_mappers` is a dict {real-valued column: [DenseKernelMapper, ...]}; each such column is mapped and
  used as `<name>_MAPPED` (and also unmapped if it is in `feature_columns` too).

  Args:
    feature_columns: An iterable of feature columns used unmapped.
    model_dir: Directory to save model parameters, graph etc.
    n_classes: number of label classes (at least 2).
    weight_column_name: the feature that weights the examples' losses.
    optimizer: the optimizer (None: Ftrl at min(0.2, 1 / sqrt(#columns))).
    kernel_mappers: Dictionary of kernel mappers, as above.
    config: `RunConfig` object to configure the runtime settings.

  Raises:
    ValueError: if n_classes < 2, neither feature_columns nor kernel_mappers are given, or a mapper is not a
      DenseKernelMapper.
  """

  def __init__(self, feature_columns=None, model_dir=None, n_classes=2, weight_column_name=None, optimizer=None,
               kernel_mappers=None, config=None):
    if not feature_columns and not kernel_mappers:
      raise ValueError("You should set at least one of feature_columns, kernel_mappers.")
    if not _check_valid_kernel_mappers(kernel_mappers):
      raise ValueError("Invalid kernel mappers.")
    if (n_classes is None) or (n_classes < 2):
      raise ValueError("n_classes must be > 1 for classification: %s." % n_classes)
    self._kernel_mappers = kernel_mappers
    self._mapped_columns = _mapped_columns(kernel_mappers)
    # TF 1.15 used the set of the given and the mapped columns
    columns = list(dict.fromkeys(list(feature_columns or []) + list(self._mapped_columns.values())))
    super(KernelLinearClassifier, self).__init__(
        feature_columns=columns, model_dir=model_dir, n_classes=n_classes, weight_column_name=weight_column_name,
        optimizer=optimizer, config=config)

  def _build_core_estimator(self):
    """tf.estimator's linear classifier, its model_fn fed the mapped features (TF 1.15's _kernel_model_fn)."""
    linear = super(KernelLinearClassifier, self)._build_core_estimator()
    linear_model_fn = linear.model_fn
    kernel_mappers, mapped_columns = self._kernel_mappers, self._mapped_columns

    def model_fn(features, labels, mode, config):
      return linear_model_fn(_map_features(features, kernel_mappers, mapped_columns), labels, mode, config)

    return estimator_lib._estimator_api().Estimator(  # pylint: disable=protected-access
        model_fn=model_fn, model_dir=linear.model_dir, config=linear.config)

  # TF 1.15's KernelLinearClassifier is a contrib.learn Estimator: predict yields the head's dicts.
  predict = estimator_lib.BaseEstimator.predict

  def predict_classes(self, input_fn=None):
    """A generator of the predicted class index of each example of `input_fn`."""
    return (pred["classes"] for pred in self.predict(input_fn=input_fn, outputs=["classes"]))

  def predict_proba(self, input_fn=None):
    """A generator of the class probabilities of each example of `input_fn`."""
    return (pred["probabilities"] for pred in self.predict(input_fn=input_fn, outputs=["probabilities"]))


__getattr__ = _catalog.missing_attribute_hook("tf.contrib.kernel_methods",
                                              lazy=_catalog.served("tf.contrib.kernel_methods"))

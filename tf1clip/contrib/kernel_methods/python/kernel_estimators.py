"""`KernelLinearClassifier`: contrib.learn's LinearClassifier on kernel-mapped features.

TF 1.15's `tensorflow/contrib/kernel_methods/python/kernel_estimators.py`, tf1clip's code on tf1clip's contrib.learn
`LinearClassifier` (TF 1.15's model function, head and variable names): its model first adds, for each real-valued
column with kernel mappers, the concatenated mapped features as the real-valued column `<name>_MAPPED`, as TF
1.15's `_kernel_model_fn` did, so the variables are TF 1.15's (`linear/<column>_MAPPED/weight`,
`linear/bias_weight`). Its `predict` yields TF 1.15's contrib Estimator dicts; `predict_classes` /
`predict_proba` take `input_fn` only.
"""

import tensorflow as tf

import tf1clip.contrib.layers.python.layers.feature_column as feature_column_lib
import tf1clip.contrib.learn.canned as canned
import tf1clip.contrib.learn.estimator as estimator_lib
from tf1clip.contrib.kernel_methods.python.mappers.dense_kernel_mapper import DenseKernelMapper


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

"""`tf.contrib.learn.KMeansClustering`: TF 1.15's contrib.learn K-means Estimator (its own API, not factorization's).

Place in the data flow (DESIGN.md): TensorFlow's clustering_ops (the K-means graph tf.contrib.factorization
serves too), contrib.learn.estimator (Estimator, ModelFnOps) <- **contrib.learn.kmeans** <- contrib.learn <-
compat <- cli.

TF 1.15's code: the model_fn of clustering_ops.KMeans's training graph (variables `clusters`,
`initialized`, ...), the loss op `kmeans_loss` (the summed distances), cluster initialization in a training
hook, an optional relative-tolerance stopping hook, and the contrib.learn methods `predict_cluster_idx`,
`score` (the summed distances), `transform` (distances to every center) and `clusters`.
"""

import time

import numpy as np
import tensorflow as tf

from tf1clip.contrib.learn import estimator as estimator_lib

V1 = tf.compat.v1


def _clustering_ops():
  # TF 2.21 has no public name for the K-means graph; tf1clip's factorization module serves this module too.
  from tensorflow.python.ops import clustering_ops  # pylint: disable=import-outside-toplevel,g-direct-tensorflow-import
  return clustering_ops


class _LossRelativeChangeHook(V1.train.SessionRunHook):
  """Stops when the relative change in loss goes below a tolerance."""

  def __init__(self, tolerance):
    self._tolerance = tolerance
    self._prev_loss = None

  def begin(self):
    self._loss_tensor = V1.get_default_graph().get_tensor_by_name(KMeansClustering.LOSS_OP_NAME + ":0")

  def before_run(self, run_context):
    del run_context
    return V1.train.SessionRunArgs(fetches={KMeansClustering.LOSS_OP_NAME: self._loss_tensor})

  def after_run(self, run_context, run_values):
    loss = run_values.results[KMeansClustering.LOSS_OP_NAME]
    if self._prev_loss is not None:
      relative_change = abs(loss - self._prev_loss) / (1 + abs(self._prev_loss))
      if relative_change < self._tolerance:
        run_context.request_stop()
    self._prev_loss = loss


class _InitializeClustersHook(V1.train.SessionRunHook):
  """Initializes the clusters (the chief) or waits for them."""

  def __init__(self, init_op, is_initialized_op, is_chief):
    self._init_op = init_op
    self._is_chief = is_chief
    self._is_initialized_op = is_initialized_op

  def after_create_session(self, session, _):
    while True:
      try:
        if session.run(self._is_initialized_op):
          break
        elif self._is_chief:
          session.run(self._init_op)
        else:
          time.sleep(1)
      except RuntimeError as e:
        V1.logging.info(e)


def _parse_tensor_or_dict(features):
  if isinstance(features, dict):
    keys = sorted(features.keys())
    with V1.colocate_with(features[keys[0]]):
      features = tf.concat([features[k] for k in keys], 1)
  return features


def _kmeans_clustering_model_fn(features, labels, mode, params, config):
  """TF 1.15's model function of KMeansClustering."""
  assert labels is None, labels
  (all_scores, model_predictions, losses, is_initialized, init_op, training_op) = _clustering_ops().KMeans(
      _parse_tensor_or_dict(features), params.get("num_clusters"),
      initial_clusters=params.get("training_initial_clusters"),
      distance_metric=params.get("distance_metric"), use_mini_batch=params.get("use_mini_batch"),
      mini_batch_steps_per_iteration=params.get("mini_batch_steps_per_iteration"),
      random_seed=params.get("random_seed"),
      kmeans_plus_plus_num_retries=params.get("kmeans_plus_plus_num_retries")).training_graph()
  incr_step = V1.assign_add(V1.train.get_global_step(), 1)
  loss = tf.reduce_sum(losses, name=KMeansClustering.LOSS_OP_NAME)
  V1.summary.scalar("loss/raw", loss)
  with tf.control_dependencies([training_op, incr_step]):
    training_op = tf.identity(loss)
  predictions = {KMeansClustering.ALL_SCORES: all_scores[0],
                 KMeansClustering.CLUSTER_IDX: model_predictions[0]}
  eval_metric_ops = {KMeansClustering.SCORES: loss}
  training_hooks = [_InitializeClustersHook(init_op, is_initialized, config.is_chief)]
  relative_tolerance = params.get("relative_tolerance")
  if relative_tolerance is not None:
    training_hooks.append(_LossRelativeChangeHook(relative_tolerance))
  return estimator_lib.ModelFnOps(mode=mode, predictions=predictions, eval_metric_ops=eval_metric_ops,
                                  loss=loss, train_op=training_op, training_hooks=training_hooks)


class KMeansClustering(estimator_lib.Estimator):
  """TF 1.15's `tf.contrib.learn.KMeansClustering` (contrib.learn API: predict_cluster_idx, score, transform)."""
  SQUARED_EUCLIDEAN_DISTANCE = "squared_euclidean"
  COSINE_DISTANCE = "cosine"
  RANDOM_INIT = "random"
  KMEANS_PLUS_PLUS_INIT = "kmeans_plus_plus"
  SCORES = "scores"
  CLUSTER_IDX = "cluster_idx"
  CLUSTERS = "clusters"
  ALL_SCORES = "all_scores"
  LOSS_OP_NAME = "kmeans_loss"

  def __init__(self, num_clusters, model_dir=None, initial_clusters=RANDOM_INIT,
               distance_metric=SQUARED_EUCLIDEAN_DISTANCE, random_seed=0, use_mini_batch=True,
               mini_batch_steps_per_iteration=1, kmeans_plus_plus_num_retries=2, relative_tolerance=None,
               config=None):
    params = {"num_clusters": num_clusters, "training_initial_clusters": initial_clusters,
              "distance_metric": distance_metric, "random_seed": random_seed, "use_mini_batch": use_mini_batch,
              "mini_batch_steps_per_iteration": mini_batch_steps_per_iteration,
              "kmeans_plus_plus_num_retries": kmeans_plus_plus_num_retries,
              "relative_tolerance": relative_tolerance}
    super(KMeansClustering, self).__init__(model_fn=_kmeans_clustering_model_fn, params=params,
                                           model_dir=model_dir, config=config)

  def predict_cluster_idx(self, input_fn=None):
    """Yields the index of each input's nearest cluster."""
    key = KMeansClustering.CLUSTER_IDX
    for result in super(KMeansClustering, self).predict(input_fn=input_fn, outputs=[key]):
      yield result[key]

  def score(self, input_fn=None, steps=None):
    """The total sum of distances to the nearest clusters."""
    return np.sum(self.evaluate(input_fn=input_fn, steps=steps)[KMeansClustering.SCORES])

  def transform(self, input_fn=None, as_iterable=False):
    """Distances of each input to every cluster center (squared for the squared Euclidean metric)."""
    key = KMeansClustering.ALL_SCORES
    results = super(KMeansClustering, self).predict(input_fn=input_fn, outputs=[key], as_iterable=as_iterable)
    if not as_iterable:
      return results[key]
    return results

  def clusters(self):
    """The cluster centers."""
    return super(KMeansClustering, self).get_variable_value(self.CLUSTERS)

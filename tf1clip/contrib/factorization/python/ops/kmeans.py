"""`tf.contrib.factorization.KMeansClustering`: TF 1.15's K-means Estimator, on tensorflow-estimator 2.15's.

tf.compat.v1.estimator.experimental.KMeans is this estimator moved out of contrib, the same model_fn, variables
and predictions. Two things changed on the way, and are put back here: TF 1.15's constructor took `random_seed`
(default 0; the library's `seed` defaults to None, an unseeded initialization), and TF 1.15's `transform`
yielded the distances the model computes, squared for the squared Euclidean metric (the library takes their
square root).
"""


# pylint: disable=g-import-not-at-top,wrong-import-position
from tensorflow_estimator.python.estimator.canned import kmeans as _kmeans

_Base = _kmeans.KMeansClustering


class KMeansClustering(_Base):
  """An Estimator for K-means clustering with TF 1.15's constructor and `transform`."""

  def __init__(self, num_clusters, model_dir=None, initial_clusters=_Base.RANDOM_INIT,
               distance_metric=_Base.SQUARED_EUCLIDEAN_DISTANCE, random_seed=0, use_mini_batch=True,
               mini_batch_steps_per_iteration=1, kmeans_plus_plus_num_retries=2, relative_tolerance=None,
               config=None, feature_columns=None):
    super().__init__(num_clusters, model_dir=model_dir, initial_clusters=initial_clusters,
                     distance_metric=distance_metric, seed=random_seed, use_mini_batch=use_mini_batch,
                     mini_batch_steps_per_iteration=mini_batch_steps_per_iteration,
                     kmeans_plus_plus_num_retries=kmeans_plus_plus_num_retries,
                     relative_tolerance=relative_tolerance, config=config, feature_columns=feature_columns)

  def transform(self, input_fn):
    """Each input's distances to every cluster center (squared for the squared Euclidean metric)."""
    for predictions in self.predict(input_fn=input_fn, predict_keys=[_Base.ALL_DISTANCES]):
      yield predictions[_Base.ALL_DISTANCES]

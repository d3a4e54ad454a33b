"""`tf.contrib.factorization.GMM`, `GmmAlgorithm` and `gmm`: TF 1.15's Gaussian mixture model, graph and Estimator.

TF 1.15's gmm_ops and gmm, ported onto tf.compat.v1 (TF 1.15's ops all remain): `GmmAlgorithm` builds the EM
graph (variables `clusters` [num_classes, 1, dims], `clusters_covs`, `alphas`, `initialized`; one E step and one
M step per `training_ops()` run), `gmm` wraps it as the Estimator's model, and `GMM` is the contrib.learn
Estimator (`predict_assignments`, `score`, `weights`, `clusters`, `covariances`). As in TF 1.15, `gmm` with
`initial_clusters` given as a Tensor draws random initial means (only arrays and lists are used as the means).
"""

import numpy as np
import tensorflow as tf
import tf_slim

from tf1clip.contrib.learn import estimator as estimator_lib
from tf1clip.contrib.learn import kmeans as _learn_kmeans

V1 = tf.compat.v1

# Machine epsilon.
MEPS = np.finfo(float).eps
FULL_COVARIANCE = "full"
DIAG_COVARIANCE = "diag"


def _covariance(x, diag):
  """The covariance of the rows of `x` (only its diagonal, [1, dims], when `diag`)."""
  num_points = tf.cast(tf.shape(x)[0], tf.float32)
  x -= tf.reduce_mean(x, 0, keepdims=True)
  if diag:
    return tf.reduce_sum(tf.square(x), 0, keepdims=True) / (num_points - 1)
  return tf.matmul(x, x, transpose_a=True) / (num_points - 1)


def _init_clusters_random(data, num_clusters, random_seed):
  """`num_clusters` random rows of the shards in `data` (TF 1.15's draw)."""
  assert isinstance(data, list)
  num_data = tf.add_n([tf.shape(inp)[0] for inp in data])
  with tf.control_dependencies([V1.assert_less_equal(num_clusters, num_data)]):
    indices = V1.random_uniform([num_clusters], minval=0, maxval=tf.cast(num_data, tf.int64),
                                seed=random_seed, dtype=tf.int64)
  indices %= tf.cast(num_data, tf.int64)
  return V1.nn.embedding_lookup(data, indices, partition_strategy="div")


class GmmAlgorithm(object):
  """TF 1.15's Gaussian mixture model clustering graph (EM on a list of data shards)."""
  CLUSTERS_WEIGHT = "alphas"
  CLUSTERS_VARIABLE = "clusters"
  CLUSTERS_COVS_VARIABLE = "clusters_covs"

  def __init__(self, data, num_classes, initial_means=None, params="wmc", covariance_type=FULL_COVARIANCE,
               random_seed=0):
    """`data`: a list of [examples, dims] Tensors; `params`: which of weights/means/covariances ("wmc") train."""
    self._params = params
    self._random_seed = random_seed
    self._covariance_type = covariance_type
    if self._covariance_type not in [DIAG_COVARIANCE, FULL_COVARIANCE]:
      raise Exception(  # pylint: disable=broad-exception-raised
          "programmer error: Invalid covariance type: %s" % self._covariance_type)
    num_shards = len(data)
    self._probs = [None] * num_shards
    self._prior_probs = [None] * num_shards
    self._w = [None] * num_shards
    self._points_in_k = [None] * num_shards
    first_shard = data[0]
    self._dimensions = tf.shape(first_shard)[1]
    self._num_classes = num_classes
    # Small value to guarantee that covariances are invertible.
    self._min_var = tf.linalg.diag(tf.ones(tf.stack([self._dimensions]))) * 1e-3
    self._create_variables()
    self._initialize_variables(data, initial_means)
    self._w_mul_x = []
    self._w_mul_x2 = []
    self._define_graph(data)

  def _create_variables(self):
    init_value = tf.constant([], dtype=tf.float32)
    self._means = V1.Variable(init_value, name=self.CLUSTERS_VARIABLE, validate_shape=False)
    self._covs = V1.Variable(init_value, name=self.CLUSTERS_COVS_VARIABLE, validate_shape=False)
    self._alpha = V1.Variable(tf.tile([1.0 / self._num_classes], [self._num_classes]),
                              name=self.CLUSTERS_WEIGHT, validate_shape=False)
    self._cluster_centers_initialized = V1.Variable(False, dtype=tf.bool, name="initialized")

  def _initialize_variables(self, data, initial_means=None):
    first_shard = data[0]
    if initial_means is not None:
      means = tf.expand_dims(initial_means, 1)
    else:
      means = tf.expand_dims(_init_clusters_random(data, self._num_classes, self._random_seed), 1)
    if self._covariance_type == FULL_COVARIANCE:
      cov = _covariance(first_shard, False) + self._min_var
      covs = tf.tile(tf.expand_dims(cov, 0), [self._num_classes, 1, 1])
    else:
      cov = _covariance(first_shard, True) + self._min_var
      covs = tf.tile(tf.expand_dims(tf.linalg.diag_part(cov), 0), [self._num_classes, 1])
    with V1.colocate_with(self._cluster_centers_initialized):
      initialized = _with_dependencies([means, covs], tf.identity(self._cluster_centers_initialized))
    self._init_ops = []
    with V1.colocate_with(self._means):
      init_means = V1.assign(self._means, means, validate_shape=False)
      init_means = _with_dependencies([init_means], V1.assign(self._cluster_centers_initialized, True))
      self._init_ops.append(V1.cond(initialized, tf.no_op, lambda: init_means).op)
    with V1.colocate_with(self._covs):
      init_covs = V1.assign(self._covs, covs, validate_shape=False)
      init_covs = _with_dependencies([init_covs], V1.assign(self._cluster_centers_initialized, True))
      self._init_ops.append(V1.cond(initialized, tf.no_op, lambda: init_covs).op)

  def init_ops(self):
    """Returns the initialization operation."""
    return tf.group(*self._init_ops)

  def training_ops(self):
    """Returns the training operation."""
    return tf.group(*self._train_ops)

  def is_initialized(self):
    """Returns a boolean operation for initialized variables."""
    return self._cluster_centers_initialized

  def alphas(self):
    return self._alpha

  def clusters(self):
    """Returns the clusters with dimensions num_classes X 1 X num_dimensions."""
    return self._means

  def covariances(self):
    """Returns the covariances matrices."""
    return self._covs

  def assignments(self):
    """Returns a list of Tensors with the matrix of assignments per shard."""
    return [tf.argmax(w, 1) for w in self._w]

  def scores(self):
    """Log probabilities of each data point."""
    return self._scores

  def log_likelihood_op(self):
    """Returns the log-likelihood operation."""
    return self._log_likelihood_op

  def _define_graph(self, data):
    for shard_id, shard in enumerate(data):
      self._num_examples = tf.shape(shard)[0]
      shard = tf.expand_dims(shard, 0)
      self._define_log_prob_operation(shard_id, shard)
      self._define_prior_log_prob_operation(shard_id)
      self._define_expectation_operation(shard_id)
      self._define_partial_maximization_operation(shard_id, shard)
    self._define_maximization_operation(len(data))
    self._define_loglikelihood_operation()
    self._define_score_samples()

  def _define_full_covariance_probs(self, shard_id, shard):
    diff = shard - self._means
    cholesky = tf.linalg.cholesky(self._covs + self._min_var)
    log_det_covs = 2.0 * tf.reduce_sum(tf.math.log(tf.linalg.diag_part(cholesky)), 1)
    x_mu_cov = tf.square(tf.linalg.triangular_solve(cholesky, tf.transpose(diff, perm=[0, 2, 1]), lower=True))
    diag_m = tf.transpose(tf.reduce_sum(x_mu_cov, 1))
    self._probs[shard_id] = -0.5 * (diag_m + tf.cast(self._dimensions, tf.float32) * tf.math.log(2 * np.pi)
                                    + log_det_covs)

  def _define_diag_covariance_probs(self, shard_id, shard):
    det_expanded = tf.reduce_sum(tf.math.log(self._covs + 1e-3), 1, keepdims=True)
    x2 = tf.math.squared_difference(shard, self._means)
    cov_expanded = tf.expand_dims(1.0 / (self._covs + 1e-3), 2)
    x2_cov = tf.matmul(x2, cov_expanded)
    x2_cov = tf.transpose(tf.squeeze(x2_cov, [2]))
    self._probs[shard_id] = -0.5 * (tf.cast(self._dimensions, tf.float32) * tf.math.log(2.0 * np.pi)
                                    + tf.transpose(det_expanded) + x2_cov)

  def _define_log_prob_operation(self, shard_id, shard):
    if self._covariance_type == FULL_COVARIANCE:
      self._define_full_covariance_probs(shard_id, shard)
    else:
      self._define_diag_covariance_probs(shard_id, shard)
    self._probs[shard_id] += tf.math.log(self._alpha)

  def _define_prior_log_prob_operation(self, shard_id):
    self._prior_probs[shard_id] = tf.reduce_logsumexp(self._probs[shard_id], axis=1, keepdims=True)

  def _define_expectation_operation(self, shard_id):
    probs = tf.expand_dims(self._probs[shard_id], 0)
    self._w[shard_id] = tf.reshape(tf.exp(probs - self._prior_probs[shard_id]),
                                   tf.stack([self._num_examples, self._num_classes]))

  def _define_partial_maximization_operation(self, shard_id, shard):
    self._points_in_k[shard_id] = tf.reduce_sum(self._w[shard_id], 0, keepdims=True)
    w_mul_x = tf.expand_dims(tf.matmul(self._w[shard_id], tf.squeeze(shard, [0]), transpose_a=True), 1)
    self._w_mul_x.append(w_mul_x)
    x = tf.concat([shard for _ in range(self._num_classes)], 0)
    x_trans = tf.transpose(x, perm=[0, 2, 1])
    x_mul_w = tf.concat([tf.expand_dims(x_trans[k, :, :] * self._w[shard_id][:, k], 0)
                         for k in range(self._num_classes)], 0)
    self._w_mul_x2.append(tf.matmul(x_mul_w, x))

  def _define_maximization_operation(self, num_batches):
    with tf.control_dependencies(self._w):
      points_in_k = tf.squeeze(tf.add_n(self._points_in_k), axis=[0])
      if "w" in self._params:
        final_points_in_k = points_in_k / num_batches
        num_examples = tf.cast(tf.reduce_sum(final_points_in_k), tf.float32)
        self._alpha_op = self._alpha.assign(final_points_in_k / (num_examples + MEPS))
      else:
        self._alpha_op = tf.no_op()
      self._train_ops = [self._alpha_op]
      points_in_k_expanded = tf.reshape(points_in_k, [self._num_classes, 1, 1])
      if "m" in self._params:
        self._means_op = self._means.assign(tf.math.divide(tf.add_n(self._w_mul_x), points_in_k_expanded + MEPS))
      else:
        self._means_op = tf.no_op()
      with tf.control_dependencies([self._means_op]):
        b = tf.add_n(self._w_mul_x2) / (points_in_k_expanded + MEPS)
        new_covs = []
        for k in range(self._num_classes):
          mean = self._means.value()[k, :, :]
          square_mean = tf.matmul(mean, mean, transpose_a=True)
          new_cov = b[k, :, :] - square_mean + self._min_var
          if self._covariance_type == FULL_COVARIANCE:
            new_covs.append(tf.expand_dims(new_cov, 0))
          else:
            new_covs.append(tf.expand_dims(tf.linalg.diag_part(new_cov), 0))
        new_covs = tf.concat(new_covs, 0)
        if "c" in self._params:
          with tf.control_dependencies([self._means_op, new_covs]):
            self._train_ops.append(V1.assign(self._covs, new_covs, validate_shape=False))

  def _define_loglikelihood_operation(self):
    self._log_likelihood_op = tf.reduce_logsumexp([tf.reduce_logsumexp(p) for p in self._prior_probs])

  def _define_score_samples(self):
    op = [prior_probs + tf.math.log(self._w[shard_id]) for shard_id, prior_probs in enumerate(self._prior_probs)]
    self._scores = tf.squeeze(tf.reduce_logsumexp(op, axis=2, keepdims=True), axis=0)


def _with_dependencies(dependencies, output_tensor):
  """`output_tensor` (as a new identity) after `dependencies` (TF 1.15's control_flow_ops.with_dependencies)."""
  with tf.control_dependencies(dependencies):
    return tf.identity(output_tensor)


def gmm(inp, initial_clusters, num_clusters, random_seed, covariance_type=FULL_COVARIANCE, params="wmc"):
  """The GMM clustering graph: (loss, scores, [assignments], training_op, init_op, is_initialized)."""
  initial_means = None
  is_random = isinstance(initial_clusters, str) and initial_clusters == "random"  # (an array compares per element)
  if not is_random and not isinstance(initial_clusters, tf.Tensor):
    initial_means = tf.constant(initial_clusters, dtype=tf.float32)
  inp = inp if isinstance(inp, list) else [inp]
  gmm_tool = GmmAlgorithm(inp, num_clusters, initial_means, params, covariance_type, random_seed)
  assignments = gmm_tool.assignments()
  scores = gmm_tool.scores()
  loss = gmm_tool.log_likelihood_op()
  return (loss, scores, [assignments], gmm_tool.training_ops(), gmm_tool.init_ops(), gmm_tool.is_initialized())


def _streaming_sum(scalar_tensor):
  """A sum metric and its update op."""
  sum_metric = tf_slim.local_variable(tf.constant(0.0))
  sum_update = sum_metric.assign_add(scalar_tensor)
  return sum_metric, sum_update


class GMM(estimator_lib.Estimator):
  """TF 1.15's contrib.learn Estimator for GMM clustering."""
  SCORES = "scores"
  LOG_LIKELIHOOD = "loss"
  ASSIGNMENTS = "assignments"

  def __init__(self, num_clusters, model_dir=None, random_seed=0, params="wmc", initial_clusters="random",
               covariance_type="full", config=None):
    self._num_clusters = num_clusters
    self._params = params
    self._training_initial_clusters = initial_clusters
    self._covariance_type = covariance_type
    self._training_graph = None
    self._random_seed = random_seed
    super(GMM, self).__init__(model_fn=self._model_builder(), model_dir=model_dir, config=config)

  def predict_assignments(self, input_fn=None, batch_size=None, outputs=None):
    """Yields each input's cluster."""
    for result in self.predict(input_fn=input_fn, batch_size=batch_size, outputs=outputs):
      yield result[GMM.ASSIGNMENTS]

  def score(self, input_fn=None, batch_size=None, steps=None):
    """Total log-likelihood."""
    results = self.evaluate(input_fn=input_fn, batch_size=batch_size, steps=steps)
    return np.log(np.sum(np.exp(results[GMM.SCORES])))

  def weights(self):
    """Returns the cluster weights."""
    return tf.train.load_variable(self.model_dir, GmmAlgorithm.CLUSTERS_WEIGHT)

  def clusters(self):
    """Returns cluster centers."""
    return np.squeeze(tf.train.load_variable(self.model_dir, GmmAlgorithm.CLUSTERS_VARIABLE), 1)

  def covariances(self):
    """Returns the covariances."""
    return tf.train.load_variable(self.model_dir, GmmAlgorithm.CLUSTERS_COVS_VARIABLE)

  def _parse_tensor_or_dict(self, features):
    if isinstance(features, dict):
      return tf.concat([features[k] for k in sorted(features.keys())], 1)
    return features

  def _model_builder(self):
    """Creates a model function."""

    def _model_fn(features, labels, mode, config):
      assert labels is None, labels
      (loss, scores, model_predictions, training_op, init_op, is_initialized) = gmm(
          self._parse_tensor_or_dict(features), self._training_initial_clusters, self._num_clusters,
          self._random_seed, self._covariance_type, self._params)
      incr_step = V1.assign_add(V1.train.get_global_step(), 1)
      training_op = _with_dependencies([training_op, incr_step], loss)
      training_hooks = [_learn_kmeans._InitializeClustersHook(  # pylint: disable=protected-access
          init_op, is_initialized, config.is_chief)]
      predictions = {GMM.ASSIGNMENTS: model_predictions[0][0]}
      eval_metric_ops = {GMM.SCORES: scores, GMM.LOG_LIKELIHOOD: _streaming_sum(loss)}
      return estimator_lib.ModelFnOps(mode=mode, predictions=predictions, eval_metric_ops=eval_metric_ops,
                                      loss=loss, train_op=training_op, training_hooks=training_hooks)

    return _model_fn

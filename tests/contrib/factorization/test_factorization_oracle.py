"""contrib.factorization against TF 1.15.

k-means: KMeans' graph run from the same initial clusters, its constants, and the KMeansClustering Estimator.

GMM (graph and Estimator) and WALS (WALSModel and the Estimator):

Both from fixed initial values (TF 2.21's random initializers draw other numbers; the GMM's seeded draw of
initial rows agrees and is compared too): the GMM graph's EM steps with full and diagonal covariances,
GmmAlgorithm's accessors, the GMM Estimator's clusters, covariances, weights, score and assignments after a few
steps; WALSModel's row and column updates, losses and projections (weighted and sharded, and plain ALS), and the
WALSMatrixFactorization Estimator's factors, projections and loss after a few sweeps; variable names and shapes,
and the errors for bad arguments.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = (
    "tf.contrib.factorization.KMeans", "tf.contrib.factorization.COSINE_DISTANCE",
    "tf.contrib.factorization.SQUARED_EUCLIDEAN_DISTANCE", "tf.contrib.factorization.RANDOM_INIT",
    "tf.contrib.factorization.KMEANS_PLUS_PLUS_INIT", "tf.contrib.factorization.KMeansClustering") + tuple(
        "tf.contrib.factorization." + n for n in ("GMM", "GmmAlgorithm", "gmm", "WALSModel", "WALSMatrixFactorization"))

SNIPPET = r'''
import numpy as np
import tensorflow as tf
# KMeans from fixed initial clusters
points = np.concatenate([np.random.RandomState(0).normal(c, 0.1, [20, 2]) for c in ([0, 0], [3, 3], [0, 4])])
x = tf.constant(points.astype(np.float32))
init = tf.constant(points[[0, 20, 40]].astype(np.float32))
km = tf.contrib.factorization.KMeans(x, 3, initial_clusters=init, use_mini_batch=False)
(all_scores, cluster_idx, scores, cluster_centers_initialized, init_op, train_op) = km.training_graph()
km_cos = tf.contrib.factorization.KMeans(x, 3, initial_clusters=init,
                                         distance_metric=tf.contrib.factorization.COSINE_DISTANCE)
cos_graph = km_cos.training_graph()
report("constants", [tf.contrib.factorization.SQUARED_EUCLIDEAN_DISTANCE, tf.contrib.factorization.RANDOM_INIT,
                     tf.contrib.factorization.KMEANS_PLUS_PLUS_INIT])
with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
    sess.run(init_op)
    sess.run(cos_graph[4])
    for _ in range(5):
        sess.run([train_op, cos_graph[5]])
    centers = sess.run(tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES)[0])
    report("kmeans_idx", sess.run(cluster_idx)[0])
    report("kmeans_cos_idx", sess.run(cos_graph[1])[0])

# the KMeansClustering Estimator: full-batch and mini-batch training from fixed and k-means++ initial clusters.
# (A stated difference: with initial_clusters=RANDOM_INIT the same random_seed picks other points than TF 1.15:
# TensorFlow 2.21's random stream for that op differs; explicit and k-means++ initializations agree.)
import os
def input_fn():
    return tf.data.Dataset.from_tensors(points.astype(np.float32)).repeat()
for name, kwargs in (("full", dict(initial_clusters=points[[0, 20, 40]].astype(np.float32), use_mini_batch=False)),
                     ("mini", dict(initial_clusters=points[[1, 21, 41]].astype(np.float32),
                                   mini_batch_steps_per_iteration=2)),
                     ("mini_one", dict(initial_clusters=points[[1, 21, 41]].astype(np.float32))),
                     ("cosine", dict(initial_clusters=points[[2, 22, 42]].astype(np.float32), use_mini_batch=False,
                                     distance_metric=tf.contrib.factorization.COSINE_DISTANCE)),
                     ("plus_plus", dict(random_seed=5, use_mini_batch=False,
                                        initial_clusters=tf.contrib.factorization.KMEANS_PLUS_PLUS_INIT))):
    estimator = tf.contrib.factorization.KMeansClustering(3, model_dir=os.path.join(os.getcwd(), name), **kwargs)
    estimator.train(input_fn, steps=4)
    few = lambda: tf.data.Dataset.from_tensors(points[[0, 25, 50]].astype(np.float32))  # one batch: score ends
    report("estimator_" + name, [sorted(estimator.get_variable_names()),
                                 len(set(estimator.predict_cluster_index(few)))])
    report("estimator_values_" + name, [np.sort(estimator.cluster_centers(), axis=0), estimator.score(few),
                                        np.sort(list(estimator.transform(few))[0])])
'''


@requires_tf115
def test_kmeans_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  racy = ("estimator_values_mini", "estimator_values_mini_one")
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5, differences=dict.fromkeys(racy, "compared below"))
  # Mini-batch K-means races in TensorFlow itself (clustering_ops: "there is a race condition here, so we do a
  # best effort"): eight runs of this case on TF 1.15.5 gave centers up to 0.07 apart and scores up to 4%
  # apart, and so do eight runs here. The values must agree within that band; full-batch, cosine and k-means++
  # above agree to 1e-5.
  assert_same(tf115, ours, rtol=0.05, atol=0.1, keys=racy)


GMM_WALS_SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
fz = tf.contrib.factorization
rs = np.random.RandomState(0)
points = np.concatenate([rs.normal(c, 0.3, [8, 2]) for c in ([0, 0], [3, 3], [0, 4])]).astype(np.float32)
init_means = points[[0, 8, 16]] + 0.1

# -- the GMM graph: full and diagonal covariances, three EM steps
graphs = {}
for cov in ("full", "diag"):
    with tf.variable_scope(cov):
        graphs[cov] = fz.gmm(tf.constant(points), init_means, 3, 0, covariance_type=cov)
with tf.variable_scope("random"):  # the seeded draw of initial means: the same rows on both sides
    graphs["random"] = fz.gmm(tf.constant(points), "random", 3, 5, params="wm")
algo = fz.GmmAlgorithm([tf.constant(points[:12]), tf.constant(points[12:])], 3, tf.constant(init_means),
                       params="mc", covariance_type="diag")
report("gmm_variables", sorted((v.op.name, str(v.shape)) for v in tf.global_variables()))
report_errors("gmm_errors", [("bad_covariance", lambda: fz.GmmAlgorithm([tf.constant(points)], 2,
                                                                         covariance_type="spherical"))])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run([graph[4] for graph in graphs.values()] + [algo.init_ops()])
    trains = [graph[3] for graph in graphs.values()] + [algo.training_ops()]
    for _ in range(3):
        sess.run(trains)
    for cov, (loss, scores, assignments, _, _, _) in sorted(graphs.items()):
        report("gmm_" + cov, sess.run([loss, scores, assignments[0][0]]))
    report("gmm_vars", sess.run({v.op.name: v for v in tf.global_variables()}))
    report("gmm_algo", sess.run([algo.alphas(), algo.clusters(), algo.covariances(),
                                 algo.log_likelihood_op(), algo.assignments(), algo.is_initialized()]))
    with case("gmm_algo_scores"):  # TF 1.15's scores() squeezes the shard axis: one shard only
        report("gmm_algo_scores", sess.run(algo.scores()))

# -- the GMM Estimator
def gmm_input():
    return tf.data.Dataset.from_tensors(points).repeat().make_one_shot_iterator().get_next(), None
estimator = fz.GMM(3, model_dir=os.path.join(os.getcwd(), "gmm"), initial_clusters=init_means)
estimator.fit(input_fn=gmm_input, steps=3)
report("gmm_estimator", [estimator.clusters(), estimator.covariances(), estimator.weights(),
                         sorted(estimator.get_variable_names()), estimator.score(input_fn=gmm_input, steps=1),
                         list(estimator.predict_assignments(input_fn=gmm_input))[:24]])

# -- WALSModel: a 5 x 4 matrix; weighted with sharded factors, and plain ALS
indices = np.array([[0, 0], [0, 2], [1, 1], [1, 3], [2, 0], [2, 1], [3, 2], [4, 3], [4, 0]], np.int64)
values = np.array([1.0, 2.0, 3.0, 0.5, 1.5, 2.5, 4.0, 1.0, 0.2], np.float32)
row_init = rs.normal(size=[5, 2]).astype(np.float32)
col_init = rs.normal(size=[4, 2]).astype(np.float32)
sp = tf.SparseTensor(indices, values, [5, 4])
sp_t = tf.SparseTensor(indices[:, ::-1].copy(), values, [4, 5])
g = tf.Graph()
with g.as_default():
    sp = tf.SparseTensor(indices, values, [5, 4])
    sp_cols = tf.sparse_reorder(tf.SparseTensor(indices[:, ::-1].copy(), values, [4, 5]))
    models = {
        "weighted": fz.WALSModel(5, 4, 2, unobserved_weight=0.2, regularization=0.05,
                                 row_init=[row_init[:3], row_init[3:]], col_init=col_init, num_row_shards=2,
                                 row_weights=[[1.0, 2.0, 0.5], [1.5, 1.0]], col_weights=0.7),
        "als": fz.WALSModel(5, 4, 2, row_init=row_init, col_init=col_init, row_weights=None, col_weights=None,
                            use_factors_weights_cache=False, use_gramian_cache=False, use_scoped_vars=True),
    }
    steps = {}
    for name, model in sorted(models.items()):
        row = model.update_row_factors(sp_input=sp)
        col = model.update_col_factors(sp_input=sp_cols, transpose_input=True)
        steps[name] = (model, row, col,
                       model.project_row_factors(sp_input=tf.SparseTensor([[0, 1], [0, 3], [1, 0]], [1.0, 2.0, 3.0],
                                                                          [2, 4]),
                                                 projection_weights=[1.0, 0.5]),
                       model.project_col_factors(sp_input=tf.SparseTensor([[0, 1], [2, 1]], [1.0, 2.0], [5, 2]),
                                                 transpose_input=False))
    report_variables("wals_variables")
    report("wals_locals", sorted((v.op.name, str(v.shape)) for v in tf.local_variables()))
    with tf.Session() as sess:
        sess.run([m.initialize_op for m in models.values()])
        sess.run(tf.local_variables_initializer())
        for name, (model, row, col, project_row, project_col) in sorted(steps.items()):
            sess.run(model.worker_init)
            for _ in range(2):
                sess.run(model.row_update_prep_gramian_op)
                sess.run(model.initialize_row_update_op)
                row_values = sess.run([row[0], row[2], row[3], row[4]])
                sess.run(row[1])
                sess.run(model.col_update_prep_gramian_op)
                sess.run(model.initialize_col_update_op)
                col_values = sess.run([col[0], col[2], col[3], col[4]])
                sess.run(col[1])
            sess.run([model.row_update_prep_gramian_op, model.col_update_prep_gramian_op])
            sess.run(model.initialize_row_update_op)  # the caches a row projection reads
            projected_rows = sess.run(project_row)
            sess.run(model.initialize_col_update_op)
            report("wals_" + name, [row_values, col_values, sess.run(model.row_factors),
                                    sess.run(model.col_factors), projected_rows, sess.run(project_col)])
    report_errors("wals_errors", [
        ("negative_weight", lambda: fz.WALSModel(5, 4, 2, row_weights=-1.0)),
        ("only_row_weights", lambda: fz.WALSModel(5, 4, 2, row_weights=None)),
        ("wrong_shard_count", lambda: fz.WALSModel(5, 4, 2, row_weights=[[1.0], [1.0], [1.0]],
                                                   num_row_shards=2)),
    ])

# -- the WALSMatrixFactorization Estimator: two sweeps a fit, projections and loss
W = fz.WALSMatrixFactorization
def wals_input(project_row=None):
    def input_fn():
        features = {W.INPUT_ROWS: tf.SparseTensor(indices, values, [5, 4]),
                    W.INPUT_COLS: tf.sparse_reorder(tf.SparseTensor(indices[:, ::-1].copy(), values, [4, 5]))}
        if project_row is not None:
            features[W.PROJECT_ROW] = tf.constant(project_row)
        return features, None
    return input_fn
wals = W(5, 4, 2, unobserved_weight=0.3, regularization_coeff=0.1, row_init=row_init, col_init=col_init,
         col_weights=[0.5, 1.0, 1.5, 2.0], max_sweeps=3, model_dir=os.path.join(os.getcwd(), "wals"))
wals.fit(input_fn=wals_input(), steps=5)
report("wals_estimator", [wals.get_row_factors(), wals.get_col_factors(), sorted(wals.get_variable_names()),
                          wals.get_variable_value("completed_sweeps"), wals.get_variable_value("WALS_loss"),
                          wals.get_variable_value("global_step"),
                          list(wals.get_projections(wals_input(True))),
                          wals.evaluate(input_fn=wals_input(False), steps=1)["loss"]])
'''


@requires_tf115
def test_gmm_and_wals_match_tf115():
  tf115, ours = run_both(GMM_WALS_SNIPPET)
  assert_same(tf115, ours, rtol=1e-4, atol=1e-4)

"""tf.contrib.timeseries' math_utils against TF 1.15, function by function, on fixed inputs.

The log densities (normal with TF 1.15's log(scale) term, Cauchy, multivariate normal), clip_covariance,
block_diagonal (values and static shape, with a batch dimension), power_sums_tensor, matrix_to_powers and
batch_matrix_pow (powers 0 to 9), batch_times_matrix and matrix_times_batch in every transposition,
make_toeplitz_matrix, sign_magnitude_positive_definite with batched scales, transform_to_covariance_matrices (its
layer's variables seeded), variable_covariance_matrix (its variables and value), batch_start_time/batch_end_time,
log_noninformative_covariance_prior, entropy_matched_cauchy_scale, TupleOfTensorsLookup on a nested state (defaults,
inserts, overwrites), and the moving input statistics of InputStatisticsFromMiniBatch over several mini-batches.
(Also model_utils.parameter_switch, the one function of TF 1.15's model_utils that is tf1clip's code.)
"""

from harness import assert_same, requires_tf115, run_both

SNIPPET = r'''
import numpy as np
import tensorflow as tf
try:  # TF 1.15's module; tf1clip's under its own name (the deep path is served after the timeseries re-tree)
    from tensorflow.contrib.timeseries.python.timeseries import math_utils as mu
    from tensorflow.contrib.timeseries.python.timeseries import model_utils
except ImportError:
    from tf1clip.contrib.timeseries import math_utils as mu
    from tf1clip.contrib.timeseries import model_utils
rng = np.random.RandomState(7)
x = rng.randn(3, 4).astype(np.float32)
loc = rng.randn(3, 4).astype(np.float32)
scale = (rng.rand(3, 4) + 0.5).astype(np.float32)
square = rng.randn(3, 3).astype(np.float32)
batch = rng.randn(4, 3, 3).astype(np.float32)
tril = np.tril(rng.randn(3, 3)).astype(np.float32) + 2 * np.eye(3, dtype=np.float32)
covariance = (square.dot(square.T) + np.diag([0.01, 3.0, 0.2])).astype(np.float32)
raw = rng.randn(2, 3, 3).astype(np.float32)
psd_batch = np.einsum("bij,bkj->bik", batch, batch).astype(np.float32)
fetch = {}
with tf.Graph().as_default():
    fetch["normal"] = mu.normal_log_prob(loc, scale, x)
    fetch["normal_swapped"] = mu.normal_log_prob(x, scale, loc)
    fetch["cauchy"] = mu.cauchy_log_prob(loc, scale, x)
    fetch["mvn"] = [mu.mvn_tril_log_prob(loc[i, :3], tril, x[i, :3]) for i in range(3)]
    fetch["clip"] = mu.clip_covariance(covariance, maximum_variance_ratio=50., minimum_variance=0.1)
    fetch["clip_batch"] = mu.clip_covariance(psd_batch, 5., 1.)
    blocks = mu.block_diagonal([batch[:, :2, :3], batch[:, :1, :1], batch[:, :3, :2]])
    report("block_diagonal/static_shape", blocks.shape.as_list())
    fetch["block_diagonal"] = blocks
    fetch["block_diagonal_float64"] = mu.block_diagonal([square.astype(np.float64), [[2.0]]], dtype=tf.float64)
    transition = 0.5 * square
    fetch["power_sums"] = mu.power_sums_tensor(5, transition, covariance)
    fetch["power_sums_one"] = mu.power_sums_tensor(1, transition, covariance)
    fetch["matrix_to_powers"] = mu.matrix_to_powers(transition, np.arange(10))
    fetch["batch_matrix_pow"] = mu.batch_matrix_pow(0.6 * batch, [0, 1, 6, 3])
    for adj_x in (False, True):
        for adj_y in (False, True):
            name = "%d%d" % (adj_x, adj_y)
            fetch["batch_times_matrix" + name] = mu.batch_times_matrix(batch, square, adj_x=adj_x, adj_y=adj_y)
            fetch["matrix_times_batch" + name] = mu.matrix_times_batch(square, batch, adj_x=adj_x, adj_y=adj_y)
    unknown = tf.placeholder_with_default(batch[:, :, :2], [None, None, 2])
    partly_known = mu.batch_times_matrix(unknown, square[:2])
    report("batch_times_matrix/static_shape", partly_known.shape.as_list())
    fetch["batch_times_matrix_unknown"] = partly_known
    fetch["toeplitz"] = mu.make_toeplitz_matrix(batch[:3, :2, :2], name="toeplitz")
    fetch["sign_magnitude"] = mu.sign_magnitude_positive_definite(raw, off_diagonal_scale=[-1., 0.5],
                                                                  overall_scale=[0.2, -0.3])
    fetch["sign_magnitude_scalar"] = mu.sign_magnitude_positive_definite(raw[0])
    with tf.variable_scope("covariances"):
        fetch["transformed"] = mu.transform_to_covariance_matrices(x, matrix_size=2)
        fetch["variable"] = mu.variable_covariance_matrix(3, "noise", tf.float32,
                                                          initial_diagonal_values=[1.0, 2.0, 0.5],
                                                          initial_overall_scale_log=0.3)
        fetch["variable_plain"] = mu.variable_covariance_matrix(2, "plain", tf.float64)
    times = tf.constant(np.array([[3, 5, 9], [10, 11, 12]], np.int64))
    fetch["start_end"] = [mu.batch_start_time(times), mu.batch_end_time(times)]
    fetch["prior"] = mu.log_noninformative_covariance_prior(tf.constant(covariance))
    fetch["cauchy_scale"] = mu.entropy_matched_cauchy_scale(psd_batch)
    with tf.Session() as session:
        session.run(tf.global_variables_initializer())
        report("plain_init", session.run(fetch["variable_plain"]))
        init_from_numpy(session, seed=4)
        report_variables()
        report("values", session.run(fetch))

# TupleOfTensorsLookup: nested values, defaults for missing keys, later inserts overwrite earlier ones
with tf.Graph().as_default():
    defaults = (tf.zeros([2], tf.int64), [tf.ones([2, 3]), tf.constant(-1.0)])
    table = mu.TupleOfTensorsLookup(key_dtype=tf.int64, default_values=defaults, empty_key=-1, deleted_key=-2,
                                    name="cache", checkpoint=False)
    keys = tf.placeholder(tf.int64, [None])
    insert = table.insert(keys, (tf.reshape(tf.range(8, dtype=tf.int64), [4, 2]),
                                 [tf.reshape(tf.range(24, dtype=tf.float32), [4, 2, 3]),
                                  tf.constant([1.0, 2.0, 3.0, 4.0])]))
    looked_up = table.lookup(tf.constant([[0, 5], [7, 3]], tf.int64))
    with tf.Session() as session:
        session.run(tf.tables_initializer())
        report("lookup/empty", session.run(looked_up))
        session.run(insert, {keys: [5, 6, 7, 8]})
        report("lookup/inserted", session.run(looked_up))
        session.run(insert, {keys: [0, 5, 9, 10]})
        report("lookup/overwritten", session.run(looked_up))

# model_utils.parameter_switch: the override where there is one, else the current value
with tf.Graph().as_default():
    level = tf.Variable(2.5, name="level")
    noise = tf.Variable([1.0, 3.0], name="noise")
    with tf.Session() as session:
        session.run(tf.global_variables_initializer())
        switch = model_utils.parameter_switch({noise: [0.5, 0.25]})
        report("parameter_switch", [switch(level), switch(noise), switch(2.0 * level)])

# the moving input statistics over mini-batches (starting window of 6 points)
series_times = np.arange(100, dtype=np.int64) * 3 + 7
series = np.stack([np.sin(series_times / 9.0) * 4 + 2, series_times / 50.0], axis=1).astype(np.float32)
with tf.Graph().as_default():
    statistics = mu.InputStatisticsFromMiniBatch(num_features=2, dtype=tf.float32, starting_variance_window_size=6)
    chunk_times = tf.placeholder(tf.int64, [None, 5])
    chunk_values = tf.placeholder(tf.float32, [None, 5, 2])
    stats = statistics.initialize_graph({"times": chunk_times, "values": chunk_values})
    fetch = {"overall_mean": stats.overall_feature_moments.mean,
             "overall_variance": stats.overall_feature_moments.variance,
             "start_mean": stats.series_start_moments.mean, "start_variance": stats.series_start_moments.variance,
             "start_time": stats.start_time, "total_observations": stats.total_observation_count}
    with tf.train.MonitoredSession() as session:
        updates = []
        for starts in ([40, 10], [0, 70], [25, 90], [5, 55]):
            index = np.array([range(s, s + 5) for s in starts])
            updates.append(session.run(fetch, {chunk_times: series_times[index], chunk_values: series[index]}))
        report("input_statistics", updates)
'''


@requires_tf115
def test_math_utils_functions_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["block_diagonal/static_shape"] == [4, 6, 6]
  assert len(tf115["values"]["power_sums"]) == 6
  assert list(tf115["lookup/inserted"][0][0][1]) == [0, 1]  # key 5: the first row inserted
  assert len(tf115["input_statistics"]) == 4
  assert_same(tf115, ours, rtol=2e-5, atol=2e-5)

"""contrib.training's ps placement strategies, Poisson resampling, parse_values and FeedingQueueRunner against
TF 1.15: the devices replica_device_setter gives each variable (RandomStrategy's MD5 choice, the greedy
byte-size balance), byte_size_load_fn, resample_at_rate / weighted_resample draws with the same seeds (and the
moving-mean variables), parse_values of a flag string, and a queue fed by a FeedingQueueRunner."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.training." + n for n in (
    "RandomStrategy", "GreedyLoadBalancingStrategy", "byte_size_load_fn", "resample_at_rate",
    "weighted_resample", "parse_values", "FeedingQueueRunner", "rejection_sample", "stratified_sample"))

SNIPPET = r'''
import numpy as np
import tensorflow as tf
tr = tf.contrib.training
shapes = [[10, 4], [3], [100, 100], [7, 7, 2], [1], [50, 20], [8]]

def placement(strategy):
    with tf.Graph().as_default():
        with tf.device(tf.train.replica_device_setter(ps_tasks=3, ps_strategy=strategy)):
            vs = [tf.get_variable("v%d" % i, s) for i, s in enumerate(shapes)]
        return [v.device for v in vs]

report("random_0", placement(tr.RandomStrategy(3)))
report("random_7", placement(tr.RandomStrategy(3, seed=7)))
report("greedy", placement(tr.GreedyLoadBalancingStrategy(3, tr.byte_size_load_fn)))
with tf.Graph().as_default():
    v = tf.get_variable("sized", [5, 6], dtype=tf.float64)
    report("byte_size", tr.byte_size_load_fn(v.op))
    report_errors("errors", (("two_outputs", lambda: tr.byte_size_load_fn(tf.split(tf.zeros([4]), 2)[0].op)),))

with tf.Graph().as_default():
    tf.set_random_seed(3)
    rows = tf.constant(np.arange(6, dtype=np.float32)[:, None] * [1.0, 10.0])
    labels = tf.constant(np.arange(6, dtype=np.int64))
    resampled = tr.resample_at_rate([rows, labels], tf.constant([0.5, 1.0, 2.0, 0.0, 3.0, 1.5]), seed=11)
    weights = tf.constant([1.0, 2.0, 0.5, 4.0, 1.0, 0.5])
    (w_rows,), w_rates = tr.weighted_resample([rows], weights, overall_rate=1.5, mean_decay=0.5, seed=5)
    report("local_variables", sorted(v.op.name for v in tf.local_variables()))
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        report("resampled", [sess.run(resampled) for _ in range(3)])
        report("weighted", [sess.run([w_rows, w_rates]) for _ in range(3)])

types = {"lr": float, "layers": int, "name": str, "sizes": list}
report("parsed", tr.parse_values("lr=0.3,layers=4,name=abc", {"lr": float, "layers": int, "name": str}))
report("parsed_list", tr.parse_values("sizes=[1,2,3]", {"sizes": int}))
report("parsed_index", tr.parse_values("sizes[1]=5", {"sizes": int}))
report_errors("parse_errors", (("unknown", lambda: tr.parse_values("nope=1", {"lr": float})),
                               ("bad_type", lambda: tr.parse_values("layers=x", {"layers": int}))))
report("parsed_ignore", tr.parse_values("nope=1,lr=2", {"lr": float}, ignore_unknown=True))

with tf.Graph().as_default():
    queue = tf.FIFOQueue(10, [tf.int64])
    placeholder = tf.placeholder(tf.int64, [])
    enqueue = queue.enqueue([placeholder])
    values = iter(range(100, 200))
    runner = tr.FeedingQueueRunner(queue=queue, enqueue_ops=[enqueue],
                                   feed_fns=[lambda: {placeholder: next(values)}])
    tf.train.add_queue_runner(runner)
    item = queue.dequeue()
    with tf.Session() as sess:
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord=coord)
        report("fed", sorted(sess.run(item) for _ in range(5)))
        coord.request_stop()
        sess.run(queue.close(cancel_pending_enqueues=True))
        coord.join(threads)
'''


@requires_tf115
def test_training_ops_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert len(set(tf115["random_0"])) > 1 and tf115["errors"] == {"two_outputs": "ValueError"}
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6)


SAMPLING_SNIPPET = r'''
import numpy as np
import tensorflow as tf
tr = tf.contrib.training
tf.set_random_seed(1)
values = tf.constant(np.arange(40, dtype=np.float32))
labels = tf.constant(np.arange(40, dtype=np.int32) % 4)
value, label = tf.train.slice_input_producer([values, labels], shuffle=False)
# rejection_sample: odd values are never accepted
kept = tr.rejection_sample([value, label], lambda t: tf.cast(tf.equal(tf.math.floormod(t[0], 2.0), 0.0),
                                                                 tf.float32), batch_size=5, runtime_checks=True)
# stratified_sample: only classes 1 and 3, equally often
(strat_values,), strat_labels = tr.stratified_sample([value], label, [0.0, 0.5, 0.0, 0.5], batch_size=6,
                                                     init_probs=[0.25, 0.25, 0.25, 0.25])
(est_values,), est_labels = tr.stratified_sample([value], label, [0.0, 0.0, 1.0, 0.0], batch_size=4)
report("shapes", [[t.shape.as_list() for t in kept], strat_values.shape.as_list(), strat_labels.shape.as_list()])
report("variables", sorted(v.op.name for v in tf.global_variables() + tf.local_variables()))
report_errors("errors", (
    ("probs_length", lambda: tr.stratified_sample([value], label, [0.5, 0.5], 2, init_probs=[0.2, 0.3, 0.5])),
    ("labels_rank", lambda: tr.stratified_sample([values], tf.zeros([2, 2], tf.int32), [1.0], 2,
                                                 enqueue_many=True))))
with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess, coord=coord)
    batches = [sess.run(kept) for _ in range(3)]
    report("kept_all_even", all(float(v) % 2 == 0 for b in batches for v in b[0]))
    report("kept_labels_match", all(int(v) % 4 == int(l) for b in batches for v, l in zip(*b)))
    strat = [sess.run([strat_values, strat_labels]) for _ in range(4)]
    report("strat_classes", sorted(set(int(l) for _, ls in strat for l in ls)))
    report("strat_pairs_consistent", all(int(v) % 4 == int(l) for vs, ls in strat for v, l in zip(vs, ls)))
    report("est_classes", sorted(set(int(l) for l in sess.run(est_labels))))
    coord.request_stop()
    coord.join(threads, stop_grace_period_secs=5)
finish()
'''


@requires_tf115
def test_sampling_matches_tf115():
  tf115, ours = run_both(SAMPLING_SNIPPET)
  assert tf115["kept_all_even"] and tf115["strat_classes"] == [1, 3] and tf115["est_classes"] == [2]
  assert_same(tf115, ours)

"""contrib.losses (and metric_learning), contrib.signal and contrib.summary against TF 1.15 (contrib.util: tests/contrib/util/).

The losses' values and the LOSSES collection they fill; the metric-learning losses on one batch of embeddings;
signal's framing, windows, STFT round trip, mel matrix and MFCCs; and a
graph-mode contrib.summary file writer whose event file is read back (tags, steps, values). (metric_learning's
cluster_loss needs scikit-learn on both sides, which neither environment installs: not compared.)
"""

from harness import assert_same, requires_tf115, run_both

LOSSES = ("absolute_difference", "add_loss", "compute_weighted_loss", "cosine_distance", "get_losses",
          "get_regularization_losses", "get_total_loss", "hinge_loss", "log_loss", "mean_pairwise_squared_error",
          "mean_squared_error", "sigmoid_cross_entropy", "softmax_cross_entropy", "sparse_softmax_cross_entropy",
          "metric_learning")
METRIC_LEARNING = ("contrastive_loss", "lifted_struct_loss", "npairs_loss", "npairs_loss_multilabel",
                   "triplet_semihard_loss")
SIGNAL = ("frame", "hamming_window", "hann_window", "inverse_stft", "inverse_stft_window_fn",
          "linear_to_mel_weight_matrix", "mfccs_from_log_mel_spectrograms", "overlap_and_add", "stft")
SUMMARY = ("SummaryWriter", "all_summary_ops", "always_record_summaries", "create_file_writer", "flush", "histogram",
           "scalar", "image", "audio", "generic", "initialize", "never_record_summaries",
           "record_summaries_every_n_global_steps", "should_record_summaries", "summary_writer_initializer_op",
           "eval_dir")
ORACLE_TESTED = (tuple("tf.contrib.losses." + n for n in LOSSES)
                 + tuple("tf.contrib.losses.metric_learning." + n for n in METRIC_LEARNING)
                 + tuple("tf.contrib.signal." + n for n in SIGNAL)
                 + tuple("tf.contrib.summary." + n for n in SUMMARY))

SNIPPET = r'''
import glob
import os
import numpy as np
import tensorflow as tf
c = tf.contrib
L = c.losses
rng = np.random.RandomState(0)
f32 = lambda a: tf.constant(np.asarray(a, np.float32))
pred = f32(rng.uniform(0.05, 0.95, [4, 3]))
label = f32(rng.randint(0, 2, [4, 3]))
weights = f32([[1.0], [0.5], [2.0], [0.0]])
out = {
    "absolute_difference": L.absolute_difference(pred, label, weights),
    "compute_weighted_loss": L.compute_weighted_loss(pred, weights),
    "cosine_distance": L.cosine_distance(tf.nn.l2_normalize(pred, 1), tf.nn.l2_normalize(label + 0.1, 1), axis=1),
    "hinge_loss": L.hinge_loss(pred - 0.5, label),
    "log_loss": L.log_loss(pred, label, weights),
    "mean_pairwise_squared_error": L.mean_pairwise_squared_error(pred, label, weights),
    "mean_squared_error": L.mean_squared_error(pred, label, weights),
    "sigmoid_cross_entropy": L.sigmoid_cross_entropy(pred - 0.5, label, label_smoothing=0.1),
    "softmax_cross_entropy": L.softmax_cross_entropy(pred, tf.one_hot([0, 2, 1, 1], 3), label_smoothing=0.2),
    "sparse_softmax_cross_entropy": L.sparse_softmax_cross_entropy(pred, [0, 2, 1, 1], weights),
}
L.add_loss(tf.constant(0.25))
tf.add_to_collection(tf.GraphKeys.REGULARIZATION_LOSSES, tf.constant(0.5))
report("collected", [len(L.get_losses()), len(L.get_regularization_losses())])
out["total"] = L.get_total_loss()
out["total_without_regularization"] = L.get_total_loss(add_regularization_losses=False)
M = L.metric_learning
embeddings = tf.nn.l2_normalize(f32(rng.randn(8, 4)), 1)
ids = tf.constant([0, 0, 1, 1, 2, 2, 3, 3])
out["metric_learning"] = {
    "contrastive": M.contrastive_loss(tf.constant([1, 0, 1, 0]), embeddings[:4], embeddings[4:], margin=0.5),
    "lifted_struct": M.lifted_struct_loss(ids, embeddings, margin=0.5),
    "npairs": M.npairs_loss(tf.constant([0, 1, 2, 3]), embeddings[::2], embeddings[1::2]),
    "npairs_multilabel": M.npairs_loss_multilabel(  # one [1, classes] SparseTensor per example
        [tf.SparseTensor([[0, j] for j in classes], tf.ones([len(classes)], tf.int64), [1, 4])
         for classes in ([0], [1], [1, 2], [3])], embeddings[::2], embeddings[1::2]),
    "triplet_semihard": M.triplet_semihard_loss(ids, embeddings, margin=0.5),
}
# signal
S = c.signal
wave = f32(np.sin(np.arange(400) * 0.3) + 0.1 * rng.randn(400))
spec = S.stft(wave, 64, 16, window_fn=S.hann_window)
out["signal"] = {
    "frame": S.frame(tf.range(10), 4, 3, pad_end=True),
    "hamming": S.hamming_window(8), "hann": S.hann_window(8, periodic=False),
    "stft": tf.abs(spec), "roundtrip": S.inverse_stft(spec, 64, 16, window_fn=S.inverse_stft_window_fn(16)),
    "overlap_and_add": S.overlap_and_add(tf.reshape(tf.range(12.0), [3, 4]), 2),
    "mel": S.linear_to_mel_weight_matrix(8, 33, 8000.0, 100.0, 3800.0),
    "mfccs": S.mfccs_from_log_mel_spectrograms(tf.math.log(tf.matmul(tf.abs(spec), S.linear_to_mel_weight_matrix(
        8, 33, 8000.0, 100.0, 3800.0)) + 1e-6)),
}
# summary: a graph-mode file writer, read back
W = c.summary
logdir = os.path.join(os.getcwd(), "summaries")
step = tf.train.get_or_create_global_step()
writer = W.create_file_writer(logdir, flush_millis=100)
with writer.as_default(), W.always_record_summaries():
    W.scalar("loss", tf.constant(0.5))
    W.histogram("weights", tf.constant([1.0, 2.0, 2.0, 3.0]))
    W.image("picture", tf.zeros([1, 2, 2, 1]), max_images=1)
    W.generic("raw", tf.constant([1.0]), metadata=None)
with writer.as_default(), W.never_record_summaries():
    never = W.should_record_summaries()
    W.scalar("never_written", tf.constant(1.0))
with writer.as_default(), W.record_summaries_every_n_global_steps(2):
    W.scalar("every_two", tf.cast(step, tf.float32))
report("summary_api", [isinstance(writer, W.SummaryWriter), W.eval_dir("/m", "val"), W.eval_dir("/m")])
report_errors("summary_errors", (("no_writer_scalar", lambda: W.initialize()),))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    with writer.as_default():
        W.initialize(graph=tf.get_default_graph(), session=sess)
    report("never", sess.run(never))
    for _ in range(3):
        sess.run(W.all_summary_ops())
        sess.run(tf.assign_add(step, 1))
    sess.run(W.flush())
    sess.run(writer.flush())
    for key, value in sorted(out.items()):
        report(key, sess.run(value))
events = []
for path in sorted(glob.glob(os.path.join(logdir, "events.*"))):
    for event in tf.train.summary_iterator(path):
        for v in event.summary.value:
            events.append((event.step, v.tag, round(float(v.simple_value), 6) if v.HasField("simple_value") else
                           round(float(tf.make_ndarray(v.tensor).ravel()[0]), 6) if v.HasField("tensor") and
                           v.tensor.dtype == 1 else v.WhichOneof("value")))
report("events", sorted(events, key=repr))
'''


@requires_tf115
def test_contrib_losses_signal_util_summary_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert any(tag == "loss" for _, tag, _ in tf115["events"]), tf115["events"]
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5)

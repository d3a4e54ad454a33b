"""contrib.training's training and evaluation helpers (tf-slim's on both sides) and its bucketing against TF 1.15.

Compared: clip_gradient_norms / clip_gradient_norms_fn / multiply_gradients on dense and IndexedSlices
gradients (values, a None gradient, the errors), add_gradients_summaries' ops; create_train_op (update ops,
variables_to_train, transform_grads_fn, summaries, the losses of each step, the variables and global step
after) and train (the final loss, the checkpoint it writes with save_checkpoint_secs, its errors);
checkpoints_iterator / wait_for_new_checkpoint on a checkpoint train wrote (and their timeouts),
get_or_create_eval_step, evaluate_once / evaluate_repeatedly with StopAfterNEvalsHook and SummaryAtEndHook
(eval_ops run n times, final_ops' values, the event file); bucket and bucket_by_sequence_length on a
one-epoch queue input: every batch of every bucket (sorted: the order the buckets fill in is the threads'),
dynamic padding, a dict and a one-tensor input, queue runners, summaries, the errors.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.training." + n for n in (
    "create_train_op", "train", "clip_gradient_norms", "clip_gradient_norms_fn", "multiply_gradients",
    "add_gradients_summaries", "evaluate_once", "evaluate_repeatedly", "checkpoints_iterator",
    "wait_for_new_checkpoint", "StopAfterNEvalsHook", "SummaryAtEndHook", "get_or_create_eval_step", "bucket",
    "bucket_by_sequence_length"))

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
tr = tf.contrib.training
root = os.path.abspath("training")
xs = np.array([[1.0, 2.0], [0.5, -1.0], [-1.5, 0.25], [2.0, 1.0]], np.float32)
ys = np.array([[1.0], [0.0], [-1.0], [2.0]], np.float32)

def regression(scope="model"):
    with tf.variable_scope(scope):
        w = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer(0.5))
        b = tf.get_variable("b", [1], initializer=tf.constant_initializer(-0.25))
        bn_mean = tf.get_variable("bn_mean", [1], initializer=tf.zeros_initializer(), trainable=False)
    pred = tf.matmul(tf.constant(xs), w) + b
    tf.add_to_collection(tf.GraphKeys.UPDATE_OPS, tf.assign_add(bn_mean, tf.reduce_mean(pred, 0)))
    loss = tf.losses.mean_squared_error(tf.constant(ys), pred)
    return w, b, bn_mean, loss

# -- gradient helpers --------------------------------------------------------------------------------------
with tf.Graph().as_default():
    w, b, bn_mean, loss = regression()
    opt = tf.train.GradientDescentOptimizer(0.1)
    grads = opt.compute_gradients(loss)
    clipped = tr.clip_gradient_norms(grads, 0.5)
    clip_fn = tr.clip_gradient_norms_fn(0.3)
    multiplied = tr.multiply_gradients(grads, {w: 2.0, "model/b": 0.5})
    summaries = tr.add_gradients_summaries(grads)
    sparse_grad = tf.IndexedSlices(tf.constant([[3.0, 4.0]]), tf.constant([1]), tf.constant([2, 2]))
    sparse_clipped = tr.clip_gradient_norms([(sparse_grad, w), (None, b)], 2.5)
    sparse_multiplied = tr.multiply_gradients([(sparse_grad, w)], {w: 3.0})
    report("summary_names", sorted(s.op.name for s in summaries))
    report("summary_types", sorted(s.op.type for s in summaries))
    report_errors("grad_errors", [
        ("multiply_not_dict", lambda: tr.multiply_gradients(grads, [2.0])),
        ("multiply_empty", lambda: tr.multiply_gradients(grads, {})),
        ("multiply_not_list", lambda: tr.multiply_gradients(grads[0], {w: 1.0})),
    ])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        report("grads", sess.run({"plain": [g for g, _ in grads], "clipped": [g for g, _ in clipped],
                                  "clip_fn": [g for g, _ in clip_fn(grads)],
                                  "multiplied": [g for g, _ in multiplied]}))
        s_clipped, s_mult = sess.run([sparse_clipped[0][0], sparse_multiplied[0][0]])
        report("sparse_grads", [s_clipped.values, s_clipped.indices, s_mult.values, sparse_clipped[1][0] is None,
                                type(sparse_clipped[0][0]).__name__])

# -- create_train_op and train ----------------------------------------------------------------------------
with tf.Graph().as_default():
    w, b, bn_mean, loss = regression()
    gs = tf.train.get_or_create_global_step()
    train_op = tr.create_train_op(loss, tf.train.GradientDescentOptimizer(0.1), summarize_gradients=True,
                                  transform_grads_fn=tr.clip_gradient_norms_fn(1.0))
    frozen_op = tr.create_train_op(loss, tf.train.GradientDescentOptimizer(0.1), global_step=None,
                                   variables_to_train=[b], update_ops=[], check_numerics=False)
    report("train_op", [train_op.op.type, train_op.dtype.name, frozen_op.op.type,
                        len(tf.get_collection(tf.GraphKeys.SUMMARIES)),
                        len(tf.get_collection(tf.GraphKeys.TRAIN_OP))])
    report_errors("train_op_errors", [
        ("bad_update_ops", lambda: tr.create_train_op(loss, tf.train.GradientDescentOptimizer(0.1),
                                                      update_ops=[tf.no_op()] + [1])),
        ("no_variables", lambda: tr.create_train_op(loss, tf.train.GradientDescentOptimizer(0.1),
                                                    variables_to_train=[])),
    ])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        report("train_steps", [sess.run(train_op) for _ in range(2)] + [sess.run(frozen_op)])
        report("after_steps", sess.run({"w": w, "b": b, "bn_mean": bn_mean, "step": gs}))
with tf.Graph().as_default():
    w, b, bn_mean, loss = regression()
    tf.summary.scalar("loss", loss)
    train_op = tr.create_train_op(loss, tf.train.GradientDescentOptimizer(0.05))
    final = tr.train(train_op, root, hooks=[tf.train.StopAtStepHook(num_steps=3)], save_checkpoint_secs=None,
                     save_summaries_steps=1)
    report("train_final_loss", final)
    ckpt = tf.train.latest_checkpoint(root)
    report("train_checkpoint", [os.path.basename(ckpt) if ckpt else None,
                                sorted(n for n, _ in tf.train.list_variables(root)) if ckpt else None])
    report_errors("train_errors", [("no_logdir_hooks", lambda: tr.train(train_op, None, save_checkpoint_secs=10)),
                                   ("no_logdir_summaries", lambda: tr.train(train_op, None, save_checkpoint_secs=None))])
with tf.Graph().as_default():
    w, b, bn_mean, loss = regression()
    train_op = tr.create_train_op(loss, tf.train.GradientDescentOptimizer(0.05))
    saver_dir = os.path.join(root, "saved")
    final = tr.train(train_op, saver_dir, hooks=[tf.train.StopAtStepHook(last_step=2)], save_checkpoint_secs=3600,
                     save_summaries_steps=None)
    report("train_saved", [final, os.path.basename(tf.train.latest_checkpoint(saver_dir)),
                           tf.train.load_variable(saver_dir, "model/w"), tf.train.load_variable(saver_dir, "global_step")])

# -- evaluation ---------------------------------------------------------------------------------------------
ckpt_dir = os.path.join(root, "saved")
ckpt = tf.train.latest_checkpoint(ckpt_dir)
report("checkpoints_iterator", [os.path.basename(p) for p in tr.checkpoints_iterator(ckpt_dir, timeout=0.01)])
report("wait_for_new_checkpoint", [os.path.basename(tr.wait_for_new_checkpoint(ckpt_dir, timeout=0.01)),
                                   tr.wait_for_new_checkpoint(ckpt_dir, ckpt, timeout=0.01),
                                   tr.wait_for_new_checkpoint(os.path.join(root, "none"), timeout=0.01)])
timed_out = []
report("iterator_timeout_fn", list(tr.checkpoints_iterator(os.path.join(root, "none"), timeout=0.01,
                                                           timeout_fn=lambda: timed_out.append(1) or True)))
report("timed_out", len(timed_out))
with tf.Graph().as_default():
    w, b, bn_mean, loss = regression()
    tf.train.get_or_create_global_step()
    eval_step = tr.get_or_create_eval_step()
    report("eval_step", [eval_step.op.name, eval_step.dtype.base_dtype.name, eval_step is tr.get_or_create_eval_step(),
                         [v.op.name for v in tf.get_collection(tf.GraphKeys.EVAL_STEP)],
                         [v.op.name for v in tf.local_variables()]])
    mean_loss, update = tf.metrics.mean(loss)
    total = tf.get_variable("total", [], initializer=tf.zeros_initializer(), collections=[tf.GraphKeys.LOCAL_VARIABLES])
    count_op = tf.assign_add(total, 1.0)
    tf.summary.scalar("eval_loss", mean_loss)
    writer_hook = tr.SummaryAtEndHook(summary_writer=tf.summary.FileWriterCache.get(os.path.join(root, "eval2")),
                                      summary_op=tf.summary.scalar("constant", tf.constant(3.0)))
    once = tr.evaluate_once(ckpt, eval_ops=[update, count_op], final_ops={"loss": mean_loss, "w": w, "total": total},
                            hooks=[tr.StopAfterNEvalsHook(3), tr.SummaryAtEndHook(os.path.join(root, "eval"))])
    report("evaluate_once", once)
    report("eval_events", len([f for f in os.listdir(os.path.join(root, "eval")) if "tfevents" in f]))
    repeated = tr.evaluate_repeatedly(ckpt_dir, eval_ops=update, final_ops=mean_loss, eval_interval_secs=0,
                                      max_number_of_evaluations=1, hooks=[tr.StopAfterNEvalsHook(2)])
    report("evaluate_repeatedly", repeated)
    none_found = tr.evaluate_repeatedly(os.path.join(root, "none"), eval_ops=update, final_ops=mean_loss,
                                        timeout=0.01, eval_interval_secs=0)
    report("evaluate_repeatedly_none", none_found)
    report("final_feed", tr.evaluate_once(ckpt, final_ops=tf.placeholder_with_default(1.0, []) * 2.0 + loss,
                                          final_ops_feed_dict={}, hooks=[tr.StopAfterNEvalsHook(1)]))
    report_errors("eval_errors", [("no_checkpoint", lambda: tr.evaluate_once(os.path.join(root, "model.ckpt-99"),
                                                                             final_ops=loss))])
    report("summary_hook_writer", tr.evaluate_once(ckpt, final_ops=w, hooks=[writer_hook, tr.StopAfterNEvalsHook(1)]))
    report_errors("hook_errors", [("summary_no_dir", lambda: tr.SummaryAtEndHook().begin())])

# -- bucketing ----------------------------------------------------------------------------------------------
with tf.Graph().as_default():
    index, length = tf.placeholder(tf.int32, []), tf.placeholder(tf.int32, [])
    report_errors("bucket_errors", [
        ("boundaries_unsorted", lambda: tr.bucket_by_sequence_length(length, [index], 2, [5, 3])),
        ("boundaries_empty", lambda: tr.bucket_by_sequence_length(length, [index], 2, [])),
        ("bad_capacities", lambda: tr.bucket([index], tf.constant(0), 2, num_buckets=2, bucket_capacities=[4])),
        ("batch_size_list", lambda: tr.bucket([index], tf.constant(0), [2, 3], num_buckets=3)),
        ("length_rank", lambda: tr.bucket_by_sequence_length(tf.constant([1, 2]), [index], 2, [3])),
    ])
with tf.Graph().as_default():
    lengths = tf.constant([1, 4, 2, 5, 3, 6, 2, 5], tf.int32)
    def example():
        index, length = tf.train.slice_input_producer([tf.range(8), lengths], num_epochs=1, shuffle=False)
        return index, length, tf.fill([length], tf.cast(index, tf.float32))
    index, length, _ = example()
    which, bucketed = tr.bucket([index, length], tf.cast(length > 3, tf.int32), batch_size=2, num_buckets=2,
                                num_threads=1, capacity=8)
    index2, length2, sequence = example()
    lens, (seq_idx, seq) = tr.bucket_by_sequence_length(length2, [index2, sequence], batch_size=2,
                                                        bucket_boundaries=[3], dynamic_pad=True, num_threads=1,
                                                        capacity=8)
    index3, _, _ = example()
    dict_which, dict_out = tr.bucket({"i": index3}, tf.constant(0), batch_size=2, num_buckets=1,
                                     allow_smaller_final_batch=True, name="dict_bucket")
    report("bucket_shapes", [which.shape.as_list(), [t.shape.as_list() for t in bucketed], lens.shape.as_list(),
                             seq_idx.shape.as_list(), seq.shape.as_list(), sorted(dict_out),
                             dict_out["i"].shape.as_list()])
    report("bucket_queue_runners", len(tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)))
    report("bucket_summaries", sorted(s.op.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES)))
    index4, _, _ = example()
    single_which, single = tr.bucket([index4], tf.constant(0), batch_size=2, num_buckets=1)
    report("bucket_single", [isinstance(single, tf.Tensor), type(dict_out).__name__, type(bucketed).__name__])

    def drain(fetches):
        out = []
        while True:
            try:
                out.append(sess.run(fetches))
            except tf.errors.OutOfRangeError:
                return out
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord=coord)
        report("bucket_batches", sorted([int(w_), sorted(int(i) for i in idx), sorted(int(l) for l in ln)]
                                        for w_, (idx, ln) in drain([which, bucketed])))
        seqs = drain([lens, seq_idx, seq])
        report("bucket_seq", sorted([sorted(int(l) for l in ls), int(sq.shape[1])] for ls, _, sq in seqs))
        report("bucket_seq_consistent", all(row[:l].tolist() == [float(i)] * int(l) and not row[l:].any()
                                            for ls, ix, sq in seqs for l, i, row in zip(ls, ix, sq)))
        report("bucket_dict", sorted(sorted(int(i) for i in b["i"]) for b in drain(dict_out)))
        coord.request_stop()
        coord.join(threads, stop_grace_period_secs=2, ignore_live_threads=True)'''


@requires_tf115
def test_training_helpers_and_buckets_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["checkpoints_iterator"] == ["model.ckpt-2"] and tf115["evaluate_once"]["total"] == 3.0
  assert len(tf115["bucket_batches"]) == 4 and tf115["bucket_seq_consistent"]
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)

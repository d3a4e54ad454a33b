"""tf.contrib.learn.DynamicRnnEstimator against TF 1.15: its model_fn in TRAIN mode for a multi-value LSTM regressor
(two layers), a single-value GRU classifier with probabilities, a context column and a fed initial state, and a
multi-value binary classifier with Momentum and an embedding sequence column (variable names and shapes,
prediction keys, output alternatives, summary names, the losses of 3 training steps from the same init_from_numpy
values, then the predictions, final states and accuracy); the estimator's fit / evaluate / predict API (evaluate
keys, prediction keys and shapes, variable names) and the constructor / model_fn errors."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.learn.DynamicRnnEstimator",)

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
learn = tf.contrib.learn
fc = tf.contrib.layers
seq_cols = [fc.real_valued_column("x", dimension=2)]
ctx_cols = [fc.real_valued_column("c", dimension=1)]
emb_cols = seq_cols + [fc.embedding_column(fc.sparse_column_with_integerized_feature("ids", 5), dimension=2)]
rng = np.random.RandomState(0)
X = rng.randn(3, 4, 2).astype(np.float32)
C = rng.randn(3, 1).astype(np.float32)
L = np.array([2, 4, 3], np.int32)
S0 = (rng.randn(3, 3) * 0.5).astype(np.float32)
REG = learn.ProblemType.LINEAR_REGRESSION
CLS = learn.ProblemType.CLASSIFICATION
configs = [
    ("multi_reg", dict(problem_type=REG, prediction_type=2, num_units=[3, 2], cell_type="lstm", learning_rate=0.3),
     (rng.randn(3, 4)).astype(np.float32), False),
    ("single_cls", dict(problem_type=CLS, prediction_type=1, num_classes=3, num_units=3, cell_type="gru",
                        predict_probabilities=True, context_feature_columns=ctx_cols, optimizer="Adam",
                        learning_rate=0.05), np.array([0, 2, 1], np.int64), True),
    ("multi_bin", dict(problem_type=CLS, prediction_type=2, num_classes=2, num_units=3, optimizer="Momentum",
                       sequence_feature_columns=emb_cols,
                       momentum=0.9, gradient_clipping_norm=0.5), (rng.rand(3, 4) > 0.5).astype(np.int32), False),
]
for key, kw, y, with_state in configs:
    with tf.Graph().as_default() as g:
        tf.train.create_global_step()
        kw.setdefault("sequence_feature_columns", seq_cols)
        est = learn.DynamicRnnEstimator(model_dir=os.path.abspath(key), **kw)
        ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [1, 2], [1, 3], [2, 1]],
                              tf.constant([1, 4, 0, 2, 2, 3], tf.int64), [3, 4])
        feats = {"x": tf.constant(X), "c": tf.constant(C), "sequence_length": tf.constant(L), "ids": ids}
        if with_state:
            feats["rnn_cell_state_0"] = tf.constant(S0)
        ops = est.model_fn(feats, tf.constant(y), "train", None)
        report(key + "/prediction_keys", sorted(ops.predictions))
        alternatives = ops.output_alternatives or {}
        report(key + "/alternatives", sorted((n, a[0], sorted(a[1])) for n, a in alternatives.items()))
        report(key + "/metric_keys", sorted(ops.eval_metric_ops))
        report(key + "/loss_name", ops.loss.op.name)
        report(key + "/summaries", sorted(s.op.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES)))
        report_variables(key + "/variables")
        with tf.Session() as sess:
            init_from_numpy(sess, seed=5)
            sess.run(tf.local_variables_initializer())
            losses = [sess.run([ops.train_op, ops.loss])[1] for _ in range(3)]
            updates = [m[1] for m in ops.eval_metric_ops.values()]
            got = sess.run({"predictions": ops.predictions, "loss": ops.loss, "updates": updates,
                            "step": tf.train.get_global_step()})
            metrics = sess.run({k: m[0] for k, m in ops.eval_metric_ops.items()})
        report(key + "/train_losses", losses)
        report(key + "/loss", got["loss"])
        report(key + "/step", got["step"])
        for name, value in sorted(got["predictions"].items()):
            report(key + "/predictions/" + name, value)
        report(key + "/metrics", metrics)

# the estimator API: fit / evaluate / predict (random initial values: only keys, shapes and names compared)
def input_fn():
    return {"x": tf.constant(X), "sequence_length": tf.constant(L)}, tf.constant([0, 1, 1], tf.int64)
est = learn.DynamicRnnEstimator(CLS, 1, seq_cols, num_classes=2, num_units=[2], predict_probabilities=True,
                                dropout_keep_probabilities=[0.9, 0.8], model_dir=os.path.abspath("est"))
est.fit(input_fn=input_fn, steps=2)
evaluated = est.evaluate(input_fn=input_fn, steps=1)
report("est/evaluate_keys", sorted(evaluated))
report("est/global_step", evaluated["global_step"])
predicted = est.predict(input_fn=lambda: input_fn()[0], as_iterable=False)
report("est/predict", sorted((k, list(v.shape)) for k, v in predicted.items()))
report("est/variables", sorted(est.get_variable_names()))

def bad_model_fn_build(**kw):
    with tf.Graph().as_default():
        tf.train.create_global_step()
        e = learn.DynamicRnnEstimator(sequence_feature_columns=seq_cols, **kw)
        feats = {"x": tf.constant(X), "rnn_cell_state_0": tf.constant(S0)}
        e.model_fn(feats, tf.constant([0, 1, 1]), "train", None)
report_errors("errors", [
    ("no_num_classes", lambda: learn.DynamicRnnEstimator(CLS, 1, seq_cols)),
    ("bad_prediction_type", lambda: learn.DynamicRnnEstimator(REG, 3, seq_cols)),
    ("bad_problem_type", lambda: learn.DynamicRnnEstimator(learn.ProblemType.LOGISTIC_REGRESSION, 1, seq_cols)),
    ("probabilities_for_regression", lambda: learn.DynamicRnnEstimator(REG, 1, seq_cols, num_units=2,
                                                                       predict_probabilities=True)),
    ("dropout_length", lambda: bad_model_fn_build(problem_type=REG, prediction_type=1, num_units=3,
                                                  dropout_keep_probabilities=[0.5])),
    ("partial_state", lambda: bad_model_fn_build(problem_type=REG, prediction_type=1, num_units=[3, 3])),
    ("bad_cell_type", lambda: bad_model_fn_build(problem_type=REG, prediction_type=1, num_units=3,
                                                 cell_type="nope")),
])
'''


@requires_tf115
def test_contrib_learn_dynamic_rnn_estimator_against_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-4, atol=1e-5)

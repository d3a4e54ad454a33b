"""contrib.learn's export utilities, graph_actions, monitor protocol and leftovers against TF 1.15.

Compared: utils.gc's filters on Path lists; the serving input_fns (placeholders, parsed features);
saved_model_export_utils' signature defs (method, keys), output alternatives, export directories, garbage
collection, BestModelSelector; ExportStrategy's argument passing; the export signature functions (kind and tensor
names per key: TF 1.15 built session_bundle Signature protos, tf1clip SavedModel SignatureDefs, normalized here);
graph_actions.train / evaluate / infer / run_n / run_feeds on a one-variable regression (losses, captured values,
checkpointed step, eval results; the monitors: tests/contrib/learn/test_monitors_oracle.py); Evaluable / Trainable /
TaskType; text_datasets' fake DBpedia data, base.shrink_csv and retry; models.bidirectional_rnn and get_rnn_model
(values with the same weights, variable names); preprocessing.CategoricalProcessor.
"""

from harness import assert_same, requires_tf115, run_both

_L = "tf.contrib.learn."
ORACLE_TESTED = tuple(_L + n for n in (
    "utils.gc.Path", "utils.gc.get_paths", "utils.gc.largest_export_versions", "utils.gc.mod_export_version",
    "utils.gc.negation", "utils.gc.one_of_every_n_export_versions", "utils.gc.union",
    "utils.input_fn_utils.build_parsing_serving_input_fn", "utils.input_fn_utils.build_default_serving_input_fn",
    "utils.input_fn_utils.InputFnOps", "utils.build_parsing_serving_input_fn", "build_parsing_serving_input_fn",
    "utils.saved_model_export_utils.build_standardized_signature_def",
    "utils.saved_model_export_utils.get_output_alternatives", "utils.saved_model_export_utils.get_input_alternatives",
    "utils.saved_model_export_utils.build_all_signature_defs",
    "utils.saved_model_export_utils.get_timestamped_export_dir", "utils.saved_model_export_utils.get_temp_export_dir",
    "utils.saved_model_export_utils.garbage_collect_exports", "utils.saved_model_export_utils.get_most_recent_export",
    "utils.saved_model_export_utils.BestModelSelector", "utils.saved_model_export_utils.make_export_strategy",
    "utils.saved_model_export_utils.make_best_model_export_strategy",
    "utils.saved_model_export_utils.extend_export_strategy", "make_export_strategy", "utils.make_export_strategy",
    "ExportStrategy", "utils.export.generic_signature_fn", "utils.export.classification_signature_fn",
    "utils.export.classification_signature_fn_with_prob", "utils.export.regression_signature_fn",
    "utils.export.logistic_regression_signature_fn", "graph_actions.train", "graph_actions.evaluate",
    "graph_actions.infer", "graph_actions.run_n", "graph_actions.run_feeds", "graph_actions.run_feeds_iter",
    "graph_actions.get_summary_writer", "graph_actions.clear_summary_writers", "train", "evaluate", "infer",
    "run_n", "run_feeds", "Evaluable", "Trainable", "TaskType", "datasets.text_datasets.load_dbpedia", "datasets.base.shrink_csv",
    "datasets.base.retry", "models.bidirectional_rnn", "models.get_rnn_model", "preprocessing.CategoricalProcessor",
    "preprocessing.categorical.CategoricalProcessor"))

SNIPPET = r'''
import os
import tempfile
import numpy as np
import tensorflow as tf
L = tf.contrib.learn
U = L.utils
SM = U.saved_model_export_utils
tmp = tempfile.mkdtemp()

# gc
gc = U.gc
paths = [gc.Path("/b/%d" % i, i) for i in (0, 1, 3, 5, 6, 9, 10)] + [gc.Path("/b/x", None)]
report("gc", [[list(p) for p in f(paths)] for f in (
    gc.largest_export_versions(3), gc.one_of_every_n_export_versions(4), gc.largest_export_versions(1),
    gc.union(gc.largest_export_versions(1), gc.one_of_every_n_export_versions(5)),
    gc.negation(gc.largest_export_versions(5)))])
report("gc_mod", [list(p) for p in gc.mod_export_version(3)([q for q in paths if q.export_version is not None])])
gcdir = os.path.join(tmp, "gcdir")
for name in ("1500000001", "1500000002", "1500000003", "temp-1", "abc"):
    os.makedirs(os.path.join(gcdir, name))
report("gc_get_paths", sorted(os.path.basename(p.path) for p in gc.get_paths(gcdir, lambda p: p)))
report("most_recent", os.path.basename(SM.get_most_recent_export(gcdir).path))
SM.garbage_collect_exports(gcdir, 2)
report("after_gc", sorted(os.listdir(gcdir)))
ts = SM.get_timestamped_export_dir(tmp)
report("timestamped", [type(ts).__name__, len(os.path.basename(ts)), os.path.dirname(ts) == tmp.encode()])
report("temp_dir", os.path.basename(SM.get_temp_export_dir(b"/a/b/1500000000")))

# serving input_fns
spec = {"x": tf.FixedLenFeature([2], tf.float32), "k": tf.VarLenFeature(tf.string)}
ops = L.build_parsing_serving_input_fn(spec, default_batch_size=3)()
report("parsing_input", [type(ops).__name__, isinstance(ops, U.input_fn_utils.InputFnOps), sorted(ops.features),
                         ops.labels, sorted(ops.default_inputs),
                         ops.default_inputs["examples"].op.name, ops.default_inputs["examples"].shape.as_list(),
                         type(ops.features["k"]).__name__])
ops2 = U.input_fn_utils.build_default_serving_input_fn({"a": tf.zeros([5, 3], name="feat_a")}, 4)()
report("default_input", [sorted(ops2.features), ops2.features["a"].op.name, ops2.features["a"].shape.as_list(),
                         ops2.features is ops2.default_inputs])
report("input_alternatives", [sorted(d) for d in SM.get_input_alternatives(ops)])

# signature defs
ex = tf.placeholder(tf.string, [None], name="ex")
sc = tf.constant([[0.2, 0.8]], name="sc")
cl = tf.constant([["a", "b"]], name="cl")
pr = tf.constant([1.5], name="pr")
def sigdef(s):
    return [s.method_name, sorted((k, v.name) for k, v in s.inputs.items()),
            sorted((k, v.name) for k, v in s.outputs.items())]
report("standardized", [sigdef(SM.build_standardized_signature_def(i, o, p)) for i, o, p in (
    ({"e": ex}, {"scores": sc, "classes": cl}, 1), ({"e": ex}, {"probabilities": sc}, 3),
    ({"e": ex}, {"only": sc}, 1), ({"e": ex}, {"y": pr}, 2), ({"e": ex, "f": ex}, {"y": pr}, 2),
    ({"e": ex}, {"y": pr, "z": sc}, 0))])
class FakeOps(object):
    def __init__(self, predictions, output_alternatives=None):
        self.predictions, self.output_alternatives = predictions, output_alternatives
alts, key = SM.get_output_alternatives(FakeOps(pr))
report("output_alternatives", [sorted(alts), key, alts[key][0], sorted(alts[key][1])])
two = {"h1": (2, {"y": pr}), "h2": (1, {"scores": sc})}
report("output_alternatives_2", [SM.get_output_alternatives(FakeOps(pr, two), "h2")[1],
                                 SM.get_output_alternatives(FakeOps(pr, {"h1": two["h1"]}))[1]])
report_errors("output_alternatives_errors", (
    ("no_default", lambda: SM.get_output_alternatives(FakeOps(pr, two))),
    ("missing", lambda: SM.get_output_alternatives(FakeOps(pr, two), "h3")),
    ("none_available", lambda: SM.get_output_alternatives(FakeOps(pr), "h1")),
    ("empty_inputs", lambda: SM.build_standardized_signature_def({}, {"y": pr}, 2))))
all_defs = SM.build_all_signature_defs({"default_input_alternative": {"e": ex}}, two, "h1")
report("all_defs", {k: sigdef(v) for k, v in all_defs.items()})

# session_bundle Signature (TF 1.15) and SignatureDef (tf1clip) as (kind, {key: tensor name})
def normalized(result):
    sig, named = result
    if hasattr(sig, "method_name"):
        names = {k: v.name for k, v in list(sig.inputs.items()) + list(sig.outputs.items())}
        return [sig.method_name.split("/")[-1], sorted(names.items()), len(named)]
    kind = sig.WhichOneof("type")
    if kind == "generic_signature":
        return ["predict", sorted((k, v.tensor_name) for k, v in sig.generic_signature.map.items()), len(named)]
    part = getattr(sig, kind)
    keys = {"input": "inputs", "output": "outputs", "classes": "classes", "scores": "scores"}
    names = {keys[f.name]: v.tensor_name for f, v in part.ListFields()}
    return [kind.split("_")[0].replace("classification", "classify").replace("regression", "regress"),
            sorted(names.items()), len(named)]
E = U.export
probs = tf.constant([[0.3, 0.7]], name="probs")
report("signature_fns", [normalized(r) for r in (
    E.generic_signature_fn(ex, None, pr), E.generic_signature_fn(ex, None, {"a": pr, "b": sc}),
    E.classification_signature_fn(ex, None, cl), E.classification_signature_fn(ex, None, {"classes": cl}),
    E.classification_signature_fn_with_prob(ex, None, {"probabilities": sc}),
    E.regression_signature_fn(ex, None, pr), E.logistic_regression_signature_fn(ex, None, probs))])
report_errors("signature_fn_errors", (("none", lambda: E.regression_signature_fn(None, None, pr)),))

# ExportStrategy and the strategy makers
calls = []
def fn_a(estimator, export_path):
    calls.append(["a", export_path]); return "A"
def fn_b(estimator, export_path, checkpoint_path, eval_result, strip_default_attrs):
    calls.append(["b", export_path, checkpoint_path, eval_result, strip_default_attrs]); return "B"
def fn_bad(estimator, export_path, eval_result):
    return "bad"
report("strategy", [L.ExportStrategy("n", fn_a).export(None, "p", "c", {"loss": 1}),
                    L.ExportStrategy("m", fn_b, True).export(None, "p", "c", {"loss": 1}), calls,
                    list(L.ExportStrategy("n", fn_a)._fields)])
report_errors("strategy_errors", (("eval_without_ckpt", lambda: L.ExportStrategy("x", fn_bad).export(None, "p")),))
st = L.make_export_strategy(lambda: None, exports_to_keep=2)
best = SM.make_best_model_export_strategy(lambda: None)
ext = SM.extend_export_strategy(st, lambda a, b: b, "post")
report("strategy_names", [st.name, st.strip_default_attrs, best.name, ext.name, U.make_export_strategy(None).name])
sel = SM.BestModelSelector()
report("selector", [sel.update("c1", {"loss": 2.0}), sel.update("c2", {"loss": 3.0}), sel.update("c3", {"loss": 1.0})])
report_errors("selector_errors", (("empty_path", lambda: sel.update("", {"loss": 1.0})),
                                  ("no_result", lambda: sel.update("c", None)),
                                  ("no_loss", lambda: sel.update("c", {"acc": 1.0}))))

# graph_actions on a one-variable regression (a fresh graph per action: TF 1.15's Supervisor finalizes it)
def regression():
    g = tf.Graph()
    with g.as_default():
        gs = tf.train.create_global_step()
        w = tf.get_variable("w", [], initializer=tf.constant_initializer(1.0))
        x = tf.placeholder_with_default(2.0, [], name="x")
        loss = tf.square(w * x - 3.0)
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=gs)
    return g, w, x, loss, train_op
g, w, x, loss, train_op = regression()
capture = L.monitors.CaptureVariable("w:0", every_n=1)
out = os.path.join(tmp, "train")
final_loss = L.train(g, out, train_op, loss, steps=3, monitors=[capture, L.monitors.LoggingTrainable(every_n=2)],
                     supervisor_save_model_secs=10000)
report("train", [final_loss, sorted(capture.values.items()), tf.train.load_variable(out, "global_step"),
                 tf.train.load_variable(out, "w")])
g, w, x, loss, train_op = regression()
capture = L.monitors.CaptureVariable("w:0", every_n=1)
report("train_more", [L.graph_actions.train(g, out, train_op, loss, max_steps=5, monitors=[capture],
                                            supervisor_save_model_secs=10000), sorted(capture.values.items())])
ckpt = tf.train.latest_checkpoint(out)
report("checkpoint_name", os.path.basename(ckpt))
g, w, x, loss, train_op = regression()
results, step = L.evaluate(g, os.path.join(tmp, "eval"), ckpt, {"loss": loss, "w": w}, max_steps=2)
report("evaluate", [results, step])
g, w, x, loss, train_op = regression()
report_errors("train_errors", (
    ("both_steps", lambda: L.train(g, out, train_op, loss, steps=1, max_steps=2)),
    ("no_dir", lambda: L.train(g, "", train_op, loss)),
    ("no_train_op", lambda: L.train(g, out, None, loss)),
    ("eval_no_dir", lambda: L.evaluate(g, "", ckpt, {"loss": loss}))))
report("infer", L.infer(ckpt, {"w": w, "loss": loss}))
y = loss
report("run_n", L.run_n({"y": y}, feed_dict={x: 2.5}, restore_checkpoint_path=ckpt, n=2))
report("run_feeds", L.graph_actions.run_feeds({"y": y}, [{x: 1.0}, {x: 3.0}]))
report("run_feeds_iter", list(L.graph_actions.run_feeds_iter({"y": y}, [{x: 4.0}], ckpt)))
report_errors("run_feeds_errors", (("no_output", lambda: L.run_feeds({}, [{x: 1.0}])),
                                   ("no_feeds", lambda: L.run_feeds({"y": y}, []))))
report("summary_writer", [L.graph_actions.get_summary_writer(out) is L.graph_actions.get_summary_writer(out),
                          L.graph_actions.clear_summary_writers()])

# interfaces and TaskType
report("interfaces", [isinstance(L.Estimator(model_fn=lambda features, labels: None), L.Evaluable),
                      isinstance(L.Estimator(model_fn=lambda features, labels: None), L.Trainable),
                      L.TaskType.MASTER, L.TaskType.PS, L.TaskType.WORKER])
report_errors("abstract", (("evaluable", lambda: L.Evaluable()), ("trainable", lambda: L.Trainable())))

# datasets
db = L.datasets.text_datasets.load_dbpedia(test_with_fake_data=True)
report("dbpedia", [db.train.data, db.train.target, db.test.data, db.test.target, db.validation])
csv_path = os.path.join(tmp, "rows.csv")
with open(csv_path, "w") as f:
    f.write("".join("%d,a%d\n" % (i, i) for i in range(7)))
L.datasets.base.shrink_csv(csv_path, 3)
with open(os.path.join(tmp, "rows_small.csv")) as f:
    report("shrink_csv", f.read())
attempts = []
@L.datasets.base.retry(initial_delay=0.001, max_delay=0.004)
def flaky():
    attempts.append(1)
    if len(attempts) < 3:
        raise IOError("no")
    return len(attempts)
report("retry", flaky())
report_errors("retry_errors", (("factor", lambda: L.datasets.base.retry(1, 2, factor=0.5)),
                               ("jitter", lambda: L.datasets.base.retry(1, 2, jitter=1.0))))

# models
with tf.Graph().as_default():
    inputs = [tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3) / (t + 1.0)) for t in range(3)]
    cell = tf.contrib.rnn.BasicRNNCell
    outs, state = L.models.bidirectional_rnn(cell(2), cell(3), inputs, dtype=tf.float32)
    model = L.models.get_rnn_model(4, "gru", 1, lambda x: tf.unstack(x, axis=1), False,
                                   L.models.linear_regression, None, None, None, None, None)
    with tf.variable_scope("rnn_model"):
        pred, mloss = model(tf.constant(np.ones((2, 3, 2), np.float32)), tf.constant([[1.0], [2.0]]))
    report_variables("model_variables")
    report_errors("model_errors", (("not_cell", lambda: L.models.bidirectional_rnn(1, cell(2), inputs)),
                                   ("not_list", lambda: L.models.bidirectional_rnn(cell(2), cell(2), inputs[0]))))
    with tf.Session() as sess:
        init_from_numpy(sess, seed=3)
        report("models", sess.run({"outs": outs, "state": state, "pred": pred, "loss": mloss}))

# preprocessing
proc = L.preprocessing.CategoricalProcessor()
report("categorical", [list(r) for r in proc.fit_transform([["a", "x"], ["b", "x"], ["a", float("nan")]])])
report("categorical_unknown", [list(r) for r in proc.transform([["c", "x"]])])
shared = L.preprocessing.categorical.CategoricalProcessor(share=True, min_frequency=1)
report("categorical_shared", [list(r) for r in shared.fit_transform([["a", "b"], ["b", "c"], ["c", "c"]])])
'''


@requires_tf115
def test_learn_export_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)

"""tf.contrib.learn.monitors against TF 1.15: every monitor's callbacks, what it logs, writes, saves and exports.

Compared: the EveryN / BaseMonitor call protocol driven by hand (active steps with first_n / every_n / max_steps,
the end's every_n_post_step) and its errors; StopAtStep, PrintTensor (its log lines), SummarySaver (the steps it
writes), StepCounter, CheckpointSaver (checkpoints and session logs), NanLoss (raising NanLossDuringTrainingError
or only stopping) run by RunHookAdapterForMonitors, their class tree and errors; GraphDump's fetched tensors and
compare; then on a small contrib.learn Estimator: the steps each callback of an EveryN and of a BaseMonitor sees
over two fits (the step resumes from the checkpoint), PrintTensor's and LoggingTrainable's log lines,
StepCounter's events in the model directory, ExportMonitor's exports (folders, last_export_dir), and
ValidationMonitor's early stopping: the exact step training stops at (every_n_steps 1 and 3, the metric minimized
and maximized), best_step / best_value / best_metrics, its "Validation (step N)" and "Stopping." log lines, and a
run that trains to the end; replace_monitors_with_hooks.
"""

from harness import assert_same, requires_tf115, run_both

_M = "tf.contrib.learn.monitors"
ORACLE_TESTED = (_M, "tf.contrib.learn.NanLossDuringTrainingError") + tuple(_M + "." + n for n in (
    "BaseMonitor", "EveryN", "CaptureVariable", "LoggingTrainable", "GraphDump", "get_default_monitors",
    "ExportMonitor", "CheckpointSaver", "NanLoss", "NanLossDuringTrainingError", "PrintTensor",
    "RunHookAdapterForMonitors", "StepCounter", "StopAtStep", "SummarySaver", "ValidationMonitor",
    "replace_monitors_with_hooks"))

SNIPPET = r'''
import logging
import os
import re
import numpy as np
import tensorflow as tf
learn = tf.contrib.learn
L = learn
M = learn.monitors
root = os.path.abspath("monitors")
os.makedirs(root)
tmp = root

PREFIXES = ("Step ", "Logging Trainable", "Validation (step", "Stopping.")
_records = []
class Capture(logging.Handler):
    def emit(self, record):
        message = record.getMessage()
        if message.startswith(PREFIXES):
            # numbers rounded: the two TensorFlows' float32 sums may differ in the last bits
            _records.append(re.sub(r"-?\d+\.\d+(e-?\d+)?", lambda m: "%.4g" % float(m.group(0)), message))
capture_handler = Capture()
def logged():
    del _records[:]
    logging.getLogger("tensorflow").addHandler(capture_handler)
    tf.logging.set_verbosity(tf.logging.INFO)
    return _records
def stop_logging():
    logging.getLogger("tensorflow").removeHandler(capture_handler)
    tf.logging.set_verbosity(tf.logging.ERROR)
tf.logging.set_verbosity(tf.logging.ERROR)

# the monitor protocol
class Recorder(L.monitors.EveryN):
    def __init__(self):
        super(Recorder, self).__init__(every_n_steps=3, first_n_steps=2)
        self.log = []
    def every_n_step_begin(self, step):
        self.log.append(["begin", step]); return []
    def every_n_step_end(self, step, outputs):
        self.log.append(["end", step]); return step == 9
    def every_n_post_step(self, step, session):
        self.log.append(["post", step])
rec = Recorder()
rec.begin(max_steps=10)
stops = []
for s in range(1, 11):
    rec.step_begin(s)
    stops.append(rec.step_end(s, {}))
    rec.post_step(s, None)
rec.end()
report("every_n", [rec.log, stops])
base = L.monitors.BaseMonitor()
base.begin()
report_errors("monitor_errors", (
    ("begin_twice", lambda: base.begin()), ("bad_step", lambda: base.step_begin(-1)),
    ("step_end_mismatch", lambda: base.step_end(5, {})), ("epoch_negative", lambda: base.epoch_begin(-1)),
    ("no_estimator", lambda: base.set_estimator(None))))
base.end()
report_errors("monitor_end_twice", (("end", lambda: base.end()),))
loss = tf.constant(0.0, name="some_loss")
report("default_monitors", [len(L.monitors.get_default_monitors()),
                            len(L.monitors.get_default_monitors(loss_op=loss, summary_op=tf.constant(""),
                                                                output_dir=tmp))])
em = L.monitors.ExportMonitor(every_n_steps=5, export_dir="exports", exports_to_keep=2)
report("export_monitor", [em.export_dir, em.exports_to_keep, em.signature_fn, em.last_export_dir,
                          L.monitors.GraphDump().data, L.monitors.GraphDump.IGNORE_OPS,
                          base.run_on_all_workers])


# -- the monitors, run by RunHookAdapterForMonitors in a MonitoredSession ------------------------------------
records = logged()

def events(folder):
    found = []
    for name in sorted(os.listdir(folder)):
        if "tfevents" in name:
            for event in tf.train.summary_iterator(os.path.join(folder, name)):
                if event.HasField("summary"):
                    found.append([int(event.step), [v.tag for v in event.summary.value]])
                elif event.HasField("session_log"):
                    found.append([int(event.step), "session_log", event.session_log.status])
    return found

with tf.Graph().as_default():
    gs = tf.train.create_global_step()
    x = tf.placeholder(tf.float32, [])
    loss = tf.identity(x * 2.0, name="loss")
    step_op = tf.assign_add(gs, 1)
    summary = tf.summary.scalar("loss_summary", loss)
    monitors = [M.NanLoss(loss, every_n_steps=1), M.PrintTensor({"twice": "loss:0"}, every_n=2, first_n=1),
                M.StopAtStep(num_steps=4), M.SummarySaver(summary, save_steps=2, output_dir=os.path.join(root, "ss")),
                M.StepCounter(every_n_steps=1, output_dir=os.path.join(root, "sc")),
                M.CheckpointSaver(os.path.join(root, "ckpt"), save_steps=2, saver=tf.train.Saver())]
    adapter = M.RunHookAdapterForMonitors(monitors)
    ran = []
    with tf.train.SingularMonitoredSession(hooks=[adapter]) as sess:
        while not sess.should_stop():
            ran.append(sess.run(step_op, feed_dict={x: float(len(ran) + 1)}))
    tf.summary.FileWriterCache.clear()
    report("adapter_steps", ran)
    report("print_tensor", records)
    report("summary_saver_events", events(os.path.join(root, "ss")))
    report("step_counter_events", [[step, tags] for step, tags in events(os.path.join(root, "sc"))])
    state = tf.train.get_checkpoint_state(os.path.join(root, "ckpt"))
    report("checkpoint_saver", [os.path.basename(p) for p in state.all_model_checkpoint_paths])
    report("checkpoint_saver_events", events(os.path.join(root, "ckpt")))
    # NaN: the monitor raises (or only stops), at the step it checks
    for fail in (True, False):
        seen = []
        try:
            with tf.train.SingularMonitoredSession(
                    hooks=[M.RunHookAdapterForMonitors([M.NanLoss("loss:0", every_n_steps=2, fail_on_nan_loss=fail)])]) as sess:
                while not sess.should_stop() and len(seen) < 6:
                    seen.append(sess.run(step_op, feed_dict={x: float("nan") if len(seen) >= 1 else 1.0}))
            report("nan_loss_%s" % fail, seen)
        except Exception as e:
            report("nan_loss_%s" % fail, [seen, type(e).__name__, str(e),
                                          isinstance(e, learn.NanLossDuringTrainingError),
                                          learn.NanLossDuringTrainingError is M.NanLossDuringTrainingError])
    with tf.train.SingularMonitoredSession(hooks=[M.RunHookAdapterForMonitors([M.StopAtStep(last_step=13)])]) as sess:
        last = []
        while not sess.should_stop():
            last.append(sess.run(step_op, feed_dict={x: 1.0}))
    report("stop_at_last_step", last)
stop_logging()
report("monitor_classes", [[issubclass(getattr(M, n), M.BaseMonitor), issubclass(getattr(M, n), M.EveryN)]
                           for n in ("StopAtStep", "PrintTensor", "SummarySaver", "CheckpointSaver", "StepCounter",
                                     "NanLoss")])
report("monitor_props", [M.StopAtStep(1).run_on_all_workers, M.NanLoss(None).run_on_all_workers])
report_errors("monitor_constructor_errors", [
    ("stop_neither", lambda: M.StopAtStep()), ("stop_both", lambda: M.StopAtStep(1, 2)),
    ("checkpoint_neither", lambda: M.CheckpointSaver(root)), ("checkpoint_both", lambda: M.CheckpointSaver(root, 1, 1)),
    ("validation_no_input", lambda: M.ValidationMonitor()),
])


# GraphDump: the first output of each op (but the ignored kinds), keyed by tensor (compare reads only names)
with tf.Graph().as_default():
    gs = tf.train.create_global_step()
    x = tf.placeholder(tf.float32, [], name="x")
    y = tf.multiply(x, 3.0, name="y")
    z = tf.add(y, 1.0, name="z")
    step_op = tf.assign_add(gs, 1, name="step")
    dumps = [M.GraphDump(), M.GraphDump(ignore_ops=["Const", "Placeholder"])]
    with tf.train.SingularMonitoredSession(hooks=[M.RunHookAdapterForMonitors(dumps)]) as sess:
        for value in (1.0, 2.0):
            sess.run([step_op, z], feed_dict={x: value})
    # (which steps: the global step read in the run that increments it may be either value, so only the names)
    report("graph_dump", [sorted({t.name for s in d.data for t in d.data[s]}) for d in dumps])
    last = dumps[0].data[max(dumps[0].data)]
    report("graph_dump_values", sorted((t.name, v) for t, v in last.items() if t.name in ("y:0", "z:0")))
    report("graph_dump_compare", [list(dumps[0].compare(dumps[1], 1)), list(dumps[0].compare(dumps[1], 7))])

# -- on a contrib.learn Estimator -------------------------------------------------------------------------
xs = np.array([[1.0, 2.0], [0.5, -1.0], [-1.5, 0.25], [2.0, 1.0]], np.float32)
ys = np.array([1.0, 0.0, -1.0, 2.0], np.float32)

def make_model_fn(rate):
    def model_fn(features, labels, mode):
        w = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer(0.5))
        pred = tf.squeeze(tf.matmul(features["x"], w), 1)
        loss = None
        train_op = None
        if labels is not None:
            loss = tf.identity(tf.losses.mean_squared_error(labels, pred), name="the_loss")
        if mode == learn.ModeKeys.TRAIN:
            train_op = tf.train.GradientDescentOptimizer(rate).minimize(loss, global_step=tf.train.get_global_step())
        return learn.ModelFnOps(mode=mode, predictions={"y": pred}, loss=loss, train_op=train_op)
    return model_fn

def input_fn():
    return {"x": tf.constant(xs)}, tf.constant(ys)

def estimator(name, rate=0.1):
    return learn.Estimator(model_fn=make_model_fn(rate), model_dir=os.path.join(root, name),
                           config=learn.RunConfig(save_checkpoints_steps=1, save_checkpoints_secs=None))

class Recorder(M.EveryN):
    def __init__(self):
        super(Recorder, self).__init__(every_n_steps=2, first_n_steps=1)
        self.log = []
    def begin(self, max_steps=None):
        super(Recorder, self).begin(max_steps)
        self.log.append(["begin", max_steps])
    def every_n_step_begin(self, step):
        self.log.append(["every_n_step_begin", step])
        return ["the_loss:0"]
    def every_n_step_end(self, step, outputs):
        self.log.append(["every_n_step_end", step, sorted(outputs)])
        return False
    def every_n_post_step(self, step, session):
        self.log.append(["every_n_post_step", step, session is not None])
    def end(self, session=None):
        super(Recorder, self).end(session)
        self.log.append(["end", session is not None])

class Plain(M.BaseMonitor):
    def __init__(self):
        super(Plain, self).__init__()
        self.log = []
    def set_estimator(self, estimator):
        super(Plain, self).set_estimator(estimator)
        self.log.append(["set_estimator", type(estimator).__name__])
    def step_begin(self, step):
        self.log.append(["step_begin", step])
        return super(Plain, self).step_begin(step)
    def step_end(self, step, output):
        self.log.append(["step_end", step, output])
        return super(Plain, self).step_end(step, output)
    def post_step(self, step, session):
        self.log.append(["post_step", step])

est = estimator("callbacks")
recorder, plain = Recorder(), Plain()
records = logged()
est.fit(input_fn=input_fn, steps=5, monitors=[recorder, plain, M.PrintTensor({"loss": "the_loss:0"}, every_n=2),
                                             M.LoggingTrainable(every_n=3), M.StepCounter(every_n_steps=2)])
est.fit(input_fn=input_fn, steps=3, monitors=[recorder, plain])
stop_logging()
report("callbacks", [recorder.log, plain.log])
report("fit_logs", list(records))
report("step_counter_in_model_dir", [e for e in events(os.path.join(root, "callbacks"))
                                     if e[1] == ["global_step/sec"]])

# ExportMonitor: an export per active step and at the end, named by the checkpoint's step
def serving_input_fn():  # not the deprecated (estimator, examples) form: ExportMonitor calls it without arguments
    examples = tf.placeholder(tf.string, [None], name="input_example_tensor")
    features = tf.parse_example(examples, {"x": tf.FixedLenFeature([2], tf.float32)})
    features["examples"] = examples
    return features, None
exporter = M.ExportMonitor(every_n_steps=2, export_dir=os.path.join(root, "exports"), input_fn=serving_input_fn,
                           input_feature_key="examples", signature_fn=learn.utils.export.generic_signature_fn,
                           exports_to_keep=10)
est = estimator("exporting")
est.fit(input_fn=input_fn, steps=4, monitors=[exporter])
report("export_monitor_run", [sorted(os.listdir(os.path.join(root, "exports"))),
                              os.path.basename(str(exporter.last_export_dir).rstrip("/'"))])

# ValidationMonitor: where early stopping stops
def validate(name, rate, steps, **kwargs):
    est = estimator(name, rate)
    monitor = M.ValidationMonitor(input_fn=input_fn, eval_steps=1, check_interval_secs=0, **kwargs)
    records = logged()
    est.fit(input_fn=input_fn, steps=steps, monitors=[monitor])
    stop_logging()
    report("validation_" + name, {
        "stopped_at": est.get_variable_value("global_step"), "best_step": monitor.best_step,
        "best_value": monitor.best_value, "early_stopped": monitor.early_stopped,
        "best_metrics": {k: v for k, v in (monitor.best_metrics or {}).items()},
        "logs": [r for r in records if r.startswith(("Validation", "Stopping"))]})
validate("ascent", -0.05, 40, every_n_steps=1, early_stopping_rounds=3)
validate("every_3", -0.05, 40, every_n_steps=3, early_stopping_rounds=4)
validate("maximize", 0.05, 40, every_n_steps=2, early_stopping_rounds=3, early_stopping_metric_minimize=False)
validate("improving", 0.05, 6, every_n_steps=1, early_stopping_rounds=3)
validate("no_early_stopping", -0.05, 4, every_n_steps=2)
# StopAtStep and a ValidationMonitor evaluating every step's new checkpoint
est = estimator("stop_at_step")
validation = M.ValidationMonitor(input_fn=input_fn, eval_steps=1, every_n_steps=1, early_stopping_rounds=2,
                                 check_interval_secs=0)
est.fit(input_fn=input_fn, monitors=[M.StopAtStep(num_steps=3), validation])
report("fit_stopped", est.get_variable_value("global_step"))
report("validation", [validation.best_step, validation.best_value, validation.early_stopped,
                      sorted(validation.best_metrics) if validation.best_metrics else None])
hooks = M.replace_monitors_with_hooks([M.StopAtStep(last_step=5), tf.train.StopAtStepHook(last_step=5),
                                       M.NanLoss("loss:0")], est)
report("replaced", [type(h).__name__ for h in hooks])
report("replaced_none", M.replace_monitors_with_hooks(None, est))
'''


@requires_tf115
def test_monitors_match_tf115():
  tf115, ours = run_both(SNIPPET, timeout=240)
  assert tf115["print_tensor"] == ["Step 1: twice = 2", "Step 3: twice = 6"]
  assert tf115["validation_ascent"]["early_stopped"]
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)

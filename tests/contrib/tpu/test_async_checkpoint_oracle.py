"""tf.contrib.tpu.AsyncCheckpointSaverHook against TF 1.15: a MonitoredSession trains five steps with the hook
saving every two steps on its thread. Compared: the last checkpoint (written synchronously at the end: its step,
its keys and values), that the starting step and the last step were saved, the listener's begin / end calls and
the steps it was told about, graph.pbtxt, the checkpoint events in the events file, a restart that resumes from
the last checkpoint, and the constructor's errors. Which intermediate steps get a checkpoint depends on the
saving thread's timing (a save still running is skipped), in TF 1.15 as here, so only its bounds are compared."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.tpu.AsyncCheckpointSaverHook",)

SNIPPET = r'''
import glob
import os
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
model_dir = os.path.abspath("model")

class Listener(tf.train.CheckpointSaverListener):
    def __init__(self):
        self.calls = []
    def begin(self):
        self.calls.append(["begin"])
    def before_save(self, session, step):
        self.calls.append(["before_save", int(step)])
    def after_save(self, session, step):
        self.calls.append(["after_save", int(step)])
    def end(self, session, step):
        self.calls.append(["end", int(step)])

def train(steps):
    graph = tf.Graph()
    with graph.as_default():
        gs = tf.train.get_or_create_global_step()
        w = tf.get_variable("w", initializer=tf.constant([1.0, -2.0]))
        loss = tf.reduce_sum(tf.square(w - tf.constant([3.0, 1.0])))
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=gs)
        listener = Listener()
        hook = tf.contrib.tpu.AsyncCheckpointSaverHook(model_dir, save_steps=2, listeners=[listener])
        with tf.train.MonitoredSession(
                session_creator=tf.train.ChiefSessionCreator(checkpoint_dir=model_dir), hooks=[hook]) as sess:
            for _ in range(steps):
                sess.run(train_op)
    return listener.calls

calls = train(5)
report("first_listener", [calls[0], calls[-1]])
saved = sorted({c[1] for c in calls if c[0] == "after_save"})
report("first_saved_bounds", [saved[0], saved[-1], set(saved) <= {0, 2, 4, 5}])
last = tf.train.latest_checkpoint(model_dir)
report("last_checkpoint", [os.path.basename(last), {k: tf.train.load_variable(last, k)
                                                    for k, _ in tf.train.list_variables(last)}])
report("graph_written", os.path.exists(os.path.join(model_dir, "graph.pbtxt")))
tf.summary.FileWriterCache.get(model_dir).flush()  # the hook's writer (cached per folder) stays open
events = []
for path in sorted(glob.glob(os.path.join(model_dir, "events.out.tfevents.*"))):
    for event in tf.train.summary_iterator(path):
        if event.HasField("session_log") and event.session_log.status == event.session_log.CHECKPOINT:
            events.append(int(event.step))
report("checkpoint_events", [events[0], events[-1], sorted(set(events)) == saved])
calls = train(2)  # resumes at step 5: saves 5 at the start, then 6 and 7
saved = sorted({c[1] for c in calls if c[0] == "after_save"})
report("second", [calls[0], calls[-1], saved[0], saved[-1]])
last = tf.train.latest_checkpoint(model_dir)
report("second_checkpoint", [os.path.basename(last), tf.train.load_variable(last, "w")])
with case("saver_and_scaffold"):
    tf.contrib.tpu.AsyncCheckpointSaverHook(model_dir, save_steps=1, saver=object(), scaffold=object())
with case("steps_and_secs"):
    tf.contrib.tpu.AsyncCheckpointSaverHook(model_dir, save_steps=1, save_secs=1)
with case("neither"):
    tf.contrib.tpu.AsyncCheckpointSaverHook(model_dir)
'''


@requires_tf115
def test_async_checkpoint_saver_hook_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["first_saved_bounds"] == [0, 5, True]
  assert tf115["second"][2:] == [5, 7]
  assert tf115["saver_and_scaffold:error"] == tf115["steps_and_secs:error"] == "ValueError"
  assert_same(tf115, ours)

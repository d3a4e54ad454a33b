"""tf.contrib.summary.create_db_writer against TF 1.15: a graph-mode script writes scalars and a tensor for three
global steps into an SQLite database, and the database holds the same rows on both sides (its tables, the user,
experiment and run, the tags with their plugins, each step's values); a user name TF 1.15 refused is refused."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.summary.create_db_writer",)

SNIPPET = r'''
import os
import sqlite3
import numpy as np
import tensorflow as tf
db = os.path.abspath("summaries.sqlite")
gs = tf.train.get_or_create_global_step()
writer = tf.contrib.summary.create_db_writer(db, experiment_name="exp", run_name="run 1", user_name="alice")
with writer.as_default(), tf.contrib.summary.always_record_summaries():
    tf.contrib.summary.scalar("loss", tf.cast(gs, tf.float32) * 0.5 + 1.0)
    tf.contrib.summary.scalar("lr", tf.constant(0.25, tf.float64), family="train")
    tf.contrib.summary.generic("weights", tf.constant([[1.0, 2.0], [3.0, 4.0]]) * tf.cast(gs, tf.float32))
increment = tf.assign_add(gs, 1)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(tf.contrib.summary.summary_writer_initializer_op())
    for _ in range(3):
        sess.run(tf.contrib.summary.all_summary_ops())
        sess.run(increment)
    sess.run(writer.flush())

with case("bad_user_name"):
    tf.contrib.summary.create_db_writer(db, user_name="not a user name!")

conn = sqlite3.connect(db)
def rows(sql):
    return [list(r) for r in conn.execute(sql).fetchall()]
report("tables", rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"))
report("users", rows("SELECT user_name FROM Users"))
report("experiments", rows("SELECT experiment_name FROM Experiments"))
report("runs", rows("SELECT run_name FROM Runs"))
report("tags", rows("SELECT tag_name, display_name, plugin_name FROM Tags ORDER BY tag_name"))
values = rows("SELECT Tags.tag_name, Tensors.step, Tensors.dtype, Tensors.shape, Tensors.data FROM Tensors "
              "JOIN Tags ON Tensors.series = Tags.tag_id WHERE Tensors.step IS NOT NULL "  # (the writer reserves empty rows)
              "ORDER BY Tags.tag_name, Tensors.step")
report("values", [[tag, step, dtype, shape, data.hex() if isinstance(data, bytes) else data]
                  for tag, step, dtype, shape, data in values])
'''


@requires_tf115
def test_db_writer_fills_the_database_as_tf115_does():
  tf115, ours = run_both(SNIPPET)
  assert tf115["bad_user_name:error"] == "ValueError"
  assert len(tf115["values"]) == 9
  assert_same(tf115, ours)

"""Repeated rows of a sparse gradient: `repeated_rows="as_listed"` and stage 2's rewrites give TF 1.15's numbers.

An embedding row looked up twice in one batch appears twice in its `IndexedSlices` gradient. TF 1.15's clipping
measured (and clipped) each listed row as listed; tf1clip's default, "summed", measures the gradient as it is
applied. Two comparisons against TF 1.15 itself:

- SNIPPET: the clipping functions, the transforms and `clip_gradients_by_norm` with `repeated_rows="as_listed"`
  on the tf1clip side, TF 1.15's own functions on the other, on slices with repeated indices; and TF 1.15's
  `tf.contrib.estimator.clip_gradients_by_norm` (served from contrib/estimator/python/estimator/extenders.py).
- PROGRAM: a TF1 script with every gradient form `tf1clip upgrade --stage 2` rewrites (tf.clip_by_global_norm over
  tf.gradients or over compute_gradients, per-gradient tf.clip_by_norm / tf.clip_by_value, the
  tf.contrib.estimator wrapper), all on an embedding with repeated ids: TF 1.15 runs the script as written, plain
  `python` runs its stage-2 copy; every weight after three steps must agree. The first block is a one-step toy
  like issue #37's (there TF 1.15.5 gave row 1 = [0.2480 0.3306 0.4133], the summing rewrite [0.2632 0.3510
  0.4387]): its row 1 is compared after one step too.
"""

import json
import os
import subprocess
import sys
import tempfile
import threading

import numpy as np

import harness
from harness import assert_same, requires_tf115, run_both, run_tf115
from tf1clip.tools import upgrade

ORACLE_TESTED = ("tf.contrib.estimator.clip_gradients_by_norm",)

SNIPPET = r'''
import numpy as np
import tensorflow as tf
try:
    import tf1clip as C          # only under tf1clip run
except ImportError:
    C = None
clip = C if C is not None else tf
rows = {"repeated_rows": "as_listed"} if C is not None else {}

rng = np.random.RandomState(0)
values = tf.constant(rng.standard_normal([5, 3]).astype(np.float32))
sparse = tf.IndexedSlices(values, tf.constant([1, 1, 3, 1, 0]), tf.constant([4, 3]))
dense = tf.constant(rng.standard_normal([2, 2]).astype(np.float32))
clipped, norm = clip.clip_by_global_norm([sparse, None, dense], 1.5, **rows)
by_norm = clip.clip_by_norm(sparse, 0.7, **rows)
by_norm_axes = clip.clip_by_norm(sparse, 0.4, axes=[1], **rows)
by_value = clip.clip_by_value(sparse, -0.3, 0.2, **rows)
results = {
    "global_values": clipped[0].values, "global_indices": clipped[0].indices, "global_dense": clipped[2],
    "global_as_dense": tf.convert_to_tensor(clipped[0]), "global_norm": norm,
    "global_norm_fn": clip.global_norm([sparse, dense], **rows),
    "by_norm_values": by_norm.values, "by_norm_as_dense": tf.convert_to_tensor(by_norm),
    "by_norm_axes_values": by_norm_axes.values,
    "by_value_values": by_value.values, "by_value_as_dense": tf.convert_to_tensor(by_value),
}
if C is not None:  # the transforms: the same numbers through a (gradient, variable) list
    holder = tf.Variable(tf.zeros([4, 3]), name="holder", trainable=False)
    dense_holder = tf.Variable(tf.zeros([2, 2]), name="dense_holder", trainable=False)
    for key, transform in (("global", C.transforms.clip_by_global_norm(1.5, **rows)),
                           ("by_norm_values", C.transforms.clip_by_norm(0.7, **rows)),
                           ("by_value_values", C.transforms.clip_by_value(-0.3, 0.2, **rows))):
        out = transform([(sparse, holder), (dense, dense_holder)])[0][0]
        results["transform_" + key] = out.values
else:
    results["transform_global"] = clipped[0].values
    results["transform_by_norm_values"] = by_norm.values
    results["transform_by_value_values"] = by_value.values

# Training through the optimizer wrappers: an embedding looked up with repeated ids.
ids = tf.constant([2, 0, 2, 2, 1])
def model(scope):
    with tf.variable_scope(scope):
        emb = tf.get_variable("emb", [3, 4])
        w = tf.get_variable("w", [4, 1])
        return tf.reduce_sum(tf.square(tf.matmul(tf.nn.embedding_lookup(emb, ids), w) - 2.0))
loss1 = model("contrib")
train1 = tf.contrib.estimator.clip_gradients_by_norm(tf.train.AdagradOptimizer(0.3), 0.5).minimize(loss1)
loss2 = model("wrapper")
if C is not None:
    opt2 = C.clip_gradients_by_norm(tf.train.AdagradOptimizer(0.3), 0.5, **rows)
else:
    opt2 = tf.contrib.estimator.clip_gradients_by_norm(tf.train.AdagradOptimizer(0.3), 0.5)
train2 = opt2.minimize(loss2)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    init_from_numpy(sess, seed=4, var_list=tf.trainable_variables())
    for k, v in sorted(sess.run(results).items()):
        report(k, v)
    for step in range(3):
        report("losses_%d" % step, sess.run([loss1, loss2, train1, train2])[:2])
    report("weights", {v.op.name: sess.run(v) for v in tf.trainable_variables()})
'''

# Every gradient form stage 2 rewrites, each on its own copy of the model (an embedding with repeated ids).
PROGRAM = r'''
import numpy as np
import tensorflow as tf

ids = tf.constant([1, 1, 2, 1, 0])
targets = tf.constant([[1.0], [2.0], [0.5], [1.5], [1.0]])

def model(scope):
    with tf.variable_scope(scope):
        emb = tf.get_variable("emb", [4, 3])
        w = tf.get_variable("w", [3, 1])
        prediction = tf.matmul(tf.nn.embedding_lookup(emb, ids), w)
        return tf.reduce_sum(tf.square(prediction - targets)), [emb, w]

# the issue's toy: tf.clip_by_global_norm over tf.gradients, one SGD step
loss_a, tvars_a = model("global_gradients")
opt_a = tf.train.GradientDescentOptimizer(0.1)
grads_a, _ = tf.clip_by_global_norm(tf.gradients(loss_a, tvars_a), 0.5)
train_a = opt_a.apply_gradients(zip(grads_a, tvars_a))

loss_b = model("global_compute")[0]
opt_b = tf.train.AdamOptimizer(0.05)
raw_b, vars_b = zip(*opt_b.compute_gradients(loss_b))
clipped_b, _ = tf.clip_by_global_norm(raw_b, 0.5)
train_b = opt_b.apply_gradients(zip(clipped_b, vars_b))

loss_c, tvars_c = model("by_norm")
opt_c = tf.train.GradientDescentOptimizer(0.1)
gv_c = opt_c.compute_gradients(loss_c, var_list=tvars_c)
capped_c = [(tf.clip_by_norm(g, 0.3), v) for g, v in gv_c]
train_c = opt_c.apply_gradients(capped_c)

loss_d, tvars_d = model("by_value")
opt_d = tf.train.GradientDescentOptimizer(0.1)
gv_d = opt_d.compute_gradients(loss_d, var_list=tvars_d)
capped_d = [(tf.clip_by_value(g, -0.05, 0.05), v) for g, v in gv_d]
train_d = opt_d.apply_gradients(capped_d)

loss_e = model("contrib_estimator")[0]
opt_e = tf.contrib.estimator.clip_gradients_by_norm(tf.train.GradientDescentOptimizer(0.1), 0.5)
train_e = opt_e.minimize(loss_e)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    init_from_numpy(sess, seed=7, var_list=tf.trainable_variables())
    sess.run(train_a)
    report("toy_row_1", sess.run(tf.trainable_variables()[0])[1])
    for step in range(3):
        sess.run([train_b, train_c, train_d, train_e])
    report("weights", {v.op.name: sess.run(v) for v in tf.trainable_variables()})
'''


def _run_upgraded(source, folder):
  """Runs a stage-2 copy under plain `python` (as a user would), with the harness's environment."""
  path = os.path.join(folder, "upgraded.py")
  with open(path, "w") as f:
    f.write(source)
  out = os.path.join(folder, "result.json")
  env = harness._env(out, folder)  # pylint: disable=protected-access
  proc = subprocess.run([sys.executable, path], cwd=folder, env=env,
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
  if proc.returncode != 0:
    raise harness.SideFailed("python (stage 2 copy): exit %d; last output:\n%s" % (proc.returncode,
                                                                                 proc.stdout[-3000:]))
  with open(out) as f:
    return harness.Record("python", json.load(f), proc.stdout)


def _stage2_copy():
  with open(harness.PRELUDE) as f:
    prelude = f.read()
  return upgrade.upgrade_source(prelude + "\n" + PROGRAM, stage=2)


def test_stage_2_rewrites_every_form_of_the_program_with_as_listed():
  # What the oracle comparison below covers: each gradient form is rewritten, none left with a comment.
  source, changes = _stage2_copy()
  gradients = [c for c in changes if c.kind == "gradients"]
  assert len(gradients) == 4 and all(c.after is not None for c in gradients), gradients
  assert source.count('repeated_rows="as_listed"') == 4
  assert "tf1clip.contrib.estimator.clip_gradients_by_norm(" in source  # TF 1.15's wrapper, TF 1.15's numbers
  program = source[source.index("ids = tf.constant([1, 1, 2, 1, 0])"):]
  assert "tf.clip_by_" not in program.replace("# the issue's toy: tf.clip_by", "") and "apply_gradients" not in program


@requires_tf115
def test_clipping_with_repeated_rows_as_listed_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)


@requires_tf115
def test_stage_2_copy_of_a_program_with_repeated_ids_ends_with_tf115s_weights():
  source, _ = _stage2_copy()
  found = {}

  def oracle_side():
    try:
      found["tf115"] = run_tf115(PROGRAM)
    except harness.SideFailed as e:
      found["error"] = e

  with tempfile.TemporaryDirectory(prefix="stage2-oracle-") as folder:
    oracle = threading.Thread(target=oracle_side)
    oracle.start()
    ours = _run_upgraded(source, folder)
    oracle.join()
  if "error" in found:
    raise found["error"]
  tf115 = found["tf115"]
  np.testing.assert_allclose(tf115["toy_row_1"], ours["toy_row_1"], rtol=1e-5, atol=1e-6)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)


def test_summed_and_as_listed_differ_on_the_program_so_the_oracle_comparison_can_fail():
  # Run in this process (TF 2.21, tf.compat.v1 graph): the "summed" rewrite moves the toy's row 1.
  import tensorflow as tf  # pylint: disable=import-outside-toplevel
  import tf1clip  # pylint: disable=import-outside-toplevel
  results = {}
  for rows in ("as_listed", "summed"):
    with tf.Graph().as_default():
      emb = tf.compat.v1.get_variable("emb", initializer=np.arange(12, dtype=np.float32).reshape(4, 3) / 10)
      w = tf.compat.v1.get_variable("w", initializer=np.ones([3, 1], np.float32))
      prediction = tf.matmul(tf.nn.embedding_lookup(emb, tf.constant([1, 1, 2, 1, 0])), w)
      loss = tf.reduce_sum(tf.square(prediction - 1.0))
      train = tf1clip.clip_gradients_by_norm(
          tf.compat.v1.train.GradientDescentOptimizer(0.1), 0.5, repeated_rows=rows).minimize(loss)
      with tf.compat.v1.Session() as sess:
        sess.run(tf.compat.v1.global_variables_initializer())
        sess.run(train)
        results[rows] = sess.run(emb)[1]
  assert not np.allclose(results["as_listed"], results["summed"], rtol=1e-3)

"""tf1clip's gradient pipeline inside `tf.estimator.Estimator.train`: checkpoints resume exactly.

For clip_gradients_by_norm, WrappedOptimizer(skip_non_finite=True) and GradientAccumulationOptimizer,
one Estimator trains straight to `max_steps`; another stops half-way, and a new Estimator on the same
model_dir resumes from the checkpoint. Every checkpointed variable (weights, Adam slots, global_step,
the skip counter, the accumulators) must end up equal. The input repeats with a period that divides
the stopping point, so both runs see the same batches (a restarted input_fn starts from the top).
One subprocess (Estimator graphs in TF1 mode), all cases in it.
"""

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

DRIVER = textwrap.dedent("""
    import json, os, sys, tempfile
    import numpy as np
    import tf1clip
    import tf1clip.compat.v1 as tf

    rng = np.random.RandomState(0)
    x = rng.randn(2, 4, 3).astype(np.float32)  # two batches of 4 examples
    y = x.sum(axis=2, keepdims=True) + 1.0
    # p = 0 makes the gradient of sqrt(p * |w|^2) NaN (inf * 0) while the loss stays finite (the
    # Estimator's own NanTensorHook stops training on a NaN loss, whatever the optimizer does).
    p_ones = np.ones([2, 4, 1], np.float32)
    p_poison = p_ones.copy()
    p_poison[0] = 0.0  # batch 0's gradient is not finite

    def make_optimizer(case):
      adam = tf.train.AdamOptimizer(0.1)
      if case == "clip_gradients_by_norm":
        return tf.contrib.estimator.clip_gradients_by_norm(adam, 0.05)
      if case == "skip_non_finite":
        return tf1clip.WrappedOptimizer(adam, skip_non_finite=True)
      return tf1clip.GradientAccumulationOptimizer(adam, num_micro_batches=2)

    def model_fn(features, labels, mode, params):
      hidden = tf.layers.dense(features["x"], 5, activation=tf.tanh, name="hidden")
      prediction = tf.layers.dense(hidden, 1, name="out")
      (out_kernel,) = tf.trainable_variables("out/kernel")
      loss = tf.reduce_mean(tf.square(prediction - labels)) + 0.01 * tf.sqrt(
          tf.reduce_mean(features["p"]) * tf.reduce_sum(tf.square(out_kernel)))
      train_op = make_optimizer(params["case"]).minimize(loss, tf.train.get_global_step())
      return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)

    def input_fn(case):
      p = p_poison if case == "skip_non_finite" else p_ones
      return lambda: tf.data.Dataset.from_tensor_slices(({"x": x, "p": p}, y)).repeat()

    def train(case, model_dir, max_steps):
      config = tf.estimator.RunConfig(model_dir=model_dir, tf_random_seed=3,
                                      save_checkpoints_steps=100, log_step_count_steps=None)
      estimator = tf.estimator.Estimator(model_fn, config=config, params={"case": case})
      estimator.train(input_fn(case), max_steps=max_steps)
      reader = tf.train.load_checkpoint(model_dir)
      return {name: reader.get_tensor(name).tolist()
              for name, _ in tf.train.list_variables(model_dir)}

    tf.logging.set_verbosity(tf.logging.ERROR)
    results = {}
    for case in ("clip_gradients_by_norm", "skip_non_finite", "accumulation"):
      straight = train(case, tempfile.mkdtemp(), max_steps=4)
      resumed_dir = tempfile.mkdtemp()
      halfway = train(case, resumed_dir, max_steps=2)
      resumed = train(case, resumed_dir, max_steps=4)
      results[case] = {"straight": straight, "halfway": halfway, "resumed": resumed}
    print("RESULTS " + json.dumps(results))
""")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", PYTHONPATH=REPO)
  proc = subprocess.run([sys.executable, "-c", DRIVER], capture_output=True, text=True, env=env,
                        timeout=600, cwd=str(tmp_path_factory.mktemp("cwd")))
  assert proc.returncode == 0, proc.stderr[-4000:]
  (line,) = [l for l in proc.stdout.splitlines() if l.startswith("RESULTS ")]
  return json.loads(line[len("RESULTS "):])


def _assert_same_variables(a, b):
  assert sorted(a) == sorted(b)
  for name in a:
    np.testing.assert_allclose(a[name], b[name], rtol=1e-6, atol=1e-7, err_msg=name)


@pytest.mark.parametrize("case", ["clip_gradients_by_norm", "skip_non_finite", "accumulation"])
def test_resumed_estimator_training_equals_uninterrupted(results, case):
  run = results[case]
  _assert_same_variables(run["resumed"], run["straight"])
  assert run["straight"]["global_step"] == 4
  assert run["halfway"]["global_step"] == 2
  assert run["halfway"]["hidden/kernel"] != run["straight"]["hidden/kernel"]  # it did stop half-way


def test_inner_optimizer_owns_the_slots_under_its_names(results):
  for case in results:
    names = set(results[case]["straight"])
    assert {"hidden/kernel/Adam", "hidden/kernel/Adam_1", "beta1_power", "beta2_power"} <= names


def test_skip_counter_is_checkpointed_and_counts_every_nan_batch(results):
  run = results["skip_non_finite"]
  (counter,) = [name for name in run["straight"] if name.endswith("skipped_steps")]
  # Batches alternate non-finite, finite gradient: 4 applied updates skipped 4 batches, 2 before the stop.
  assert run["halfway"][counter] == 2
  assert run["straight"][counter] == run["resumed"][counter] == 4


def test_accumulation_max_steps_counts_applied_updates(results):
  run = results["accumulation"]
  # global_step counts applied updates (each = 2 micro-batches), so Adam's beta powers advanced 4 times.
  assert run["straight"]["beta1_power"] == pytest.approx(0.9 ** 5, rel=1e-6)
  accumulators = [name for name in run["straight"] if "GradientAccumulation" in name]
  assert accumulators, sorted(run["straight"])

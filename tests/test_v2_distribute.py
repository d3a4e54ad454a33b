"""tf1clip.v2 under tf.distribute.MirroredStrategy (two logical CPUs): equals one device.

Logical devices must be configured before TensorFlow runs any op, which the pytest process
may already have done, so the distributed runs happen in a subprocess: this file run as a
script (``python tests/test_v2_distribute.py``) trains every case on one device and on two
replicas and prints the results as JSON.
"""

import json
import os
import subprocess
import sys

import pytest

@pytest.fixture(scope="module")
def results():
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
  env.pop("TF_USE_LEGACY_KERAS", None)
  proc = subprocess.run([sys.executable, __file__], capture_output=True, text=True, env=env,
                        timeout=300, check=False)
  assert proc.returncode == 0, proc.stderr[-4000:]
  return json.loads(proc.stdout.strip().splitlines()[-1])


def test_clipping_under_mirrored_strategy_equals_one_device(results):
  assert results["clip"]["clipped"], "the clip norm must be small enough to clip"
  assert results["clip"]["max_difference"] <= 1e-6


def test_clipping_happens_after_the_cross_replica_reduction(results):
  # Keras' own global_clipnorm clips each replica's half gradient before the sum; ours clips
  # the sum. Same setting, same data: Keras' result is off, ours is not.
  assert results["keras_global_clipnorm"]["max_difference"] > 1e-3
  assert results["clip"]["max_difference"] <= 1e-6


def test_distributed_wrapper_works_eagerly_too(results):
  assert results["clip_eager"]["max_difference"] <= 1e-6


def test_distributed_non_finite_guard_skips_on_every_replica(results):
  case = results["skip_non_finite"]
  assert case["max_difference"] <= 1e-6
  assert case["skipped"] == [1, 1]  # one device, two replicas
  assert case["iterations"][0] == case["iterations"][1] == case["steps"] - 1


def test_distributed_accumulation_equals_one_device(results):
  case = results["accumulation"]
  assert case["max_difference"] <= 1e-6
  assert case["iterations"][0] == case["iterations"][1] == case["steps"] // 2


# --- the subprocess -----------------------------------------------------------------------


def _run_all():
  """Trains each case on one device and on a 2-replica MirroredStrategy; prints JSON."""
  import numpy as np  # pylint: disable=g-import-not-at-top
  import tensorflow as tf  # pylint: disable=g-import-not-at-top

  cpu = tf.config.list_physical_devices("CPU")[0]
  tf.config.set_logical_device_configuration(
      cpu, [tf.config.LogicalDeviceConfiguration()] * 2)

  import keras  # pylint: disable=g-import-not-at-top
  import tf1clip.v2  # pylint: disable=g-import-not-at-top
  from tf1clip import transforms  # pylint: disable=g-import-not-at-top
  from tf1clip.v2 import parity  # pylint: disable=g-import-not-at-top
  from tf1clip.v2 import parity_models  # pylint: disable=g-import-not-at-top

  # One strategy for every case: separate MirroredStrategy objects in one process reuse
  # collective instance keys and their all-reduces collide.
  strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
  model = parity_models.mlp(seed=1)
  steps, batch = 6, 8

  def batches(nan_step=None):
    out = []
    for s in range(steps):
      b = model.make_batch(s, batch)
      if s == nan_step:
        b["x"] = b["x"].copy()
        b["x"][0, 0] = np.nan
      out.append(b)
    return out

  def train(make_opt, strategy, data, use_function=True):
    scope = strategy.scope() if strategy else tf.distribute.get_strategy().scope()
    with scope:
      params = {k: tf.Variable(v) for k, v in model.initial_values.items()}
      var_list = list(params.values())
      opt = make_opt()
      opt.build(var_list)
    replicas = strategy.num_replicas_in_sync if strategy else 1

    def replica_step(b):
      def loss():  # mean over the global batch, as Keras asks of a replica's loss
        return model.loss_fn(params, b) / replicas
      if isinstance(opt, tf1clip.v2.WrappedOptimizer):
        return opt.minimize(loss, var_list)
      with tf.GradientTape() as tape:
        value = loss()
      opt.apply_gradients(zip(tape.gradient(value, var_list), var_list))
      return tf.constant(True)

    def step(b):
      return replica_step(b) if strategy is None else strategy.run(replica_step, args=(b,))

    def distribute(b):
      if strategy is None:
        return {k: tf.constant(v) for k, v in b.items()}
      shards = {k: np.split(v, replicas) for k, v in b.items()}
      return strategy.experimental_distribute_values_from_function(
          lambda ctx: {k: tf.constant(v[ctx.replica_id_in_sync_group])
                       for k, v in shards.items()})

    if use_function:
      step = tf.function(step)
    for b in data:
      step(distribute(b))
    weights = {k: v.numpy() for k, v in params.items()}
    skipped = getattr(opt, "skipped_steps", None)
    return weights, int(opt.iterations.numpy()), (None if skipped is None
                                                  else int(skipped.numpy()))

  def compare(make_opt, data=None, use_function=True):
    data = data or batches()
    single = train(make_opt, None, data, use_function)
    mirrored = train(make_opt, strategy, data, use_function)
    diff = max(parity.relative_difference(single[0][k], mirrored[0][k]) for k in single[0])
    return {"max_difference": diff, "iterations": [single[1], mirrored[1]],
            "skipped": [single[2], mirrored[2]], "steps": steps}

  def adam():
    return keras.optimizers.Adam(0.05, epsilon=1e-8)

  clip_norm = 0.05
  out = {}
  out["clip"] = compare(lambda: tf1clip.v2.clip_gradients_by_norm(adam(), clip_norm))
  # The norm of the first gradient, to show the clip is active.
  with tf.GradientTape() as tape:
    params = {k: tf.Variable(v) for k, v in model.initial_values.items()}
    loss = model.loss_fn(params, {k: tf.constant(v) for k, v in batches()[0].items()})
  norm = tf.linalg.global_norm(tape.gradient(loss, list(params.values()))).numpy()
  out["clip"]["clipped"] = bool(norm > clip_norm)
  out["clip_eager"] = compare(lambda: tf1clip.v2.clip_gradients_by_norm(adam(), clip_norm),
                              use_function=False)
  out["skip_non_finite"] = compare(
      lambda: tf1clip.v2.WrappedOptimizer(adam(), [transforms.clip_by_global_norm(clip_norm)],
                                          skip_non_finite=True),
      data=batches(nan_step=2))
  out["accumulation"] = compare(
      lambda: tf1clip.v2.GradientAccumulationOptimizer(
          adam(), 2, transforms=[transforms.clip_by_global_norm(clip_norm)]))
  out["keras_global_clipnorm"] = compare(
      lambda: keras.optimizers.Adam(0.05, epsilon=1e-8, global_clipnorm=clip_norm))
  print(json.dumps(out))


if __name__ == "__main__":
  sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
  _run_all()

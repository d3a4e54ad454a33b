"""tf1clip.v2 under tf.distribute.MultiWorkerMirroredStrategy: two CPU workers equal one device.

Two worker processes (TF_CONFIG, gRPC on loopback ports picked here, RING all-reduce on the CPU)
run tests/fixtures/multi_worker/train_worker.py: every case trains a few steps, each worker on its
half of every global batch. The reference is the same code on one device, on the whole batches
(`train_worker.train(case)`), run in this process while the workers run. One pair of worker
processes serves every test of the file.
"""

import importlib.util
import json
import os
import pathlib
import socket
import subprocess
import sys

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
WORKER = ROOT / "tests" / "fixtures" / "multi_worker" / "train_worker.py"
NUM_WORKERS = 2
TOLERANCE = 1e-5
TIMEOUT_SECONDS = 150


def _load_worker_module():
  spec = importlib.util.spec_from_file_location("multi_worker_train_worker", WORKER)
  module = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(module)
  return module


def _free_port():
  with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    return s.getsockname()[1]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
  """(reference per case, [worker 0's results, worker 1's results])."""
  out_dir = tmp_path_factory.mktemp("multi_worker")
  workers = ["127.0.0.1:%d" % _free_port() for _ in range(NUM_WORKERS)]
  procs = []
  for i in range(NUM_WORKERS):
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", PYTHONPATH=str(ROOT), TF_CONFIG=json.dumps(
        {"cluster": {"worker": workers}, "task": {"type": "worker", "index": i}}))
    env.pop("TF_USE_LEGACY_KERAS", None)
    procs.append(subprocess.Popen(
        [sys.executable, str(WORKER), str(out_dir / ("worker%d.json" % i))], env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
  try:
    # The one-device reference, while the workers start up.
    module = _load_worker_module()
    reference = {case: module.train(case) for case in module.CASES}
    reference["first_gradient_norm"] = _first_gradient_norm(module)
    results = []
    for i, proc in enumerate(procs):
      _, err = proc.communicate(timeout=TIMEOUT_SECONDS)
      assert proc.returncode == 0, "worker %d failed:\n%s" % (i, err[-4000:])
      results.append(json.loads((out_dir / ("worker%d.json" % i)).read_text()))
  finally:
    for proc in procs:
      if proc.poll() is None:
        proc.kill()
        proc.communicate()
  return reference, results


def _first_gradient_norm(module):
  import tensorflow as tf  # pylint: disable=import-outside-toplevel
  m = module.model()
  params = {k: tf.Variable(v) for k, v in m.initial_values.items()}
  batch = {k: tf.constant(v) for k, v in module.global_batches(False)[0].items()}
  with tf.GradientTape() as tape:
    loss = m.loss_fn(params, batch)
  return float(tf.linalg.global_norm(tape.gradient(loss, list(params.values()))))


def _difference(reference, result):
  from tf1clip.v2 import parity  # pylint: disable=import-outside-toplevel
  return max(parity.relative_difference(np.array(reference["weights"][k]),
                                        np.array(result["weights"][k]))
             for k in reference["weights"])


def test_the_job_has_one_replica_per_worker(runs):
  _, results = runs
  assert [r["task"] for r in results] == [0, 1]
  assert all(r["replicas"] == NUM_WORKERS for r in results)


@pytest.mark.parametrize("case", ["clip_adam", "clip_sgd"])
def test_clipped_steps_on_two_workers_equal_one_device_on_the_whole_batch(runs, case):
  reference, results = runs
  module = _load_worker_module()
  # The clip is active: the first global-batch gradient is longer than the clip norm.
  assert reference["first_gradient_norm"] > 2 * module.CLIP_NORM
  for task, result in enumerate(results):
    assert _difference(reference[case], result[case]) <= TOLERANCE, "worker %d" % task
    assert result[case]["iterations"] == module.STEPS


def test_keras_global_clipnorm_clips_before_the_reduction_and_differs(runs):
  # Same clip norm, same data: Keras clips each worker's half, tf1clip the reduced gradient.
  reference, results = runs
  for result in results:
    assert _difference(reference["keras_global_clipnorm"], result["keras_global_clipnorm"]) > 1e-3
    assert _difference(reference["clip_adam"], result["clip_adam"]) <= TOLERANCE


def test_a_non_finite_gradient_on_one_worker_skips_the_step_on_both(runs):
  reference, results = runs
  module = _load_worker_module()
  assert reference["skip_non_finite"]["skipped"] == 1
  for task, result in enumerate(results):
    case = result["skip_non_finite"]
    assert case["skipped"] == 1, "worker %d" % task
    assert case["iterations"] == module.STEPS - 1
    assert np.all(np.isfinite(np.concatenate(
        [np.ravel(w) for w in case["weights"].values()])))
    assert _difference(reference["skip_non_finite"], case) <= TOLERANCE

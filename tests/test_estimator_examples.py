"""The estimator examples run unchanged through `tf1clip run`, and what they export serves in plain TF2.

examples/legacy/estimator_train.py (Estimator, clip_gradients_by_norm, train_and_evaluate,
export_saved_model; its event files hold the tf1clip/ clipping summaries) and
examples/legacy/tpu_estimator_tfrecord.py (TPUEstimator(use_tpu=False), a
TFRecord input_fn with tf.contrib.data.map_and_batch) each run once as a subprocess with small flags;
one plain-TensorFlow-2 subprocess then loads both SavedModels with tf.saved_model.load and serves a
prediction. The library's own errors for bad input reach the user with the script's line.
"""

import json
import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(REPO, "examples", "legacy")
_TF_NOISE = re.compile(
    r"^(WARNING: All log messages before absl::InitializeLog\(\)|[IWEF]\d{4} [\d:.]+ +\d+ \S+:\d+\])")


def _run(args, cwd):
  # This checkout's tf1clip first, whichever tf1clip the environment has installed.
  path = os.pathsep.join(filter(None, [REPO, os.environ.get("PYTHONPATH")]))
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", PYTHONPATH=path)
  env.pop("TF_USE_LEGACY_KERAS", None)  # as in a user's shell: the runner sets it itself
  proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=env, timeout=600)
  stderr = "".join(line for line in proc.stderr.splitlines(True) if not _TF_NOISE.match(line))
  return proc.returncode, proc.stdout, stderr


def _tf1clip_run(script, *args, cwd):
  return _run([sys.executable, "-m", "tf1clip", "run", script, *args], cwd)


def _losses(stdout):
  return [float(v) for v in re.findall(r"^step \d+: loss ([\d.]+)$", stdout, re.M)]


def _checkpoint_steps(model_dir):
  return sorted(int(m.group(1)) for m in (
      re.match(r"model\.ckpt-(\d+)\.index$", f) for f in os.listdir(model_dir)) if m)


def _export_dir(model_dir):
  exports = os.listdir(os.path.join(model_dir, "export"))
  assert len(exports) == 1, exports
  export_dir = os.path.join(model_dir, "export", exports[0])
  assert os.path.isfile(os.path.join(export_dir, "saved_model.pb"))
  return export_dir


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
  """Runs both examples once (cwd: an empty folder, so nothing is written outside their dirs)."""
  cwd = tmp_path_factory.mktemp("cwd")
  estimator_dir = str(tmp_path_factory.mktemp("estimator"))
  tpu_dir = str(tmp_path_factory.mktemp("tpu"))
  data_dir = str(tmp_path_factory.mktemp("data"))
  estimator = _tf1clip_run(os.path.join(EXAMPLES, "estimator_train.py"),
                           "--model_dir", estimator_dir, "--train_steps", "120", "--log_every", "20",
                           cwd=str(cwd))
  tpu = _tf1clip_run(os.path.join(EXAMPLES, "tpu_estimator_tfrecord.py"),
                     "--model_dir", tpu_dir, "--data_dir", data_dir, "--train_steps", "60",
                     "--iterations_per_loop", "20", cwd=str(cwd))
  return {"cwd": str(cwd), "estimator": (estimator_dir, estimator), "tpu": (tpu_dir, data_dir, tpu)}


def test_estimator_script_trains_evaluates_and_exports(runs):
  model_dir, (status, stdout, stderr) = runs["estimator"]
  assert status == 0, stderr[-3000:]
  losses = _losses(stdout)
  assert len(losses) == 6, stdout
  assert losses[-1] < 0.8 * losses[0], losses
  assert re.search(r"^eval after step 120: loss [\d.]+, accuracy [\d.]+$", stdout, re.M), stdout
  assert _checkpoint_steps(model_dir)[-1] == 120
  assert os.listdir(os.path.join(model_dir, "eval"))  # train_and_evaluate wrote eval events
  assert "exported SavedModel to " + _export_dir(model_dir) in stdout


def test_estimator_events_hold_the_clipping_summaries(runs):
  # clip_gradients_by_norm is tf1clip's wrapper, which records by default in graph mode; the
  # estimator writes the SUMMARIES collection (every 100 steps) into model_dir.
  from tensorboard.backend.event_processing import event_accumulator  # pylint: disable=g-import-not-at-top
  model_dir, (status, _, stderr) = runs["estimator"]
  assert status == 0, stderr[-3000:]
  acc = event_accumulator.EventAccumulator(model_dir, size_guidance={event_accumulator.SCALARS: 0})
  acc.Reload()
  tags = set(acc.Tags()["scalars"])
  assert {"tf1clip/global_norm", "tf1clip/clipped_global_norm", "tf1clip/clipped",
          "tf1clip/clip_threshold"} <= tags, sorted(tags)
  norms = [e.value for e in acc.Scalars("tf1clip/global_norm")]
  assert len(norms) >= 2 and all(np.isfinite(n) and n > 0 for n in norms), norms
  assert {e.value for e in acc.Scalars("tf1clip/clip_threshold")} == {1.0}  # --clip_norm
  clipped = [(e.value, n > 1.0) for e, n in zip(acc.Scalars("tf1clip/clipped"), norms)]
  assert all(c == float(over) for c, over in clipped), clipped


def test_tpu_estimator_script_trains_from_its_tfrecords_and_exports(runs):
  model_dir, data_dir, (status, stdout, stderr) = runs["tpu"]
  assert status == 0, stderr[-3000:]
  assert sorted(os.listdir(data_dir)) == ["eval-0.tfrecord", "train-0.tfrecord", "train-1.tfrecord"]
  losses = _losses(stdout)
  # The script's hook fetches the global step alongside the train op, so a step's read may see the value
  # before or after that step's increment (a race in the TF1 script, under TF 1.15 as here): the printed
  # steps are multiples of 20 from 0 to 60, three or four of them.
  assert 3 <= len(losses) <= 4, stdout
  steps = [int(v) for v in re.findall(r"^step (\d+): loss", stdout, re.M)]
  assert all(step % 20 == 0 and step <= 60 for step in steps), steps
  assert losses[-1] < 0.2 * losses[0], losses
  # save_checkpoints_steps = iterations_per_loop: one checkpoint per TPU loop.
  assert _checkpoint_steps(model_dir) == [0, 20, 40, 60]
  assert "exported SavedModel to " + _export_dir(model_dir) in stdout
  assert os.listdir(runs["cwd"]) == []  # both scripts wrote only under the dirs they were given


def test_exported_saved_models_serve_in_plain_tensorflow_2(runs):
  estimator_export = _export_dir(runs["estimator"][0])
  tpu_export = _export_dir(runs["tpu"][0])
  code = textwrap.dedent("""
      import json, sys
      import numpy as np
      import tensorflow as tf
      assert tf.executing_eagerly()
      classifier = tf.saved_model.load(sys.argv[1]).signatures["serving_default"]
      out = classifier(x=tf.constant([[0.5, -1.0, 0.25, 2.0]], tf.float32))
      example = tf.train.Example(features=tf.train.Features(feature={"x": tf.train.Feature(
          float_list=tf.train.FloatList(value=[1.0, 0.0, 0.0, 0.0, 0.0, 1.0]))}))
      # TPUEstimator also exports a ["serve", "tpu"] graph (export_to_tpu=True): ask for the CPU one.
      regressor = tf.saved_model.load(sys.argv[2], tags=["serve"]).signatures["serving_default"]
      y = regressor(examples=tf.constant([example.SerializeToString()]))
      print(json.dumps({"probabilities": out["probabilities"].numpy().tolist(),
                        "class_ids": out["class_ids"].numpy().tolist(),
                        "y": [v.numpy().tolist() for v in y.values()]}))
  """)
  status, stdout, stderr = _run([sys.executable, "-c", code, estimator_export, tpu_export],
                                runs["cwd"])
  assert status == 0, stderr[-3000:]
  served = json.loads(stdout.strip().splitlines()[-1])
  probabilities = np.array(served["probabilities"])
  assert probabilities.shape == (1, 3)
  np.testing.assert_allclose(probabilities.sum(), 1.0, rtol=1e-5)
  assert served["class_ids"] == [int(np.argmax(probabilities))]
  # The regression data is y = x . linspace(-1, 1, 6): this example's target is -1 + 1 = 0.
  (y,) = served["y"]
  assert abs(np.ravel(y)[0]) < 0.3, y


BAD_INPUT_SCRIPT = """\
import traceback
import numpy as np
import tensorflow as tf
from tensorflow_estimator import estimator as tfe_estimator  # the shim is applied first
assert tfe_estimator.Estimator is tf.estimator.Estimator
from tensorflow.contrib.tpu import TPUEstimator, RunConfig
from tensorflow.contrib.data import map_and_batch
from tensorflow.contrib.estimator import stop_if_no_decrease_hook
from tensorflow.estimator.export import ServingInputReceiver
assert TPUEstimator is tf.estimator.tpu.TPUEstimator and map_and_batch is tf.data.experimental.map_and_batch

def model_fn(features, labels, mode):
  w = tf.get_variable("w", [2, 1])
  loss = tf.reduce_mean(tf.square(tf.matmul(features["x"], w) - labels))
  train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, tf.train.get_global_step())
  return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                    predictions={"y": tf.matmul(features["x"], w)})

def input_fn(params=None):
  x = np.ones([8, 2], np.float32)
  return tf.data.Dataset.from_tensor_slices(({"x": x}, x[:, :1])).repeat().batch(4, drop_remainder=True)

def wrong_type_model_fn(features, labels, mode):
  return {"loss": tf.constant(0.0)}

estimator = tf.estimator.Estimator(model_fn, model_dir="model")
estimator.train(input_fn, max_steps=1)
try:
  estimator.export_saved_model("export", None)
except Exception:
  print("EXPORT " + traceback.format_exc().replace("\\n", " | "))
try:
  tf.estimator.Estimator(wrong_type_model_fn, model_dir="wrong").train(input_fn, max_steps=1)
except Exception:
  print("MODEL_FN " + traceback.format_exc().replace("\\n", " | "))
tpu_estimator = tf.contrib.tpu.TPUEstimator(
    model_fn=lambda features, labels, mode, params: tf.contrib.tpu.TPUEstimatorSpec(
        mode, **model_fn(features, labels, mode)._asdict()),
    config=tf.contrib.tpu.RunConfig(model_dir="tpu"), use_tpu=True, train_batch_size=4)
tpu_estimator.train(input_fn, max_steps=1)
"""


def test_bad_input_gets_the_librarys_own_errors_at_the_scripts_line(tmp_path):
  script = tmp_path / "bad_estimator.py"
  script.write_text(BAD_INPUT_SCRIPT)
  status, stdout, stderr = _tf1clip_run(str(script), cwd=str(tmp_path))
  export_line, model_fn_line = [l for l in stdout.splitlines() if l.startswith(("EXPORT", "MODEL_FN"))]
  # export_saved_model with no serving input: the library's ValueError, raised at the script's call.
  assert 'bad_estimator.py", line 29' in export_line
  assert "ValueError: An input_receiver_fn must be defined." in export_line
  # A model_fn returning a dict: the library's ValueError naming EstimatorSpec.
  assert 'bad_estimator.py", line 33' in model_fn_line
  assert "ValueError: model_fn should return an EstimatorSpec." in model_fn_line
  # use_tpu=True without a TPU: the library's RuntimeError, uncaught, with the script's line.
  assert status == 1
  assert 'bad_estimator.py", line 40, in <module>' in stderr
  assert stderr.rstrip().splitlines()[-1].startswith(
      "RuntimeError: Cannot find any TPU cores in the system."), stderr[-2000:]
  assert "tf1clip/compat/runner.py" not in stderr

"""The tensorflow-estimator shim, tf.contrib.{tpu,cluster_resolver,estimator,data}, and their catalog entries.

One subprocess checks what the shim does to a fresh process (applied lazily, never on `import
tf1clip`; its report; the stand-ins' errors; canned estimators train); contrib.data's names are
checked in-process against tf.data itself (the same objects, or the same elements as the TF 1.15
definition computed by hand), and `tf1clip check` against the shimmed library.
"""

import importlib
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import tensorflow as tf

from tf1clip import tf115
from tf1clip.contrib import catalog

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SHIM_PROBE = textwrap.dedent("""
    import json, sys
    import tf1clip
    import tf1clip.compat.v1 as tf
    from tf1clip import shims
    out = {"after_import": sorted(shims.report()),
           "library_loaded_early": "tensorflow_estimator" in sys.modules}
    out["Estimator"] = tf.estimator.Estimator.__module__
    report = shims.report()["tensorflow_estimator"]
    out["applied"] = [p.target for p, _ in report.applied]
    out["skipped"] = [p.target for p, _ in report.skipped]
    out["same_tpu"] = [tf.contrib.tpu.TPUEstimator is tf.estimator.tpu.TPUEstimator,
                       tf.contrib.tpu.InputPipelineConfig is tf.estimator.tpu.InputPipelineConfig,
                       tf.contrib.tpu.CrossShardOptimizer is tf.tpu.CrossShardOptimizer]
    est = tf.estimator
    params = tf.tpu.experimental.AdagradParameters(0.1)
    from tensorflow_estimator.python.estimator.tpu import _tpu_estimator_embedding
    out["adagrad"] = [params.learning_rate, params.initial_accumulator,
                      type(params) in _tpu_estimator_embedding._SUPPORTED_OPTIMIZERS]
    from tensorflow.python.tpu import tpu_embedding
    import os
    def multi_worker_run_config():
      os.environ["TF_CONFIG"] = json.dumps({"cluster": {"worker": ["localhost:1", "localhost:2"]},
                                            "task": {"type": "worker", "index": 0}})
      try:
        return est.RunConfig(train_distribute=tf.distribute.MirroredStrategy(["/cpu:0"]))
      finally:
        del os.environ["TF_CONFIG"]
    one_machine = est.RunConfig(train_distribute=tf.distribute.MirroredStrategy(["/cpu:0"]))
    out["one_machine"] = [one_machine.train_distribute is not None,
                          one_machine._distribute_coordinator_mode]
    errors = {}
    for name, call in [
        ("tpu_embedding", lambda: tpu_embedding.TPUEmbedding({}, {}, 8, "training")),
        ("multi_worker", multi_worker_run_config),
        ("tpu_resolver", lambda: tf.contrib.cluster_resolver.TPUClusterResolver("no-such-tpu-x"))]:
      try:
        call()
        errors[name] = None
      except Exception as e:
        errors[name] = [type(e).__name__, str(e)]
    out["errors"] = errors
    # TF 1.15's boosted-trees estimators: the library dropped them, the facade adds tf1clip's (TF1CLIP_NAMES)
    out["boosted_trees"] = {name: [getattr(est, name).__module__, name in dir(est)]
                            for name in ("BoostedTreesClassifier", "BoostedTreesRegressor", "BoostedTreesEstimator")}
    out["contrib_estimator"] = [
        tf.contrib.estimator.stop_if_no_decrease_hook is est.experimental.stop_if_no_decrease_hook,
        tf.contrib.estimator.add_metrics is est.add_metrics]
    # Canned estimators train and evaluate (a few steps each, numpy_input_fn).
    import numpy as np, tempfile
    tf.logging.set_verbosity(tf.logging.ERROR)
    x = np.random.RandomState(0).randn(64, 3).astype(np.float32)
    labels = (x.sum(axis=1) > 0).astype(np.int64)
    column = tf.feature_column.numeric_column("x", shape=[3])
    canned = {}
    for name, make, y in [
        ("DNNClassifier", lambda d: est.DNNClassifier([4], [column], model_dir=d), labels),
        ("LinearRegressor", lambda d: est.LinearRegressor([column], model_dir=d),
         x.sum(axis=1, keepdims=True)),
        ("DNNLinearCombinedClassifier", lambda d: est.DNNLinearCombinedClassifier(
            model_dir=d, linear_feature_columns=[column], dnn_feature_columns=[column],
            dnn_hidden_units=[4]), labels)]:
      model = make(tempfile.mkdtemp())
      model.train(est.inputs.numpy_input_fn({"x": x}, y, batch_size=16, num_epochs=None,
                                            shuffle=True), max_steps=5)
      metrics = model.evaluate(est.inputs.numpy_input_fn({"x": x}, y, batch_size=64, num_epochs=1,
                                                         shuffle=False))
      canned[name] = [int(metrics["global_step"]), sorted(metrics), float(metrics["loss"])]
    out["canned"] = canned
    print("RESULT " + json.dumps(out))
""")


@pytest.fixture(scope="module")
def probe(tmp_path_factory):
  # This checkout's tf1clip first, whichever tf1clip the environment has installed.
  path = os.pathsep.join(filter(None, [REPO, os.environ.get("PYTHONPATH")]))
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", PYTHONPATH=path)
  env.pop("TF_CONFIG", None)
  proc = subprocess.run([sys.executable, "-c", SHIM_PROBE], capture_output=True, text=True,
                        env=env, timeout=300, cwd=str(tmp_path_factory.mktemp("cwd")))
  assert proc.returncode == 0, proc.stderr[-3000:]
  (line,) = [l for l in proc.stdout.splitlines() if l.startswith("RESULT ")]
  return json.loads(line[len("RESULT "):])


def test_shim_is_applied_on_first_use_of_tf_estimator_not_on_import(probe):
  assert probe["after_import"] == [] and not probe["library_loaded_early"]
  assert probe["Estimator"] == "tensorflow_estimator.python.estimator.estimator"
  assert probe["skipped"] == []
  assert "tensorflow.python.distribute.estimator_training" in probe["applied"]
  assert "tensorflow.python.tpu.tpu_embedding" in probe["applied"]


def test_the_boosted_trees_estimators_the_library_dropped_are_tf1clips_beside_the_librarys_names(probe):
  for name, (module, listed) in probe["boosted_trees"].items():
    assert module == "tf1clip.python.estimator.canned.boosted_trees" and listed, name


def test_contrib_tpu_and_estimator_are_the_librarys_objects(probe):
  assert probe["same_tpu"] == [True, True, True]
  assert probe["contrib_estimator"] == [True, True]
  assert probe["adagrad"] == [0.1, 0.1, True]


def test_stand_ins_fail_with_a_clear_error_not_an_attribute_error(probe):
  errors = probe["errors"]
  kind, message = errors["tpu_embedding"]
  assert kind == "RemovedInternalError" and message.startswith("TPU embeddings")
  assert "use_tpu=False" in message
  kind, message = errors["multi_worker"]  # TF_CONFIG names a 2-worker cluster
  assert kind == "RemovedInternalError" and "Distribute Coordinator" in message
  assert probe["one_machine"] == [True, None]  # a strategy on one machine needs no coordinator
  kind, message = errors["tpu_resolver"]
  assert kind == "NoTPUReachableError" and message.startswith("no TPU is reachable")


def test_canned_estimators_train_and_evaluate(probe):
  canned = probe["canned"]
  assert canned["DNNClassifier"][0] == 5 and "accuracy" in canned["DNNClassifier"][1]
  assert canned["DNNLinearCombinedClassifier"][0] == 5
  assert "auc" in canned["DNNLinearCombinedClassifier"][1]
  assert canned["LinearRegressor"][0] == 5 and "average_loss" in canned["LinearRegressor"][1]
  assert all(np.isfinite(result[2]) for result in canned.values())


def test_catalog_lists_every_contrib_name_the_modules_serve():
  from tf1clip.contrib import cluster_resolver, data, estimator, tpu  # pylint: disable=g-import-not-at-top
  served = (["tf.contrib.tpu." + n for n in tpu.FROM_ESTIMATOR + tpu.FROM_TF]
            + ["tf.contrib.data." + n for n in data.SAME_AS_TF]
            + ["tf.contrib.cluster_resolver." + n
               for n in cluster_resolver.SAME_AS_TF + tuple(cluster_resolver.RENAMED)])
  # (the catalog knows TF 1.15's names: `tpu.experimental` is served too, a name TF 1.15 did not have)
  for name in [n for n in served if tf115.has(n)] + [
      "tf.contrib.estimator.forward_features", "tf.contrib.estimator.add_metrics"]:
    assert catalog.is_provided(name) and catalog.origin(name), name
  assert "provided by tf1clip (from tensorflow-estimator 2.15" in catalog.explain(
      "tf.contrib.tpu.TPUEstimator")
  del estimator


@pytest.mark.parametrize("name", sorted(importlib.import_module("tf1clip.contrib.data").SAME_AS_TF))
def test_contrib_data_names_are_tf_data_experimental(name):
  from tf1clip.contrib import data  # pylint: disable=g-import-not-at-top
  assert getattr(data, name) is getattr(tf.compat.v1.data.experimental, name)


def _elements(dataset):
  return [tf.nest.map_structure(lambda t: t.numpy().tolist(), e) for e in dataset]


def test_contrib_data_wrappers_give_tf115s_elements():
  from tf1clip.contrib import data  # pylint: disable=g-import-not-at-top
  ds = tf.data.Dataset.range(10)
  assert _elements(ds.apply(data.batch_and_drop_remainder(4))) == [[0, 1, 2, 3], [4, 5, 6, 7]]
  ragged = ds.map(lambda i: tf.fill([i % 3 + 1], i))
  assert _elements(ragged.apply(data.padded_batch_and_drop_remainder(3, [4]))) == [
      [[0, 0, 0, 0], [1, 1, 0, 0], [2, 2, 2, 0]], [[3, 0, 0, 0], [4, 4, 0, 0], [5, 5, 5, 0]],
      [[6, 0, 0, 0], [7, 7, 0, 0], [8, 8, 8, 0]]]
  interleaved = ds.apply(data.sloppy_interleave(lambda i: tf.data.Dataset.from_tensors(i).repeat(2),
                                                cycle_length=3))
  assert sorted(_elements(interleaved)) == sorted(list(range(10)) * 2)
  # Brute force: window k holds elements k*shift + j*stride, j < size, all inside the input.
  for size, shift, stride in [(3, 1, 1), (3, 2, 1), (2, 3, 2), (4, 1, 3)]:
    expected = [[k * shift + j * stride for j in range(size)]
                for k in range(10) if k * shift + (size - 1) * stride < 10]
    assert _elements(ds.apply(data.sliding_window_batch(size, window_shift=shift,
                                                        window_stride=stride))) == expected
  assert _elements(ds.apply(data.sliding_window_batch(2, stride=4))) == [[0, 1], [4, 5], [8, 9]]
  pairs = tf.data.Dataset.from_tensor_slices({"a": np.arange(4), "b": -np.arange(4)})
  assert _elements(pairs.apply(data.sliding_window_batch(2, window_shift=2))) == [
      {"a": [0, 1], "b": [0, -1]}, {"a": [2, 3], "b": [-2, -3]}]
  with pytest.raises(ValueError, match="not both"):
    data.sliding_window_batch(2, stride=1, window_shift=1)


def test_check_resolves_tf_estimator_names_in_the_shimmed_library():
  from tf1clip.tools import check  # pylint: disable=g-import-not-at-top
  findings = {f.symbol: f for f in check.check_source(
      "import tensorflow as tf\n"
      "tf.estimator.DNNClassifier\ntf.estimator.tpu.TPUEstimator\ntf.estimator.BoostedTreesClassifier\n")}
  assert findings["tf.estimator.DNNClassifier"].status == check.PROVIDED
  assert "tensorflow-estimator 2.15" in findings["tf.estimator.DNNClassifier"].note
  assert findings["tf.estimator.tpu.TPUEstimator"].status == check.PROVIDED
  port = findings["tf.estimator.BoostedTreesClassifier"]  # the library dropped it: surface.TF1CLIP_NAMES
  assert port.status == check.PROVIDED
  assert port.note == ("TF 1.15's, tf1clip's port (tf1clip.python.estimator.canned.boosted_trees; "
                       "tensorflow-estimator 2.15 dropped it)")
  missing = check.check_source("import tensorflow as tf\ntf.estimator.NoSuchEstimator\n")[0]
  assert missing.status == check.UNSUPPORTED
  assert missing.note == "tensorflow-estimator 2.15's v1 API has no tf.estimator.NoSuchEstimator"


def test_forward_features_rejects_bad_keys_where_tf115_did(tmp_path):
  from tf1clip.contrib import estimator as contrib_estimator  # pylint: disable=g-import-not-at-top
  from tf1clip.shims import tensorflow_estimator as estimator_shim  # pylint: disable=g-import-not-at-top
  est = estimator_shim.v1_api()
  v1 = tf.compat.v1

  def model_fn(features, labels, mode):
    del labels
    return est.EstimatorSpec(mode, predictions={"y": 2.0 * features["x"]})

  def predict_input_fn():
    sparse_ids = v1.SparseTensor([[0, 0]], [1], [1, 1])
    return v1.data.Dataset.from_tensors({"x": [[1.0]], "y": [[0.0]], "id": [[7]], "ids": sparse_ids})

  base = est.Estimator(model_fn, model_dir=str(tmp_path))
  with pytest.raises(TypeError, match="keys must be a string or a list of strings; got 3"):
    contrib_estimator.forward_features(base, keys=3)
  for keys, message in [("nope", "key 'nope' is not a feature"),
                        ("y", "key 'y' is already a prediction"),
                        ("ids", "feature 'ids' is a SparseTensor, not a dense Tensor")]:
    with pytest.raises(ValueError, match=message):
      next(contrib_estimator.forward_features(base, keys).predict(predict_input_fn))
  (prediction,) = contrib_estimator.forward_features(base, ["id"]).predict(predict_input_fn)
  assert (prediction["y"].tolist(), prediction["id"].tolist()) == ([2.0], [7])

"""tf1clip.contrib's catalogue: every provided name resolves, everything else fails by name with a replacement; the
index (catalog.tsv) and docs/contrib.md's tables are what the packages declare now."""

import ast
import importlib
import os
import pathlib
import pickle
import subprocess
import sys

import pytest
import tensorflow as tf

import tf1clip.contrib as contrib
from tf1clip import tf115
from tf1clip.contrib import catalog

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _resolve(dotted):
  obj = contrib
  for part in dotted.split(".")[2:]:
    obj = getattr(obj, part)
  return obj


def test_the_index_is_what_the_packages_declare_now():
  """catalog.tsv is collected from the packages (`make catalog`); a change to a package that serves a name
  differently, refuses one or declares a new reason must regenerate it."""
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
  done = subprocess.run([sys.executable, "-m", "tf1clip.contrib", "--check"], capture_output=True, text=True,
                        env=env, cwd=str(ROOT), timeout=600)
  assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_docs_tables_are_generated_from_the_index():
  from tf1clip.tools import contrib_docs  # pylint: disable=import-outside-toplevel
  text = (ROOT / "docs" / "contrib.md").read_text()
  assert contrib_docs.render(text, list(catalog.index().values())) == text, "run `make catalog`"
  for record in catalog.index().values():  # every name is in one of the two tables (a module under its full name)
    assert "`%s`" % record.name.rsplit(".", 1)[1] in text or "`%s`" % record.name in text, record.name


def test_every_inventory_contrib_name_has_one_record():
  names = [n for n, e in tf115.entries().items() if n.startswith("tf.contrib.") and e.kind != "import-error"]
  assert sorted(catalog.index()) == sorted(names)
  assert all(r.status in (catalog.SERVED_STATUS, catalog.WHOLE_STATUS, catalog.NOT_SERVED_STATUS)
             for r in catalog.index().values())


def test_a_refused_name_always_says_what_to_use_instead():
  for record in catalog.index().values():
    if record.status == catalog.NOT_SERVED_STATUS:
      assert record.advice, record.name
      assert "the same function" not in record.advice, record.name


@pytest.mark.parametrize("name", sorted(catalog.provided_names()))
def test_every_provided_name_resolves_to_an_object(name):
  obj = _resolve(name)
  assert obj is not None
  assert not isinstance(obj, catalog.UnsupportedModule)


def test_reexports_are_the_owning_modules_objects():
  # TF 1.15's own module path owns it (TF 1.15's numbers on repeated sparse rows), not tf1clip.optimizer's default.
  extenders = importlib.import_module("tf1clip.contrib.estimator.python.estimator.extenders")
  assert contrib.estimator.clip_gradients_by_norm is extenders.clip_gradients_by_norm
  # optimize_loss is TF 1.15's (tf-slim's), the same object as slim.optimize_loss, as TF 1.15 served it
  served = contrib.layers.optimize_loss  # (applies tf-slim's shim)
  optimizers = importlib.import_module("tf_slim.layers.optimizers")
  assert served is optimizers.optimize_loss is contrib.slim.optimize_loss
  assert contrib.layers.adaptive_clipping_fn is optimizers.adaptive_clipping_fn
  assert contrib.layers.OPTIMIZER_CLS_NAMES is optimizers.OPTIMIZER_CLS_NAMES


def test_rnn_cells_are_the_classes_tf_compat_v1_serves_with_legacy_keras():
  # conftest sets TF_USE_LEGACY_KERAS=1, as `tf1clip run` does.
  for name in ("RNNCell", "BasicRNNCell", "BasicLSTMCell", "LSTMCell", "GRUCell", "MultiRNNCell",
               "DropoutWrapper", "ResidualWrapper", "LSTMStateTuple"):
    assert getattr(contrib.rnn, name) is getattr(tf.compat.v1.nn.rnn_cell, name), name
  assert contrib.rnn.static_rnn is tf.compat.v1.nn.static_rnn


def test_unsupported_submodule_names_the_whole_symbol_and_the_replacement():
  with pytest.raises(catalog.ContribNotProvidedError) as err:
    contrib.tpu.keras_to_tpu_model  # pylint: disable=pointless-statement
  message = str(err.value)
  assert message.startswith("tf.contrib.tpu.keras_to_tpu_model is not provided by tf1clip")
  assert "tf.distribute.TPUStrategy" in message
  assert err.value.symbol == err.value.name == "tf.contrib.tpu.keras_to_tpu_model"
  copy = pickle.loads(pickle.dumps(err.value))
  assert (type(copy), str(copy), copy.symbol) == (type(err.value), message, err.value.symbol)


def test_calling_an_unsupported_submodule_fails_too():
  with pytest.raises(catalog.ContribNotProvidedError,
                     match=r"^tf\.contrib\.cloud is not provided"):
    contrib.cloud()


def test_from_import_of_an_unsupported_name_raises_our_message_not_pythons():
  namespace = {}
  with pytest.raises(ImportError) as err:
    exec("from tf1clip.contrib.memory_stats import BytesLimit", namespace)  # pylint: disable=exec-used
  assert type(err.value) is catalog.ContribNotProvidedError
  assert str(err.value).startswith("tf.contrib.memory_stats.BytesLimit is not provided by tf1clip")
  exec("from tf1clip.contrib import cloud", namespace)  # pylint: disable=exec-used
  with pytest.raises(ImportError,
                     match=r"tf\.contrib\.cloud\.BigQueryReader .*gs://"):
    namespace["cloud"].BigQueryReader  # pylint: disable=pointless-statement


@pytest.mark.parametrize("module,attr", [
    ("tpu", "TPUDistributionStrategy"), ("memory_stats", "BytesLimit"), ("tpu", "profiler"),
    ("tpu", "keras_to_tpu_model")])
def test_unknown_names_on_provided_submodules_fail_with_advice(module, attr):
  with pytest.raises(catalog.ContribNotProvidedError) as err:
    getattr(getattr(contrib, module), attr)
  symbol = "tf.contrib.%s.%s" % (module, attr)
  assert str(err.value).startswith(symbol + " is not provided by tf1clip; use instead: ")
  assert str(err.value) == catalog.explain(symbol)


def test_a_name_tf115_no_longer_had_says_so_and_keeps_the_advice():
  # tf.contrib.estimator.DNNEstimator moved to tf.estimator before 1.15 (the inventory, written by TF 1.15,
  # has no such contrib name); the message says so and still points to the replacement.
  with pytest.raises(catalog.ContribNotProvidedError) as err:
    contrib.estimator.DNNEstimator  # pylint: disable=pointless-statement
  assert str(err.value).startswith(
      "tf.contrib.estimator.DNNEstimator is not provided by tf1clip (TensorFlow 1.15's tf.contrib.estimator "
      "had no public DNNEstimator either); use instead: ")


def test_a_name_tf115_never_had_says_so():
  with pytest.raises(catalog.ContribNotProvidedError,
                     match=r"TensorFlow 1\.15 had no tf\.contrib\.fancy either"):
    contrib.fancy  # pylint: disable=pointless-statement


def test_slim_is_provided_by_the_shimmed_tf_slim_package():
  # tests/contrib/slim/test_slim.py checks that it works; here: the catalogue serves every slim name.
  assert catalog.is_provided("tf.contrib.slim.nets.resnet_v1.resnet_v1_50")
  assert "tf-slim" in catalog.explain("tensorflow.contrib.slim.conv2d")
  assert catalog.origin("tf.contrib.slim.conv2d").startswith("tf-slim 1.1.0: tf_slim.layers.layers.")
  assert not isinstance(contrib.slim, catalog.UnsupportedModule)


def test_dunder_lookups_stay_plain_attribute_errors():
  # importlib, pickle, inspect and doctest probe these; they must not see an ImportError.
  for module in (contrib, contrib.rnn, contrib.layers, contrib.tpu):
    assert not hasattr(module, "__wrapped__")
  # an unsupported module's stand-in is no package (its dunder lookup is a plain AttributeError too)
  assert not hasattr(contrib.cloud, "__path__")
  assert pickle.loads(pickle.dumps(contrib.training.HParams(a=1))).a == 1


def test_explain_accepts_every_spelling_of_a_contrib_name():
  expected = catalog.explain("tf.contrib.data.Dataset")
  assert catalog.explain("tensorflow.contrib.data.Dataset") == expected
  assert catalog.explain("contrib.data.Dataset") == expected
  assert "tf.data" in expected


def test_explain_for_provided_names_says_where_they_come_from():
  assert catalog.explain("tensorflow.contrib.rnn.BasicLSTMCell") == (
      "tf.contrib.rnn.BasicLSTMCell is provided by tf1clip (from "
      "tf-keras 2.21.0: tf_keras.src.layers.rnn.legacy_cells.BasicLSTMCell)")
  assert catalog.is_provided("tf.contrib.rnn")
  assert not catalog.is_provided("tf.contrib.memory_stats.BytesLimit")
  assert not catalog.is_provided("tf.contrib.cloud")


def test_the_tables_are_consistent():
  for name, record in catalog.index().items():
    parts = name.split(".")
    assert parts[:2] == ["tf", "contrib"] and parts[2] in catalog.TF115_SUBMODULES, name
  assert catalog.PROVIDED_SUBMODULES <= catalog.TF115_SUBMODULES
  assert set(dir(contrib)) >= catalog.PROVIDED_SUBMODULES


def test_an_alias_gets_the_advice_of_the_name_tf115_served_as_the_same_object():
  # TF 1.15's tf.contrib.slim.DataFrameColumn was tf.contrib.layers.feature_column.DataFrameColumn: the
  # feature-column advice, not slim's layer advice
  advice = catalog.replacement("tf.contrib.layers.feature_column.DataFrameColumn")
  assert "feature_column" in advice
  assert catalog.replacement("tf.contrib.slim.DataFrameColumn") == advice
  assert catalog.replacement("tf.contrib.cloud.BigQueryReader") == catalog.replacement("tf.contrib.cloud")
  assert "gs://" in catalog.replacement("tf.contrib.cloud")


def test_no_contrib_module_shows_the_catalogue_as_one_of_its_names():
  """TF 1.15's contrib modules had no `catalog`: tf1clip's modules bind it as `_catalog` (out of dir() * imports)."""
  package = ROOT / "tf1clip" / "contrib"
  leaking = []
  for path in sorted(package.rglob("*.py")):
    if path.name == "catalog.py":
      continue
    for node in ast.parse(path.read_text()).body:
      if isinstance(node, (ast.Import, ast.ImportFrom)):
        bound = [alias.asname or alias.name.split(".")[0] for alias in node.names]
        if "catalog" in bound:
          leaking.append(str(path.relative_to(ROOT)))
  assert not leaking, leaking


def test_the_gaps_of_a_whole_package_are_the_names_it_does_not_serve():
  """`tf1clip check` and `explain` must not call a slim name provided that `tf.contrib.slim.X` refuses."""
  refused = set()
  for name in tf115.entries():
    if not name.startswith("tf.contrib.slim."):
      continue
    obj = contrib
    try:
      for part in name.split(".")[2:]:
        obj = getattr(obj, part)
    except catalog.ContribNotProvidedError:
      refused.add(name)
  assert refused == {n for n, r in catalog.index().items()
                     if n.startswith("tf.contrib.slim.") and r.status == catalog.NOT_SERVED_STATUS}
  for name in refused:
    assert not catalog.is_provided(name)
    assert "is not provided by tf1clip" in catalog.explain(name), name
  assert catalog.is_provided("tf.contrib.slim.fc.sparse_column_with_keys")

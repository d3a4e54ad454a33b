"""compat.paths' rules, in order, and its refusals: TF 1.15's module paths under `tf1clip run` (issue #35).

Every case is picked from the module-path inventory and the tree (a pair of each rule, tf1clip's port at the
mirrored path, a MOVED module), not written by file path, and all of them run in one `tf1clip run -c` process (a
TensorFlow start costs seconds). Refusals: every error of a sample of modules under tools.module_coverage names its
module path and never says TF 1.15 lacked what the inventory shows; a path TF 1.15 never had gets Python's own
ModuleNotFoundError / ImportError / AttributeError.
"""

import json
import os
import re
import subprocess
import sys

import pytest

from tf1clip.compat import paths
from tf1clip.tf115 import module_paths
from tf1clip.tools import module_coverage

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROBE = r'''
import importlib, json, sys
from tf1clip.compat import paths
from tf1clip.tf115 import module_paths
cases = json.loads(sys.argv[2])
namespace = {"__name__": "__main__", "__builtins__": __builtins__}
def run(statement):
    try:
        exec(statement, namespace)
        return "ok", namespace.pop("found", None)
    except BaseException as e:
        return type(e).__name__, e
out = {}
for key, (statement, compare) in cases.items():
    status, found = run(statement)
    record = {"status": status, "error": str(found) if status != "ok" else None}
    if status == "ok" and compare:
        _, expected = run(compare.replace("expected", "found"))
        record["same"] = found is expected
        record["found_type"] = type(found).__name__
    out[key] = record
json.dump(out, open(sys.argv[1], "w"))
'''


def _first(predicate):
  for path in sorted(module_paths.modules()):
    if not module_paths.has_module(path):
      continue
    for name, entry in sorted(module_paths.names(path).items()):
      if predicate(path, name, entry):
        return path, name
  raise AssertionError("no inventory pair for this rule")


def _port_pair():
  """A TF 1.15 pair tf1clip serves from its own module at the mirrored path, found in the tree."""
  root = os.path.join(REPO, "tf1clip", "python")
  for folder, _, files in sorted(os.walk(root)):
    for file in sorted(files):
      if not file.endswith(".py") or file == "__init__.py":
        continue
      dotted = os.path.relpath(os.path.join(folder, file[:-3]), REPO).replace(os.sep, ".")
      path = "tensorflow" + dotted[len("tf1clip"):]
      for name, entry in sorted(module_paths.names(path).items()):
        if not entry.same_as and entry.kind in ("function", "class"):
          source = open(os.path.join(folder, file), encoding="utf-8").read()
          if re.search(r"^(def|class) %s\b" % re.escape(name), source, re.M):
            return path, name, dotted
  raise AssertionError("no tf1clip.python port of a TF 1.15 name")


def _cases():
  public = _first(lambda p, n, e: p.startswith("tensorflow.contrib.") and ".python." in p
                  and e.kind == "function" and e.same_as.startswith("tf.contrib."))
  # (in a module that was no public one: a public module is the facade's, whose names are its own choice)
  home = _first(lambda p, n, e: p.startswith("tensorflow.contrib.") and e.kind == "class"
                and e.same_as.startswith("tensorflow.python.ops.") and not module_paths.modules()[p].same_as)
  # contrib.quantization's `import *` leaked the standard ops' wrappers, which TF 2.21 still has as raw ops
  raw = _first(lambda p, n, e: e.kind == "raw-op" and n == e.target and p.startswith("tensorflow.contrib.quantiz"))
  port_path, port_name, port_module = _port_pair()
  home_module, _, home_name = module_paths.pair(*home).same_as.partition(":")
  lstm = module_paths.pair("tensorflow.python.ops.rnn_cell_impl", "LSTMCell")
  cases = {
      "submodule": ("from tensorflow.contrib.layers.python.layers import utils as found", None),
      "public alias": ("from %s import %s as found" % public,
                       "import tensorflow as tf; expected = tf.%s" % module_paths.pair(*public).same_as[3:]),
      "public alias across trees": ("from tensorflow.python.ops.rnn_cell_impl import LSTMCell as found",
                                    "import tensorflow as tf; expected = tf.%s" % lstm.same_as[3:]),
      "port": ("from %s import %s as found" % (port_path, port_name),
               "import importlib; expected = importlib.import_module(%r).%s" % (port_module, port_name)),
      "home pair": ("from %s import %s as found" % home,
                    "from %s import %s as expected" % (home_module, home_name)),
      "moved": ("from tensorflow.python.training.tracking.base import Trackable as found",
                "import importlib; expected = importlib.import_module('tensorflow.python.trackable.base').Trackable"),
      "raw op": ("from %s import %s as found" % raw,
                 "import importlib; expected = getattr(importlib.import_module('tensorflow').raw_ops, %r)" % raw[1]),
      "never had module": ("import tensorflow.contrib.layers.python.no_such_module", None),
      "never had name": ("from tensorflow.python.ops.array_ops import no_such_name_in_tf115 as found", None),
      "never had attribute": ("import tensorflow as tf; found = tf.python.ops.array_ops.no_such_name_in_tf115",
                              None),
      "import as": ("import tensorflow.contrib.layers.python.layers as found", None),
  }
  return cases, {"public": public, "home": home, "raw": raw}


@pytest.fixture(scope="module")
def probed(tmp_path_factory):
  cases, picked = _cases()
  tmp = tmp_path_factory.mktemp("paths")
  out = tmp / "out.json"
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONWARNINGS="ignore")
  proc = subprocess.run([sys.executable, "-m", "tf1clip", "run", "-c", PROBE, str(out), json.dumps(cases)],
                        cwd=tmp, env=env, capture_output=True, text=True, timeout=600)
  assert proc.returncode == 0, proc.stderr[-3000:]
  return json.loads(out.read_text()), picked


def test_each_rule_serves_the_object_it_names(probed):
  result, _ = probed
  for key in ("public alias", "public alias across trees", "port", "home pair", "moved", "raw op"):
    assert result[key]["status"] == "ok", (key, result[key])
    assert result[key]["same"], (key, result[key])
  assert result["submodule"]["status"] == "ok"
  assert result["import as"]["status"] == "ok"


def test_paths_tf115_never_had_raise_pythons_own_errors(probed):
  result, _ = probed
  assert result["never had module"]["status"] == "ModuleNotFoundError"
  assert result["never had module"]["error"] == "No module named 'tensorflow.contrib.layers.python.no_such_module'"
  assert result["never had name"]["status"] == "ImportError"
  assert result["never had name"]["error"].startswith("cannot import name 'no_such_name_in_tf115'")
  assert result["never had attribute"]["status"] == "AttributeError"
  assert "tf1clip" not in result["never had attribute"]["error"]


def test_moved_names_only_tf115_paths():
  """MOVED's keys are TF 1.15 module paths of the inventory (or prefixes of some): no entry serves a path TF 1.15
  never had."""
  assert list(paths.MOVED)
  for key in paths.MOVED:
    if key.endswith("."):
      assert any(p.startswith(key) for p in module_paths.modules()), key
    else:
      assert key in module_paths.modules(), key


# Modules whose refusals the survey below reads: a SWIG module, a contrib module tf1clip does not port, a deep
# contrib module of a ported package, TF 1.15's keras internals.
REFUSING = ("tensorflow.python.pywrap_tensorflow", "tensorflow.contrib.cudnn_rnn.python.ops.cudnn_rnn_ops",
            "tensorflow.contrib.tpu.python.tpu.tpu_estimator", "tensorflow.python.keras.engine.training_utils",
            "tensorflow.contrib.ignite.python.ops.ignite_dataset_ops")


def test_every_refusal_names_its_path_and_never_denies_tf115_had_it():
  records = module_coverage.survey(REFUSING)
  errors = [r for r in records if r["record"] == "pair" and r["status"] != "served"]
  assert errors, "the sample refuses nothing: pick modules that still have refusals"
  for r in errors:
    assert r["status"] == "clear error", r
    assert r["true_error"], r
    assert "%s.%s" % (r["module"], r["name"]) in r["error"], r
  modules = [r for r in records if r["record"] == "module"]
  assert all(r["status"] == "served" for r in modules), modules


def test_the_refusals_check_reads_are_inventory_pairs_named_by_their_message():
  refused = paths.refusals()
  assert refused, "compat/paths_refused.tsv.gz is missing: python -m tf1clip.tools.module_coverage --write"
  for (module, name), message in refused.items():
    assert module_paths.pair(module, name) is not None, (module, name)
    # the path's own refusal names module.name; a facade module's (contrib catalog) names its public spelling
    assert "%s.%s" % (module, name) in message or (".%s " % name) in message, message
    assert not module_coverage._CLAIMS_TF115_LACKED.search(message), message  # pylint: disable=protected-access

"""`tf1clip check PATH...` on whole projects: local imports, first blocker, hazards, JSON schema, no TensorFlow.

The fixture project is written into a temporary directory by `_project`: an entry script that imports a
module next to it and one in src/ (found through `sys.path.append`), an import-only contrib module, names
reached with getattr, NumPy 2 removals, TF 1.x removals, a guarded fallback, and a directory of many files.
"""

import io
import json
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest
import tensorflow as tf

from tf1clip import cli
from tf1clip.tools import api_index
from tf1clip.tools import check
from tf1clip.tools import check_project
from tf1clip.tools import hazards
from tf1clip.contrib import catalog

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# TF 1.15 contrib modules tf1clip does not provide, taken from the catalogue so the fixture stays right
# as more of contrib gets provided: under `tf1clip run` they import as stand-ins, their attributes fail.
_STAND_INS = sorted(catalog.TF115_SUBMODULES - catalog.PROVIDED_SUBMODULES)
GONE_A = "tpu" if "tpu" in _STAND_INS else _STAND_INS[0]
GONE_B = "graph_editor" if "graph_editor" in _STAND_INS else _STAND_INS[-1]
GONE_C = "crf" if "crf" in _STAND_INS else _STAND_INS[len(_STAND_INS) // 2]

TRAIN = ('''\
"""Entry script."""
import os
import sys
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))
import numpy as np
import tensorflow as tf
import tensorflow.contrib.GONE_A as gone  # imported, never used: runs under tf1clip
import model
from pipeline import build_input

try:
  from tensorflow.contrib.GONE_C import some_function
except ImportError:
  some_function = None

def main(_):
  x = tf.placeholder(tf.float32, [None, 3])
  cell = getattr(tf.contrib, "rnn").LSTMCell(4)
  y = model.net(x)
  scale = np.float_(2.0)
  return tf.reduce_sum(y) * scale

if __name__ == "__main__":
  tf.app.run()
''').replace("GONE_A", GONE_A).replace("GONE_C", GONE_C)

MODEL = ('''\
import tensorflow as tf
from tensorflow.contrib import layers
import helpers.util

def net(x):
  h = layers.fully_connected(x, 4)
  return tf.contrib.GONE_B.reroute_ts(h, x)
''').replace("GONE_B", GONE_B)

UTIL = '''\
import numpy as np
counts = np.zeros(3, dtype=np.int)
'''

PIPELINE = '''\
import tensorflow as tf
FLAGS = tf.app.flags.FLAGS

def build_input():
  FLAGS._parse_flags()
  return getattr(tf, "concat_v2")
'''


def _write(root, relative, text):
  path = os.path.join(root, relative)
  os.makedirs(os.path.dirname(path), exist_ok=True)
  with open(path, "w") as f:
    f.write(text)
  return path


@pytest.fixture
def project(tmp_path):
  root = str(tmp_path / "proj")
  _write(root, "train.py", TRAIN)
  _write(root, "model.py", MODEL)
  _write(root, "helpers/__init__.py", "")
  _write(root, "helpers/util.py", UTIL)
  _write(root, "src/pipeline.py", PIPELINE)
  # A virtualenv and a build folder inside the project are not the project's code.
  _write(root, ".venv/pyvenv.cfg", "home = /usr\n")
  _write(root, ".venv/lib/site-packages/bad.py", "import tensorflow as tf\ntf.contrib.%s.X\n" % GONE_A)
  _write(root, "build/lib/bad.py", "import tensorflow as tf\ntf.contrib.%s.X\n" % GONE_A)
  return root


def _rows(project_result):
  return {(os.path.basename(path), f.symbol): f
          for path, r in project_result.files.items() for f in r.findings}


def _attention(project_result):
  return {key for key, f in _rows(project_result).items() if check_project.needs_attention(f)}


def test_check_follows_local_imports_from_the_entry_script(project):
  # Named alone, train.py brings in model.py, helpers/util.py and src/pipeline.py (via sys.path.append).
  result = check_project.analyze([os.path.join(project, "train.py")])
  assert sorted(os.path.relpath(p, project) for p in result.files) == [
      "helpers/__init__.py", "helpers/util.py", "model.py", "src/pipeline.py", "train.py"]
  # No false alarm and no miss: exactly these rows need attention.
  assert _attention(result) == {
      ("train.py", "tf.contrib.%s.some_function" % GONE_C),  # reported, but guarded by `except ImportError`
      ("train.py", "np.float_"),
      ("model.py", "tf.contrib.%s.reroute_ts" % GONE_B),
      ("util.py", "np.int"),
      ("pipeline.py", "tf.flags.FLAGS._parse_flags"),
      ("pipeline.py", "tf.concat_v2"),
  }
  rows = _rows(result)
  assert rows[("train.py", "tf.contrib.%s.some_function" % GONE_C)].guarded
  assert rows[("train.py", "tf.contrib." + GONE_A)].status == check.RUNS
  assert rows[("train.py", "tf.contrib.rnn.LSTMCell")].status == check.PROVIDED
  assert rows[("train.py", "tf.contrib.rnn.LSTMCell")].kind == "getattr"
  assert rows[("model.py", "tf.contrib.layers.fully_connected")].status == check.PROVIDED
  assert "tf.concat" in rows[("pipeline.py", "tf.concat_v2")].note
  assert rows[("pipeline.py", "tf.concat_v2")].kind == "getattr"
  assert "np.float64" in rows[("train.py", "np.float_")].note
  assert "flag_values_dict" not in rows[("pipeline.py", "tf.flags.FLAGS._parse_flags")].note
  assert "absl" in rows[("pipeline.py", "tf.flags.FLAGS._parse_flags")].note


def test_first_blocker_is_named_in_run_order(project):
  result = check_project.analyze([project])
  train = os.path.join(project, "train.py")
  assert set(result.entries) == {train}  # the only file with `__main__`
  blocker = result.entries[train]
  # train.py imports model (line 8) before its own np.float_ (line 20); model.py imports helpers.util
  # (line 3), whose np.int the runner serves (a warning), before it uses graph_editor (line 7).
  assert (os.path.relpath(blocker.path, project), blocker.symbol) == (
      "model.py", "tf.contrib.%s.reroute_ts" % GONE_B)
  out = io.StringIO()
  assert check_project.main([project], out=out) == 1
  report = out.getvalue()
  summary_line, blocker_line = report.splitlines()[:2]
  assert summary_line.startswith("tf1clip check: 5 file(s), ")
  assert blocker_line.startswith("`tf1clip run ") and "train.py` will stop at " in blocker_line
  assert "model.py:%d: tf.contrib.%s.reroute_ts" % (blocker.line, GONE_B) in blocker_line
  assert "np.int" in report and "NumPy 1.24 removed" in report  # listed as a warning
  # Default output: the summary and only the rows that need attention.
  assert "tf.placeholder" not in report and "tf.contrib.%s " % GONE_A not in report
  assert "tf.contrib.%s.reroute_ts" % GONE_B in report
  out = io.StringIO()
  check_project.main([project], show_all=True, out=out)
  assert "tf.placeholder" in out.getvalue()


def test_check_skips_virtualenvs_and_build_folders(project):
  result = check_project.analyze([project])
  assert not any(".venv" in p or os.sep + "build" + os.sep in p for p in result.files)


def _expect(value, schema, where="$"):
  """A small structural validator: schema is a type, a tuple of types, [item schema] or {key: schema}."""
  if isinstance(schema, dict):
    assert isinstance(value, dict), where
    assert set(value) == set(schema), "%s keys %s != %s" % (where, sorted(value), sorted(schema))
    for key, sub in schema.items():
      _expect(value[key], sub, where + "." + key)
  elif isinstance(schema, list):
    assert isinstance(value, list), where
    for i, item in enumerate(value):
      _expect(item, schema[0], "%s[%d]" % (where, i))
  elif isinstance(schema, set):
    assert value in schema, "%s: %r not in %s" % (where, value, schema)
  else:
    assert isinstance(value, schema) and not (schema is int and isinstance(value, bool)), (
        "%s: %r is not %s" % (where, value, schema))


# Schema tf1clip.check/1, as docs/check.md documents it.
CHECK_SCHEMA = {
    "schema": {"tf1clip.check/1"},
    "tensorflow": str,
    "exit_status": {0, 1, 2},
    "summary": {k: int for k in ("files", "entry_scripts", "symbols", "runs_unchanged", "provided",
                                 "not_supported", "guarded", "warnings", "unreadable")},
    "entries": [{"script": str, "runs": bool,
                 "first_blocker": (dict, type(None))}],
    "files": [{
        "path": str, "entry": bool, "error": (str, type(None)),
        "imports": [{"path": str, "line": int}],
        "findings": [{"symbol": str, "status": {"runs", "provided", "unsupported", "warning"},
                      "kind": {"import", "from", "use", "getattr", "numpy", "call"}, "line": int,
                      "lines": [int], "count": int, "note": str, "guarded": bool}],
    }],
    "skipped": [{"path": str, "reason": str}],
}
BLOCKER_SCHEMA = {"path": str, "line": int, "symbol": str, "note": str}


def test_json_output_follows_the_documented_schema(project, capsys):
  assert cli.main(["check", "--format", "json", project]) == 1
  report = json.loads(capsys.readouterr().out)
  _expect(report, CHECK_SCHEMA)
  for entry in report["entries"]:
    if entry["first_blocker"] is not None:
      _expect(entry["first_blocker"], BLOCKER_SCHEMA)
  assert report["exit_status"] == 1
  assert report["entries"][0]["first_blocker"]["symbol"] == "tf.contrib.%s.reroute_ts" % GONE_B
  assert report["summary"]["files"] == 5
  with open(os.path.join(REPO, "docs", "check.md")) as f:
    docs = f.read()
  for key in list(CHECK_SCHEMA) + list(CHECK_SCHEMA["summary"]) + list(CHECK_SCHEMA["files"][0]) + list(
      CHECK_SCHEMA["files"][0]["findings"][0]):
    assert "`%s`" % key in docs, "docs/check.md does not document %r" % key


def test_exit_codes(project, tmp_path, capsys):
  clean = _write(str(tmp_path / "clean"), "ok.py", "import tensorflow as tf\nx = tf.placeholder(tf.float32)\n")
  assert cli.main(["check", clean]) == 0
  assert cli.main(["check", project]) == 1
  assert cli.main(["check", str(tmp_path / "missing")]) == 2
  empty = tmp_path / "empty"
  empty.mkdir()
  assert cli.main(["check", str(empty)]) == 2
  with pytest.raises(SystemExit) as e:
    cli.main(["check"])
  assert e.value.code == 2
  capsys.readouterr()


def test_a_directory_of_many_files(tmp_path):
  root = str(tmp_path / "many")
  for i in range(40):
    _write(root, "pkg/mod_%02d.py" % i,
           "import tensorflow as tf\n\ndef f(x):\n  return tf.nn.relu(tf.layers.dense(x, %d))\n" % (i + 1))
  _write(root, "pkg/mod_17.py", "import tensorflow as tf\nv = tf.contrib.%s.Gone\n" % GONE_A)
  _write(root, "pkg/__init__.py", "")
  result = check_project.analyze([root])
  assert len(result.files) == 41
  assert _attention(result) == {("mod_17.py", "tf.contrib.%s.Gone" % GONE_A)}
  s = check_project.summary(result)
  assert (s["runs_unchanged"], s["provided"], s["not_supported"]) == (39, 39, 1)


@pytest.mark.parametrize("source, symbol, status", [
    ("import tensorflow.contrib.slim as slim\nslim.conv2d", "tf.contrib.slim.conv2d", check.PROVIDED),
    ("import tensorflow.contrib.%s as m\n" % GONE_A, "tf.contrib." + GONE_A, check.RUNS),
    ("import tensorflow.contrib.%s as m\nm.Gone" % GONE_A, "tf.contrib.%s.Gone" % GONE_A, check.UNSUPPORTED),
    ("import tensorflow.contrib.no_such as x\n", "tf.contrib.no_such", check.UNSUPPORTED),
    ("from tensorflow.contrib.%s import Gone\n" % GONE_A, "tf.contrib.%s.Gone" % GONE_A, check.UNSUPPORTED),
    ("import tensorflow.estimator as est\n", "tf.estimator", check.PROVIDED),
    ("import tensorflow as tf\ngetattr(tf, 'placeholder')", "tf.placeholder", check.RUNS),
    ("import tensorflow as tf\ngetattr(tf, 'no_such_name_at_all')", "tf.no_such_name_at_all", check.UNSUPPORTED),
    ("import tensorflow as tf\ntf.flags.DEFINE_string", "tf.flags.DEFINE_string", check.RUNS),
    ("import tensorflow as tf\ntf.enable_eager_execution()", "tf.enable_eager_execution", check.WARNING),
    ("import numpy as np\nnp.array([1], copy=False)", "np.array", check.WARNING),
    ("import numpy\nnumpy.asscalar", "np.asscalar", check.WARNING),  # the runner serves it
    ("import numpy\nnumpy.source", "np.source", check.UNSUPPORTED),
    ("from scipy.misc import imread\n", "scipy.misc.imread", check.WARNING),
    ("import scipy.misc\nscipy.misc.imresize", "scipy.misc.imresize", check.WARNING),
    ("from scipy.sparse.linalg.eigen.arpack import eigsh\n", "scipy.sparse.linalg.eigen.arpack", check.WARNING),
    ("from tensorflow.python.ops import array_ops\n", "tf.python.ops.array_ops", check.PROVIDED),
    ("import tensorflow.python.no_such_package.x as x\n", "tf.python.no_such_package", check.UNSUPPORTED),
    ("from numpy import float_\n", "np.float_", check.WARNING),
    ("try:\n  import tensorflow as tf\nexcept ImportError:\n  tf = None\ntf.contrib.rnn.GRUCell",
     "tf.contrib.rnn.GRUCell", check.PROVIDED),
])
def test_import_lines_and_uses_are_judged_as_the_runner_would(source, symbol, status):
  statuses = {}
  for f in check.check_source(source):
    statuses.setdefault(f.symbol, set()).add(f.status)
  assert status in statuses.get(symbol, set()), statuses


def test_every_numpy_removal_is_really_gone_from_the_installed_numpy():
  with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    present = [name for name in hazards.NUMPY_REMOVED if hasattr(np, name)]
  assert not present


def test_every_tf1_removal_is_missing_from_tf_compat_v1_and_its_fix_exists():
  resolver = check.Resolver()
  for name, fix in hazards.TF_REMOVED.items():
    with pytest.raises(AttributeError):
      obj = tf.compat.v1
      for part in name.split("."):
        obj = getattr(obj, part)
    assert resolver.resolve("tf." + name)[1] == check.UNSUPPORTED, name
    replacement = fix.split()[0]
    if replacement.startswith("tf.") and not replacement.startswith("tf.contrib"):
      assert resolver.resolve(replacement)[1] == check.RUNS, (name, replacement)


_NAMESPACES = ["", "nn", "train", "app", "summary", "data", "image", "losses"]


@pytest.fixture(scope="module")
def fresh_tf_compat_v1_names():
  # dir() of each namespace in a fresh interpreter: in this one, an earlier test's import of a TF submodule
  # (tf.compat.v1.nn.rnn_cell's) binds it on its parent package too, a name TF's API does not list
  code = textwrap.dedent("""
      import json, sys
      import tensorflow as tf
      found = {}
      for namespace in sys.argv[1:]:
          real = tf.compat.v1
          for part in filter(None, namespace.split(".")):
              real = getattr(real, part)
          found[namespace] = sorted(n for n in dir(real) if not n.startswith("_"))
      print(json.dumps(found))
      """)
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
  proc = subprocess.run([sys.executable, "-c", code] + _NAMESPACES, capture_output=True, text=True, env=env,
                        timeout=300, check=True)
  return {k: set(v) for k, v in json.loads(proc.stdout.strip().splitlines()[-1]).items()}


@pytest.mark.parametrize("namespace", _NAMESPACES)
def test_the_static_index_agrees_with_the_imported_tf_compat_v1(namespace, fresh_tf_compat_v1_names):
  index = api_index.ApiIndex()
  parts = namespace.split(".") if namespace else []
  public = fresh_tf_compat_v1_names[namespace]
  depth, kind = index.lookup("compat.v1", parts)
  assert depth == len(parts) and kind == api_index.NAMESPACE
  static = {n for n in index._root("compat.v1").entries()} if not parts else None  # pylint: disable=protected-access
  namespace_obj = index._root("compat.v1")  # pylint: disable=protected-access
  for part in parts:
    namespace_obj = namespace_obj.child(part)
  static = {n for n in namespace_obj.entries() if not n.startswith("_")}
  assert public - static == set(), "names TF has that the index misses"
  assert static - public == set(), "names the index invents"


def test_check_does_not_import_tensorflow_and_prints_no_tf_log_lines(project):
  code = textwrap.dedent("""
      import sys, time
      start = time.perf_counter()
      from tf1clip import cli
      status = cli.main(["check", sys.argv[1]])
      assert "tensorflow" not in sys.modules, sorted(m for m in sys.modules if m.startswith("tensorflow"))
      assert "tf_keras" not in sys.modules
      print("STATUS", status, "SECONDS", time.perf_counter() - start)
      """)
  env = dict(os.environ, PYTHONPATH=REPO)
  env.pop("TF_CPP_MIN_LOG_LEVEL", None)
  process = subprocess.run([sys.executable, "-c", code, project], capture_output=True, text=True,
                           env=env, check=False)
  assert process.returncode == 0, process.stderr
  assert "STATUS 1" in process.stdout
  assert process.stderr == ""


def test_catalog_names_check_and_runner_agree_on_import_lines():
  # Every provided contrib submodule imports; every TF 1.15 submodule imports as a stand-in; others fail.
  for module in sorted(catalog.PROVIDED_SUBMODULES):
    assert check.Resolver().resolve("tf.contrib." + module, "import")[1] == check.PROVIDED, module
  for module in sorted(catalog.TF115_SUBMODULES - catalog.PROVIDED_SUBMODULES):
    assert check.Resolver().resolve("tf.contrib." + module, "import")[1] == check.RUNS, module
  assert check.Resolver().resolve("tf.contrib.not_a_module", "import")[1] == check.UNSUPPORTED


def test_every_call_warning_names_a_function_that_exists():
  for symbol in hazards.CALL_WARNINGS:
    if symbol.startswith("tf."):
      assert check.Resolver().resolve(symbol)[1] == check.RUNS, symbol
    else:
      assert hasattr(np, symbol.split(".", 1)[1]), symbol


def test_the_static_index_reads_a_library_namespace_tensorflow_estimator():
  # What check uses once the facade serves tf.estimator from tensorflow-estimator (LIBRARY_NAMESPACES).
  index = api_index.ApiIndex()
  assert index.lookup("library:estimator", ["DNNClassifier"]) == (1, api_index.OBJECT)
  assert index.lookup("library:estimator", ["tpu", "TPUEstimator"]) == (2, api_index.OBJECT)
  assert index.lookup("library:estimator", ["BoostedTreesClassifier"]) == (0, api_index.NAMESPACE)

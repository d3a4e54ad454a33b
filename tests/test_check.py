"""`tf1clip check script.py`: what of a script's TF1 API will run, read from its source (no execution).

Runs in the test process: check never imports the facade, so nothing here leaves eager mode.
"""

import glob
import io
import os

import pytest

from tf1clip import cli
from tf1clip.tools import check
from tf1clip.tools import check_project
from tf1clip.contrib import catalog

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(REPO, "tests", "fixtures", "legacy")


def _check(*names):
  out = io.StringIO()
  status = check_project.main([os.path.join(FIXTURES, n) for n in names], show_all=True, out=out)
  return status, out.getvalue()


def _statuses(source):
  return {f.symbol: f.status for f in check.check_source(source)}


def _line(report, symbol):
  lines = [l for l in report.splitlines() if (" %s " % symbol) in l + " " and l.startswith("  line")]
  assert lines, "%s not reported in:\n%s" % (symbol, report)
  return lines[0]


def test_check_passes_the_contrib_script_that_run_executes():
  status, report = _check("contrib_script.py")
  assert status == 0, report
  for symbol in ("tf.contrib.rnn", "tf.contrib.rnn.GRUCell", "tf.contrib.layers.xavier_initializer",
                 "tf.contrib.legacy_seq2seq", "tf.contrib.framework.get_or_create_global_step",
                 "tf.contrib.estimator.clip_gradients_by_norm", "tf.contrib.opt.LazyAdamOptimizer",
                 "tf.contrib.training.HParams", "tf.contrib.layers.optimize_loss"):
    assert check.PROVIDED in _line(report, symbol)
  assert check.RUNS in _line(report, "tf.placeholder")
  assert "0 not supported" in report.splitlines()[0]


def test_check_sees_tf_keras_namespaces_user_modules_and_flags():
  status, report = _check("tf1_script.py", "legacy_helpers.py")
  assert status == 0, report
  assert check.PROVIDED in _line(report, "tf.layers.dense")
  assert check.PROVIDED in _line(report, "tf.nn.rnn_cell.BasicLSTMCell")
  assert check.PROVIDED in _line(report, "tf.keras")  # from tensorflow import keras
  for symbol in ("tf.app.flags", "tf.logging.info", "tf.gfile.GFile", "tf.train.Saver",
                 "tf.nn.dynamic_rnn", "tf.app.run", "tf.placeholder"):
    assert check.RUNS in _line(report, symbol)


def test_check_names_unsupported_symbols_with_replacements_and_fails():
  status, report = _check("unsupported_contrib.py")
  assert status == 1
  line = _line(report, "tf.contrib.tpu.keras_to_tpu_model")
  assert check.UNSUPPORTED in line and "tf.distribute.TPUStrategy" in line
  assert check.UNSUPPORTED in _line(report, "tf.contrib.no_such_module")
  assert check.UNSUPPORTED not in _line(report, "tf.contrib.cloud")
  assert "gs://" in _line(report, "tf.contrib.cloud.BigQueryReader")
  assert "guarded" in _line(report, "tf.contrib.cloud.BigQueryReader")
  # TF 1.15's module paths: served by compat.paths, and refused with the run's own message (issue #35 step 6)
  assert "SWIG" in _line(report, "tf.python.pywrap_tensorflow.AddControlInput")
  assert check.UNSUPPORTED in _line(report, "tf.python.pywrap_tensorflow.AddControlInput")
  assert "guarded by try/except" in report.splitlines()[0]


def test_check_judges_tf115_module_paths_as_the_run_does():
  statuses = _statuses("from tensorflow.contrib.layers.python.layers import utils, batch_norm\n"
                       "from tensorflow.python.util import nest\n"
                       "nest.is_sequence([1])\n"
                       "from tensorflow.python.pywrap_tensorflow import AddControlInput\n"
                       "import tensorflow.contrib.layers.python.no_such_module\n")
  for symbol in ("tf.contrib.layers.python.layers.utils", "tf.contrib.layers.python.layers.batch_norm",
                 "tf.python.util.nest.is_sequence"):
    assert statuses[symbol] == check.PROVIDED, (symbol, statuses)
  assert statuses["tf.python.pywrap_tensorflow.AddControlInput"] == check.UNSUPPORTED
  assert statuses["tf.contrib.layers.python.no_such_module"] == check.UNSUPPORTED


def test_the_check_command_exits_non_zero_when_a_script_uses_something_unsupported(capsys):
  # The exit status is what CI sees: `tf1clip check` itself, not just check.main, must fail.
  supported = os.path.join(FIXTURES, "contrib_script.py")
  unsupported = os.path.join(FIXTURES, "unsupported_contrib.py")
  assert cli.main(["check", supported]) == 0
  assert cli.main(["check", supported, unsupported]) == 1
  assert cli.main(["check", unsupported, os.path.join(FIXTURES, "syntax_error.py")]) == 2
  assert "tf.contrib.tpu.keras_to_tpu_model" in capsys.readouterr().out


def test_check_reports_unreadable_and_unparsable_files_with_status_2(capsys):
  status, report = _check("syntax_error.py")
  assert status == 2
  assert "syntax_error.py: cannot parse: '(' was never closed (line 4)" in report
  status, report = _check("no_such_script.py")
  assert status == 2
  assert "no_such_script.py: no such file or directory" in capsys.readouterr().err


@pytest.mark.parametrize("header, use", [
    ("import tensorflow as tf", "tf.contrib.rnn.BasicLSTMCell"),
    ("import tensorflow.compat.v1 as tf", "tf.contrib.rnn.BasicLSTMCell"),
    ("import tf1clip.compat.v1 as tf", "tf.contrib.rnn.BasicLSTMCell"),
    ("from tf1clip.compat import v1 as tf", "tf.compat.v1.contrib.rnn.BasicLSTMCell"),
    ("import tensorflow", "tensorflow.contrib.rnn.BasicLSTMCell"),
    ("from tensorflow.contrib import rnn", "rnn.BasicLSTMCell"),
    ("import tensorflow.contrib.rnn as contrib_rnn", "contrib_rnn.BasicLSTMCell"),
    ("import tensorflow as tf\nrnn = tf.contrib.rnn", "rnn.BasicLSTMCell"),
    ("from tensorflow.contrib.rnn import BasicLSTMCell", "BasicLSTMCell"),
])
def test_check_follows_every_import_alias(header, use):
  statuses = _statuses("%s\ncell = %s(8)\n" % (header, use))
  assert statuses["tf.contrib.rnn.BasicLSTMCell"] == check.PROVIDED


def test_check_reports_the_object_not_its_methods_and_looks_names_up_in_tf_compat_v1():
  statuses = _statuses(
      "import tensorflow as tf\n"
      "tf.train.AdamOptimizer(0.1).minimize\n"
      "tf.float32.max\n"
      "tf.nn.no_such_op\n"
      "tf.nn.__doc__\n"
      "from tensorflow.python.ops import array_ops\n"
      "array_ops.__name__\n"
      "tf.__version__\n")
  assert statuses == {
      "tf.train.AdamOptimizer": check.RUNS, "tf.float32": check.RUNS,
      "tf.nn.no_such_op": check.UNSUPPORTED, "tf.nn": check.RUNS,  # a dunder is a use of its module
      # TF 1.15's module paths, served by compat.paths (the `from tensorflow.python.ops import` line itself)
      "tf.python.ops": check.PROVIDED, "tf.python.ops.array_ops": check.PROVIDED, "tf.__version__": check.RUNS}


def test_check_agrees_with_the_contrib_catalogue():
  for symbol in catalog.provided_names():
    assert _statuses("import tensorflow as tf\n%s\n" % symbol)[symbol] == check.PROVIDED, symbol
  for symbol in ("tf.contrib.tpu.keras_to_tpu_model", "tf.contrib.tpu.TPUDistributionStrategy",
                 "tf.contrib.memory_stats.BytesLimit", "tf.contrib.text.skip_gram_sample"):
    assert _statuses("import tensorflow as tf\n%s\n" % symbol)[symbol] == check.UNSUPPORTED, symbol


def test_check_passes_the_legacy_examples(capsys):
  scripts = sorted(glob.glob(os.path.join(REPO, "examples", "legacy", "*.py")))
  assert scripts
  assert cli.main(["check", "--all"] + scripts) == 0
  report = capsys.readouterr().out
  assert check.PROVIDED in _line(report, "tf.contrib.legacy_seq2seq.sequence_loss_by_example")
  assert check.RUNS in _line(report, "tf.clip_by_global_norm")


def test_check_of_a_symlink_loop_says_so(tmp_path, capsys):
  (tmp_path / "a.py").symlink_to(tmp_path / "b.py")
  (tmp_path / "b.py").symlink_to(tmp_path / "a.py")
  assert check_project.main([str(tmp_path / "a.py")]) == 2
  assert "a.py: a symbolic link loop" in capsys.readouterr().err


def test_check_reports_tf1clip_modules_below_a_namespace_tf_keras_serves():
  statuses = _statuses("import tensorflow as tf\n"
                       "from tensorflow.keras.wrappers.scikit_learn import KerasClassifier\n"
                       "tf.keras.wrappers.scikit_learn.KerasRegressor\n"
                       "tf.keras.layers.Dense\n"
                       "tf.keras.no_such_module\n")
  assert statuses["tf.keras.wrappers.scikit_learn"] == check.PROVIDED
  assert statuses["tf.keras.layers.Dense"] == check.PROVIDED
  assert statuses["tf.keras.no_such_module"] == check.UNSUPPORTED

"""A TF1 project run the way it is run: `tf1clip run -m` / `-c`, `tf1clip exec` (shell scripts, children,
multiprocessing workers) and notebooks (`tf1clip run x.ipynb`, `%load_ext tf1clip`); `tf1clip check` of the same."""

import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAUNCH = os.path.join(ROOT, "tests", "fixtures", "launch")
NOTEBOOK = os.path.join(ROOT, "tests", "fixtures", "notebook", "tf1_regression.ipynb")


def _tf1clip(*args, cwd=LAUNCH, **kwargs):
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONWARNINGS="ignore")
  return subprocess.run([sys.executable, "-m", "tf1clip"] + list(args), cwd=cwd, capture_output=True, text=True,
                        env=env, timeout=600, **kwargs)


def test_run_m_runs_a_package_with_relative_imports_like_python_m():
  proc = _tf1clip("run", "-m", "pkg.main", "--n", "4")
  # main.py's `from . import inference` works; __package__ and argv[0] as `python -m` sets them; the
  # package's own modules get the TF1 API (placeholder, contrib, graph mode); tf.app.run's exit code.
  assert proc.returncode == 3, proc.stderr[-2000:]
  assert "argv0 True package pkg shape [None, 2] eager False" in proc.stdout
  failed = _tf1clip("run", "-m", "pkg.main", "--n", "7")
  assert failed.returncode == 1
  assert "pkg/main.py" in failed.stderr and failed.stderr.rstrip().endswith("ValueError: seven")
  missing = _tf1clip("run", "-m", "pkg.no_such_module")
  plain = subprocess.run([sys.executable, "-m", "pkg.no_such_module"], cwd=LAUNCH, capture_output=True, text=True)
  assert missing.returncode == plain.returncode == 1
  assert "No module named pkg.no_such_module" in missing.stderr and "No module named pkg.no_such_module" in plain.stderr


def test_run_c_gives_the_code_the_tf1_api_and_pythons_argv():
  proc = _tf1clip("run", "-c", "import sys, tensorflow as tf; print(sys.argv, tf.executing_eagerly(), "
                  "tf.contrib.layers.flatten(tf.placeholder(tf.float32, [None, 2, 2])).shape.as_list())", "x")
  assert proc.returncode == 0, proc.stderr[-2000:]
  assert proc.stdout.strip() == "['-c', 'x'] False [None, 4]"


@pytest.mark.parametrize("start", ["spawn", "fork"])
def test_exec_runs_a_shell_script_of_two_tf1_scripts_with_pool_workers_and_children(start):
  proc = _tf1clip("exec", "--", "./train.sh", start)
  # first_tf1.py, then pool_tf1.py: its Pool workers build TF1 graphs, its subprocess child runs
  # first_tf1.py again; the script's exit status 5 comes through the shell script and tf1clip exec.
  assert proc.returncode == 5, proc.stdout + proc.stderr[-3000:]
  assert proc.stdout.splitlines() == ["a False [None, 6] ['first']", "b %s [[None, 2], [None, 3]]" % start,
                                      "a False [None, 6] ['child']"]


def test_exec_of_a_missing_command_exits_127_naming_it_and_plain_python_is_untouched():
  proc = _tf1clip("exec", "--", "no-such-command-here")
  assert proc.returncode == 127 and "no-such-command-here: command not found" in proc.stderr
  # Without tf1clip exec the same script fails as it always did (TF2: no tf.placeholder, no tf.contrib).
  plain = subprocess.run([sys.executable, "first_tf1.py"], cwd=LAUNCH, capture_output=True, text=True)
  assert plain.returncode == 1


def test_run_notebook_executes_tf1_cells_in_order():
  proc = _tf1clip("run", NOTEBOOK)
  assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
  assert "graph mode: True" in proc.stdout and "final loss 0.0000" in proc.stdout
  assert "np.float_ is float64" in proc.stdout


def test_run_notebook_names_the_failing_cell_and_bad_json(tmp_path):
  broken = json.load(open(NOTEBOOK))
  broken["cells"][3]["source"] = "tf.contrib.no_such_module.thing"
  path = tmp_path / "broken.ipynb"
  path.write_text(json.dumps(broken))
  proc = _tf1clip("run", str(path))
  assert proc.returncode == 1
  assert "broken.ipynb: cell 4 failed" in proc.stderr and "tf.contrib.no_such_module" in proc.stdout + proc.stderr
  bad = tmp_path / "bad.ipynb"
  bad.write_text('{"cells": [\n  {"cell_type": "code",,}\n]}')
  proc = _tf1clip("run", str(bad))
  assert proc.returncode == 2 and "bad.ipynb: not a notebook: invalid JSON at line 2, column 24" in proc.stderr


def test_load_ext_tf1clip_gives_ipython_cells_the_tf1_api():
  code = ("import json, os\nfrom IPython.core.interactiveshell import InteractiveShell\n"
          "shell = InteractiveShell.instance(colors='NoColor')\n"
          "shell.run_line_magic('load_ext', 'tf1clip')\n"
          "for cell in json.load(open(%r))['cells']:\n"
          "  if cell['cell_type'] == 'code':\n"
          "    assert shell.run_cell(''.join(cell['source'])).success\n" % NOTEBOOK)
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONWARNINGS="ignore")
  proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600,
                        cwd=os.path.dirname(NOTEBOOK))
  assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
  assert "graph mode: True" in proc.stdout and "final loss" in proc.stdout


def test_import_tf1clip_alone_changes_nothing():
  code = ("import tf1clip, numpy as np, sys\n"
          "assert not hasattr(np, 'NaN') and 'tensorflow' not in sys.modules\n"
          "assert callable(tf1clip.load_ipython_extension)\n")
  assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_check_follows_m_modules_notebooks_and_shell_scripts(tmp_path):
  proc = _tf1clip("check", "-m", "pkg.main")
  assert proc.returncode == 0 and "3 file(s)" in proc.stdout
  proc = _tf1clip("check", NOTEBOOK, "--all")
  assert proc.returncode == 0 and "tf.contrib.layers.fully_connected" in proc.stdout
  assert "tf1_regression.ipynb" in proc.stdout
  script = tmp_path / "odd.sh"
  script.write_text("#!/bin/bash\npython %s/first_tf1.py\nfor f in $FILES; do python \"$f\"; done\n" % LAUNCH)
  proc = _tf1clip("check", str(script))
  assert "follows" in proc.stdout and "first_tf1.py" in proc.stdout
  assert "odd.sh:3: could not follow: for f in $FILES" in proc.stdout
  proc = _tf1clip("check", "-m", "pkg.nothing_here")
  assert proc.returncode == 2 and "No module named pkg.nothing_here" in proc.stderr

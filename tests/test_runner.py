"""`tf1clip run script.py`: legacy scripts run unchanged, and behave as under `python script.py`.

Every run is a subprocess (the runner switches its process to graph mode); each run checks as much
as one process can show, because importing TensorFlow costs seconds.
"""

import json
import os
import re
import subprocess
import sys

import pytest

from tf1clip.compat import importer

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(REPO, "tests", "fixtures", "legacy")
EXAMPLES = os.path.join(REPO, "examples", "legacy")

# TensorFlow's C++ start-up lines (printed before its logging is configured) are not the script's.
_TF_NOISE = re.compile(
    r"^(WARNING: All log messages before absl::InitializeLog\(\)|[IWEF]\d{4} [\d:.]+ +\d+ \S+:\d+\])")


def _run(args, cwd=FIXTURES):
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
  env.pop("TF_USE_LEGACY_KERAS", None)  # as in a user's shell: the runner must set it itself
  proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=env, timeout=600)
  stderr = "".join(line for line in proc.stderr.splitlines(True) if not _TF_NOISE.match(line))
  return proc.returncode, proc.stdout, stderr


def tf1clip_run(script, *args, cwd=FIXTURES):
  return _run([sys.executable, "-m", "tf1clip", "run", script, *args], cwd=cwd)


def python_run(script, *args, cwd=FIXTURES):
  return _run([sys.executable, script, *args], cwd=cwd)


def _result(stdout):
  lines = [line for line in stdout.splitlines() if line.startswith("RESULT ")]
  assert len(lines) == 1, stdout
  return json.loads(lines[0][len("RESULT "):])


@pytest.mark.parametrize("mode", ["raise", "exit_message"])
def test_failing_script_gives_pythons_exit_status_output_and_traceback(mode):
  expected = python_run("fails.py", mode)
  got = tf1clip_run("fails.py", mode)
  assert expected[0] == 1
  assert got == expected
  if mode == "raise":
    # The traceback goes through the user's import of a failing module, without tf1clip frames.
    assert "fails_helper.py\", line 4, in <module>" in got[2]
    assert "tf1clip" not in got[2]


def test_syntax_error_is_reported_as_python_reports_it():
  expected = python_run("syntax_error.py")
  got = tf1clip_run("syntax_error.py")
  assert expected[0] == 1 and "SyntaxError" in expected[2]
  assert got == expected


def test_missing_script_exits_2_with_pythons_message():
  status, _, err = python_run("no_such_script.py")
  got_status, got_out, got_err = tf1clip_run("no_such_script.py")
  assert (got_status, got_out) == (status, "") == (2, "")
  message = "can't open file %r: [Errno 2] No such file or directory" % os.path.join(
      FIXTURES, "no_such_script.py")
  assert message in err and got_err.strip() == "tf1clip run: " + message


def test_tf1_script_gets_flags_logging_gfile_layers_and_libraries_keep_tf2(tmp_path):
  status, out, err = tf1clip_run(
      "tf1_script.py", "--steps", "3", "--run_name", "r7", "--exit_code", "7",
      "--out_dir", str(tmp_path), "extra_arg")
  assert status == 7, err  # main()'s return value, through tf.app.run's sys.exit
  result = _result(out)
  script = os.path.join(FIXTURES, "tf1_script.py")
  assert result["argv"] == ["tf1_script.py", "--steps", "3", "--run_name", "r7", "--exit_code", "7",
                            "--out_dir", str(tmp_path), "extra_arg"]
  assert result["main_argv"] == ["tf1_script.py", "extra_arg"]  # tf.app.run passes the unparsed rest
  assert (result["name"], result["file"], result["path0"]) == ("__main__", script, FIXTURES)
  assert (result["steps"], result["run_name"]) == (3, "r7")
  assert "INFO:tensorflow:run r7: 3 steps" in err
  assert result["eager"] is False and result["compat_v1_is_tf"] is True
  assert result["keras"] == result["helpers"]["keras"] == "tf_keras.api._v1.keras"
  assert result["layer_variables"] == ["hidden/bias", "hidden/kernel"]
  assert result["losses"][-1] < result["losses"][0]
  assert result["saved"] == "model.ckpt-3" and (tmp_path / "model.ckpt-3.index").exists()
  assert result["gfile"] == ["hello", True, ["note.txt"]]
  # The user's module next to the script got the TF1 API ...
  assert result["helpers"]["has_placeholder"] and result["helpers"]["has_contrib"]
  # ... and the library (under a site-packages folder, even inside the script's directory) real TF 2.
  # Its tf.keras is tf-keras as well: the runner set TF_USE_LEGACY_KERAS before TensorFlow chose.
  assert result["thirdparty"] == {
      "version": "2.21.0", "is_sys_modules_tensorflow": True, "has_placeholder": False,
      "has_function": True, "has_contrib": False, "keras": "tf_keras.api._v2.keras"}


def test_every_provided_contrib_module_runs_in_a_legacy_script():
  status, out, err = tf1clip_run("contrib_script.py")
  assert status == 0, err
  result = _result(out)
  losses = result["losses"]
  assert losses[7] < losses[0] and losses[8] < losses[0]
  assert result["global_step"] == 9  # 8 clipped LazyAdam steps + 1 optimize_loss step
  assert result["learning_rate"] == 0.05  # HParams.parse
  assert [n for n in result["model_variables"] if "Adam" not in n] == ["proj/biases", "proj/weights"]
  assert result["embedding"] == ["EmbedSequence/embeddings"]
  assert result["rnn_module"] == "tf1clip.contrib.rnn"


def test_unsupported_contrib_symbol_stops_the_script_with_its_name_and_replacement():
  status, out, err = tf1clip_run("unsupported_contrib.py")
  assert status == 1
  lines = out.splitlines()
  assert lines[0] == ("IMPORT_ERROR tf.contrib.tpu.keras_to_tpu_model is not provided by tf1clip; "
                      "use instead: tf.distribute.TPUStrategy with Keras")
  assert lines[1].startswith("IMPORT_ERROR tf.contrib.no_such_module is not provided by tf1clip")
  assert lines[2].startswith("IMPORT_ERROR tf.contrib.cloud.BigQueryReader is not provided")
  assert lines[3] == "NOT_FOUND NotFoundError"
  assert lines[4].startswith(
      "IMPORT_ERROR tensorflow.python.pywrap_tensorflow.AddControlInput (TensorFlow 1.15's function) is not "
      "provided by tf1clip: it was TF 1.15's SWIG binding")
  assert lines[5:] == ["building the model"]  # and nothing after the failing line
  script = os.path.join(FIXTURES, "unsupported_contrib.py")
  with open(script) as f:
    failing_line = 1 + [l.startswith("model = ") for l in f].index(True)
  traceback_lines = err[err.index("Traceback"):].splitlines()
  frames = [l for l in traceback_lines if l.startswith("  File ")]
  assert frames == ['  File "%s", line %d, in <module>' % (script, failing_line)]
  assert traceback_lines[-1].endswith(
      "ContribNotProvidedError: tf.contrib.tpu.keras_to_tpu_model is not provided by tf1clip; "
      "use instead: tf.distribute.TPUStrategy with Keras")


def test_old_tf_test_main_file_runs_its_test_cases():
  status, out, err = tf1clip_run("legacy_testcase.py")
  assert status == 0, err
  assert re.search(r"^Ran 5 tests in", err, re.M) and "\nOK" in err
  for name in ("testClipByGlobalNormInTestSession", "testHalfPrecisionUsesHalfTolerance",
               "testPlaceholdersInGraphMode", "testOpErrorsAndOldAliases"):
    assert "[       OK ] LegacyOpsTest." + name in err


def test_char_rnn_example_trains_then_samples_from_its_checkpoint(tmp_path):
  save_dir = str(tmp_path / "save")
  status, out, err = tf1clip_run(
      os.path.join(EXAMPLES, "char_rnn_train.py"), "--save_dir", save_dir, "--max_steps", "3",
      "--rnn_size", "16", "--num_layers", "1", "--seq_length", "8", "--batch_size", "4")
  assert status == 0, err
  assert re.search(r"^3/3 \(epoch 0\), train_loss = \d+\.\d+", out, re.M), out
  assert os.path.exists(os.path.join(save_dir, "model.ckpt-3.index"))
  assert os.listdir(os.path.join(save_dir, "logs"))  # the tf.summary.FileWriter's run directory
  status, out, err = tf1clip_run(
      os.path.join(EXAMPLES, "char_rnn_sample.py"), "--save_dir", save_dir, "--n", "40",
      "--prime", "The ")
  assert status == 0, err
  assert "Restoring parameters from %s" % os.path.join(save_dir, "model.ckpt-3") in err
  assert out.startswith("The ") and len(out) == len("The ") + 40 + 1  # print()'s newline


def test_monitored_regression_example_trains_and_resumes_from_its_checkpoint(tmp_path):
  model_dir = str(tmp_path / "model")
  script = os.path.join(EXAMPLES, "regression_monitored.py")
  status, out, err = tf1clip_run(script, "--model_dir", model_dir, "--max_steps", "30")
  assert status == 0, err
  assert out.splitlines() == ["trained to step 30; checkpoints in %s" % model_dir]
  logged = {int(step): float(loss) for loss, step in
            re.findall(r"^INFO:tensorflow:loss = ([\d.]+), step = (\d+)", err, re.M)}
  steps = sorted(logged)  # LoggingTensorHook, every 20 iterations
  assert len(steps) == 2 and logged[steps[1]] < logged[steps[0]], err
  assert os.path.exists(os.path.join(model_dir, "model.ckpt-30.index"))
  # Run again with a higher --max_steps: MonitoredTrainingSession restores step 30 and goes on.
  status, _, err = tf1clip_run(script, "--model_dir", model_dir, "--max_steps", "40")
  assert status == 0, err
  assert "Restoring parameters from %s" % os.path.join(model_dir, "model.ckpt-30") in err
  assert os.path.exists(os.path.join(model_dir, "model.ckpt-40.index"))


def test_only_the_users_own_files_are_legacy_code(tmp_path):
  script_dir = tmp_path / "project"
  legacy = importer.LegacyImporter(str(script_dir))
  assert legacy.is_legacy_file(str(script_dir / "train.py"))
  assert legacy.is_legacy_file(str(script_dir / "models" / "lstm.py"))
  assert not legacy.is_legacy_file(str(script_dir / "venv" / "lib" / "site-packages" / "lib.py"))
  assert not legacy.is_legacy_file(str(tmp_path / "elsewhere.py"))
  import tf1clip  # pylint: disable=import-outside-toplevel
  assert not importer.LegacyImporter(REPO).is_legacy_file(tf1clip.__file__)
  # The virtualenv may live inside the project; its files are libraries.
  assert not importer.LegacyImporter(REPO).is_legacy_file(os.path.join(sys.prefix, "lib", "x.py"))


def test_tensorflows_cpp_start_up_lines_are_off_unless_asked_for(tmp_path):
  script = tmp_path / "quiet.py"
  script.write_text("import sys, warnings\nimport tensorflow as tf\nprint(tf.Session().run(tf.constant(3)))\n"
                    "warnings.warn('the script warns')\nsys.stderr.write('the script writes\\n')\n")
  env = {k: v for k, v in os.environ.items() if k not in ("TF_CPP_MIN_LOG_LEVEL", "TF1CLIP_TF_LOG")}
  quiet = subprocess.run([sys.executable, "-m", "tf1clip", "run", str(script)], capture_output=True, text=True,
                         env=env)
  assert quiet.returncode == 0 and quiet.stdout == "3\n"
  assert "absl::InitializeLog" not in quiet.stderr and "I0000" not in quiet.stderr and "cuInit" not in quiet.stderr
  assert "UserWarning: the script warns" in quiet.stderr and "the script writes" in quiet.stderr
  loud = subprocess.run([sys.executable, "-m", "tf1clip", "run", "--verbose", str(script)], capture_output=True,
                        text=True, env=env)
  # (which start-up lines TensorFlow prints depends on the CPU: oneDNN's and cpu_feature_guard's are not on every one)
  assert loud.returncode == 0 and "absl::InitializeLog" in loud.stderr and "I0000" in loud.stderr
  assert "failed call to cuInit" not in loud.stderr  # replaced by tf1clip's one plain line, where there is no GPU


def test_the_shutdown_rendezvous_lines_are_dropped_and_real_errors_kept(monkeypatch):
  from tf1clip.compat import quiet  # pylint: disable=import-outside-toplevel
  monkeypatch.delenv("TF1CLIP_TF_LOG", raising=False)
  lines = [b"W0000 00:00:1795641780.256617   16321 local_rendezvous.cc:412] Local rendezvous is aborting with "
           b"status: CANCELLED: TakeGrad operation was cancelled\n",
           b"\t [[{{node mnist_sync_replicas/ResourceAccumulatorTakeGradient_1}}]] [type.googleapis.com/x='']\n",
           b"worker 0: done\n",
           b"\t [[{{node a_real_error_context}}]]\n",  # not after a dropped line: kept
           b"E0000 00:00:1795641780.2 16321 session.cc:1] Internal: a real error\n"]
  assert quiet._kept(lines, {}) == lines[2] + lines[3] + lines[4]  # pylint: disable=protected-access
  monkeypatch.setenv("TF1CLIP_TF_LOG", "1")
  assert quiet._kept(lines, {}) == b"".join(lines)  # pylint: disable=protected-access


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_spawned_workers_get_the_facade(method):
  # A "spawn" or "forkserver" worker is a new interpreter that re-imports the script: it must get the TF1
  # API as the parent does (without compat.children: "module 'tensorflow' has no attribute 'placeholder'").
  code, out, err = tf1clip_run("spawn_workers.py", method)
  assert code == 0, err
  assert out.strip() == "%s [4.0, 6.0, 8.0]" % method

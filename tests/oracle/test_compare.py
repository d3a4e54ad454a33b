"""`tf1clip compare`: the same script on TF 1.15 and under `tf1clip run`, from the same initial weights.

It agrees on an unchanged script, and on a planted one-line change that only tf1clip's side sees (a stand-in
for a tf1clip bug) it fails naming the variables and the first checkpoint step where they diverged; bad input
gets a message naming the side or the argument.
"""

import os
import shutil
import subprocess
import sys

from harness import REPO, oracle_python, requires_tf115

TINY = os.path.join(REPO, "tests", "fixtures", "compare", "tiny_train.py")


def _compare(*args):
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
  return subprocess.run([sys.executable, "-m", "tf1clip", "compare"] + list(args), capture_output=True,
                        text=True, env=env, timeout=600)


@requires_tf115
def test_compare_agrees_on_an_unchanged_script_and_names_a_planted_difference(tmp_path):
  planted = tmp_path / "tiny_train.py"
  text = open(TINY).read()
  line = "  learning_rate = FLAGS.learning_rate\n"
  assert line in text
  planted.write_text(text.replace(line, line + "  learning_rate *= 1.5 if 'tf1clip' in sys.modules else 1\n")
                     .replace("import os\n", "import os\nimport sys\n"))
  same = _compare("--tf115", oracle_python(), TINY, "--save_dir", "{out}")
  assert same.returncode == 0, same.stdout + same.stderr
  assert "15 of 15 variables agree" in same.stdout and "model.ckpt-12" in same.stdout
  differs = _compare("--tf115", oracle_python(), str(planted), "--save_dir", "{out}")
  assert differs.returncode == 1, differs.stdout + differs.stderr
  rows = {line.split()[0]: line for line in differs.stdout.splitlines() if line.startswith(("hidden/", "out/"))}
  assert "DIFFERS" in rows["hidden/kernel"] and "step 4" in rows["hidden/kernel"], differs.stdout
  assert "differs: " in differs.stdout


@requires_tf115
def test_compare_names_the_side_that_failed_and_its_last_output(tmp_path):
  broken = tmp_path / "broken.py"
  broken.write_text(open(TINY).read().replace(
      "def main(_):\n", "def main(_):\n  import sys\n  if 'tf1clip' in sys.modules:\n"
      "    raise RuntimeError('planted failure under tf1clip')\n"))
  proc = _compare("--tf115", oracle_python(), str(broken), "--save_dir", "{out}")
  assert proc.returncode == 1
  assert "the tf1clip run failed" in proc.stderr and "planted failure under tf1clip" in proc.stderr


def test_compare_rejects_a_missing_interpreter_and_a_missing_out_placeholder(tmp_path):
  proc = _compare("--tf115", str(tmp_path / "no-python3.7"), TINY, "--save_dir", "{out}")
  assert proc.returncode == 2 and "no such interpreter" in proc.stderr
  proc = _compare("--tf115", sys.executable, TINY, "--save_dir", str(tmp_path))
  assert proc.returncode == 2 and "{out}" in proc.stderr

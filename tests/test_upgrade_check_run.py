"""`tf1clip upgrade --check-run` compares what matters; stage 1 rewrites the NumPy / SciPy removals it can name.

- tools.run_output: timestamps, durations and the runs' folders are masked; printed numbers are compared within
  the tolerance, and a real difference is still caught.
- a program that writes into `./runs/<timestamp>` and prints timestamps, without a checkpoint: the check-run
  compares its printed numbers and says so (a doctored copy fails).
- a program whose own package comes from PYTHONPATH or a `sys.path` edit: that package is upgraded alongside
  and the copy imports it; a `sys.path` edit that cannot be evaluated refuses the check-run, naming the line.
- `--stage 4` / `--stage 5`: usage errors with a message naming the stages there are.
- stage 1's SciPy / NumPy-1 rewrites: the copy runs under plain python and prints what `tf1clip run` of the
  original prints.
"""

import io
import os
import subprocess
import sys
import textwrap

import pytest

from tf1clip import cli
from tf1clip.tools import program_modules
from tf1clip.tools import run_output
from tf1clip.tools import upgrade
from tf1clip.tools import upgrade_cli


def test_mask_hides_timestamps_durations_and_run_folders():
  a = ("2026-12-02 17:11:03 step 1 loss 0.52341 (0.113 sec/batch) saved /tmp/run_a/runs/20261202-171103/model\n"
       "Wed Dec  2 17:11:03 took 2.5s at 1796230822.45 <obj at 0x7f1d0c1aa0c0>\n")
  b = ("2026-12-02 17:12:59 step 1 loss 0.52341 (0.241 sec/batch) saved /tmp/run_b/runs/20261202-171259/model\n"
       "Wed Dec  2 17:12:59 took 3.0s at 1796230979.01 <obj at 0x7f00aa1bb0c0>\n")
  masked_a, masked_b = run_output.mask(a, ["/tmp/run_a"]), run_output.mask(b, ["/tmp/run_b"])
  assert masked_a == masked_b
  assert "0.52341" in masked_a and "step 1" in masked_a


def test_compare_takes_printed_numbers_within_tolerance_and_catches_a_difference():
  assert run_output.compare("loss 0.5000001\n", "loss 0.5000002\n", rtol=1e-5) == (1, [])
  count, problems = run_output.compare("loss 0.50\nacc 1\n", "loss 0.51\nacc 1\n", rtol=1e-5)
  assert count == 2 and problems == ["printed number 1: 0.50 vs 0.51"]
  _, problems = run_output.compare("loss 0.5\n", "LOSS 0.5\n")
  assert problems and "beyond its numbers" in problems[0]


TIMESTAMPED = textwrap.dedent("""\
    import datetime
    import os
    import time
    import numpy as np
    import tensorflow as tf
    run_dir = os.path.join("runs", datetime.datetime.now().strftime("%Y%m%d-%H%M%S"))
    os.makedirs(run_dir)
    x = tf.placeholder(tf.float32, [None, 2])
    w = tf.get_variable("w", [2, 1])
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    start = time.time()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(3):
            value, _ = sess.run([loss, train], {x: np.ones([4, 2])})
            print("%s step %d loss %.6f (%.3f sec) -> %s" % (datetime.datetime.now(), step, value,
                                                              time.time() - start, os.path.abspath(run_dir)))
    """)


def test_check_run_masks_timestamps_and_run_folders_and_compares_printed_numbers(tmp_path, capsys, monkeypatch):
  monkeypatch.chdir(tmp_path)
  script = tmp_path / "timestamped.py"
  script.write_text(TIMESTAMPED)
  status = cli.main(["upgrade", str(script), "--out", str(tmp_path / "up") + os.sep, "--check-run", ""])
  report = capsys.readouterr().out
  assert status == 0, report
  assert "no checkpoint under {tmp} or the working folder: compared the printed output instead" in report
  assert "3 lines" in report and "they agree" in report
  assert not (tmp_path / "runs").exists()  # each run wrote into its own working folder
  # A copy that computes something else is caught on its printed numbers.
  doctored = tmp_path / "up" / "timestamped.py"
  doctored.write_text(doctored.read_text().replace("minimize(loss)", "minimize(loss * 2.0)"))
  out = io.StringIO()
  assert upgrade_cli.check_run(str(script), str(doctored), [], out=out) == 1
  assert "the outputs differ" in out.getvalue() and "printed number" in out.getvalue()


# tf.compat.v1: `tf1clip run` gives the facade only to code below the script's folder, so the original of a
# PYTHONPATH package must run on TensorFlow's own v1 API.
PACKAGE_MODEL = textwrap.dedent("""\
    import tensorflow.compat.v1 as tf

    def build():
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        w = tf.get_variable("w", [3, 1])
        return x, tf.reduce_sum(tf.matmul(x, w))
    """)
PACKAGE_MAIN = textwrap.dedent("""\
    import os
    import sys
    import numpy as np
    import tensorflow as tf
    {path_edit}
    from mypkg import model
    x, y = model.build()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print("y %.6f" % sess.run(y, {{x: np.ones([2, 3])}}))
    """)


def _program(tmp_path, path_edit):
  lib = tmp_path / "lib" / "mypkg"
  lib.mkdir(parents=True)
  (lib / "__init__.py").write_text("")
  (lib / "model.py").write_text(PACKAGE_MODEL)
  app = tmp_path / "app"
  app.mkdir()
  (app / "main.py").write_text(PACKAGE_MAIN.format(path_edit=path_edit))
  return app / "main.py"


def test_check_run_upgrades_a_package_from_pythonpath_alongside(tmp_path, capsys, monkeypatch):
  main = _program(tmp_path, "")
  monkeypatch.setenv("PYTHONPATH", str(tmp_path / "lib"))
  status = cli.main(["upgrade", str(main), "--out", str(tmp_path / "up") + os.sep, "--check-run", ""])
  report = capsys.readouterr().out
  assert status == 0, report
  assert "upgraded alongside: mypkg" in report and "PYTHONPATH" in report and "they agree" in report
  upgraded = tmp_path / "up" / "_upgraded_path" / "mypkg" / "model.py"
  assert "from tf1clip import compat" in upgraded.read_text() or "tf1clip.compat" in upgraded.read_text()
  assert (tmp_path / "lib" / "mypkg" / "model.py").read_text() == PACKAGE_MODEL  # the original is untouched


def test_check_run_follows_a_sys_path_edit_it_can_evaluate(tmp_path, capsys):
  main = _program(tmp_path, 'sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))')
  status = cli.main(["upgrade", str(main), "--out", str(tmp_path / "up") + os.sep, "--check-run", ""])
  report = capsys.readouterr().out
  assert status == 0, report
  assert "upgraded alongside: mypkg" in report and "sys.path edit" in report


def test_check_run_refuses_a_sys_path_edit_it_cannot_evaluate(tmp_path, capsys):
  main = _program(tmp_path, 'sys.path.insert(0, os.environ.get("MY_LIB", "lib"))')
  status = cli.main(["upgrade", str(main), "--out", str(tmp_path / "up") + os.sep, "--check-run", ""])
  report = capsys.readouterr().out
  assert status == 1
  assert "check-run refused" in report and "main.py:5" in report and "cannot evaluate" in report


def test_program_modules_skips_installed_packages_and_the_upgraded_tree(tmp_path):
  script = tmp_path / "s.py"
  script.write_text("import numpy\nimport helper\nimport sys\nsys.path.append('/nonexistent')\n")
  (tmp_path / "helper.py").write_text("import tensorflow as tf\n")
  found, refusals = program_modules.find([str(script)], str(tmp_path))
  assert [f.name for f in found] == ["helper"] and not refusals
  found, _ = program_modules.find([str(script)], str(tmp_path), inside=[str(tmp_path)])
  assert found == []


@pytest.mark.parametrize("stage", ["4", "5"])
def test_a_stage_this_command_does_not_have_is_a_usage_error(tmp_path, capsys, stage):
  script = tmp_path / "a.py"
  script.write_text("import tensorflow as tf\n")
  with pytest.raises(SystemExit) as raised:
    cli.main(["upgrade", str(script), "--out", str(tmp_path / "up"), "--stage", stage])
  assert raised.value.code == 2
  assert "--stage" in capsys.readouterr().err
  assert not (tmp_path / "up").exists()
  # The same through the function the command calls.
  assert upgrade_cli.main(str(script), str(tmp_path / "up"), stage=int(stage)) == 2
  assert "there is no stage %s" % stage in capsys.readouterr().err
  assert not (tmp_path / "up").exists()


LEGACY_NUMERICS = textwrap.dedent("""\
    import numpy as np
    import scipy.misc
    from scipy.misc import imread, imresize, logsumexp
    from scipy.sparse.linalg.eigen.arpack import eigsh
    a = np.asscalar(np.array([3.5]))
    b = np.asfarray([1, 2])
    c = np.msort(np.array([[3, 1], [1, 2]]))
    scipy.misc.imsave("img.png", np.eye(4) * 3)
    image = imread("img.png")
    print(a, b.dtype, c.tolist(), np.rank(image), image.tolist(), imresize(image, (2, 2)).tolist(),
          round(float(logsumexp([1.0, 2.0])), 6), eigsh is not None)
    """)


def test_stage1_rewrites_the_scipy_removals_it_serves_and_numpy1_calls(tmp_path):
  new, changes = upgrade.upgrade_source(LEGACY_NUMERICS, 1)
  assert "from tf1clip.compat.scipy_legacy import imread, imresize" in new
  assert "from scipy.special import logsumexp" in new and "tf1clip.compat.scipy_legacy.imsave(" in new
  assert "from scipy.sparse.linalg import eigsh" in new
  assert "np.asarray(np.array([3.5])).item()" in new and "np.sort(np.array([[3, 1], [1, 2]]), axis=0)" in new
  assert "np.asarray([1, 2], dtype=np.float64)" in new
  # NumPy 2 raises on copy=False where NumPy 1 copied when it had to (the runner does not serve it): asarray.
  copy_false = upgrade.upgrade_source("import numpy as np\nd = np.array([1, 2], copy=False, dtype=np.float32)\n", 1)
  assert copy_false[0].endswith("d = np.asarray([1, 2], dtype=np.float32)\n")
  assert len(new.splitlines()) == len(LEGACY_NUMERICS.splitlines())  # every statement stays on its line
  assert all(c.kind == "numpy" and c.line for c in changes)
  original, copy = tmp_path / "legacy_original.py", tmp_path / "legacy_copy.py"  # not copy.py: stdlib
  original.write_text(LEGACY_NUMERICS)
  copy.write_text(new)
  ran = {}
  for name, argv in (("original", [sys.executable, "-m", "tf1clip", "run", str(original)]),
                     ("copy", [sys.executable, str(copy)])):
    folder = tmp_path / name
    folder.mkdir()
    ran[name] = subprocess.run(argv, cwd=folder,
                               capture_output=True, text=True, timeout=300)
    assert ran[name].returncode == 0, ran[name].stderr[-3000:]
  assert ran["copy"].stdout == ran["original"].stdout and "3.5 float64" in ran["copy"].stdout

"""`tf1clip upgrade`: golden files, what stage 2 refuses to touch, the report, and --check-run.

Golden files live in tests/fixtures/upgrade/: <name>.py is the input, <name>.stage1.py / <name>.stage2.py
the exact expected output (formatting and comments kept). gradients.py also runs: its stage-2 copy must end
with the same weights as `tf1clip run` of the original (and a doctored copy must be caught).

When the catalogue changes what stage 2 does with a contrib name (say tf.contrib.layers.conv2d becomes
provided), regenerate the golden files with `python tests/test_upgrade.py --regenerate` and review the diff.
"""

import io
import json
import os
import re
import subprocess
import sys
import textwrap

import pytest

from tf1clip import cli
from tf1clip.tools import check
from tf1clip.tools import check_project
from tf1clip.tools import upgrade
from tf1clip.tools import upgrade_cli

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(REPO, "tests", "fixtures", "upgrade")


def _read(name):
  with open(os.path.join(FIXTURES, name)) as f:
    return f.read()


GOLDEN = ("imports", "gradients", "estimator_imports")


@pytest.mark.parametrize("name", GOLDEN)
@pytest.mark.parametrize("stage", [1, 2])
def test_upgrade_matches_the_golden_file(name, stage):
  new_source, _ = upgrade.upgrade_source(_read(name + ".py"), stage)
  assert new_source == _read("%s.stage%d.py" % (name, stage))


def test_estimator_tpu_seq2seq_imports_resolve_under_plain_python():
  # One interpreter runs both goldens: every name they bind (tf.estimator through the facade,
  # tensorflow-estimator's shim, tf.contrib.tpu / data / seq2seq) must resolve without tf1clip run.
  code = "import runpy, sys\nfor p in sys.argv[1:]: runpy.run_path(p)\n"
  proc = subprocess.run(
      [sys.executable, "-c", code] + [os.path.join(FIXTURES, "estimator_imports.stage%d.py" % s)
                                      for s in (1, 2)],
      capture_output=True, text=True, env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2"), check=False)
  assert proc.returncode == 0, proc.stderr[-3000:]


def test_stage_1_changes_only_import_lines_and_is_idempotent():
  original = _read("imports.py")
  new_source, changes = upgrade.upgrade_source(original, 1)
  changed = [i + 1 for i, (a, b) in enumerate(zip(original.splitlines(), new_source.splitlines())) if a != b]
  assert len(original.splitlines()) == len(new_source.splitlines())
  assert changed == sorted(c.line for c in changes)
  assert all(c.kind == "import" for c in changes)
  assert all("import" in original.splitlines()[line - 1] for line in changed)
  assert "tensorflow" not in "".join(
      line for line in new_source.splitlines() if line.startswith(("import ", "from "))
      and "tensorflow.python" not in line and " as tensorflow" not in line)
  again, more = upgrade.upgrade_source(new_source, 1)
  assert again == new_source and not more


def test_the_report_names_line_before_and_after():
  _, changes = upgrade.upgrade_source(_read("imports.py"), 2)
  by_line = {(c.line, c.before): c for c in changes}
  assert by_line[(7, "import tensorflow as tf")].after == "import tf1clip.compat.v1 as tf"
  assert by_line[(26, "tf.contrib.framework.get_or_create_global_step")].after == (
      "tf.train.get_or_create_global_step")
  left = by_line[(28, "tf.contrib.tpu.keras_to_tpu_model")]
  assert left.after is None and "TPUStrategy" in left.warnings[0]


AMBIGUOUS = {
    "the norm is used": """
        grads, norm = tf.clip_by_global_norm(tf.gradients(loss, tvars), 1.0)
        train_op = opt.apply_gradients(zip(grads, tvars))
        tf.summary.scalar("norm", norm)
        """,
    "the clipped gradients are used again": """
        grads, _ = tf.clip_by_global_norm(tf.gradients(loss, tvars), 1.0)
        train_op = opt.apply_gradients(zip(grads, tvars))
        tf.summary.histogram("g", grads[0])
        """,
    "compute_gradients has extra arguments": """
        gv = opt.compute_gradients(loss, tvars, gate_gradients=2)
        clipped = [(tf.clip_by_norm(g, 1.0), v) for g, v in gv]
        train_op = opt.apply_gradients(clipped)
        """,
    "another optimizer computes": """
        gv = other.compute_gradients(loss, tvars)
        clipped = [(tf.clip_by_norm(g, 1.0), v) for g, v in gv]
        train_op = opt.apply_gradients(clipped)
        """,
    "the comprehension filters": """
        gv = opt.compute_gradients(loss, tvars)
        clipped = [(tf.clip_by_norm(g, 1.0), v) for g, v in gv if g is not None]
        train_op = opt.apply_gradients(clipped)
        """,
    "the loss is an expression": """
        grads, _ = tf.clip_by_global_norm(tf.gradients(loss + reg, tvars), 1.0)
        train_op = opt.apply_gradients(zip(grads, tvars))
        """,
}


@pytest.mark.parametrize("case", sorted(AMBIGUOUS))
def test_stage_2_leaves_ambiguous_gradient_code_with_a_comment(case):
  source = "import tensorflow as tf\n\ndef f(loss, reg, tvars, opt, other):\n" + textwrap.indent(
      textwrap.dedent(AMBIGUOUS[case]).strip() + "\n", "  ")
  new_source, changes = upgrade.upgrade_source(source, 2)
  assert ".minimize(loss" not in new_source
  assert "apply_gradients" in new_source
  assert "# tf1clip upgrade: gradient code left as is" in new_source
  assert [c.kind for c in changes if c.after is None] == ["gradients"]


def test_stage_2_rewrites_the_clip_by_value_form():
  source = textwrap.dedent("""\
      import tensorflow as tf
      gv = opt.compute_gradients(loss)
      capped = [(tf.clip_by_value(g, -1.0, 1.0), v) for g, v in gv]
      op = opt.apply_gradients(capped, global_step=step)
      """)
  new_source, _ = upgrade.upgrade_source(source, 2)
  assert new_source == (
      "import tf1clip.compat.v1 as tf\nimport tf1clip\n"
      "op = tf1clip.WrappedOptimizer(opt, [tf1clip.transforms.clip_by_value(-1.0, 1.0, repeated_rows=\"as_listed\")])"
      ".minimize(loss, global_step=step)\n")


@pytest.mark.parametrize("stage", [1, 2])
def test_check_gives_the_upgraded_copy_the_verdicts_of_the_original(stage, tmp_path):
  # The copy uses tf1clip.compat.v1 / tf1clip.contrib names; check reads them as the same TF1 symbols,
  # so what did not run before still does not, and nothing new breaks.
  for name in ("imports.py", "gradients.py"):
    original = check.check_source(_read(name))
    upgraded = check.check_source(upgrade.upgrade_source(_read(name), stage)[0])
    assert ({f.symbol for f in original if f.status == check.UNSUPPORTED}
            == {f.symbol for f in upgraded if f.status == check.UNSUPPORTED})
  legacy = os.path.join(REPO, "examples", "legacy")
  out = str(tmp_path / "legacy")
  upgrade_cli.upgrade_tree(legacy, out, stage)
  assert check_project.main([out], out=io.StringIO()) == 0


def test_stage_2_puts_import_tf1clip_after_the_docstring_and_future_imports():
  source = textwrap.dedent('''\
      """Doc."""
      from __future__ import print_function
      try:
        import tensorflow as tf
      except ImportError:
        tf = None
      cell = tf.contrib.rnn.GRUCell(4)
      ''')
  new_source, _ = upgrade.upgrade_source(source, 2)
  assert new_source.splitlines()[:3] == [
      '"""Doc."""', "from __future__ import print_function", "import tf1clip"]
  assert "  import tf1clip.compat.v1 as tf" in new_source
  compile(new_source, "<upgraded>", "exec")


def test_upgrade_tree_writes_every_file_and_a_json_report(tmp_path, capsys):
  src = tmp_path / "proj"
  (src / "pkg").mkdir(parents=True)
  (src / "train.py").write_text("import tensorflow as tf\nimport pkg.model\n")
  (src / "pkg" / "model.py").write_text("from tensorflow.contrib import rnn\nimport numpy as np\nx = np.float_\n")
  (src / "pkg" / "data.txt").write_text("abc")
  out = tmp_path / "out"
  assert cli.main(["upgrade", str(src), "--out", str(out), "--format", "json",
                   "--report", str(tmp_path / "report.json")]) == 0
  report = json.loads(capsys.readouterr().out)
  assert json.loads((tmp_path / "report.json").read_text()) == report
  assert report["schema"] == "tf1clip.upgrade/1" and report["stage"] == 1
  assert (out / "pkg" / "data.txt").read_text() == "abc"
  assert (out / "pkg" / "model.py").read_text().startswith("from tf1clip.contrib import rnn\n")
  files = {os.path.basename(f["source"]): f for f in report["files"]}
  assert set(files) == {"train.py", "model.py"}
  assert files["train.py"]["changes"] == [{
      "line": 1, "kind": "import", "before": "import tensorflow as tf",
      "after": "import tf1clip.compat.v1 as tf", "warnings": []}]
  assert files["model.py"]["warnings"][0]["symbol"] == "np.float_"
  assert set(files["model.py"]["warnings"][0]) == {"line", "symbol", "note"}


def test_upgrade_usage_errors(tmp_path, capsys):
  src = tmp_path / "proj"
  src.mkdir()
  (src / "a.py").write_text("import tensorflow as tf\n")
  assert cli.main(["upgrade", str(src), "--out", str(src / "inside")]) == 2
  assert cli.main(["upgrade", str(tmp_path / "missing"), "--out", str(tmp_path / "x")]) == 2
  (src / "bad.py").write_text("def (:\n")
  assert cli.main(["upgrade", str(src), "--out", str(tmp_path / "y")]) == 2
  capsys.readouterr()


def test_check_run_takes_the_training_checkpoint_over_a_later_saved_model(tmp_path):
  # An Estimator writes model.ckpt-N, then export_saved_model writes <export>/<ts>/variables/.
  (tmp_path / "model.ckpt-2.index").write_text("")
  (tmp_path / "model.ckpt-4.index").write_text("")
  os.utime(tmp_path / "model.ckpt-2.index", (1, 1))
  os.utime(tmp_path / "model.ckpt-4.index", (2, 2))  # older than the export, as in a real run
  export = tmp_path / "export" / "123"
  (export / "variables").mkdir(parents=True)
  (export / "saved_model.pb").write_text("")
  (export / "variables" / "variables.index").write_text("")
  newest = upgrade_cli._newest_checkpoint(str(tmp_path))  # pylint: disable=protected-access
  assert newest == str(tmp_path / "model.ckpt-4")
  for name in ("model.ckpt-2.index", "model.ckpt-4.index"):
    (tmp_path / name).unlink()
  # With nothing else there, the SavedModel's variables are the run's final state.
  newest = upgrade_cli._newest_checkpoint(str(tmp_path))  # pylint: disable=protected-access
  assert newest == str(export / "variables" / "variables")


def test_check_run_agrees_on_the_rewritten_gradients(tmp_path, capsys):
  # End to end: stage 2 rewrites three gradient forms; the copy under python ends with the variables of
  # the original under tf1clip run (Adam/Momentum slots and global_step included).
  out = tmp_path / "upgraded.py"
  status = cli.main(["upgrade", os.path.join(FIXTURES, "gradients.py"), "--out", str(out), "--stage", "2",
                     "--check-run", "--out_dir {tmp} --steps 2"])
  captured = capsys.readouterr()
  report = captured.out
  assert status == 0, report
  assert "check-run: 17 variables agree" in report
  # each run's progress (rich; off a terminal, one closing line each): its name, output lines, time
  runs = re.findall(r"(original \(tf1clip run\)|upgraded \(python\)) \d+ lines \d+:\d\d:\d\d", captured.err)
  assert runs == ["original (tf1clip run)", "upgraded (python)"], captured.err
  assert out.read_text() == _read("gradients.stage2.py")


def _write_checkpoint(directory, values):
  import tensorflow as tf  # pylint: disable=g-import-not-at-top
  variables = {name: tf.Variable(value) for name, value in values.items()}
  return tf.train.Checkpoint(**variables).write(os.path.join(directory, "ckpt"))


def test_check_run_fails_on_a_difference_above_tolerance(tmp_path, monkeypatch):
  class Finished:
    returncode, stdout, stderr = 0, "", ""

  results = {}
  for label, w in (("original", [1.0, 2.0]), ("upgraded", [1.0, 2.001])):
    directory = tmp_path / label
    directory.mkdir()
    _write_checkpoint(str(directory), {"w": w, "step": 3})
    results[label] = (Finished(), str(directory))
  monkeypatch.setattr(upgrade_cli, "_run", lambda mode, script, args, seed, label=None: results[
      "original" if mode == "run" else "upgraded"])
  out = io.StringIO()
  assert upgrade_cli.check_run("a.py", "b.py", ["--dir", "{tmp}"], out=out) == 1
  assert "check-run: 1 of " in out.getvalue() and "w/.ATTRIBUTES" in out.getvalue()
  assert upgrade_cli.check_run("a.py", "b.py", ["--dir", "{tmp}"], rtol=1e-2, out=io.StringIO()) == 0

if __name__ == "__main__":
  import sys  # pylint: disable=g-import-not-at-top
  if sys.argv[1:] == ["--regenerate"]:
    for golden in GOLDEN:
      for golden_stage in (1, 2):
        with open(os.path.join(FIXTURES, "%s.stage%d.py" % (golden, golden_stage)), "w") as f:
          f.write(upgrade.upgrade_source(_read(golden + ".py"), golden_stage)[0])


def test_stage1_renames_numpy_and_scipy_names_exactly_and_the_copy_runs_under_plain_python(tmp_path):
  source = ("import numpy as np\nfrom scipy.misc import logsumexp\nimport scipy.misc\n"
            "x = np.product([2, 3]) + np.float_(1.5) + np.cumproduct([1, 2])[-1]\n"
            "print(x, np.isnan(np.NaN), np.sometrue([0, 1]), np.alltrue([1, 1]), np.int(2.7),\n"
            "      round(float(logsumexp([1.0, 2.0])), 6), scipy.misc.comb(5, 2), np.NINF < 0)\n")
  new, changes = upgrade.upgrade_source(source)
  assert "np.prod(" in new and "np.float64(" in new and "np.nan" in new and "from scipy.special import" in new
  assert "scipy.special.comb" in new and "(-np.inf)" in new and " int(2.7)" in new
  assert {c.kind for c in changes} == {"numpy"} and all(c.line for c in changes)
  original, copy = tmp_path / "legacy.py", tmp_path / "upgraded.py"
  original.write_text(source)
  copy.write_text(new)
  served = subprocess.run([sys.executable, "-m", "tf1clip", "run", str(original)], capture_output=True, text=True)
  plain = subprocess.run([sys.executable, str(copy)], capture_output=True, text=True)
  assert served.returncode == 0 and plain.returncode == 0, served.stderr[-1500:] + plain.stderr[-1500:]
  assert served.stdout == plain.stdout


def test_upgrade_never_overwrites_a_users_file(tmp_path, capsys):
  src = tmp_path / "src"
  src.mkdir()
  (src / "train.py").write_text("import tensorflow as tf\nx = tf.placeholder(tf.float32)\n")
  out = tmp_path / "out"
  out.mkdir()
  mine = out / "train.py"
  mine.write_text("# my own train.py, not an upgrade\n")
  for extra in ([], ["--force"]):
    assert cli.main(["upgrade", str(src), "--out", str(out)] + extra) == 2
    assert mine.read_text() == "# my own train.py, not an upgrade\n"
  err = capsys.readouterr().err
  assert "is not empty: refusing" in err and "train.py was not written by an earlier `tf1clip upgrade`" in err
  # A single file onto an existing file: refused too, with or without --force.
  assert cli.main(["upgrade", str(src / "train.py"), "--out", str(mine)]) == 2
  assert cli.main(["upgrade", str(src / "train.py"), "--out", str(mine), "--force"]) == 2
  assert mine.read_text() == "# my own train.py, not an upgrade\n"
  # Its own earlier output may be replaced with --force, and only while nobody changed it.
  fresh = tmp_path / "fresh"
  assert cli.main(["upgrade", str(src), "--out", str(fresh)]) == 0
  assert cli.main(["upgrade", str(src), "--out", str(fresh)]) == 2
  assert cli.main(["upgrade", str(src), "--out", str(fresh), "--force"]) == 0
  (fresh / "train.py").write_text("# edited by hand after the upgrade\n")
  assert cli.main(["upgrade", str(src), "--out", str(fresh), "--force"]) == 2
  assert (fresh / "train.py").read_text() == "# edited by hand after the upgrade\n"

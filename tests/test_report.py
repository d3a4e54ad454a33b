"""`tf1clip report`: PNGs and numbers from fixture runs written by tf1clip.summaries (graph mode
and TF2) and by optimize_loss."""

import os
import re
import struct

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from tf1clip import adaptive
from tf1clip import report
from tf1clip import summaries
from tf1clip import transforms

# Known gradient norms: a noisy decay with three spikes; clipped at 2.0.
NORMS = list(np.round(1.0 + 3.0 * np.exp(-np.arange(40) / 8.0)
                      + 0.2 * np.sin(np.arange(40)), 4))
NORMS[10], NORMS[25], NORMS[33] = 12.0, 9.0, 20.0
CLIP = 2.0


def png_size(path):
  with open(path, "rb") as f:
    header = f.read(24)
  assert header[:8] == b"\x89PNG\r\n\x1a\n"
  return struct.unpack(">II", header[16:24])


def _graph_run(logdir, use_optimize_loss=False):
  """A graph-mode run whose gradient is the fed vector, so its norm is known exactly."""
  with tf.Graph().as_default():
    w = tf.compat.v1.get_variable("w", initializer=tf.zeros([2]))
    g = tf.compat.v1.placeholder(tf.float32, [2])
    loss = tf.reduce_sum(w * g)
    step = tf.compat.v1.train.get_or_create_global_step()
    skipped = tf.compat.v1.Variable(3, dtype=tf.int64, trainable=False, name="skipped")
    if use_optimize_loss:
      train = tf1clip.optimize_loss(loss, step, learning_rate=0.01, optimizer="SGD",
                                    clip_gradients=CLIP)
    else:
      t = summaries.observe(transforms.clip_by_global_norm(CLIP))
      t.build([w])
      train = tf1clip.WrappedOptimizer(
          tf.compat.v1.train.GradientDescentOptimizer(0.01), [t]).minimize(loss, step)
      summaries.record_skipped(skipped)
    merged = tf.compat.v1.summary.merge_all()
    writer = tf.compat.v1.summary.FileWriter(logdir)
    with tf.compat.v1.Session() as sess:
      sess.run(tf.compat.v1.global_variables_initializer())
      for i, n in enumerate(NORMS):
        _, s = sess.run([train, merged], {g: [n * 0.6, n * 0.8]})
        writer.add_summary(s, i)
    writer.close()


@pytest.fixture(scope="module")
def graph_run(tmp_path_factory):
  logdir = str(tmp_path_factory.mktemp("run"))
  _graph_run(logdir)
  return logdir


def test_report_writes_pngs_of_the_right_size_and_the_numbers(graph_run, tmp_path, capsys):
  out = str(tmp_path / "out")
  assert report.main([graph_run, "--out", out]) == 0
  text = capsys.readouterr().out
  for name in ("global_norm.png", "norm_histogram.png"):
    path = os.path.join(out, name)
    assert os.path.getsize(path) > 5000
    assert png_size(path) == (800, 400)
  clipped = sum(n > CLIP for n in NORMS)
  assert "clip rate: %.1f%% (%d of 40 steps clipped)" % (100.0 * clipped / 40, clipped) in text
  assert "skipped non-finite steps: 3" in text
  assert "clip threshold: 2" in text
  suggested = np.percentile(np.float32(NORMS), 10.0)
  assert "suggested threshold (AutoClip, 10th percentile of the norms): %.4g" % suggested in text
  r = report.read_run(graph_run, percentile=50.0)
  np.testing.assert_allclose(r.norms, NORMS, rtol=1e-6)
  assert list(r.steps) == list(range(40))
  assert r.suggested_threshold == pytest.approx(np.median(NORMS), rel=1e-6)


def test_report_html_page_links_its_pngs(graph_run, tmp_path):
  page = str(tmp_path / "r" / "report.html")
  r = report.make_report(graph_run, page, percentile=90)
  assert r.files[-1] == page
  body = open(page).read()
  assert "report_global_norm.png" in body and "90th percentile" in body
  assert png_size(str(tmp_path / "r" / "report_norm_histogram.png")) == (800, 400)


def test_report_reads_optimize_loss_runs(tmp_path):
  _graph_run(str(tmp_path), use_optimize_loss=True)
  r = report.read_run(str(tmp_path))
  np.testing.assert_allclose(r.norms, NORMS, rtol=1e-6)
  np.testing.assert_array_equal(r.clipped, np.array(NORMS) > CLIP)
  assert r.threshold[0] == pytest.approx(CLIP, rel=1e-6)  # read off the clipped steps
  assert r.skipped_steps is None and "skipped non-finite steps: not recorded" in r.format()


def test_report_reads_tf2_runs_with_adaptive_thresholds(tmp_path):
  w = tf.Variable(tf.zeros([2]))
  t = summaries.observe(adaptive.autoclip(50.0, history=20))
  t.build([w])
  step = tf.function(lambda g: t([(g, w)])[0][0])
  writer = tf.summary.create_file_writer(str(tmp_path))
  with writer.as_default():
    for n in NORMS[:12]:
      step(tf.constant([n * 0.6, n * 0.8], tf.float32))
  writer.close()
  r = report.make_report(str(tmp_path), str(tmp_path / "out"))
  np.testing.assert_allclose(r.norms, NORMS[:12], rtol=1e-6)
  # The threshold is kept on every recorded step (drawn as a step line over the whole run), clipped or not.
  assert r.clipped.sum() >= 1 and np.isfinite(r.threshold).sum() > r.clipped.sum()
  assert "clip threshold: adaptive" in r.format() or "clip threshold:" in r.format()


def test_report_errors_name_the_problem(tmp_path, capsys):
  assert report.main([str(tmp_path / "missing")]) == 2
  assert "is not a directory" in capsys.readouterr().err
  assert report.main([str(tmp_path)]) == 2
  assert "holds no event files" in capsys.readouterr().err
  writer = tf.summary.create_file_writer(str(tmp_path))
  with writer.as_default():
    tf.summary.scalar("loss", 1.0, step=0)
  writer.close()
  assert report.main([str(tmp_path)]) == 2
  assert "no gradient norm" in capsys.readouterr().err
  assert report.main([str(tmp_path), "--percentile", "101"]) == 2
  assert "argument --percentile: a percentile must be in [0, 100]; got '101'" in capsys.readouterr().err


def test_tf1clip_report_is_a_cli_subcommand(graph_run, tmp_path, capsys):
  from tf1clip import cli  # pylint: disable=import-outside-toplevel
  assert cli.main(["report", graph_run, "--out", str(tmp_path)]) == 0
  captured = capsys.readouterr()
  assert "clip rate" in captured.out
  assert re.search(r"reading 1 event directory .* 1/1 \d+:\d\d:\d\d", captured.err), captured.err  # progress


def test_report_out_onto_an_existing_file_is_a_usage_error_before_reading(tmp_path, capsys, monkeypatch):
  existing = tmp_path / "notes.txt"
  existing.write_text("mine")
  read = []
  monkeypatch.setattr(report, "make_report", lambda *a, **k: read.append(a))
  assert report.main([str(tmp_path), "--out", str(existing)]) == 2
  assert read == [] and existing.read_text() == "mine"
  assert "--out %s is an existing file" % existing in capsys.readouterr().err
  report.check_out(str(tmp_path))  # a directory, or a new path, is fine
  report.check_out(str(tmp_path / "new" / "page.html"))


def test_report_marks_sparse_records_and_an_unreliable_suggestion(tmp_path):
  writer = tf.summary.create_file_writer(str(tmp_path))
  with writer.as_default():
    for step, norm in ((10, 3.0), (150, 0.5), (290, 2.0)):
      tf.summary.scalar("tf1clip/global_norm", norm, step=step)
      tf.summary.scalar("tf1clip/clip_threshold", 1.0, step=step)
      tf.summary.scalar("tf1clip/clipped", float(norm > 1.0), step=step)
  writer.close()
  r = report.make_report(str(tmp_path), str(tmp_path / "out"))
  assert not r.reliable and "UNRELIABLE, only 3 recorded norms" in r.format()
  assert report._sparse(r) == "3 recorded steps of 281 (278 steps without a record)"  # pylint: disable=protected-access
  np.testing.assert_array_equal(r.threshold, [1.0, 1.0, 1.0])  # in force on the unclipped step too


RECORDED_SCRIPT = '''
import tensorflow as tf
g = tf.placeholder(tf.float32, [2])
w = tf.Variable([0.0, 0.0])
grads, norm = tf.clip_by_global_norm([g], %(clip)r)
train = tf.train.GradientDescentOptimizer(0.1).apply_gradients([(grads[0], w)])
tf.summary.scalar("norm", norm)
merged = tf.summary.merge_all()
writer = tf.summary.FileWriter(%(logdir)r)
with tf.Session() as sess:
  sess.run(tf.global_variables_initializer())
  for i, n in enumerate(%(norms)r):
    s, clipped, _ = sess.run([merged, grads[0], train], {g: [n * 0.6, n * 0.8]})
    writer.add_summary(s, i)
    print("clipped %%d %%r" %% (i, clipped.tolist()))
writer.close()
'''


@pytest.mark.parametrize("record", [True, False])
def test_run_record_clipping_gives_an_unchanged_script_a_report(tmp_path, record):
  # A TF1 script that clips the TF1 way (tf.clip_by_global_norm) and writes merge_all(): under
  # `tf1clip run --record-clipping` its events hold the norm, threshold and clipped flags, the values it
  # computes are TF's own either way, and without the flag it records nothing of tf1clip's.
  import subprocess
  import sys
  norms = [float(n) for n in NORMS[:12]]
  logdir = str(tmp_path / "logs")
  script = tmp_path / "clip_tf1.py"
  script.write_text(RECORDED_SCRIPT % {"clip": CLIP, "logdir": logdir, "norms": norms})
  flags = ["--record-clipping"] if record else []
  proc = subprocess.run([sys.executable, "-m", "tf1clip", "run", *flags, str(script)], capture_output=True,
                        text=True, timeout=300, env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2"))
  assert proc.returncode == 0, proc.stderr
  printed = [eval(line.split(" ", 2)[2]) for line in proc.stdout.splitlines()]  # pylint: disable=eval-used
  for n, clipped in zip(norms, printed):
    scale = min(1.0, CLIP / n)
    np.testing.assert_allclose(clipped, [n * 0.6 * scale, n * 0.8 * scale], rtol=1e-6)
  scalars = report._load_scalars(report._event_dirs(logdir)[0])
  np.testing.assert_allclose(scalars["norm"][1], norms, rtol=1e-5)  # the script's own summary
  if not record:
    assert sorted(scalars) == ["norm"]
    return
  np.testing.assert_allclose(scalars["tf1clip/global_norm"][1], norms, rtol=1e-5)
  np.testing.assert_allclose(scalars["tf1clip/clip_threshold"][1], [CLIP] * len(norms))
  np.testing.assert_array_equal(scalars["tf1clip/clipped"][1], [float(n > CLIP) for n in norms])
  np.testing.assert_allclose(scalars["tf1clip/clipped_global_norm"][1], np.minimum(norms, CLIP), rtol=1e-5)
  made = report.make_report(logdir, str(tmp_path / "report"))
  np.testing.assert_array_equal(made.clipped, [n > CLIP for n in norms])
  np.testing.assert_allclose(made.threshold, [CLIP] * len(norms))
  assert all(os.path.getsize(f) > 0 for f in made.files)

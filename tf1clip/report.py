"""`tf1clip report LOGDIR`: the gradient norms of a run, as PNGs and a short text summary.

Reads the event files of a run with tensorboard's event reader and finds the global gradient
norm written either by `tf1clip.summaries.observe` (``tf1clip/global_norm``,
``tf1clip/clipped_global_norm``, ``tf1clip/clip_threshold``, ``tf1clip/skipped_steps``) or by
``optimize_loss`` / contrib's ``optimize_loss`` (``[OptimizeLoss/]global_norm/gradient_norm``
and ``global_norm/clipped_gradient_norm``). It writes

- ``global_norm.png``: the norm over steps, the norm after clipping, the clip threshold
  (recorded, or read off the clipped steps when constant), the clipped steps marked, and the
  suggested threshold;
- ``norm_histogram.png``: the distribution of the norms with both thresholds;

and prints the clip rate, the skipped steps and a suggested threshold: AutoClip's choice, the
p-th percentile of the norms seen (Seetharaman et al., 2020; ``--percentile``, default 10).
With ``--out report.html`` the PNGs go beside the page, which shows them with the summary.

Place in the data flow (DESIGN.md): reads what **summaries** wrote; called by cli.
"""

import argparse
import dataclasses
import html
import os
import re
import sys

import numpy as np

from tf1clip import event_integrity
from tf1clip import progress
from tf1clip import flag_values
from tf1clip.tools import output_path

# tag patterns (a scope may precede them; TF1 appends _1, _2 to a tag created twice)
_SUFFIX = r"(_\d+)?$"
PATTERNS = {
    "norm": [r"(^|/)tf1clip/global_norm" + _SUFFIX,
             r"(^|/)global_norm/gradient_norm" + _SUFFIX],
    "clipped_norm": [r"(^|/)tf1clip/clipped_global_norm" + _SUFFIX,
                     r"(^|/)global_norm/clipped_gradient_norm" + _SUFFIX],
    "clipped": [r"(^|/)tf1clip/clipped" + _SUFFIX],
    "threshold": [r"(^|/)tf1clip/clip_threshold" + _SUFFIX],
    "skipped": [r"(^|/)tf1clip/skipped_steps" + _SUFFIX],
}
# A step counts as clipped when the norm went down by more than this fraction.
_CLIPPED_FRACTION = 1e-6


@dataclasses.dataclass
class Report:
  """What `make_report` found and wrote.

  Attributes:
    run: the directory whose event files were read.
    steps: np.ndarray of the steps with a recorded norm.
    norms: global norm before clipping, per step.
    clipped_norms: after clipping, per step (None when not recorded).
    clipped: bool per step.
    threshold: per-step threshold (np.nan where none applied), or None if unknown.
    skipped_steps: the last recorded count of skipped non-finite steps, or None.
    percentile: the percentile used for the suggestion.
    suggested_threshold: ``np.percentile(norms, percentile)``.
    files: paths written (PNGs, and the HTML page if asked).
    damaged: event_integrity.Damage per event file of `run` read only up to a truncated or damaged record.
  """
  run: str
  steps: np.ndarray
  norms: np.ndarray
  clipped_norms: object
  clipped: np.ndarray
  threshold: object
  skipped_steps: object
  percentile: float
  suggested_threshold: float
  files: list
  damaged: list = dataclasses.field(default_factory=list)

  @property
  def non_finite_steps(self):
    """The steps whose recorded norm is NaN or infinite (left out of min / median / max and the suggestion)."""
    return self.steps[~np.isfinite(self.norms)]

  @property
  def reliable(self):
    """True when enough norms were recorded for the percentile suggestion to mean something."""
    return len(self.norms) >= MIN_SAMPLES_FOR_SUGGESTION

  @property
  def clip_rate(self):
    """Fraction of recorded steps that were clipped."""
    return float(np.mean(self.clipped)) if len(self.clipped) else 0.0

  def format(self):
    """The short text summary printed by the CLI."""
    n = len(self.norms)
    finite = self.norms[np.isfinite(self.norms)]
    bad = self.non_finite_steps
    lines = ["tf1clip report: %s" % self.run]
    for d in self.damaged:
      lines.append("event file %s: read up to a damaged record at byte %d (%s): %d record(s) read, "
                   "%d byte(s) after it not read" % (d.path, d.offset, d.reason, d.records_read, d.bytes_unread))
    lines.append("steps with a gradient norm: %d (steps %d..%d)" % (n, self.steps[0], self.steps[-1]))
    if len(bad):
      lines.append("non-finite norms (NaN/inf): %d step(s): %s%s; left out of the figures below" % (
          len(bad), ", ".join(str(int(x)) for x in bad[:10]), " ..." if len(bad) > 10 else ""))
    lines += [("global norm: min %.4g, median %.4g, max %.4g%s" % (
                  np.min(finite), np.median(finite), np.max(finite),
                  " (of the %d finite steps)" % len(finite) if len(bad) else "")
               if len(finite) else "global norm: no finite value recorded"),
              "clip rate: %.1f%% (%d of %d steps clipped)"
              % (100.0 * self.clip_rate, int(np.sum(self.clipped)), n)]
    if self.threshold is not None and np.any(np.isfinite(self.threshold)):
      finite = self.threshold[np.isfinite(self.threshold)]
      lines.append("clip threshold: %s" % (
          "%.4g" % finite[0] if np.allclose(finite, finite[0]) else
          "adaptive, %.4g..%.4g" % (np.min(finite), np.max(finite))))
    lines.append("skipped non-finite steps: %s" % (
        "not recorded" if self.skipped_steps is None else "%d" % self.skipped_steps))
    if self.reliable:
      lines.append("suggested threshold (AutoClip, %gth percentile of the norms): %.4g"
                   % (self.percentile, self.suggested_threshold))
    else:
      lines.append("suggested threshold: UNRELIABLE, only %d recorded norms (a percentile needs at least %d): "
                   "%.4g" % (len(self.norms), MIN_SAMPLES_FOR_SUGGESTION, self.suggested_threshold))
    lines += ["wrote %s" % f for f in self.files]
    return "\n".join(lines)


def _event_dirs(logdir):
  dirs = []
  for root, _, files in os.walk(logdir):
    if any("tfevents" in f for f in files):
      dirs.append(root)
  return sorted(dirs)


def _load_scalars(run_dir):
  """tag -> (steps, values), from a directory's event files (scalars and TF2 tensors)."""
  # pylint: disable=g-import-not-at-top
  from tensorboard.backend.event_processing import event_accumulator
  from tensorboard.util import tensor_util
  acc = event_accumulator.EventAccumulator(
      run_dir, size_guidance={event_accumulator.SCALARS: 0, event_accumulator.TENSORS: 0})
  acc.Reload()
  out = {}
  tags = acc.Tags()
  for tag in tags.get("scalars", []):
    events = acc.Scalars(tag)
    out[tag] = (np.array([e.step for e in events]), np.array([e.value for e in events]))
  for tag in tags.get("tensors", []):  # TF2's tf.summary.scalar writes a scalar tensor
    events = acc.Tensors(tag)
    values = [tensor_util.make_ndarray(e.tensor_proto) for e in events]
    if values and all(np.ndim(v) == 0 for v in values):
      out[tag] = (np.array([e.step for e in events]),
                  np.array([float(v) for v in values]))
  return out


def _find(scalars, key):
  for pattern in PATTERNS[key]:
    for tag in sorted(scalars):
      if re.search(pattern, tag):
        return scalars[tag]
  return None


def _aligned(steps, series):
  """`series` values at `steps` (the last value written at each step), NaN where missing."""
  if series is None:
    return None
  by_step = dict(zip(series[0].tolist(), series[1].tolist()))
  return np.array([by_step.get(s, np.nan) for s in steps.tolist()], np.float64)


def _dedupe(series):
  # A run restarted from a checkpoint rewrites some steps: keep the last value per step.
  steps, values = series
  by_step = dict(zip(steps.tolist(), values.tolist()))
  ordered = sorted(by_step)
  return np.array(ordered), np.array([by_step[s] for s in ordered], np.float64)


def _check_percentile(percentile):
  if (isinstance(percentile, bool) or not isinstance(percentile, (int, float))
      or not np.isfinite(percentile) or not 0 <= percentile <= 100):
    raise ValueError("percentile must be a number in [0, 100]; got %r" % (percentile,))
  return float(percentile)


def read_run(logdir, percentile=10.0, show_progress=False):
  """Reads a run's gradient norms; returns a `Report` without files.

  Args:
    logdir: a directory holding event files (searched recursively; the first directory
      with a gradient norm tag is used).
    percentile: the AutoClip percentile for the suggested threshold, in [0, 100].
    show_progress: count the event directories read on stderr (tf1clip.progress; the CLI's).

  Returns:
    A `Report` (``files`` empty).

  Raises:
    ValueError: `logdir` has no event files, or none with a gradient norm tag; bad
      `percentile`.
  """
  percentile = _check_percentile(percentile)
  if not os.path.isdir(logdir):
    raise ValueError("LOGDIR %r is not a directory" % (logdir,))
  dirs = _event_dirs(logdir)
  if not dirs:
    raise ValueError("LOGDIR %r holds no event files (events.out.tfevents.*)" % (logdir,))
  if show_progress:
    dirs = progress.over(dirs, "reading %d event director%s" % (len(dirs), "y" if len(dirs) == 1 else "ies"),
                         file=sys.stderr)
  damaged = []
  for run_dir in dirs:
    damaged = event_integrity.damaged_records(run_dir)
    scalars = _load_scalars(run_dir)
    norm = _find(scalars, "norm")
    if norm is not None and len(norm[0]):
      break
  else:
    raise ValueError(
        "no gradient norm in the event files under %r: expected a tf1clip/global_norm tag "
        "(tf1clip.summaries.observe) or global_norm/gradient_norm (optimize_loss)" % (logdir,))
  steps, norms = _dedupe(norm)
  clipped_norms = _aligned(steps, _find(scalars, "clipped_norm"))
  clipped_flags = _aligned(steps, _find(scalars, "clipped"))
  if clipped_flags is not None:
    clipped = np.nan_to_num(clipped_flags) > 0.5
  elif clipped_norms is not None:
    clipped = clipped_norms < norms * (1.0 - _CLIPPED_FRACTION)
  else:
    clipped = np.zeros(len(norms), bool)
  threshold = _aligned(steps, _find(scalars, "threshold"))
  if threshold is None and clipped_norms is not None and np.any(clipped):
    # optimize_loss records no threshold: a constant clip norm is what clipped steps end at.
    level = float(np.median(clipped_norms[clipped]))
    threshold = np.full(len(norms), level)
  skipped = _find(scalars, "skipped")
  finite = norms[np.isfinite(norms)]
  return Report(run_dir, steps, norms, clipped_norms, clipped, threshold,
                None if skipped is None else int(_dedupe(skipped)[1][-1]), percentile,
                float(np.percentile(finite, percentile)) if finite.size else float("nan"), [], damaged)


def _figure(width, height):
  # pylint: disable=g-import-not-at-top
  from matplotlib.backends.backend_agg import FigureCanvasAgg
  from matplotlib.figure import Figure
  fig = Figure(figsize=(width, height), dpi=100)
  FigureCanvasAgg(fig)  # headless: no pyplot, no display
  return fig


# Below this many recorded norms the suggested threshold (a percentile of them) is marked unreliable.
MIN_SAMPLES_FOR_SUGGESTION = 20


def _sparse(report):
  """A note for the figure when the norms were recorded on few of the run's steps, else ""."""
  span = int(report.steps[-1] - report.steps[0]) + 1 if len(report.steps) else 0
  missing = span - len(report.steps)
  if len(report.steps) >= 50 and missing <= span // 2:
    return ""
  return "%d recorded steps of %d (%d steps without a record)" % (len(report.steps), span, missing)


def plot_norms(report, path):
  """Writes the norm-over-steps plot (800 x 400 pixels) to `path`."""
  fig = _figure(8, 4)
  ax = fig.add_subplot(1, 1, 1)
  ax.plot(report.steps, report.norms, lw=1.0, color="#1f77b4", label="global norm")
  if report.clipped_norms is not None and np.any(report.clipped):
    ax.plot(report.steps, report.clipped_norms, lw=1.0, color="#2ca02c", alpha=0.8,
            label="after clipping")
  sparse = _sparse(report)
  if sparse:  # few records: markers, so two samples are not read as a straight segment of data
    ax.lines[0].set_marker("o")
    ax.lines[0].set_markersize(3)
    ax.text(0.01, 0.97, sparse, transform=ax.transAxes, fontsize=8, va="top")
  if report.threshold is not None and np.any(np.isfinite(report.threshold)):
    # A step line over the whole run: the threshold in force at every recorded step, clipped or not.
    ax.step(report.steps, report.threshold, where="post", lw=1.5, ls="--", color="#d62728",
            label="clip threshold")
  if np.any(report.clipped):
    ax.scatter(report.steps[report.clipped], report.norms[report.clipped], marker="x", s=18,
               color="#d62728", zorder=3,
               label="clipped (%.1f%% of steps)" % (100 * report.clip_rate))
  ax.axhline(report.suggested_threshold, lw=1.0, ls=":", color="black",
             label="suggested%s: %gth percentile = %.3g" % (
                 "" if report.reliable else " (UNRELIABLE: %d samples)" % len(report.norms),
                 report.percentile, report.suggested_threshold))
  if np.nanmax(report.norms) > 50 * max(np.nanmin(report.norms), 1e-12):
    ax.set_yscale("log")
  ax.set_xlabel("step")
  ax.set_ylabel("global gradient norm")
  ax.set_title("gradient norm over training")
  ax.grid(alpha=0.3)
  # Below the axes, so the legend never hides the spikes it is about.
  ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=3,
            frameon=False)
  fig.tight_layout()
  _save(fig, path)


def _save(fig, path):
  with output_path.atomic_file(path, "wb", flag="--out") as f:
    fig.savefig(f, format="png")


def plot_histogram(report, path):
  """Writes the histogram of norms (800 x 400 pixels) to `path`."""
  fig = _figure(8, 4)
  ax = fig.add_subplot(1, 1, 1)
  norms = report.norms[np.isfinite(report.norms)]
  ax.hist(norms, bins=min(50, max(5, len(norms) // 4)), color="#1f77b4", alpha=0.8)
  if report.threshold is not None and np.any(np.isfinite(report.threshold)):
    level = float(np.nanmedian(report.threshold))
    ax.axvline(level, ls="--", color="#d62728", label="clip threshold %.3g" % level)
  ax.axvline(report.suggested_threshold, ls=":", color="black",
             label="suggested (%gth percentile%s) %.3g" % (
                 report.percentile, "" if report.reliable else ", UNRELIABLE: %d samples" % len(report.norms),
                 report.suggested_threshold))
  from matplotlib.ticker import MaxNLocator  # pylint: disable=g-import-not-at-top
  ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # counts of steps
  ax.set_xlabel("global gradient norm")
  ax.set_ylabel("steps")
  ax.set_title("distribution of gradient norms (%d steps)" % len(norms))
  ax.legend(fontsize=8)
  fig.tight_layout()
  _save(fig, path)


def check_out(out):
  """Raises OutputError (a ValueError) naming --out when the report could not be written there."""
  if out.endswith(".html"):
    output_path.check_file(out, "--out", create_parents=True)
  else:
    output_path.check_dir(out, "--out")


def make_report(logdir, out="tf1clip_report", percentile=10.0, show_progress=False):
  """Reads a run and writes its PNGs (and an HTML page when `out` ends in .html).

  Args:
    logdir: the run's directory (see `read_run`).
    out: a directory for ``global_norm.png`` and ``norm_histogram.png``, or a path ending
      in ``.html``: the page, with ``<name>_global_norm.png`` and
      ``<name>_norm_histogram.png`` beside it.
    percentile: the AutoClip percentile for the suggestion.
    show_progress: see `read_run`.

  Returns:
    The `Report`, with ``files`` set.

  Raises:
    ValueError: see `read_run`.
  """
  report = read_run(logdir, percentile, show_progress)
  if out.endswith(".html"):
    directory = os.path.dirname(os.path.abspath(out))
    prefix = os.path.splitext(os.path.basename(out))[0] + "_"
  else:
    directory, prefix = out, ""
  created = not os.path.isdir(directory)
  output_path.makedirs(directory, "--out")
  norms_png = os.path.join(directory, prefix + "global_norm.png")
  hist_png = os.path.join(directory, prefix + "norm_histogram.png")
  try:
    plot_norms(report, norms_png)
    plot_histogram(report, hist_png)
  except output_path.OutputError:
    for png in (norms_png, hist_png):
      if created and os.path.exists(png):
        os.unlink(png)
    if created and not os.listdir(directory):
      os.rmdir(directory)  # a failed report leaves no folder it made
    raise
  report.files = [norms_png, hist_png]
  if out.endswith(".html"):
    output_path.write_text(out, "<!doctype html><meta charset='utf-8'><title>tf1clip report</title>\n"
                           "<pre>%s</pre>\n<img src='%s'>\n<img src='%s'>\n"
                           % (html.escape(report.format()), os.path.basename(norms_png),
                              os.path.basename(hist_png)), "--out")
    report.files.append(out)
  return report


def main(argv):
  """`tf1clip report LOGDIR [--out DIR|report.html] [--percentile P]`; returns the exit code."""
  parser = argparse.ArgumentParser(
      prog="tf1clip report",
      description="Plot a run's global gradient norm (tf1clip/ summaries or optimize_loss' "
      "global_norm/*), mark clipped steps, and suggest a clip threshold (AutoClip's "
      "percentile of the norms).")
  parser.add_argument("logdir", help="directory of the run's event files")
  parser.add_argument("--out", default="tf1clip_report",
                      help="output directory for the PNGs, or a .html page (default "
                      "./tf1clip_report)")
  parser.add_argument("--percentile", type=flag_values.percentile, default=10.0,
                      help="AutoClip percentile for the suggested threshold (default 10)")
  try:
    args = parser.parse_args(list(argv))
  except SystemExit as e:
    return int(e.code or 0)
  try:
    _check_percentile(args.percentile)
  except ValueError as e:
    print("tf1clip report: error: --%s" % e, file=sys.stderr)
    return 2
  try:
    check_out(args.out)  # before reading anything: a bad --out must not cost the read
    report = make_report(args.logdir, args.out, args.percentile, show_progress=True)
  except (ValueError, output_path.OutputError) as e:
    print("tf1clip report: error: %s" % e, file=sys.stderr)
    return 2
  print(report.format())
  return 0

"""Runs examples/clip_lstm.py as a user would (a subprocess) and reads what it prints."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "clip_lstm.py"
STEP_LINE = re.compile(
    r"^step\s+(\d+)\s+loss ([\d.]+)\s+global norm before clip\s+([\d.]+)\s+after\s+([\d.]+)$")


def _run_example(*flags):
  """Runs the example; returns (exit code, stdout lines, parsed step lines)."""
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
  result = subprocess.run([sys.executable, str(EXAMPLE)] + list(flags), env=env,
                          capture_output=True, text=True, timeout=240,
                          cwd=EXAMPLE.parents[1])
  lines = result.stdout.splitlines()
  steps = [tuple(float(x) for x in m.groups()) for m in map(STEP_LINE.match, lines) if m]
  return result, lines, steps


@pytest.fixture(scope="module")
def clipped_at_1():
  return _run_example("--steps", "20", "--print_every", "5", "--clip_norm", "1.0")


def test_example_exits_cleanly_and_prints_a_line_every_print_every_steps(clipped_at_1):
  result, _, steps = clipped_at_1
  assert result.returncode == 0, result.stderr[-2000:]
  assert [int(s[0]) for s in steps] == [5, 10, 15, 20]


def test_example_clips_exploding_norms_down_to_clip_norm(clipped_at_1):
  _, _, steps = clipped_at_1
  for _, _, before, after in steps:
    assert before > 1.0
    assert after == pytest.approx(1.0, abs=1e-3)


def test_example_loss_falls(clipped_at_1):
  _, lines, steps = clipped_at_1
  losses = [s[1] for s in steps]
  assert losses[-1] < losses[0]
  assert lines[-1].startswith("loss fell from")


def test_example_leaves_norms_below_clip_norm_unchanged():
  result, _, steps = _run_example("--steps", "20", "--print_every", "1", "--clip_norm", "50")
  assert result.returncode == 0, result.stderr[-2000:]
  assert len(steps) == 20
  for _, _, before, after in steps:
    assert after == pytest.approx(min(before, 50.0), rel=1e-3, abs=1e-3)
  # The exploding LSTM crosses the threshold within these 20 steps, both ways.
  assert any(before > 50 for _, _, before, _ in steps)
  assert any(before < 50 for _, _, before, _ in steps)


def test_example_rejects_a_clip_norm_that_is_not_positive():
  result, _, steps = _run_example("--steps", "1", "--clip_norm", "0")
  assert result.returncode != 0 and not steps
  assert "--clip_norm must be > 0" in result.stderr

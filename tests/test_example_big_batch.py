"""Runs examples/big_batch.py as a user would (a subprocess) and reads what it prints."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "big_batch.py"
RECIPE_LINE = re.compile(r"^(\S+)\s+loss ([\d. ]+?)\s+max \|weights - big batch\| = (\S+)\s+(\w+)$")


def test_three_recipes_print_that_they_agree_with_the_big_batch():
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
  result = subprocess.run(
      [sys.executable, str(EXAMPLE), "--num_micro_batches", "3", "--micro_batch_size", "8",
       "--updates", "2"], env=env, capture_output=True, text=True, timeout=240,
      cwd=EXAMPLE.parents[1])
  assert result.returncode == 0, result.stderr[-2000:]
  lines = result.stdout.splitlines()
  recipes = [m.groups() for m in map(RECIPE_LINE.match, lines) if m]
  assert [r[0] for r in recipes] == ["GradientAccumulationOptimizer", "HostGradientAverager",
                                     "fused_accumulation_step"]
  big_batch_losses = [l for l in lines if l.startswith("big batch")][0].split("loss")[1].split()
  for name, losses, diff, verdict in recipes:
    assert verdict == "agree", name
    assert float(diff) <= 1e-5
    assert [float(x) for x in losses.split()] == pytest.approx(
        [float(x) for x in big_batch_losses], abs=2e-4)
  assert lines[-1] == "all three recipes agree with the big batch"

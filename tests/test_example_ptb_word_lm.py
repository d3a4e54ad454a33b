"""Runs examples/legacy/ptb_word_lm.py through `tf1clip run` (a subprocess) in both --rnn_mode's."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "legacy" / "ptb_word_lm.py"
TRAIN_LINE = re.compile(r"^Epoch: (\d+) Train Perplexity: ([\d.]+)$")
VALID_LINE = re.compile(r"^Epoch: (\d+) Valid Perplexity: ([\d.]+)$")
SMALL = ["--max_max_epoch", "4", "--max_epoch", "2", "--hidden_size", "32", "--num_layers", "1"]


def _run(mode):
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", PYTHONPATH=str(REPO))
  result = subprocess.run(
      [sys.executable, "-m", "tf1clip", "run", str(EXAMPLE), "--rnn_mode", mode] + SMALL, env=env,
      capture_output=True, text=True, timeout=300, cwd=str(REPO))
  lines = result.stdout.splitlines()
  train = [float(m.group(2)) for m in map(TRAIN_LINE.match, lines) if m]
  valid = [float(m.group(2)) for m in map(VALID_LINE.match, lines) if m]
  return result, lines, train, valid


@pytest.fixture(scope="module")
def runs():
  return {mode: _run(mode) for mode in ("basic", "block")}


@pytest.mark.parametrize("mode", ["basic", "block"])
def test_training_perplexity_falls_every_epoch(runs, mode):
  result, lines, train, valid = runs[mode]
  assert result.returncode == 0, result.stderr[-3000:]
  assert lines[0].startswith("vocabulary: ") and lines[0].endswith("rnn_mode %s" % mode)
  assert len(train) == len(valid) == 4
  assert all(b < a for a, b in zip(train, train[1:])), train
  assert lines[-1].startswith("Test Perplexity: ")


def test_block_cells_give_the_basic_cells_perplexities(runs):
  # Same initializer, same variable creation order: LSTMBlockCell starts from BasicLSTMCell's
  # weights and computes the same step, so the printed perplexities agree.
  _, _, basic_train, basic_valid = runs["basic"]
  _, _, block_train, block_valid = runs["block"]
  assert block_train == pytest.approx(basic_train, rel=1e-3)
  assert block_valid == pytest.approx(basic_valid, rel=1e-3)


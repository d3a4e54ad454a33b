"""examples/legacy/seq2seq_attention.py run unchanged through `tf1clip run` (a subprocess, small flags)."""

import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(REPO, "examples", "legacy", "seq2seq_attention.py")
STEP = re.compile(r"^step\s+(\d+)\s+loss ([\d.]+)")
ACCURACY = re.compile(r"^beam search exact-match accuracy ([\d.]+) on (\d+) held-out sequences$")


def test_translator_trains_then_beam_search_decodes_held_out_sequences():
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
  env.pop("TF_USE_LEGACY_KERAS", None)  # the runner must set it itself
  proc = subprocess.run(
      [sys.executable, "-m", "tf1clip", "run", EXAMPLE, "--train_steps", "150",
       "--print_every", "50", "--num_units", "32", "--embedding_size", "16", "--max_length", "5",
       "--num_symbols", "6", "--eval_size", "50", "--beam_width", "2", "--attention", "bahdanau"],
      cwd=REPO, capture_output=True, text=True, env=env, timeout=300)
  assert proc.returncode == 0, proc.stderr[-3000:]
  lines = proc.stdout.splitlines()
  losses = [float(m.group(2)) for m in map(STEP.match, lines) if m]
  assert len(losses) == 3
  assert losses[-1] < 0.5 * losses[0]
  variables = next(line for line in lines if line.startswith("variables:")).split()[1:]
  # TF 1.15's names, so a checkpoint written by TF 1.15 restores.
  for name in ("decoder_cell/memory_layer/kernel",
               "decoder_cell/decoder/attention_wrapper/lstm_cell/kernel",
               "decoder_cell/decoder/attention_wrapper/bahdanau_attention/query_layer/kernel",
               "decoder_cell/decoder/attention_wrapper/bahdanau_attention/attention_v",
               "decoder_cell/decoder/attention_wrapper/attention_layer/kernel",
               "decoder_cell/decoder/output_projection/kernel"):
    assert name in variables, variables
  accuracy = [m for m in map(ACCURACY.match, lines) if m]
  assert len(accuracy) == 1 and accuracy[0].group(2) == "50"
  # Reversing sequences of up to 5 of 6 symbols is learnt within these 150 steps.
  assert float(accuracy[0].group(1)) >= 0.6

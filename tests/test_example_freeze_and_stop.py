"""Runs examples/freeze_and_stop.py as a user would (a subprocess) and checks what each recipe reports."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "freeze_and_stop.py"
TITLE = re.compile(r"^\[(\w+)\] (.*)$")
RESULT = re.compile(r"^\s+moved: (.*?)\s+slots: (.*?)\s+loss ([\d.]+) -> ([\d.]+)"
                    r"(?:\s+max\|w1 - w2\*w3\| ([\d.]+) -> ([\d.]+))?$")


@pytest.fixture(scope="module")
def report():
  """{(graph, recipe title): (moved set, slots set, loss first, loss last, gap or None)}."""
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
  result = subprocess.run([sys.executable, str(EXAMPLE), "--steps", "60"], env=env,
                          capture_output=True, text=True, timeout=240, cwd=EXAMPLE.parents[1])
  assert result.returncode == 0, result.stderr[-2000:]
  out, title = {}, None
  for line in result.stdout.splitlines():
    if TITLE.match(line):
      title = TITLE.match(line).groups()
    elif RESULT.match(line):
      moved, slots, first, last, gap_first, gap_last = RESULT.match(line).groups()
      parse = lambda s: set() if s == "(none)" else set(s.split(", "))
      out[title] = (parse(moved), parse(slots), float(first), float(last),
                    None if gap_first is None else (float(gap_first), float(gap_last)))
  return out


def _find(report, graph, words):
  (hit,) = [v for (g, t), v in report.items() if g == graph and words in t]
  return hit


def test_example_prints_seven_recipes(report):
  assert len(report) == 7


@pytest.mark.parametrize("words", ["stop_gradient", "var_list", "freeze"])
def test_frozen_product_every_recipe_trains_only_w1_towards_w2_times_w3(report, words):
  moved, slots, first, last, gap = _find(report, "frozen_product", words)
  assert moved == {"w1"} and slots == {"w1"}
  assert last < first and gap[1] < gap[0] / 2


def test_cbow_minimize_moves_everything(report):
  moved, slots, first, last, _ = _find(report, "cbow", "minimize(loss)")
  assert moved == slots == {"embedding", "softmax_w", "softmax_b"}
  assert last < first


@pytest.mark.parametrize("words", ["exclude=", "freeze"])
def test_cbow_var_list_and_frozen_scope_leave_the_embedding_without_slots(report, words):
  moved, slots, first, last, _ = _find(report, "cbow", words)
  assert moved == slots == {"softmax_w", "softmax_b"}
  assert last < first


def test_cbow_evaluating_tf_gradients_moves_nothing_and_the_loss_stays(report):
  moved, slots, first, last, _ = _find(report, "cbow", "tf.gradients")
  assert moved == set() and slots == set() and first == last

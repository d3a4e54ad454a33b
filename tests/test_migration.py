"""examples/migration/: every stage ends with the weights of the stage before it.

The five stages run as their users run them, each in its own process (stage 0 through
`tf1clip run`, the others with `python`), side by side; each writes its final weights in TF1
layout to an .npz file.
"""

import os
import subprocess
import sys

import numpy as np
import pytest

from tf1clip.v2.parity import relative_difference

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples", "migration")
STAGES = {
    0: ["-m", "tf1clip", "run", os.path.join(EXAMPLES, "stage0_tf1.py")],
    1: [os.path.join(EXAMPLES, "stage1_import.py")],
    2: [os.path.join(EXAMPLES, "stage2_wrappers.py")],
    3: [os.path.join(EXAMPLES, "stage3_tf2.py")],
    4: [os.path.join(EXAMPLES, "stage4_keras.py")],
}


@pytest.fixture(scope="module")
def weights(tmp_path_factory):
  out = tmp_path_factory.mktemp("migration")
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
  env.pop("TF_USE_LEGACY_KERAS", None)  # each stage sets up its own process
  procs = {
      stage: subprocess.Popen(
          [sys.executable] + args + ["--out", str(out / ("stage%d.npz" % stage))],
          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
      for stage, args in STAGES.items()}
  results = {}
  for stage, proc in procs.items():
    stdout, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 0, "stage %d failed:\n%s\n%s" % (stage, stdout, stderr[-4000:])
    with np.load(out / ("stage%d.npz" % stage)) as f:
      results[stage] = dict(f)
  return results


def max_difference(a, b):
  return max(relative_difference(a[name], b[name]) for name in a)


def test_every_stage_trains_the_same_four_variables(weights):
  sys.path.insert(0, EXAMPLES)
  try:
    import task  # pylint: disable=g-import-not-at-top
  finally:
    sys.path.remove(EXAMPLES)
  for stage in weights.values():
    assert sorted(stage) == sorted(task.NAMES)
  # Training moved every variable well away from its initial value.
  assert max_difference(weights[0], task.initial_weights()) > 0.1
  for name, value in task.initial_weights().items():
    assert relative_difference(weights[0][name], value) > 1e-2, name


def test_stage1_one_line_import_equals_the_unchanged_script(weights):
  assert max_difference(weights[1], weights[0]) <= 1e-6


def test_stage2_wrapper_equals_hand_written_compute_clip_apply(weights):
  assert max_difference(weights[2], weights[1]) <= 1e-6


def test_stage3_tf2_keras_adam_equals_graph_mode_tf1_adam(weights):
  # Only float32 rounding of Adam's bias correction differs (docs/migration.md).
  assert max_difference(weights[3], weights[2]) <= 1e-5


def test_stage4_plain_keras_fit_equals_the_custom_loop(weights):
  assert max_difference(weights[4], weights[3]) <= 1e-5


def test_task_layout_conversion_round_trips():
  sys.path.insert(0, EXAMPLES)
  try:
    import task  # pylint: disable=g-import-not-at-top
  finally:
    sys.path.remove(EXAMPLES)
  initial = task.initial_weights()
  back = task.from_keras(task.to_keras(initial))
  for name in task.NAMES:
    np.testing.assert_allclose(back[name], initial[name], atol=1e-7)

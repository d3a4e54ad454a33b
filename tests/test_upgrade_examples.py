"""Every script in examples/legacy/, upgraded at stages 1 and 2, runs under plain `python` and ends where
`tf1clip run` of the original ends: the same variables in its checkpoint (or, for a script that writes
none, the same output).

`EXAMPLES` says how to run each file cheaply (tiny flags, temporary directories through `{tmp}`); a new
file in examples/legacy/ without an entry fails `test_every_legacy_example_has_an_entry`, so whoever adds
an example adds its tiny run here. Runs go through tools.seeded_run (as `tf1clip upgrade --check-run`
does), one subprocess each, and are cached for the module so the original of a script runs once; when
stage 2 leaves a script and the local modules it imports as stage 1 wrote them, the stage-1 run stands
for both. A `cluster` entry runs as `tf1clip cluster` does (tools.cluster.run_cluster), every task
through tools.seeded_run: the original under tf1clip's runner, the upgrade under plain `python` (what
`tf1clip cluster --python` starts), and the chief's checkpoints are compared.
"""

import ast

import collections
import concurrent.futures
import io
import os
import re
import shutil
import sys
import tempfile

import pytest

from tf1clip.tools import cluster
from tf1clip.tools import upgrade_cli

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LEGACY = os.path.join(REPO, "examples", "legacy")

Run = collections.namedtuple("Run", "args needs cluster volatile")
Run.__new__.__defaults__ = (None, None, None)
Run.__doc__ = """Tiny arguments for one script; `{tmp}` is the run's own directory, `{needs}` the directory
the original run of the script named by `needs` left behind (e.g. a trained checkpoint). `cluster`:
(ps, workers) to run it as a ps/worker cluster. `volatile`: a regex of what the standard output may differ
in (wall-clock timings) for a script compared by its output."""

# file in examples/legacy -> Run, or None for a module the scripts import (checked through them).
EXAMPLES = {
    "char_rnn_model.py": None,  # imported by char_rnn_train.py and char_rnn_sample.py
    "char_rnn_train.py": Run([
        "--save_dir", "{tmp}", "--rnn_size", "8", "--num_layers", "1", "--batch_size", "4",
        "--seq_length", "5", "--num_epochs", "1", "--max_steps", "3", "--save_every", "3"]),
    "char_rnn_sample.py": Run(["--save_dir", "{needs}", "-n", "30"], needs="char_rnn_train.py"),
    "regression_monitored.py": Run([
        "--model_dir", "{tmp}", "--max_steps", "5", "--batch_size", "8"]),
    # tf.estimator through the facade (tensorflow-estimator 2.15): the final training checkpoint is
    # compared (not the SavedModel export written after it).
    "estimator_train.py": Run([
        "--model_dir", "{tmp}", "--train_steps", "4", "--batch_size", "8", "--log_every", "2"]),
    "tpu_estimator_tfrecord.py": Run([
        "--model_dir", "{tmp}", "--train_steps", "4", "--train_batch_size", "8",
        "--iterations_per_loop", "2"]),
    # Writes no checkpoint: the output (losses, beam-search decodes) is compared, timings masked.
    "seq2seq_attention.py": Run([
        "--train_steps", "3", "--print_every", "1", "--num_units", "8", "--embedding_size", "4",
        "--max_length", "4", "--num_symbols", "5", "--eval_size", "4", "--beam_width", "2",
        "--batch_size", "4"], volatile=r"\(\d+\.\d+s\)"),
    # "{tmp}/": the script saves to the prefix --save_path, which must land inside the run's directory.
    "ptb_word_lm.py": Run([
        "--save_path", "{tmp}/", "--max_max_epoch", "1", "--max_epoch", "1", "--hidden_size", "8",
        "--num_layers", "1", "--rnn_mode", "block", "--num_steps", "5", "--batch_size", "4"]),
    # One ps and one asynchronous worker: the chief's checkpoint is deterministic (two runs of the
    # original agree); more workers would race on the shared variables.
    "distributed_mnist_style.py": Run([
        "--train_dir", "{tmp}", "--train_steps", "4", "--batch_size", "8", "--hidden_units", "4",
        "--nosync_replicas"], cluster=(1, 1)),
}
VARIANTS = ("stage1", "stage2")


def _local_imports(script, seen=None):
  """`script` and the modules of examples/legacy it imports, transitively (file names)."""
  seen = set() if seen is None else seen
  seen.add(script)
  with open(os.path.join(LEGACY, script), encoding="utf-8") as f:
    tree = ast.parse(f.read())
  for node in ast.walk(tree):
    names = ([a.name for a in node.names] if isinstance(node, ast.Import)
             else [node.module] if isinstance(node, ast.ImportFrom) and node.module else [])
    for name in names:
      module = name.split(".")[0] + ".py"
      if module not in seen and os.path.isfile(os.path.join(LEGACY, module)):
        _local_imports(module, seen)
  return seen


def _same_at_both_stages(trees, script):
  def text(stage, name):
    with open(os.path.join(trees[stage], name), encoding="utf-8") as f:
      return f.read()
  return all(text("stage1", n) == text("stage2", n) for n in _local_imports(script))


def _run_cluster(mode, script, spec):
  """Runs `script` as spec.cluster's ps/worker cluster, each task via seeded_run in `mode`."""
  tmp = tempfile.mkdtemp(prefix="tf1clip_check_run_")
  out = io.StringIO()
  status = cluster.run_cluster(
      script, [a.replace("{tmp}", tmp) for a in spec.args], cluster.plan_cluster(*spec.cluster),
      out=out, timeout=300, prefix=[sys.executable, "-m", "tf1clip.tools.seeded_run", mode, "0"])
  return _ClusterResult(status, out.getvalue(), out.getvalue()), tmp


_ClusterResult = collections.namedtuple("_ClusterResult", "returncode stdout stderr")


def test_every_legacy_example_has_an_entry():
  scripts = {name for name in os.listdir(LEGACY) if name.endswith(".py")}
  missing = scripts - set(EXAMPLES)
  assert not missing, "add a tiny run for %s to EXAMPLES in %s" % (sorted(missing), __file__)
  assert not set(EXAMPLES) - scripts, "EXAMPLES names files that are gone"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
  """Runs (and caches) a script as the original under tf1clip run, or its stage-1/2 copy under python."""
  trees = {}
  for stage in (1, 2):
    out = str(tmp_path_factory.mktemp("upgraded_stage%d" % stage))
    shutil.rmtree(out)
    upgrade_cli.upgrade_tree(LEGACY, out, stage)
    trees["stage%d" % stage] = out
  cache = {}  # (script, variant) -> Future of (process, tmp)
  # Every run is queued at once and two go at a time (each is mostly one core: TF's import and a tiny
  # graph), so the cores stay busy across scripts.
  pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)

  def run(script, variant):
    spec = EXAMPLES[script]
    args = list(spec.args)
    if spec.needs:  # queued before this run (FIFO), so it is running or done: no deadlock
      needed = cache[(spec.needs, "original")].result()[1]
      args = [a.replace("{needs}", needed) for a in args]
    mode, path = (("run", os.path.join(LEGACY, script)) if variant == "original"
                  else ("python", os.path.join(trees[variant], script)))
    if spec.cluster:
      return _run_cluster(mode, path, spec._replace(args=args))
    return upgrade_cli._run(mode, path, args, seed=0)  # pylint: disable=protected-access

  def submit(script, variant):
    key = (script, variant)
    if key not in cache:
      if EXAMPLES[script].needs:
        submit(EXAMPLES[script].needs, "original")
      if variant == "stage2" and _same_at_both_stages(trees, script):
        cache[key] = submit(script, "stage1")
      else:
        cache[key] = pool.submit(run, script, variant)
    return cache[key]

  for script in sorted(s for s, spec in EXAMPLES.items() if spec is not None):
    for variant in ("original",) + VARIANTS:
      submit(script, variant)

  def get(script, variant):
    process, tmp = cache[(script, variant)].result()
    assert process.returncode == 0, "%s (%s) failed:\n%s" % (script, variant, process.stderr[-3000:])
    return process, tmp

  yield get
  pool.shutdown(wait=True)
  for tmp in {f.result()[1] for f in cache.values() if f.exception() is None}:
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.mark.parametrize("script", sorted(s for s, spec in EXAMPLES.items() if spec is not None))
def test_upgraded_example_ends_where_tf1clip_run_of_the_original_ends(runs, script):
  original, original_dir = runs(script, "original")
  original_ckpt = upgrade_cli._newest_checkpoint(original_dir)  # pylint: disable=protected-access
  for variant in VARIANTS:
    upgraded, upgraded_dir = runs(script, variant)
    upgraded_ckpt = upgrade_cli._newest_checkpoint(upgraded_dir)  # pylint: disable=protected-access
    assert (original_ckpt is None) == (upgraded_ckpt is None), (variant, original_ckpt, upgraded_ckpt)
    if original_ckpt is None:
      mask = EXAMPLES[script].volatile or r"(?!)"
      assert (re.sub(mask, "~", upgraded.stdout) == re.sub(mask, "~", original.stdout)
              and original.stdout.strip()), variant
      continue
    count, problems = upgrade_cli.compare_checkpoints(original_ckpt, upgraded_ckpt)
    assert count > 0 and not problems, (variant, problems)

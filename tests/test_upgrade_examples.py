"""Every script in examples/legacy/, upgraded at stages 1 and 2, runs under plain `python` and ends where
`tf1clip run` of the original ends: the same variables in its checkpoint (or, for a script that writes
none, the same output).

`EXAMPLES` says how to run each file cheaply (tiny flags, temporary directories through `{tmp}`); a new
file in examples/legacy/ without an entry fails `test_every_legacy_example_has_an_entry`, so whoever adds
an example adds its tiny run here. Runs go through compat.seeded_run (as `tf1clip upgrade --check-run`
does), one subprocess each, and are cached for the module so the original of a script runs once.
"""

import collections
import os
import shutil

import pytest

from tf1clip.compat import upgrade_cli

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LEGACY = os.path.join(REPO, "examples", "legacy")

Run = collections.namedtuple("Run", "args needs")
Run.__new__.__defaults__ = (None,)
Run.__doc__ = """Tiny arguments for one script; `{tmp}` is the run's own directory, `{needs}` the directory
the original run of the script named by `needs` left behind (e.g. a trained checkpoint)."""

# file in examples/legacy -> Run, or None for a module the scripts import (checked through them).
EXAMPLES = {
    "char_rnn_model.py": None,  # imported by char_rnn_train.py and char_rnn_sample.py
    "char_rnn_train.py": Run([
        "--save_dir", "{tmp}", "--rnn_size", "8", "--num_layers", "1", "--batch_size", "4",
        "--seq_length", "5", "--num_epochs", "1", "--max_steps", "3", "--save_every", "3"]),
    "char_rnn_sample.py": Run(["--save_dir", "{needs}", "-n", "30"], needs="char_rnn_train.py"),
    "regression_monitored.py": Run([
        "--model_dir", "{tmp}", "--max_steps", "5", "--batch_size", "8"]),
}
VARIANTS = ("stage1", "stage2")


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
  cache = {}

  def get(script, variant):
    key = (script, variant)
    if key not in cache:
      spec = EXAMPLES[script]
      args = list(spec.args)
      if spec.needs:
        needed = get(spec.needs, "original")[1]
        args = [a.replace("{needs}", needed) for a in args]
      if variant == "original":
        process, tmp = upgrade_cli._run("run", os.path.join(LEGACY, script), args, seed=0)  # pylint: disable=protected-access
      else:
        process, tmp = upgrade_cli._run("python", os.path.join(trees[variant], script), args, seed=0)  # pylint: disable=protected-access
      assert process.returncode == 0, "%s (%s) failed:\n%s" % (script, variant, process.stderr[-3000:])
      cache[key] = (process, tmp)
    return cache[key]

  yield get
  for _, tmp in cache.values():
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
      assert upgraded.stdout == original.stdout and original.stdout.strip(), variant
      continue
    count, problems = upgrade_cli.compare_checkpoints(original_ckpt, upgraded_ckpt)
    assert count > 0 and not problems, (variant, problems)

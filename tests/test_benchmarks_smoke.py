"""Every benchmark in benchmarks/ runs to the end and prints its table, at the smallest sizes.

Each benchmark runs as `make bench` runs it (`python -m benchmarks.<name>` from the repository
root, in a subprocess of its own), with flags that shrink the graphs to toy sizes and the timing
to no warmup and one round of one step. Nothing here looks at the times: the point is that
the code paths run and the table comes out, so a benchmark cannot rot unnoticed. The
processes run concurrently, to keep this file's wall time to that of the slowest.
"""

import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]

# The smallest flags each benchmark accepts (see its absl flags).
SMOKE_FLAGS = {
    "clip_overhead": [
        "--graphs", "lstm,cbow", "--batch_size", "2", "--num_steps", "2", "--input_size", "2",
        "--hidden_size", "4", "--vocab_size", "20", "--embedding_dim", "4", "--num_sampled", "2",
        "--warmup", "0", "--rounds", "1", "--iters", "1"],
    # Both groups; the many-variable MLP shrunk to 3 layers.
    "wrapper_overhead": [
        "--graphs", "lstm,mlp200", "--mlp_layers", "3", "--mlp_width", "2",
        "--batch_size", "2", "--num_steps", "2", "--input_size", "2",
        "--hidden_size", "4", "--warmup", "0", "--rounds", "1", "--iters", "1"],
    # The model is big_batch_mlp.MEMORY_BOUND (no size flags); a batch of 8 keeps it quick. One
    # variant per code path (the optimizer and the fused loop), because each variant's memory is
    # measured in a further subprocess.
    "summary_overhead": [
        "--batch_size", "2", "--num_steps", "2", "--input_size", "2", "--hidden_size", "4",
        "--warmup", "0", "--rounds", "1", "--iters", "1"],
    "check_speed": ["--files", "10", "--repeats", "1"],
    # One small size of each table.
    "cli_scaling": ["--check_sites", "50", "--upgrade_lines", "50", "--timeout", "170"],
    # Every table (dense, sparse, guard and build) at 2-3 variables of [4, 4]; n >= 1000 only
    # switches the optimizer and rounds, the same code.
    "scaling": [
        "--sizes", "2", "--sparse_sizes", "2", "--guard_sizes", "2,3", "--width", "4",
        "--warmup", "0", "--rounds", "1", "--iters", "1", "--large_rounds", "1",
        "--large_iters", "1"],
    "startup": ["--rounds", "1"],
    # One copy of the three models, each variant once (TF 1.15's where the oracle exists).
    "contrib_build": ["--rounds", "1", "--repeats", "1"],
    # The two quickest programs on both TensorFlows (skips, printing why, where no oracle exists).
    "vs_tf115": ["--rounds", "1", "--programs", "startup,tiny"],
    "v2_overhead": ["--layers", "1", "--width", "4", "--batch_size", "2", "--check_steps", "1",
                    "--warmup", "0", "--rounds", "1", "--iters", "1"],
    # One configuration (the one with the memory check), the two variants the targets compare.
    "accumulation": [
        "--configs", "memory_bound", "--batch_size", "8", "--num_micro_batches", "2", "--variants", "iv,v",
        "--warmup", "0", "--rounds", "1", "--iters", "1", "--memory_updates", "1"],
    # 1 and 2 workers (the 1-worker and the aggregating paths), every clipping variant.
    "distributed": [
        "--workers", "1,2", "--batch_size", "2", "--input_size", "2", "--hidden_size", "4",
        "--warmup", "0", "--rounds", "1", "--iters", "1"],
}


def _run_all_at_once():
  """Starts every benchmark at once; returns name -> (exit code, stdout, stderr)."""
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
  procs = {name: subprocess.Popen([sys.executable, "-m", "benchmarks." + name] + flags,
                                  cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
           for name, flags in SMOKE_FLAGS.items()}
  results = {}
  try:
    for name, proc in procs.items():
      out, err = proc.communicate(timeout=180)
      results[name] = (proc.returncode, out, err)
  finally:
    for proc in procs.values():
      if proc.poll() is None:
        proc.kill()
        proc.communicate()
  return results


def test_every_benchmark_in_the_directory_has_smoke_flags():
  sys.path.insert(0, str(ROOT / "benchmarks"))
  try:
    import run_all  # pylint: disable=import-outside-toplevel
  finally:
    sys.path.remove(str(ROOT / "benchmarks"))
  assert sorted(run_all.find_benchmarks()) == sorted(SMOKE_FLAGS)


def test_every_benchmark_exits_cleanly_and_prints_a_table():
  # One test, not one per benchmark: pytest-xdist could give each its own worker and run the
  # concurrent batch twice.
  for name, (returncode, out, err) in _run_all_at_once().items():
    assert returncode == 0, "%s failed:\n%s" % (name, err[-3000:])
    lines = out.splitlines()
    header = [i for i, line in enumerate(lines) if line.startswith("| ")]
    assert header, "%s printed no table:\n%s" % (name, out[-3000:])
    # A header row, its |---| rule, then at least one row of cells.
    first = header[0]
    assert lines[first + 1].startswith("|-") and lines[first + 2].startswith("| "), (
        "%s printed no table rows:\n%s" % (name, out[-3000:]))

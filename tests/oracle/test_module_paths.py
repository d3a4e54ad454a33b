"""The module-path inventory (tf1clip/tf115/modules.tsv.gz): what TF 1.15 lists live, the loader, the instrument.

The inventory is TF 1.15's own record of every module below tensorflow.{contrib, python, core, examples, lite,
tools, compiler} and of each module's names (DESIGN.md, "its API as the inventory"; tf115/generate_modules.py
defines it). These tests hold it to TF 1.15 (a sample of modules re-listed in a fresh oracle process), check
the loader module_paths against the rules the generator states, and run tools.module_coverage on a few modules
under `tf1clip run`.
"""

import gzip
import importlib.util
import json
import os
import random
import subprocess

import pytest

from harness import REPO, oracle_python, requires_tf115
from tf1clip import tf115
from tf1clip.tf115 import module_paths
from tf1clip.tools import module_coverage

GENERATOR = os.path.join(REPO, "tf1clip", "tf115", "generate_modules.py")
RELIST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "relist_modules.py")
# The paths of issue #35's examples, and modules that show each rule: raw ops (gen_array_ops, quantization's leak),
# stubs' underscore names (estimator, tpu_estimator), TF 1.15's double-loaded packages (lookup), `from` giving
# another module (contrib.eager is tfe), `import ... as` failing (array_ops).
SAMPLE = (
    "tensorflow.contrib.eager", "tensorflow.contrib.framework.python.ops", "tensorflow.contrib.layers.python.layers",
    "tensorflow.contrib.layers.python.layers.layers", "tensorflow.contrib.lookup", "tensorflow.contrib.quantization",
    "tensorflow.contrib.rnn.python.ops.core_rnn_cell", "tensorflow.contrib.slim.nets",
    "tensorflow.contrib.tpu.python.tpu.tpu_estimator", "tensorflow.python.estimator.estimator",
    "tensorflow.python.framework.graph_util", "tensorflow.python.ops.array_ops", "tensorflow.python.ops.gen_array_ops",
    "tensorflow.python.ops.rnn_cell_impl", "tensorflow.python.pywrap_tensorflow", "tensorflow.python.util.nest")
RANDOM_SAMPLE = 24  # more modules, drawn with a fixed seed from the whole inventory


def _sample():
  failing = [path for path, entry in module_paths.modules().items() if entry.kind == "import-error"]
  drawn = random.Random(35).sample(sorted(module_paths.modules()), RANDOM_SAMPLE)
  return sorted(set(SAMPLE) | set(failing) | set(drawn))


def _forms_flags(entry):
  letters = "".join(letter for letter, word in (("i", "import"), ("f", "from"), ("s", "as")) if word in entry.forms)
  return letters + ("A" if entry.has_all else "")


def _without_submodules(path, pairs):
  """A package's submodules are its names only once imported: a fresh process has fewer of them."""
  return {n: v for n, v in pairs.items() if not (v[0] == "module" and v[2] == path + "." + n)}


@requires_tf115
def test_a_sample_of_modules_relisted_in_tf115_matches_the_inventory(tmp_path):
  sample = _sample()
  homes = {}
  for path in sample:
    for name, pair in module_paths.names(path).items():
      if ":" in pair.same_as:
        homes[path + ":" + name] = [path, name] + pair.same_as.split(":")
  request, out = tmp_path / "request.json", tmp_path / "relisted.json"
  request.write_text(json.dumps({"modules": sample, "homes": homes}))
  env = {k: v for k, v in os.environ.items() if k != "TF2_BEHAVIOR"}
  proc = subprocess.run([oracle_python(), RELIST, GENERATOR, str(request), str(out)], capture_output=True,
                        text=True, env=env, timeout=600)
  assert proc.returncode == 0, proc.stderr[-3000:]
  answer = json.loads(out.read_text())
  live = {}
  for module, name, kind, same_as, target, flags in answer["rows"]:
    live.setdefault(module, {})[name] = (kind, same_as, target, flags)
  for path in sample:
    entry = module_paths.modules()[path]
    kind, _, error, flags = live[path][""]
    assert kind == entry.kind, (path, kind, error)
    if entry.kind == "module":
      assert flags == _forms_flags(entry), "%s: TF 1.15 allows %r, the inventory says %r" % (path, flags, entry.forms)
    committed = {n: (p.kind, p.same_as if p.same_as.startswith("tf.") else "", p.target, p.flags)
                 for n, p in module_paths.names(path).items()}
    relisted = {n: v for n, v in live[path].items() if n}
    committed, relisted = _without_submodules(path, committed), _without_submodules(path, relisted)
    assert committed == relisted, "%s: the inventory differs from TF 1.15's listing: %s" % (path, sorted(
        (n, committed.get(n), relisted.get(n)) for n in set(committed) | set(relisted)
        if committed.get(n) != relisted.get(n))[:10])
  not_same = {key: answer["same"][key] for key in homes if answer["same"].get(key) is not True}
  assert not not_same, "pairs the inventory calls one object that TF 1.15 does not: %s" % sorted(not_same.items())[:10]
  assert len(homes) > 100


def test_the_inventory_file_is_small_and_says_what_wrote_it():
  assert os.path.getsize(module_paths.MODULES_FILE) < 1_500_000
  with gzip.open(module_paths.MODULES_FILE, "rt", encoding="utf-8") as f:
    header = f.readline()
  assert header.startswith("# TensorFlow 1.15.5 module paths (tf1clip/tf115/generate_modules.py)")


def test_every_module_tf115_imported_is_listed_with_how_it_imports():
  modules = module_paths.modules()
  imported = [p for p, e in modules.items() if e.kind == "module"]
  assert len(imported) == 2037
  assert {p for p, e in modules.items() if e.kind == "import-error"} == {
      "tensorflow.contrib.estimator.python.estimator.hooks", "tensorflow.python.debug.lib.grpc_debug_test_server",
      "tensorflow.python.platform.parameterized", "tensorflow.tools.pip_package.setup"}
  assert "No module named 'portpicker'" in modules["tensorflow.python.debug.lib.grpc_debug_test_server"].error
  assert not any(p.endswith("_test") or any(part.startswith("_") for part in p.split(".")) for p in modules)
  for path in SAMPLE:
    assert module_paths.has_module(path), path
  assert module_paths.modules()["tensorflow.contrib.slim"].forms == {"import", "from", "as"}
  # TF 1.15's `import tensorflow.python.ops.array_ops as a` failed (tensorflow.python.ops is framework.ops there)
  assert module_paths.modules()["tensorflow.python.ops.array_ops"].forms == {"import", "from"}
  assert "from" not in module_paths.modules()["tensorflow.contrib.eager"].forms  # contrib's `eager` is tfe
  assert module_paths.pair("tensorflow.contrib", "eager").target == "tensorflow.contrib.eager.python.tfe"
  assert not module_paths.has_module("tensorflow.contrib.rnn.python.ops.core_rnn_cell_impl")  # TF 1.0's, gone
  assert {module_paths.area_of(p) for p in imported} == set(module_paths.AREAS)
  assert module_paths.area_of("tensorflow.contrib.layers") == "contrib public"
  assert module_paths.area_of("tensorflow.contrib.text") == "contrib deep"  # not one of tf.contrib's names
  assert module_paths.area_of("tensorflow.lite.python.lite") == "other"


def test_the_issues_lines_are_in_the_inventory_with_their_public_names():
  pair = module_paths.pair
  assert pair("tensorflow.contrib.layers.python.layers", "batch_norm").same_as == "tf.contrib.layers.batch_norm"
  assert pair("tensorflow.contrib.layers.python.layers", "initializers").kind == "module"
  assert pair("tensorflow.contrib.layers.python.layers", "utils").target == (
      "tensorflow.contrib.layers.python.layers.utils")
  assert pair("tensorflow.contrib.framework.python.ops", "add_arg_scope").same_as == (
      "tf.contrib.framework.add_arg_scope")
  assert pair("tensorflow.python", "pywrap_tensorflow").target == "tensorflow.python.pywrap_tensorflow"
  assert pair("tensorflow.python.pywrap_tensorflow", "NewCheckpointReader").same_as == "tf.train.NewCheckpointReader"
  assert pair("tensorflow.python.framework.graph_util", "convert_variables_to_constants").same_as == (
      "tf.graph_util.convert_variables_to_constants")
  assert pair("tensorflow.python.estimator.estimator", "Estimator").same_as == "tf.estimator.Estimator"
  assert pair("tensorflow.python.ops.rnn_cell_impl", "LSTMCell").same_as == "tf.nn.rnn_cell.LSTMCell"
  for path, name in (("tensorflow.python.util.nest", "is_sequence"), ("tensorflow.python.framework.ops", "RegisterShape"),
                     ("tensorflow.python.framework.tensor_shape", "scalar"), ("tensorflow.python.ops.variables",
                                                                             "RefVariable")):
    assert pair(path, name) is not None, (path, name)
  assert ("tensorflow.python.ops.rnn_cell_impl", "LSTMCell") in module_paths.pairs_of("tf.contrib.rnn.LSTMCell")


def test_same_as_names_a_public_name_or_the_pair_the_object_is_at_home_in():
  api = tf115.entries()
  kinds = set()
  for path in module_paths.modules():
    for name, pair in module_paths.names(path).items():
      kinds.add(pair.kind)
      if pair.same_as.startswith("tf."):
        assert pair.same_as in api, (path, name, pair.same_as)
      elif pair.same_as:
        home_path, _, home_name = pair.same_as.partition(":")
        home = module_paths.pair(home_path, home_name)
        assert home is not None and not home.same_as, (path, name, pair.same_as)
      if pair.kind == "constant":
        assert not pair.same_as, (path, name)
  assert kinds == {"module", "class", "function", "constant", "other", "raw-op"}
  groups = module_paths.same_object_groups()
  assert ("tensorflow.contrib.layers.python.layers.layers", "batch_norm") in groups["tf.contrib.grid_rnn.layers.batch_norm"]
  assert all(len(pairs) > 1 for pairs in groups.values())


def test_raw_ops_are_one_kind_with_their_op_name():
  concat = module_paths.pair("tensorflow.python.ops.gen_array_ops", "ConcatV2")
  assert (concat.kind, concat.same_as, concat.target) == ("raw-op", "tf.raw_ops.ConcatV2", "ConcatV2")
  snake = module_paths.pair("tensorflow.python.ops.gen_array_ops", "concat_v2")
  assert (snake.kind, snake.target) == ("raw-op", "ConcatV2")
  assert module_paths.pair("tensorflow.python.ops.gen_array_ops", "concat_v2_eager_fallback").target == "ConcatV2"
  leaked = [p for p in module_paths.names("tensorflow.contrib.quantization").values() if p.kind == "raw-op"]
  assert len(leaked) > 650 and all(p.target for p in leaked)
  assert module_paths.pair("tensorflow.contrib.quantization", "dequantize").same_as == "tf.dequantize"
  # a wrapper TF 1.15 exported publicly keeps its public name
  assert module_paths.pair("tensorflow.python.ops.gen_array_ops", "bitcast").same_as == "tf.bitcast"


def test_underscore_names_are_only_those_the_rules_admit():
  spec = importlib.util.spec_from_file_location("tf115_generate_modules", GENERATOR)
  generator = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(generator)  # standard library only at import: TensorFlow is imported by main()
  for path in module_paths.modules():
    for name, pair in module_paths.names(path).items():
      if name.startswith("__"):
        assert "a" in pair.flags, (path, name)
      elif name.startswith("_"):
        assert set(pair.flags) & set("adsp"), (path, name)
      if "p" in pair.flags:
        assert name in generator.USED_PRIVATE[path], (path, name)
  for path, names in generator.USED_PRIVATE.items():
    for name in names:
      assert "p" in module_paths.pair(path, name).flags, (path, name)
  assert module_paths.pair("tensorflow.contrib.rnn.python.ops.core_rnn_cell", "_linear").kind == "function"
  assert "d" in module_paths.pair("tensorflow.python.estimator.estimator", "_load_global_step_from_checkpoint_dir").flags
  assert "s" in module_paths.pair("tensorflow.contrib.tpu.python.tpu.tpu_estimator", "_export_output_to_tensors").flags
  # real code imports rnn_cell_impl._linear, but TF 1.15 no longer had it there (it moved to contrib.rnn in 1.2)
  assert module_paths.pair("tensorflow.python.ops.rnn_cell_impl", "_linear") is None
  assert "add_arg_scope" in module_paths.star_names("tensorflow.contrib.framework.python.ops.arg_scope")
  assert "_linear" not in module_paths.star_names("tensorflow.contrib.rnn.python.ops.core_rnn_cell")


def test_an_error_is_true_only_if_it_is_a_clear_refusal_that_does_not_deny_tf115_had_it():
  from tf1clip.compat import surface  # pylint: disable=import-outside-toplevel
  clear = (surface.NotProvidedError, surface.NotProvidedImportError)
  denies = surface.NotProvidedImportError("tf.contrib.layers.python is not provided by tf1clip (TensorFlow 1.15's "
                                          "tf.contrib.layers had no public python either)")
  says_why = surface.NotProvidedImportError("tensorflow.contrib.ffmpeg is not provided by tf1clip (TensorFlow 2.21 "
                                            "has no such name): use tf.audio")
  assert module_coverage._true(denies, clear) is False  # pylint: disable=protected-access
  assert module_coverage._true(says_why, clear) is True  # pylint: disable=protected-access
  assert module_coverage._true(ModuleNotFoundError("No module named 'x'"), clear) is False  # pylint: disable=protected-access
  assert module_coverage._true(None, clear) is None  # pylint: disable=protected-access


def test_summary_counts_raw_ops_apart_and_same_object_over_public_aliases():
  records = [
      dict(record="module", module="m", area="core", status="served"),
      dict(record="pair", module="m", name="f", area="core", kind="function", same_as="tf.f", status="served",
           same_object=True, true_error=None),
      dict(record="pair", module="m", name="g", area="core", kind="function", same_as="", status="error",
           same_object=None, true_error=False),
      dict(record="pair", module="m", name="Op", area="core", kind="raw-op", same_as="tf.raw_ops.Op",
           status="served", same_object=True, true_error=None)]
  row = module_coverage.summary(records)["core"]
  assert (row["modules"], row["import"], row["pairs"], row["resolve"], row["public alias"], row["same object"],
          row["errors"], row["true errors"], row["raw-op pairs"], row["raw-op resolve"]) == (1, 1, 2, 1, 1, 1, 1, 0, 1, 1)
  assert "| core | 1 | 1 (100%) | 2 | 1 (50%) | 1 | 1 (100%) | 1 | 0 | 1 | 1 (100%) |" in module_coverage.table(records)


def test_the_instrument_tries_every_inventory_name_of_a_module_in_one_run():
  paths = ["tensorflow.contrib.layers", "tensorflow.contrib.layers.python.layers.layers",
           "tensorflow.python.framework.graph_util", "tensorflow.python.ops.gen_array_ops"]
  records = module_coverage.survey(paths, timeout=600)
  modules = {r["module"]: r for r in records if r["record"] == "module"}
  assert sorted(modules) == paths
  for path in paths:
    tried = {r["name"] for r in records if r["record"] == "pair" and r["module"] == path}
    assert tried == set(module_paths.names(path)), path
  pairs = {(r["module"], r["name"]): r for r in records if r["record"] == "pair"}
  flatten = pairs[("tensorflow.contrib.layers", "flatten")]
  assert (flatten["status"], flatten["same_object"], flatten["error"]) == ("served", True, None)
  assert modules["tensorflow.python.ops.gen_array_ops"]["area"] == "tensorflow.python"
  for r in records:
    assert r["status"] in ("served", "clear error", "error")
    assert (r["error"] is None) == (r["status"] == "served") == (r["true_error"] is None), r
  rows = module_coverage.summary(records)
  assert rows["all"]["raw-op pairs"] == sum(p.kind == "raw-op" for path in paths
                                            for p in module_paths.names(path).values())


def test_the_instrument_refuses_a_module_tf115_did_not_import(capsys):
  with pytest.raises(SystemExit):
    module_coverage.main(["--module", "tensorflow.contrib.no_such_module"])
  assert "TF 1.15 imported no module tensorflow.contrib.no_such_module" in capsys.readouterr().err

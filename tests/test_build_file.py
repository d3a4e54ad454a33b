"""BUILD mirrors the tree: it is what tf1clip.tools.build_file writes from the tree (every source file in a target,
each target's deps its files' imports), every target names real files and deps, and the graph has no cycle.

Bazel cannot build here (it needs downloads), so this test is what keeps BUILD honest in `make test`;
`bazel query //...` validates the syntax where Bazel is installed.
"""

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _targets():
  tree = ast.parse((ROOT / "BUILD").read_text(), filename="BUILD")
  targets = {}
  for node in ast.walk(tree):
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (
        "py_library", "py_test", "py_binary", "filegroup"):
      kwargs = {k.arg: k.value for k in node.keywords}
      name = ast.literal_eval(kwargs["name"])
      targets[name] = {
          "rule": node.func.id,
          "srcs": _labels(kwargs.get("srcs")),
          "data": _labels(kwargs.get("data")),
          "deps": _labels(kwargs.get("deps")),
          "main": ast.literal_eval(kwargs["main"]) if "main" in kwargs else None,
          "args": ast.literal_eval(kwargs["args"]) if "args" in kwargs else [],
      }
  return targets


def _labels(node):
  """A list of labels or files; `glob([...])` expands to the files it matches (at least one)."""
  if node is None:
    return []
  if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "glob":
    patterns = ast.literal_eval(node.args[0])
    # Bazel's `dir/**` matches the files below dir; pathlib's needs `dir/**/*`.
    patterns = [p + "/*" if p.endswith("**") else p for p in patterns]
    files = sorted(str(p.relative_to(ROOT)) for pat in patterns for p in ROOT.glob(pat) if p.is_file())
    assert files, "glob(%s) in BUILD matches no file" % patterns
    return files
  return ast.literal_eval(node)


def test_build_is_what_the_generator_writes_from_the_tree():
  from tf1clip.tools import build_file  # pylint: disable=import-outside-toplevel
  assert (ROOT / "BUILD").read_text() == build_file.render(), "BUILD is stale: run `make catalog`"


def test_every_listed_source_exists():
  for name, t in _targets().items():
    for src in t["srcs"] + t["data"]:
      if src.startswith(":"):
        continue
      assert (ROOT / src).exists(), "target %s names missing file %s" % (name, src)


def test_every_dep_is_a_target():
  targets = _targets()
  for name, t in targets.items():
    for dep in t["deps"]:
      assert dep.startswith(":") and dep[1:] in targets, "target %s has unknown dep %s" % (name, dep)


@pytest.mark.parametrize("folder", ["tf1clip", "graphs"])
def test_every_library_module_is_in_a_py_library(folder):
  listed = {str(p) for t in _targets().values() if t["rule"] == "py_library" for p in t["srcs"]}
  for path in sorted((ROOT / folder).rglob("*.py")):
    rel = str(path.relative_to(ROOT))
    assert rel in listed, "%s is in no py_library of BUILD" % rel


def test_every_test_file_has_a_py_test():
  tests = {s for t in _targets().values() if t["rule"] == "py_test" for s in t["srcs"]}
  for path in sorted((ROOT / "tests").rglob("test_*.py")):
    rel = str(path.relative_to(ROOT))
    assert rel in tests, "%s has no py_test in BUILD" % rel


def test_dependency_graph_has_no_cycle():
  targets = _targets()
  state = {}

  def visit(name, path):
    if state.get(name) == "done":
      return
    assert state.get(name) != "open", "BUILD has a dependency cycle: %s" % " -> ".join(path + [name])
    state[name] = "open"
    for dep in targets[name]["deps"]:
      visit(dep[1:], path + [name])
    state[name] = "done"

  for name in targets:
    visit(name, [])


def test_every_py_test_runs_its_own_file_through_pytest():
  for name, t in _targets().items():
    if t["rule"] != "py_test":
      continue
    assert t["main"] == "tests/run_pytest.py" and t["main"] in t["srcs"], name
    own = [s for s in t["srcs"] if s != t["main"]]
    assert t["args"] == ["$(location %s)" % s for s in own], name

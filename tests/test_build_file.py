"""BUILD mirrors the tree: every source file belongs to a target, every target names real files and deps.

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
          "srcs": ast.literal_eval(kwargs["srcs"]) if "srcs" in kwargs else [],
          "data": ast.literal_eval(kwargs["data"]) if "data" in kwargs else [],
          "deps": ast.literal_eval(kwargs["deps"]) if "deps" in kwargs else [],
      }
  return targets


def _expand(patterns):
  files = []
  for p in patterns:
    files.extend(ROOT.glob(p) if any(c in p for c in "*?[") else [ROOT / p])
  return files


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
  for path in sorted((ROOT / "tests").glob("test_*.py")):
    rel = str(path.relative_to(ROOT))
    assert rel in tests, "%s has no py_test in BUILD" % rel

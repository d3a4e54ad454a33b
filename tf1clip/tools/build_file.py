"""The repository's Bazel BUILD, written from the tree: a maintainer's tool, like api_coverage.

    python -m tf1clip.tools.build_file --write     # rewrite BUILD
    python -m tf1clip.tools.build_file --check     # exit 1 when BUILD differs from the tree (tests/test_build_file.py)

One py_library per area of the tree (LIBRARIES: a folder or a list of files), one py_test per test file, each
target's deps read from the imports of its files (`import tf1clip.contrib...`, `from graphs import ...`, the oracle
harness), so BUILD says what the code does: tests/test_build_file.py checks that the graph has no cycle, i.e. that
the data flow of DESIGN.md holds (pipeline <- accumulation <- shims <- contrib / python <- compat <- tools <- cli).
Third-party requirements are pinned in pyproject.toml / constraints.txt and not named here (rules_python's
pip_parse cannot be loaded offline).
"""

import argparse
import ast
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# name -> (comment, folders or files it holds, data files). A file belongs to the first area that claims it.
LIBRARIES = (
    ("api", "the namespace `import tf1clip` gives: the pipeline's, accumulation's and v2's names, imported when used",
     ["tf1clip/__init__.py"], []),
    ("cli", "the `tf1clip` command line", ["tf1clip/cli.py", "tf1clip/__main__.py"], []),
    ("observability", "seeing the gradients: `tf1clip report`", ["tf1clip/report.py"], []),
    ("accumulation", "gradient accumulation in graph mode", ["tf1clip/accumulation/"], []),
    ("shims", "every patch that makes a maintained library import on TF 2.21, and the hook that applies them",
     ["tf1clip/shims/"], []),
    ("tf115", "what TF 1.15 had: the API and module-path inventories (written inside the oracle) and their loaders",
     ["tf1clip/tf115/"], ["tf1clip/tf115/api.tsv", "tf1clip/tf115/deprecations.tsv", "tf1clip/tf115/modules.tsv.gz"]),
    ("contrib", "TF 1.15's tf.contrib, one package per TF 1.15 module, and the catalog that collects what they serve",
     ["tf1clip/contrib/"], ["tf1clip/contrib/catalog.tsv", "tf1clip/contrib/**/*.csv"]),
    ("python", "TF 1.15's tensorflow.python modules that TensorFlow 2.21 and its libraries dropped",
     ["tf1clip/python/"], []),
    ("compat", "the legacy surface: the TF1 facade, the script runner, the importer hook, NumPy/SciPy legacy names",
     ["tf1clip/compat/"], []),
    ("tools", "what reads, rewrites or launches legacy code: check, upgrade, compare, cluster, doctor, coverage",
     ["tf1clip/tools/"], []),
    ("v2", "the same pipeline for TF2 / Keras optimizers, weight mapping and parity", ["tf1clip/v2/"], []),
    ("tf1clip", "the gradient pipeline: clipping, transforms, optimizer wrappers, summaries, variable selection",
     ["tf1clip/"], ["tf1clip/py.typed"]),
    ("graphs", "reference TF1 graphs", ["graphs/"], []),
    ("benchmarks", "timing and memory tables", ["benchmarks/"], []),
    ("oracle_harness", "the differential harness: the same snippet on TF 1.15 (.venv-tf115) and under `tf1clip run`",
     ["tests/oracle/"], []),
    ("test_support", "pytest's collection and fixtures; every py_test runs its file through tests/run_pytest.py",
     ["tests/"], []),
)
_TESTONLY = ("oracle_harness", "test_support")
_HEADER = """# Bazel targets mirroring the Python packages and tests (DESIGN.md, "Layout"), written by
# `python -m tf1clip.tools.build_file --write` from the tree: each target's deps are its files' imports.
# Third-party requirements (tensorflow, tf-keras, numpy, absl-py, tf-slim, ...; pytest and hypothesis for tests)
# are pinned in pyproject.toml / constraints.txt; in a Bazel workspace with network access they come from
# rules_python's pip_parse as requirement("...") deps, which `bazel query //...` cannot load offline, so they are
# not named here. tests/test_build_file.py checks that BUILD is current and the graph acyclic.

package(default_visibility = ["//visibility:public"])
"""


def _python_files(top):
  found = []
  for folder, dirs, files in os.walk(os.path.join(ROOT, top)):
    dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "fixtures"))
    found += [os.path.relpath(os.path.join(folder, f), ROOT) for f in sorted(files) if f.endswith(".py")]
  return found


def _owner_table():
  """{file: library name} for every Python file a library holds (tests' test_*.py files are py_tests)."""
  owner = {}
  for name, _, members, _ in LIBRARIES:
    for member in members:
      files = _python_files(member) if member.endswith("/") else [member]
      for path in files:
        if path.startswith("tests/") and os.path.basename(path).startswith("test_"):
          continue
        owner.setdefault(path, name)
  return owner


def _module_of_file(path):
  module = path[:-3].replace(os.sep, ".")
  return module[:-len(".__init__")] if module.endswith(".__init__") else module


# A line that names a module in a string without importing it (a prefix for AutoGraph's rules) says so.
_NOT_AN_IMPORT = "# build_file: names, does not import"
_MODULE_STRING = re.compile(r"(tf1clip|graphs|benchmarks)(\.\w+)+(:[\w.]*)?")


def _imports(path):
  """The absolute module names `path` imports (at any depth of the file: lazy imports are dependencies too)."""
  with open(os.path.join(ROOT, path), encoding="utf-8") as f:
    text = f.read()
  tree, lines = ast.parse(text, filename=path), text.splitlines()
  found = set()
  # IPython calls `tf1clip.load_ipython_extension` by name (`%load_ext tf1clip`): an entry point into compat, not a
  # dependency of the pipeline package on it
  entry_points = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "load_ipython_extension"]
  skipped = {id(inner) for entry in entry_points for inner in ast.walk(entry)}
  for node in ast.walk(tree):
    if id(node) in skipped:
      continue
    if isinstance(node, ast.Import):
      found.update(alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
      # `from tf1clip import shims` depends on tf1clip.shims (the package's own __init__ is implicit)
      found.update(node.module + "." + alias.name for alias in node.names)
    elif (isinstance(node, ast.Constant) and isinstance(node.value, str) and _MODULE_STRING.fullmatch(node.value)
          and _NOT_AN_IMPORT not in lines[node.lineno - 1]):
      # a module named in a string: importlib.import_module("..."), a shim's "module:attribute" source, the
      # facade's table of where a name comes from
      found.add(node.value.partition(":")[0])
  return found


def _deps(paths, owner, modules, self_name=None):
  """The library names the files `paths` import, `self_name` excluded."""
  deps = set()
  for path in paths:
    for imported in _imports(path):
      if imported in ("harness", "prelude") or imported.startswith("harness."):
        deps.add("oracle_harness")
        continue
      if imported in ("event_files", "conftest"):
        deps.add("test_support")
        continue
      parts = imported.split(".")
      for end in range(len(parts), 0, -1):
        target = modules.get(".".join(parts[:end]))
        if target is not None:
          deps.add(target)
          break
  deps.discard(self_name)
  return sorted(deps)


def _list(name, items, indent="    "):
  if not items:
    return ""
  inner = "".join('%s    "%s",\n' % (indent, item) for item in items)
  return "%s%s = [\n%s%s],\n" % (indent, name, inner, indent)


def _data_files(patterns):
  """The files `patterns` name (globs expanded against the tree), sorted."""
  found = set()
  for pattern in patterns:
    found.update(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, pattern), recursive=True)
                 if os.path.isfile(p))
  return sorted(found)


def render():
  """BUILD's text for the tree as it is."""
  owner = _owner_table()
  modules = {_module_of_file(path): name for path, name in owner.items()}
  blocks = [_HEADER]
  for name, comment, _, data in LIBRARIES:
    srcs = sorted(p for p, n in owner.items() if n == name)
    if name == "tf1clip":
      srcs = sorted(srcs + ["tf1clip/py.typed"])
      data = []
    deps = _deps([s for s in srcs if s.endswith(".py")], owner, modules, name)
    block = "# %s\npy_library(\n    name = \"%s\",\n" % (comment, name)
    if name in _TESTONLY:
      block += "    testonly = True,\n"
    block += _list("srcs", srcs) + _list("data", _data_files(data)) + _list("deps", [":" + d for d in deps]) + ")\n"
    blocks.append(block)
  blocks.append('# `tf1clip run | check | upgrade | parity | ...`\npy_binary(\n    name = "tf1clip_cli",\n'
                '    main = "tf1clip/__main__.py",\n    srcs = [\n        "tf1clip/__main__.py",\n    ],\n'
                '    deps = [\n        ":cli",\n    ],\n)\n')
  blocks.append('filegroup(\n    name = "examples",\n    srcs = glob(["examples/**"]),\n)\n')
  blocks.append('filegroup(\n    name = "test_fixtures",\n    srcs = glob(["tests/fixtures/**"]),\n)\n')
  names = set()
  for path in sorted(p for p in _python_files("tests") if os.path.basename(p).startswith("test_")):
    target = os.path.relpath(path, "tests")[:-3].replace(os.sep, "_")
    target = target if target.startswith("test_") else "test_" + target
    assert target not in names, "two test files make the target %s" % target
    names.add(target)
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
      text = f.read()
    data = [":examples"] if "examples" in text else []
    data += [":test_fixtures"] if "fixtures" in text else []
    data += ["BUILD"] if path == "tests/test_build_file.py" else []
    size = "large" if ("subprocess" in text or "run_both" in text) else "medium"
    deps = sorted(set(_deps([path], owner, modules)) | {"test_support"})
    block = ("py_test(\n    name = \"%s\",\n    size = \"%s\",\n    main = \"tests/run_pytest.py\",\n"
             "    args = [\"$(location %s)\"],\n" % (target, size, path))
    if data:
      block += "    data = [%s],\n" % ", ".join('"%s"' % d for d in data)
    block += _list("srcs", [path, "tests/run_pytest.py"]) + _list("deps", [":" + d for d in deps]) + ")\n"
    blocks.append(block)
  return "\n".join(blocks)


def main(argv=None):
  parser = argparse.ArgumentParser(prog="python -m tf1clip.tools.build_file", description=__doc__.splitlines()[0])
  parser.add_argument("--write", action="store_true", help="rewrite BUILD")
  parser.add_argument("--check", action="store_true", help="exit 1 when BUILD is stale")
  args = parser.parse_args(argv)
  text = render()
  path = os.path.join(ROOT, "BUILD")
  if args.write:
    with open(path, "w", encoding="utf-8") as f:
      f.write(text)
    return 0
  if args.check:
    with open(path, encoding="utf-8") as f:
      if f.read() != text:
        print("BUILD is stale: run `make catalog` (python -m tf1clip.tools.build_file --write)")
        return 1
    return 0
  sys.stdout.write(text)
  return 0


if __name__ == "__main__":
  sys.exit(main())

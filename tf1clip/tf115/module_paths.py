"""What TensorFlow 1.15 had by module path: modules.tsv.gz (every module and (module, name) pair), read lazily.

api.tsv (tf115/__init__.py) is TF 1.15's public names (`tf.contrib.layers.batch_norm`); this is how real TF1 code
also reached them, by module path (`from tensorflow.contrib.layers.python.layers.layers import batch_norm`). The
file is written by tf115/generate_modules.py inside TF 1.15 (`make inventory`; its docstring defines the columns,
what counts as a name and the raw-op rule; docs/oracle.md summarises them). Read without importing TensorFlow, by
tools.module_coverage and the tests, and meant for the importer and `tf1clip check` (issue #35's later steps); the
first call parses the file (a fraction of a second), every later one is a dict look-up.

    module_paths.has_module("tensorflow.contrib.layers.python.layers")       # True
    module_paths.names("tensorflow.python.ops.rnn_cell_impl")["LSTMCell"]     # Pair(... same_as='tf.nn.rnn_cell.LSTMCell')
    module_paths.pairs_of("tf.nn.rnn_cell.LSTMCell")                          # every (module, name) that was that class

Place in the data flow: a leaf like tf115/__init__.py (no TensorFlow, no other tf1clip import but the inventory).
"""

import collections
import functools
import gzip
import os

from tf1clip import tf115

MODULES_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "modules.tsv.gz")

# Module: one module TF 1.15 had a file for. kind "module" (it imported) or "import-error" (TF 1.15's own import
# failed: error says how); forms a subset of {"import", "from", "as"} (`import a.b.c`, `from a.b import c`,
# `import a.b.c as d` gave this module on TF 1.15); has_all: it defined __all__; same_as: its public name.
Module = collections.namedtuple("Module", "path kind same_as forms has_all error")
# Pair: one name of one module. kind module / class / function / constant / other / raw-op / import-error;
# same_as "tf.X" (the public name that was this object), "tensorflow.m:name" (the pair it was at home in) or "";
# target: the module it is (kind module) or the op it wraps (kind raw-op); flags: "a" in __all__, "d"/"s" an
# underscore name a forwarding stub re-exported, "p" an underscore name real code imports (USED_PRIVATE).
Pair = collections.namedtuple("Pair", "module name kind same_as target flags")

_FORMS = (("i", "import"), ("f", "from"), ("s", "as"))
AREAS = ("contrib public", "contrib deep", "tensorflow.python", "core", "examples", "other")


@functools.lru_cache(maxsize=None)
def _table():
  modules, names = {}, collections.defaultdict(dict)
  with gzip.open(MODULES_FILE, "rt", encoding="utf-8") as f:
    for line in f:
      if line.startswith("#"):
        continue
      module, name, kind, same_as, target, flags = line.rstrip("\n").split("\t")
      if name:
        names[module][name] = Pair(module, name, kind, same_as, target, flags)
      else:
        forms = frozenset(word for letter, word in _FORMS if letter in flags)
        modules[module] = Module(module, kind, same_as, forms, "A" in flags, target if kind == "import-error" else "")
  return modules, dict(names)


def modules():
  """{dotted path: Module} for every module file TF 1.15 had below the inventory's trees, imported or not."""
  return _table()[0]


def has_module(path):
  """True when `import <path>` worked on TF 1.15 ("tensorflow.contrib.layers.python.layers")."""
  entry = modules().get(path)
  return entry is not None and entry.kind == "module"


def names(path):
  """{name: Pair} of a module TF 1.15 imported ({} for any other path)."""
  return _table()[1].get(path, {})


def pair(path, name):
  """The Pair for `from <path> import <name>`, or None when TF 1.15 had no such (recorded) name."""
  return names(path).get(name)


def star_names(path):
  """The names `from <path> import *` bound on TF 1.15: __all__'s where the module had one, else the public ones."""
  entry = modules().get(path)
  if entry is None or entry.kind != "module":
    return []
  if entry.has_all:
    return sorted(n for n, p in names(path).items() if "a" in p.flags)
  return sorted(n for n in names(path) if not n.startswith("_"))


def area_of(path):
  """The coverage area of a module path: one of AREAS (contrib public = tensorflow.contrib and its public
  tf.contrib.X modules; contrib deep = the rest of tensorflow.contrib; other = lite, tools and compiler)."""
  parts = path.split(".")
  if parts[:2] == ["tensorflow", "contrib"]:
    if len(parts) == 2 or (len(parts) == 3 and parts[2] in public_contrib()):
      return "contrib public"
    return "contrib deep"
  if parts[:2] == ["tensorflow", "python"]:
    return "tensorflow.python"
  if parts[:2] in (["tensorflow", "core"], ["tensorflow", "examples"]):
    return parts[1]
  return "other"


@functools.lru_cache(maxsize=None)
def public_contrib():
  """TF 1.15's public contrib modules, {"layers", "slim", ...}: the X of every tf.contrib.X line in api.tsv."""
  return frozenset(name.split(".")[2] for name in tf115.entries() if name.count(".") == 2
                   and name.startswith("tf.contrib."))


@functools.lru_cache(maxsize=None)
def _by_public_name():
  found = collections.defaultdict(list)
  for module_names in _table()[1].values():
    for entry in module_names.values():
      if entry.same_as.startswith("tf."):
        found[entry.same_as].append((entry.module, entry.name))
  return dict(found)


def pairs_of(public_name):
  """Every (module, name) pair that was, on TF 1.15, the object of `public_name` or of a public name that was the
  same object ("tf.nn.rnn_cell.LSTMCell" finds rnn_cell_impl's and contrib.rnn's LSTMCell), sorted."""
  entry = tf115.entries().get(public_name)
  first = entry.same_as if entry is not None and entry.same_as else public_name
  group = tf115.same_object_groups().get(first, [first])
  return sorted(p for name in group for p in _by_public_name().get(name, ()))


def same_object_groups():
  """{key: [(module, name), ...]} for the objects TF 1.15 served under more than one pair: key is the public name
  (api.tsv's first name of the object) or, for an object with none, its home pair "tensorflow.m:name"."""
  groups = collections.defaultdict(list)
  public_first = {}
  for entry in tf115.entries().values():
    if entry.same_as:
      public_first[entry.name] = entry.same_as
  for module_names in _table()[1].values():
    for entry in module_names.values():
      if entry.kind == "module" or not entry.same_as:
        continue
      key = public_first.get(entry.same_as, entry.same_as)
      groups[key].append((entry.module, entry.name))
  for key in list(groups):
    if not key.startswith("tf."):
      home_module, _, home_name = key.partition(":")
      groups[key].append((home_module, home_name))
  return {key: sorted(set(pairs)) for key, pairs in groups.items() if len(set(pairs)) > 1}

"""What TensorFlow 1.15 had: its public API as data (api.tsv), the list of what `tf1clip run` owes.

Place in the data flow (DESIGN.md, "TF 1.15 as the oracle, its API as the inventory"): a leaf like
contrib.catalog, read without importing TensorFlow by the catalog's tests, `tf1clip check` (a name TF 1.15
had versus a name no TensorFlow had), tools.api_coverage (docs/api-coverage.md) and the oracle tests.

api.tsv is written by tf115/generate.py inside the oracle environment (`make inventory`): one line a name,
`name<TAB>kind<TAB>signature[<TAB>same_as]`, kind in module / class / function / constant / import-error,
same_as (where present) the first name in sorted order that was the very same object in TF 1.15. deprecations.tsv,
written beside it (`generate.py --deprecations`), is what TF 1.15 printed deprecation warnings for. The module-path
inventory (modules.tsv.gz, by generate_modules.py) has its own loader, tf115.module_paths.
"""

import collections
import functools
import os

API_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "api.tsv")
DEPRECATIONS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "deprecations.tsv")

Entry = collections.namedtuple("Entry", "name kind signature same_as")


@functools.lru_cache(maxsize=None)
def entries():
  """Every public name of TF 1.15, as {dotted name: Entry}, in the file's (sorted) order."""
  found = {}
  with open(API_FILE, encoding="utf-8") as f:
    for line in f:
      if line.startswith("#") or not line.strip():
        continue
      name, kind, sig, same_as = (line.rstrip("\n").split("\t") + ["", "", ""])[:4]
      found[name] = Entry(name, kind, sig, same_as)
  return found


def same_object_groups():
  """{first name: [names]} for the objects TF 1.15 served under more than one inventory name (api.tsv's same_as)."""
  groups = collections.defaultdict(list)
  for entry in entries().values():
    if entry.same_as:
      groups[entry.same_as].append(entry.name)
  return {first: [first] + names for first, names in groups.items()}


def has(name):
  """True when TF 1.15 had `name` ("tf.contrib.layers.flatten", "tf.nn.relu", ...)."""
  return name in entries()


def kind_of(name):
  """TF 1.15's kind of `name` (module, class, function, constant, import-error), or None if it had none."""
  entry = entries().get(name)
  return entry.kind if entry else None


def group_of(name):
  """The module a name is counted under: "tf.contrib.<module>" for contrib, "tf.<module>" or "tf" otherwise."""
  parts = name.split(".")
  if parts[:2] == ["tf", "contrib"]:
    return ".".join(parts[:3])
  if len(parts) <= 2:
    return "tf"
  return ".".join(parts[:2])


def by_group(prefix=""):
  """{group: [Entry, ...]} for the names starting with `prefix` (e.g. "tf.contrib."), groups sorted."""
  groups = collections.defaultdict(list)
  for entry in entries().values():
    if entry.name.startswith(prefix) and entry.name != prefix.rstrip("."):
      groups[group_of(entry.name)].append(entry)
  return dict(sorted(groups.items()))


Deprecations = collections.namedtuple("Deprecations", "functions arguments argument_values api")


@functools.lru_cache(maxsize=None)
def deprecations():
  """What TF 1.15 warned about as deprecated (deprecations.tsv), as sets.

  functions: {(qualname, module)}; arguments and argument_values: {(qualname, module, argument)};
  api: {"tf.layers.dense", ...} (public names whose object TF 1.15 marked deprecated).
  """
  functions, arguments, values, api = set(), set(), set(), set()
  with open(DEPRECATIONS_FILE, encoding="utf-8") as f:
    for line in f:
      if line.startswith("#") or not line.strip():
        continue
      kind, name, module, args = (line.rstrip("\n").split("\t") + ["", "", ""])[:4]
      if kind == "api":
        api.add(name)
      elif kind == "function":
        functions.add((name, module))
      else:
        target = arguments if kind == "arguments" else values
        target.update((name, module, arg) for arg in args.split(",") if arg)
  return Deprecations(frozenset(functions), frozenset(arguments), frozenset(values), frozenset(api))

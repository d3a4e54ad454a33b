"""How much of TF 1.15's API `tf1clip run` serves: resolve every inventory name, compare signatures, write the table.

    python -m tf1clip.tools.api_coverage                 # the per-module table on stdout
    python -m tf1clip.tools.api_coverage --write docs/api-coverage.md
    python -m tf1clip.tools.api_coverage --json          # one record a name (tests read it)

Place in the data flow: tf115 (the inventory) + compat.v1 (the facade a script's `import tensorflow` gets
under `tf1clip run`) <- **tools.api_coverage** <- docs, tests. Each inventory name is looked up on the facade
attribute by attribute, as a script's `tf.contrib.layers.flatten` is, and gets one status:

  served        it resolves;
  clear error   it raises tf1clip's ContribNotProvidedError / NotProvidedError, which names the symbol and
                what to use instead (DESIGN.md: "a contrib symbol we do not provide" gets a clear error);
  missing       anything else (a plain AttributeError): a gap to close.

A served class or function is "signature-equal" when signature.text() of the served object equals TF 1.15's
(parameter names, order, defaults). "oracle-tested" names are those an oracle test declares in its
module-level `ORACLE_TESTED` (any tests/**/test_*.py: oracle files live beside the package's other tests, in
tests/contrib/<module>/ and tests/oracle/); tests/oracle/test_inventory.py checks each declaration names something
the test file really runs.
"""

import argparse
import ast
import glob
import json
import os
import sys

from tf1clip import tf115
from tf1clip.tf115 import signature

# TF 1.15 signatures that say nothing: unreadable, or a decorator's pass-through wrapper.
UNREADABLE = ("", "?", "(*args, **kwargs)")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TESTS = os.path.join(REPO, "tests")


def oracle_tested(folder=TESTS):
  """{dotted name: [test file relative to `folder`, ...]} read from the `ORACLE_TESTED` tuples of its test_*.py."""
  found = {}
  for path in sorted(glob.glob(os.path.join(folder, "**", "test_*.py"), recursive=True)):
    with open(path, encoding="utf-8") as f:
      text = f.read()
    if "ORACLE_TESTED" not in text:
      continue
    tree = ast.parse(text, filename=path)
    # ORACLE_TESTED is a tuple of names, possibly built from other module-level constants
    # (`tuple("tf.contrib.rnn." + n for n in CELLS)`): evaluate the file's simple assignments in order.
    namespace = {"__builtins__": {"tuple": tuple}}
    for node in tree.body:
      if isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) for t in node.targets):
        try:
          value = eval(compile(ast.Expression(node.value), path, "eval"), namespace)  # pylint: disable=eval-used
        except Exception:  # pylint: disable=broad-except
          continue  # not a constant (a function call, an import's name): not needed here
        for target in node.targets:
          namespace[target.id] = value
    for name in namespace.get("ORACLE_TESTED", ()):
      found.setdefault(name, []).append(os.path.relpath(path, folder))
  return found


def clear_error_types():
  """The exception types of tf1clip's deliberate refusals, which name the symbol and what to use instead."""
  from tf1clip.compat import surface  # pylint: disable=import-outside-toplevel
  from tf1clip.contrib import catalog  # pylint: disable=import-outside-toplevel
  return (catalog.ContribNotProvidedError, surface.NotProvidedError, surface.NotProvidedImportError)


def resolve(tf, name):
  """(status, object or error text) for a dotted TF 1.15 name looked up on the facade `tf`."""
  from tf1clip.contrib import catalog  # pylint: disable=import-outside-toplevel
  obj = tf
  for part in name.split(".")[1:]:
    try:
      obj = getattr(obj, part)
    except clear_error_types() as e:
      return "clear error", str(e)
    except Exception as e:  # pylint: disable=broad-except
      return "missing", "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")
  if isinstance(obj, catalog.UnsupportedModule):
    return "clear error", catalog.explain(name)
  return "served", obj


def survey(names=None):
  """One record a name: {"name", "group", "kind", "status", "signature_equal", "served_signature", "error",
  "same_object"}."""
  import tf1clip.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  inventory = tf115.entries()
  group_of = {n: first for first, group in tf115.same_object_groups().items() for n in group}
  records = []
  served = {}  # name -> object, for the names TF 1.15 served as one object under several names
  for name in names or inventory:
    entry = inventory[name]
    record = {"name": name, "group": tf115.group_of(name), "kind": entry.kind, "status": None,
              "signature_equal": None, "signature_compatible": None, "served_signature": None,
              "tf115_signature": entry.signature, "error": None}
    if entry.kind == "import-error":
      record["status"] = "broken in TF 1.15"
      records.append(record)
      continue
    status, found = resolve(tf, name)
    record["status"] = status
    if status == "served" and name in group_of:
      served[name] = found
    if status != "served":
      record["error"] = found
    elif entry.kind in ("class", "function") and entry.signature not in UNREADABLE and callable(found):
      served_sig = signature.text(found)
      record["served_signature"] = served_sig
      record["signature_equal"] = served_sig == entry.signature
      record["signature_compatible"] = signature.compatible(entry.signature, served_sig)
    records.append(record)
  for record in records:
    record["same_object"] = same_object(record["name"], served, group_of)
  return records


def same_object(name, served, group_of):
  """The first name of `name`'s TF 1.15 same-object group whose served object is `name`'s too, or None.

  TF 1.15 served `tf.contrib.slim.metrics.streaming_auc` and `tf.contrib.metrics.streaming_auc` as one function
  (api.tsv's same_as); when tf1clip serves one object under both names as well, a test of one judges the other.
  """
  if name not in served:
    return None
  return min(n for n in served if group_of.get(n) == group_of[name] and served[n] is served[name])


def judged(records, tested):
  """`tested` (the declared names), the served modules a declared name is directly in, and the judged names' aliases.

  A module has no behaviour of its own: a test that runs `tf.contrib.batching.batch_function` on both sides reaches
  it through `tf.contrib.batching`, so the module counts as judged with it. A name that TF 1.15 served as the same
  object as a judged name, and that tf1clip serves as that same object too (the record's `same_object`), is
  judged with it: `tf.contrib.slim.metrics.streaming_auc` is `tf.contrib.metrics.streaming_auc` on both sides.
  """
  modules = {r["name"] for r in records if r.get("kind") == "module" and r["status"] == "served"}
  every, through_a_name = set(tested), set()
  while True:  # until nothing more is judged: an alias's module, that module's aliases, ...
    objects = {r["same_object"] for r in records if r.get("same_object") and r["name"] in every}
    aliases = {r["name"] for r in records if r.get("same_object") in objects}
    parents = modules & {name.rsplit(".", 1)[0] for name in every - through_a_name}
    if aliases | parents <= every:
      return every
    every |= aliases | parents
    through_a_name |= parents - aliases - set(tested)


def table(records, tested):
  """The per-module table of docs/api-coverage.md (markdown), contrib first."""
  tested = judged(records, tested)
  groups = {}
  for r in records:
    groups.setdefault(r["group"], []).append(r)
  order = sorted(groups, key=lambda g: (not g.startswith("tf.contrib"), g))
  lines = ["| module | in TF 1.15 | served | signature-equal (+ compatible) | oracle-tested | clear error | missing |",
           "|---|---:|---:|---:|---:|---:|---:|"]
  totals = [0] * 8
  for group in order:
    rs = groups[group]
    with_sig = [r for r in rs if r["signature_equal"] is not None]
    equal = sum(bool(r["signature_equal"]) for r in with_sig)
    row = [len(rs), sum(r["status"] == "served" for r in rs), equal,
           sum(bool(r["signature_compatible"]) for r in with_sig) - equal, len(with_sig),
           sum(r["name"] in tested for r in rs),
           sum(r["status"] == "clear error" for r in rs),
           sum(r["status"] in ("missing",) for r in rs)]
    totals = [a + b for a, b in zip(totals, row)]
    lines.append("| `%s` | %d | %d | %d (+%d) of %d | %d | %d | %d |" % ((group,) + tuple(row)))
  lines.append("| **all** | %d | %d | %d (+%d) of %d | %d | %d | %d |" % tuple(totals))
  return "\n".join(lines)


def differences(records):
  """The appendix of docs/api-coverage.md: every served signature a TF 1.15 keyword call could notice."""
  from tf1clip.contrib import catalog  # pylint: disable=import-outside-toplevel
  rows = [r for r in records if r["signature_compatible"] is False]
  lines = ["## Signatures that differ from TF 1.15's", "",
           "Served names whose parameters a TF 1.15 call could notice (a parameter renamed, removed or given "
           "another default); a new parameter with a default is not listed. Outside `tf.contrib` these are "
           "TensorFlow 2.21's own functions (tf1clip serves `tf.compat.v1` as it is); inside, the reason is "
           "`catalog.SIGNATURE_DIFFERENCES`'s.", "",
           "| name | TF 1.15 | served | why |", "|---|---|---|---|"]
  for r in rows:
    why = catalog.signature_difference(r["name"]) or (
        "TensorFlow 2.21's own" if not r["name"].startswith("tf.contrib") else "")
    cell = lambda t: "`%s`" % t.replace("|", "\\|")
    lines.append("| `%s` | %s | %s | %s |" % (r["name"], cell(r["tf115_signature"]), cell(r["served_signature"]),
                                            why.replace("|", "\\|")))
  return "\n".join(lines)


HEADER = """# TensorFlow 1.15's API under `tf1clip run`

Generated by `python -m tf1clip.tools.api_coverage --write docs/api-coverage.md` from the inventory
`tf1clip/tf115/api.tsv` (written by `tf1clip/tf115/generate.py` inside TF 1.15.5 itself: every `tf.*` v1 name,
`tf.compat.v1`/`v2` left out as copies, and every `tf.contrib.*` module with its public submodules). Do not
edit by hand.

- **served**: the name resolves on the TF1 API a script's `import tensorflow` gets under `tf1clip run`.
- **signature-equal (+ compatible)**: of the served classes and functions whose TF 1.15 signature is
  readable, how many take the same parameters (names, order, defaults); "+ compatible": how many more only
  add parameters with defaults, so every TF 1.15 call binds the same way (`tf115.signature.compatible`).
- **oracle-tested**: a test in `tests/oracle/` runs it on TF 1.15 and under tf1clip and compares values,
  variable names or errors; a module counts when a name directly in it does (the test reaches it through the
  module); a name counts when TF 1.15 served it as the very same object as a judged name (the inventory's
  same_as column, written by TF 1.15) and tf1clip serves that same object under both names too
  (`tf.contrib.slim.metrics.streaming_auc` is `tf.contrib.metrics.streaming_auc` on both sides).
- **clear error**: it raises tf1clip's `ContribNotProvidedError` naming the symbol and what to use instead
  (`tf1clip check` reports it before the run).
- **missing**: anything else: a gap.

A name TF 1.15 itself could not import (its `import-error` lines) is counted under "in TF 1.15" only.
"""


def main(argv=None):
  parser = argparse.ArgumentParser(prog="python -m tf1clip.tools.api_coverage", description=__doc__.split("\n")[0])
  parser.add_argument("--write", metavar="FILE", help="write the markdown page to FILE")
  parser.add_argument("--json", action="store_true", help="print one JSON record a name")
  parser.add_argument("--prefix", default="", help="only names starting with this (e.g. tf.contrib.)")
  args = parser.parse_args(argv)
  names = [n for n in tf115.entries() if n.startswith(args.prefix)]
  records = survey(names)
  tested = oracle_tested()
  every = judged(records, tested)
  for r in records:
    r["oracle_tested"] = r["name"] in every
  if args.json:
    json.dump(records, sys.stdout)
    return 0
  text = table(records, tested)
  if args.write:
    page = HEADER + "\n" + text + "\n\n" + differences(records) + "\n"
    with open(args.write, "a+", encoding="utf-8") as f:
      f.seek(0)
      old = f.read()
      # The module-path section below is module_coverage's (a 30 s survey of its own): kept as it is.
      marker = "## TF 1.15's module paths"
      if marker in old:
        page += "\n" + old[old.index(marker):]
      f.seek(0)
      f.truncate()
      f.write(page)
  print(text)
  return 0


if __name__ == "__main__":
  sys.exit(main())

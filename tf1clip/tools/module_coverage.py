"""How much of TF 1.15's module paths `tf1clip run` serves: every inventory module imported, every name looked up.

    python -m tf1clip.tools.module_coverage                     # the per-area table on stdout
    python -m tf1clip.tools.module_coverage --json              # one record a module and a (module, name) pair
    python -m tf1clip.tools.module_coverage --module tensorflow.contrib.layers.python.layers.layers ...
    python -m tf1clip.tools.module_coverage --write             # compat/paths_refused.tsv.gz + docs' table

Place in the data flow: tf115.module_paths (the module-path inventory, written by TF 1.15) + compat (what `tf1clip
run` gives a script) <- **tools.module_coverage** <- docs, tests. api_coverage does the same for the public names
(`tf.contrib.layers.flatten`); this module reuses its resolve() for the public aliases and its clear-error types.

One `tf1clip run -c` process (a TensorFlow start costs seconds: everything is batched into it) runs, as the user's
own code would, for every module TF 1.15 imported: `import a.b.c`, then for each of the module's inventory names
`from a.b.c import name`. Each pair gets a status:

  served        the import gives an object (not tf.contrib's UnsupportedModule placeholder);
  clear error   tf1clip's deliberate refusal (ContribNotProvidedError / NotProvidedError / NotProvidedImportError);
  error         anything else: a bare ImportError / AttributeError / ModuleNotFoundError, or a crash;

and, where TF 1.15's object was a public name's (the inventory's same_as `tf.X`), whether the served object *is*
the one tf1clip serves for `tf.X` ("same object"). An error is "true" when it is a clear error that does not say TF
1.15 lacked the thing: every inventory module and pair existed on TF 1.15, so a bare "No module named ..." or a
message "TensorFlow 1.15 had no ..." about it is untrue. A module that does not import fails all its names with its
error. Raw-op pairs (generate_modules.py's raw-op rule) are counted apart: they are one rule, not names.
"""

import argparse
import builtins
import json
import os
import re
import subprocess
import sys
import tempfile

from tf1clip.tf115 import module_paths
from tf1clip.tools import api_coverage

# What an error must not say about a path or name the inventory shows TF 1.15 had.
_CLAIMS_TF115_LACKED = re.compile(r"TensorFlow 1\.15\b.{0,80}?\b(?:had no|did not have|never had|lacked)\b")
_PROBE = ("import sys; from tf1clip.tools import module_coverage; "
          "module_coverage.probe_main(sys.argv[1], sys.argv[2])")


def survey(paths=None, timeout=1800):
  """One record a module and a pair (see the module docstring), from one `tf1clip run` process.

  Args:
    paths: the module paths to try (default: every module TF 1.15 imported).
    timeout: seconds the `tf1clip run` process may take.

  Returns:
    A list of dicts: {"record": "module", "module", "area", "status", "error", "true_error"} and
    {"record": "pair", "module", "name", "area", "kind", "same_as", "status", "same_object", "error",
    "true_error"}.
  """
  paths = sorted(p for p in (paths or module_paths.modules()) if module_paths.has_module(p))
  with tempfile.TemporaryDirectory(prefix="tf1clip-module-coverage-") as tmp:
    listing, out = os.path.join(tmp, "modules.txt"), os.path.join(tmp, "records.jsonl")
    with open(listing, "w", encoding="utf-8") as f:
      f.write("\n".join(paths) + "\n")
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONWARNINGS="ignore")
    proc = subprocess.run([sys.executable, "-m", "tf1clip", "run", "-c", _PROBE, out, listing], cwd=tmp, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
    records = []
    if os.path.exists(out):
      with open(out, encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
  if proc.returncode != 0:
    last = records[-1]["module"] if records else "(none)"
    raise RuntimeError("the tf1clip run probe exited %d after module %s; its last output:\n%s"
                       % (proc.returncode, last, proc.stdout[-3000:]))
  return records


def probe_main(out_path, listing_path):
  """The `tf1clip run -c` side of survey(): probe every module listed, one JSON line a record, flushed as it goes
  (so that a crash still says which module it was in)."""
  with open(listing_path, encoding="utf-8") as f:
    paths = [line.strip() for line in f if line.strip()]
  with open(out_path, "w", encoding="utf-8") as out:
    for record in probe(paths):
      out.write(json.dumps(record) + "\n")
      out.flush()


def probe(paths):
  """Yield the records of survey() for `paths`; must run under `tf1clip run` with file-less `__main__` code
  treated as the user's (`-c`): the statements run in a `__main__` namespace, as a script's would."""
  import tf1clip.compat.v1 as tf  # pylint: disable=import-outside-toplevel  # what the script's `import tensorflow` gets
  clear = api_coverage.clear_error_types()
  served_public = {}
  for path in paths:
    area = module_paths.area_of(path)
    module_error = _run("import %s" % path)[1]
    yield dict(record="module", module=path, area=area, status=_status(module_error, clear),
               error=_text(module_error), true_error=_true(module_error, clear))
    for name, entry in sorted(module_paths.names(path).items()):
      record = dict(record="pair", module=path, name=name, area=area, kind=entry.kind, same_as=entry.same_as,
                    same_object=None)
      error, found = module_error, None
      if error is None:
        found, error = _run("from %s import %s as found" % (path, name))
        if error is None and _is_placeholder(found):
          error = _placeholder_error(found)
      record.update(status=_status(error, clear), error=_text(error), true_error=_true(error, clear))
      if error is None and entry.same_as.startswith("tf."):
        if entry.same_as not in served_public:
          served_public[entry.same_as] = api_coverage.resolve(tf, entry.same_as)
        status, public = served_public[entry.same_as]
        record["same_object"] = status == "served" and public is found
      yield record


def _run(statement):
  """(what `statement` binds to `found`, the exception it raised or None), run as the user's `__main__` code."""
  namespace = {"__name__": "__main__", "__builtins__": builtins}
  try:
    exec(statement, namespace)  # pylint: disable=exec-used
  except BaseException as e:  # pylint: disable=broad-except  # SystemExit and KeyboardInterrupt of a module too
    if isinstance(e, KeyboardInterrupt):
      raise
    return None, e
  return namespace.get("found"), None


def _is_placeholder(obj):
  catalog = sys.modules.get("tf1clip.contrib.catalog")
  return catalog is not None and isinstance(obj, catalog.UnsupportedModule)


def _placeholder_error(module):
  from tf1clip.contrib import catalog  # pylint: disable=import-outside-toplevel
  return catalog.ContribNotProvidedError(module.__name__)


def _status(error, clear):
  if error is None:
    return "served"
  return "clear error" if isinstance(error, clear) else "error"


def _text(error):
  if error is None:
    return None
  return "%s: %s" % (type(error).__name__, (str(error).splitlines() or [""])[0][:1000])


def _true(error, clear):
  """True for a clear error that does not claim TF 1.15 lacked the path or name; None when there is no error."""
  if error is None:
    return None
  return isinstance(error, clear) and not _CLAIMS_TF115_LACKED.search(str(error))


COLUMNS = ("area", "modules", "import", "pairs", "resolve", "public alias", "same object", "errors", "true errors",
           "raw-op pairs", "raw-op resolve")


def summary(records):
  """{area: {column: count}} over the records, with "all" last; pairs are the non-raw-op ones."""
  rows = {area: dict.fromkeys(COLUMNS[1:], 0) for area in module_paths.AREAS + ("all",)}
  for r in records:
    for area in (r["area"], "all"):
      row = rows[area]
      if r["record"] == "module":
        row["modules"] += 1
        row["import"] += r["status"] == "served"
      elif r["kind"] == "raw-op":
        row["raw-op pairs"] += 1
        row["raw-op resolve"] += r["status"] == "served"
      else:
        row["pairs"] += 1
        row["resolve"] += r["status"] == "served"
        row["errors"] += r["status"] != "served"
        row["true errors"] += bool(r["true_error"])
        if r["same_as"].startswith("tf."):
          row["public alias"] += 1
          row["same object"] += bool(r["same_object"])
  return rows


def table(records):
  """The per-area markdown table (modules that import, pairs that resolve, same object, true errors)."""
  rows = summary(records)
  pct = lambda part, whole: "%d (%d%%)" % (part, int(100.0 * part / whole)) if whole else "0"
  lines = ["| area | modules | import | pairs | resolve | with a public alias | same object | errors | true errors "
           "| raw-op pairs | raw-op resolve |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
  for area, row in rows.items():
    lines.append("| %s | %d | %s | %d | %s | %d | %s | %d | %d | %d | %s |" % (
        "**all**" if area == "all" else area, row["modules"], pct(row["import"], row["modules"]), row["pairs"],
        pct(row["resolve"], row["pairs"]), row["public alias"], pct(row["same object"], row["public alias"]),
        row["errors"], row["true errors"], row["raw-op pairs"], pct(row["raw-op resolve"], row["raw-op pairs"])))
  return "\n".join(lines)


DOC = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "docs",
                   "api-coverage.md")
_DOC_START = "<!-- module-path table: python -m tf1clip.tools.module_coverage --write -->"
_DOC_END = "<!-- end of the module-path table -->"


def write(records):
  """Writes compat.paths.REFUSALS_FILE (every refused pair and its message, for `tf1clip check`) and the table
  into docs/api-coverage.md between its markers (appended the first time)."""
  import gzip  # pylint: disable=import-outside-toplevel
  from tf1clip.compat import paths  # pylint: disable=import-outside-toplevel
  refused = sorted((r["module"], r["name"], r["error"].partition(": ")[2]) for r in records
                   if r["record"] == "pair" and r["status"] != "served")
  with gzip.GzipFile(paths.REFUSALS_FILE, "wb", mtime=0) as f:
    text = "# module\tname\tmessage (written by python -m tf1clip.tools.module_coverage --write)\n"
    text += "".join("%s\t%s\t%s\n" % row for row in refused)
    f.write(text.encode("utf-8"))
  section = "\n".join([_DOC_START, "", table(records), "", _DOC_END])
  with open(DOC, encoding="utf-8") as f:
    doc = f.read()
  if _DOC_START in doc:
    doc = doc[:doc.index(_DOC_START)] + section + doc[doc.index(_DOC_END) + len(_DOC_END):]
  else:
    doc = doc.rstrip("\n") + "\n\n" + section + "\n"
  with open(DOC, "w", encoding="utf-8") as f:
    f.write(doc)


def main(argv=None):
  parser = argparse.ArgumentParser(prog="python -m tf1clip.tools.module_coverage", description=__doc__.split("\n")[0])
  parser.add_argument("--json", action="store_true", help="print one JSON record a module and a pair")
  parser.add_argument("--write", action="store_true",
                      help="write compat/paths_refused.tsv.gz and the table in docs/api-coverage.md (all modules)")
  parser.add_argument("--module", action="append", default=[], metavar="PATH",
                      help="only this module path (repeatable; default: every module TF 1.15 imported)")
  args = parser.parse_args(argv)
  unknown = [p for p in args.module if not module_paths.has_module(p)]
  if unknown:
    parser.error("--module: TF 1.15 imported no module %s (see tf1clip/tf115/modules.tsv.gz)" % ", ".join(unknown))
  if args.write and args.module:
    parser.error("--write surveys every module: leave out --module")
  records = survey(args.module or None)
  if args.write:
    write(records)
  if args.json:
    json.dump(records, sys.stdout)
  else:
    print(table(records))
  return 0


if __name__ == "__main__":
  sys.exit(main())

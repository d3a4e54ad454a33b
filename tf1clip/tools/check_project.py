"""`tf1clip check PATH...`: a whole project's verdict -- files, local imports, first blocker, text and JSON.

Takes files and directories. Directories are walked for `.py` files (skipping virtualenvs, site-packages,
.git, build and cache folders); every file's own imports of project code are followed (`import model`,
`from .data import x`, packages, and directories a file adds with a literal `sys.path.append('src')` or
`sys.path.insert(0, os.path.join(os.path.dirname(__file__), 'src'))`), so `check train.py` also reads
model.py next to it. Each file is judged by tools.check; an entry script (a file named on the command
line, or a file in a directory with `if __name__ == "__main__"` / `app.run(`) gets the first blocker in
run order: its lines in order, each import of a project module expanding into that module's lines at the
import (the first time only), as Python executes a module body on first import. Uses inside functions are
placed at the line they are written on, which is the order they run in most training scripts.

Output: a summary and the rows that need attention (not supported, warnings), `--all` for every row, or
`--format json` (schema `tf1clip.check/1`, documented in docs/check.md and checked by the tests).
Exit status: 0 everything runs, 1 something will not run, 2 usage error (no such path, nothing to check,
a file that cannot be read or parsed).

Data flow: tools.check <- tools.check_project <- cli. Imports no TensorFlow.
"""

import collections
import errno
import json
import os
import re
import sys

from tf1clip.compat import source_files
from tf1clip.tools import check
from tf1clip.tools import check_entries

SCHEMA = "tf1clip.check/1"
# JSON spelling of each status.
STATUS_CODES = {check.RUNS: "runs", check.PROVIDED: "provided", check.UNSUPPORTED: "unsupported",
                check.WARNING: "warning"}

_SKIP_DIRS = frozenset((".git", ".hg", ".svn", "__pycache__", "site-packages", "dist-packages",
                        "node_modules", "build", "dist", ".tox", ".nox", ".eggs", ".mypy_cache",
                        ".pytest_cache", "venv", ".venv", "env", ".env", "virtualenv"))
_MAIN = re.compile(rb"""__name__\s*==\s*['"]__main__['"]|\bapp\.run\(""")

FileReport = collections.namedtuple("FileReport", "path findings imports error is_entry")
FileReport.__doc__ = """One file's verdict: findings, the project files it imports (path, line), or its error."""

Blocker = collections.namedtuple("Blocker", "path line symbol note")
Project = collections.namedtuple("Project", "files entries roots tensorflow skipped")
Project.__new__.__defaults__ = ((),)
Project.__doc__ = """files: path -> FileReport in reading order; entries: entry path -> Blocker or None;
skipped: source_files.Skipped entries of the trees read (looping links, FIFOs), each named in the report."""


def _skip_dir(name, path):
  return (name in _SKIP_DIRS or name.endswith(".egg-info")
          or os.path.isfile(os.path.join(path, "pyvenv.cfg")))


def discover(paths):
  """The `.py` files to read, the entry scripts among them, and the project roots.

  Args:
    paths: files and directories as given on the command line.

  Returns:
    (files, entries, roots): absolute paths in a stable order; entries is a set.

  Raises:
    FileNotFoundError: a path does not exist.
  """
  return discover_all(paths)[:3]


def discover_all(paths):
  """`discover`, plus the `.py` entries of the trees that are not read: (files, entries, roots, skipped).

  skipped: source_files.Skipped for each `.py` name that is a looping or dangling link or not a regular
  file (a FIFO), and each folder that is a link back into the tree.
  """
  files, entries, roots, skipped = [], set(), [], []
  for given in paths:
    path = os.path.abspath(given)
    if os.path.isdir(path):
      roots.append(path)
      skip = lambda d, full: _skip_dir(d, full) or full == _TF1CLIP_DIR
      for found, reason in source_files.walk_files(path, skip):
        if reason is None and found.endswith(".py"):
          files.append(found)
        elif reason is not None and (found.endswith(".py") or "loops back" in reason):
          skipped.append(source_files.Skipped(found, reason))
    elif os.path.exists(path):
      roots.append(os.path.dirname(path))
      files.append(path)
      entries.add(path)
    else:
      raise FileNotFoundError(2, "No such file or directory", given)
  return list(dict.fromkeys(files)), entries, list(dict.fromkeys(roots)), skipped


def _module_file(base, dotted):
  """base/a/b.py or base/a/b/__init__.py for "a.b", else None."""
  if not dotted:
    init = os.path.join(base, "__init__.py")
    return init if os.path.isfile(init) else None
  stem = os.path.join(base, *dotted.split("."))
  for candidate in (stem + ".py", os.path.join(stem, "__init__.py")):
    if os.path.isfile(candidate):
      return candidate
  return None


# tf1clip's own files are the library, not legacy code (the runner's import hook skips them too).
_TF1CLIP_DIR = os.path.dirname(os.path.dirname(os.path.abspath(check.__file__)))


def _in_skipped_dir(path):
  return (any(part in _SKIP_DIRS for part in path.split(os.sep))
          or os.path.abspath(path).startswith(_TF1CLIP_DIR + os.sep))


def resolve_local_imports(path, parsed, search_dirs):
  """The project files an import statement of `path` names.

  Args:
    path: the importing file.
    parsed: its check.ParsedFile.
    search_dirs: directories searched for absolute imports (after the file's own directory).

  Returns:
    A list of (imported file, line).
  """
  here = os.path.dirname(path)
  found = []
  for imp in parsed.local_imports:
    if imp.level:
      base = here
      for _ in range(imp.level - 1):
        base = os.path.dirname(base)
      bases = [base]
    else:
      bases = [here] + [d for d in search_dirs if d != here]
    for base in bases:
      target = _module_file(base, imp.module)
      if target is None and imp.module and "." in imp.module:
        continue
      targets = [target] if target else []
      if target and imp.module and "." in imp.module:  # `import a.b` runs a/__init__.py first
        parts = imp.module.split(".")
        for end in range(1, len(parts)):
          init = _module_file(base, ".".join(parts[:end]))
          if init and init.endswith("__init__.py"):
            targets.insert(end - 1, init)
      for name in imp.names:  # `from pkg import submodule`
        sub = _module_file(base, ".".join(p for p in (imp.module, name) if p))
        if sub:
          targets.append(sub)
      targets = [t for t in targets if not _in_skipped_dir(t)]
      if targets:
        found += [(t, imp.line) for t in targets]
        break
  return found


def _sys_path_dirs(path, parsed, roots):
  here = os.path.dirname(path)
  dirs = []
  for origin, value in parsed.sys_path_literals:
    bases = [here] if origin == "file" else roots + [here]
    for base in bases:
      candidate = os.path.normpath(os.path.join(base, value))
      if os.path.isdir(candidate):
        dirs.append(candidate)
  return dirs


def analyze(paths, resolver=None):
  """Reads a project and judges every file (following local imports); runs nothing.

  Args:
    paths: files and directories.
    resolver: a check.Resolver (default: one on the installed TensorFlow's API sources).

  Returns:
    A Project.

  Raises:
    FileNotFoundError: a path does not exist.
  """
  resolver = resolver or check.Resolver()
  files, entries, roots, skipped = discover_all(paths)
  reports = collections.OrderedDict()
  parsed_files = {}
  search_dirs = list(roots)
  pending = list(files)
  while pending:
    path = pending.pop(0)
    if path in reports:
      continue
    try:
      if path.endswith(".ipynb"):
        source = check_entries.notebook_source(path)
        parsed = check.parse(source, path)
      else:
        source = source_files.read_bytes(path)
        parsed = check.parse(source_files.decode_source(source, path), path)
    except source_files.SourceError as e:
      reports[path] = FileReport(path, [], [], "can't read file: %s" % e.reason, path in entries)
      continue
    except OSError as e:
      reports[path] = FileReport(path, [], [], "can't open file: [Errno %s] %s" % (e.errno, e.strerror),
                                 path in entries)
      continue
    except SyntaxError as e:
      where = "" if e.lineno is None else " (line %s)" % e.lineno
      reports[path] = FileReport(path, [], [], "cannot parse: %s%s" % (e.msg, where), path in entries)
      continue
    # Named files are entries; in a named directory, files that run as a main program.
    is_entry = path in entries or (bool(_MAIN.search(source))
                                   and not os.path.basename(path).startswith("test_"))
    parsed_files[path] = parsed
    for extra in _sys_path_dirs(path, parsed, roots):
      if extra not in search_dirs:
        search_dirs.append(extra)
    reports[path] = FileReport(path, check.findings_of(parsed, resolver), [], None, is_entry)
  # Imports are resolved once every sys.path tweak is known, and may bring in new files.
  changed = True
  while changed:
    changed = False
    for path, parsed in list(parsed_files.items()):
      imports = resolve_local_imports(path, parsed, search_dirs)
      reports[path] = reports[path]._replace(imports=imports)
      for target, _ in imports:
        if target not in reports:
          changed = True
          try:
            parsed_target = check.parse(source_files.read_source(target), target)
          except (OSError, SyntaxError) as e:
            reports[target] = FileReport(target, [], [], "cannot read or parse: %s" % e, False)
            continue
          parsed_files[target] = parsed_target
          for extra in _sys_path_dirs(target, parsed_target, roots):
            if extra not in search_dirs:
              search_dirs.append(extra)
          reports[target] = FileReport(target, check.findings_of(parsed_target, resolver), [], None,
                                       False)
  blockers = {path: first_blocker(path, reports) for path, r in reports.items() if r.is_entry}
  return Project(reports, blockers, roots, resolver.index.version(), tuple(skipped))


def first_blocker(entry, reports):
  """Where `tf1clip run entry` stops first: a Blocker, or None when nothing stops it.

  Args:
    entry: the entry script's path.
    reports: path -> FileReport.
  """
  visited = set()

  def walk(path):
    visited.add(path)
    report = reports.get(path)
    if report is None:
      return None
    if report.error:
      return Blocker(path, 0, "", report.error)
    events = [(f.stop_line, 0, f) for f in report.findings if f.stop_line]
    events += [(line, 1, target) for target, line in report.imports]
    for line, what, item in sorted(events, key=lambda e: (e[0], e[1])):
      if what == 0:
        return Blocker(path, line, item.symbol, item.note)
      if item not in visited:
        found = walk(item)
        if found is not None:
          return found
    return None

  return walk(entry)


def summary(project):
  """Counts over the project: files, TF1 symbols (distinct per file) per status, guarded failures."""
  counts = collections.Counter()
  for report in project.files.values():
    for f in report.findings:
      counts[f.status] += 1
      counts["guarded"] += f.status == check.UNSUPPORTED and f.guarded
  return {
      "files": len(project.files),
      "entry_scripts": len(project.entries),
      "symbols": sum(counts[s] for s in check.STATUSES),
      "runs_unchanged": counts[check.RUNS],
      "provided": counts[check.PROVIDED],
      "not_supported": counts[check.UNSUPPORTED],
      "guarded": counts["guarded"],
      "warnings": counts[check.WARNING],
      "unreadable": sum(1 for r in project.files.values() if r.error),
  }


def exit_status(project):
  """0 when everything runs, 1 when something will not run, 2 when a file cannot be read or parsed."""
  if any(r.error for r in project.files.values()):
    return 2
  if any(f.stop_line for r in project.files.values() for f in r.findings):
    return 1
  return 0


def _display(path):
  relative = os.path.relpath(path)
  return path if relative.startswith(os.pardir) else relative


def needs_attention(finding):
  """True for the rows the default report shows: what will not run, and warnings."""
  return finding.status in (check.UNSUPPORTED, check.WARNING)


def render_text(project, show_all=False, out=None):
  """Prints the summary, each entry script's first blocker and the rows (all, or those that need attention)."""
  out = out or sys.stdout
  s = summary(project)
  print("tf1clip check: %d file(s), %d TF1 symbol(s): %d run unchanged, %d provided by tf1clip, "
        "%d not supported%s, %d warning(s)  [TensorFlow %s, read without importing it]" % (
            s["files"], s["symbols"], s["runs_unchanged"], s["provided"], s["not_supported"],
            " (%d guarded by try/except)" % s["guarded"] if s["guarded"] else "", s["warnings"],
            project.tensorflow), file=out)
  for entry, blocker in sorted(project.entries.items()):
    if blocker is None:
      print("`tf1clip run %s` will run: no blocker found" % _display(entry), file=out)
    elif not blocker.symbol:
      print("`tf1clip run %s` will stop at %s: %s" % (_display(entry), _display(blocker.path),
                                                       blocker.note), file=out)
    else:
      print("`tf1clip run %s` will stop at %s:%d: %s (%s)" % (
          _display(entry), _display(blocker.path), blocker.line, blocker.symbol, blocker.note), file=out)
  for skipped in project.skipped:
    print("%s: skipped: %s" % (_display(skipped.path), skipped.reason), file=out)
  for path, report in project.files.items():
    if report.error:
      print("%s: %s" % (_display(path), report.error), file=out)
      continue
    rows = [f for f in report.findings if show_all or needs_attention(f)]
    if not rows and not show_all:
      continue
    print("%s: %d TF1 symbol(s)" % (_display(path), len(report.findings)), file=out)
    if not rows:
      print("  uses no TensorFlow symbols", file=out)
      continue
    width = max(len(f.symbol) for f in rows)
    for f in sorted(rows, key=lambda f: (f.line, f.symbol)):
      uses_text = " (x%d)" % f.count if f.count > 1 else ""
      guard = " [guarded by try/except]" if f.guarded else ""
      note = ("  " + f.note) if f.note else ""
      print("  line %4d  %-19s  %-*s%s%s%s" % (f.line, f.status, width, f.symbol, uses_text, guard, note),
            file=out)
  if not show_all and s["symbols"]:
    print("(%d row(s) that run are not shown; --all lists every symbol)" % (
        s["runs_unchanged"] + s["provided"]), file=out)


def to_json(project):
  """The report as a JSON-ready dict (schema tf1clip.check/1, see docs/check.md)."""
  files = []
  for path, report in project.files.items():
    files.append({
        "path": _display(path),
        "entry": report.is_entry,
        "error": report.error,
        "imports": [{"path": _display(t), "line": line} for t, line in report.imports],
        "findings": [{
            "symbol": f.symbol, "status": STATUS_CODES[f.status], "kind": f.kind, "line": f.line,
            "lines": list(f.lines), "count": f.count, "note": f.note, "guarded": f.guarded,
        } for f in report.findings],
    })
  entries = []
  for entry, blocker in sorted(project.entries.items()):
    entries.append({
        "script": _display(entry), "runs": blocker is None,
        "first_blocker": None if blocker is None else {
            "path": _display(blocker.path), "line": blocker.line, "symbol": blocker.symbol,
            "note": blocker.note},
    })
  return {"schema": SCHEMA, "tensorflow": project.tensorflow, "summary": summary(project),
          "exit_status": exit_status(project), "entries": entries, "files": files,
          "skipped": [{"path": _display(k.path), "reason": k.reason} for k in project.skipped]}


def _why_missing(path):
  """"no such file or directory", or what else keeps `path` from being read (a symlink loop, a dangling link)."""
  try:
    os.stat(path)
  except OSError as e:
    if e.errno == errno.ELOOP:
      return "a symbolic link loop (too many levels of symbolic links)"
    if os.path.islink(path):
      return "a symbolic link to %s, which does not exist" % os.readlink(path)
  return "no such file or directory"


def main(paths, show_all=False, output_format="text", out=None):
  """`tf1clip check`: prints the project report.

  Args:
    paths: files and directories to read.
    show_all: list every symbol, not only those that need attention.
    output_format: "text" or "json".
    out: where to print (default sys.stdout).

  Returns:
    The exit status (0 all runs, 1 something will not run, 2 usage error or unreadable file).
  """
  out = out or sys.stdout
  expanded = []
  for path in paths:
    if os.path.isfile(path) and check_entries.is_shell_script(path):
      script = check_entries.read_shell_script(path)
      for entry in script.entries:
        print("%s: follows %s" % (path, os.path.relpath(entry)), file=out)
      for line, text in script.unfollowed:
        print("%s:%d: could not follow: %s" % (path, line, text), file=out)
      expanded += script.entries
    else:
      expanded.append(path)
  paths = expanded
  if not paths:
    print("tf1clip check: no Python entry found", file=sys.stderr)
    return 2
  try:
    project = analyze(paths)
  except FileNotFoundError as e:
    print("tf1clip check: %s: %s" % (e.filename, _why_missing(e.filename)), file=sys.stderr)
    return 2
  if not project.files:
    print("tf1clip check: no Python files under %s" % ", ".join(paths), file=sys.stderr)
    return 2
  if output_format == "json":
    json.dump(to_json(project), out, indent=2)
    out.write("\n")
  else:
    render_text(project, show_all, out)
  return exit_status(project)

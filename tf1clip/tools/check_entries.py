"""The ways a TF1 project starts, turned into the Python files `tf1clip check` reads.

Place in the data flow: cli -> **tools.check_entries** -> tools.check_project. Besides files and directories,
`tf1clip check` takes what `tf1clip run` and `tf1clip exec` run:

- `-m package.module`: the module's file as `python -m` would find it from the current directory
  (`package/module.py`, or `package/module/__main__.py` for a package);
- a notebook (`.ipynb`): its code cells, read as one script (IPython magics and shell escapes left out),
  line numbers counted as `jupyter nbconvert --to script` would number them (`notebook_source`);
- a shell script (`.sh`, or a file starting with `#!...sh`): every `python FILE.py` / `python -m MODULE` line it
  can read is followed; a line that mentions python but could not be followed (a variable, `$@`,
  redirection into python) is named, so nothing is silently skipped.
"""

import collections
import json
import os
import re
import shlex

ShellScript = collections.namedtuple("ShellScript", "path entries unfollowed")
ShellScript.__doc__ = """A shell script's Python entries ([path]) and the lines naming python it could not follow ([(line, text)])."""

_PYTHON = re.compile(r"(^|[\s;&|(/])python[0-9.]*(\s|$)")


def module_file(name, cwd=None):
  """The file `python -m name` runs from `cwd`, or None when there is none."""
  base = os.path.join(cwd or os.getcwd(), *name.split("."))
  for candidate in (base + ".py", os.path.join(base, "__main__.py")):
    if os.path.isfile(candidate):
      return candidate
  return None


def is_shell_script(path):
  if path.endswith(".sh"):
    return True
  try:
    with open(path, "rb") as f:
      first = f.readline(200)
  except OSError:
    return False
  return first.startswith(b"#!") and re.search(rb"\b(ba|z|da|k)?sh\b", first) is not None


def read_shell_script(path):
  """The Python entries a shell script starts (see the module docstring)."""
  folder = os.path.dirname(os.path.abspath(path))
  entries, unfollowed = [], []
  with open(path, encoding="utf-8", errors="replace") as f:
    lines = f.read().splitlines()
  for number, line in enumerate(lines, start=1):
    text = line.split("#", 1)[0] if not line.lstrip().startswith("#!") else ""
    if not _PYTHON.search(text):
      continue
    followed = False
    for command in re.split(r"&&|\|\||;|\|", text):
      try:
        words = shlex.split(command)
      except ValueError:
        continue
      for i, word in enumerate(words):
        if not re.fullmatch(r"(.*/)?python[0-9.]*", word):
          continue
        rest = [w for w in words[i + 1:] if not w.startswith("-") or w == "-m"]
        if words[i + 1:i + 2] == ["-m"] and len(words) > i + 2:
          target = module_file(words[i + 2], folder) or module_file(words[i + 2])
        elif rest and rest[0].endswith(".py") and "$" not in rest[0]:
          target = rest[0] if os.path.isabs(rest[0]) else os.path.join(folder, rest[0])
          target = target if os.path.isfile(target) else (rest[0] if os.path.isfile(rest[0]) else None)
        else:
          target = None
        if target:
          entries.append(os.path.normpath(target))
          followed = True
    if not followed:
      unfollowed.append((number, line.strip()))
  return ShellScript(path, entries, unfollowed)


def notebook_source(path):
  """A notebook's code cells as one Python source (bytes); magics and `!` lines become comments."""
  from tf1clip.compat import source_files  # pylint: disable=import-outside-toplevel
  data = source_files.read_bytes(path)
  try:
    notebook = json.loads(data.decode("utf-8-sig"))
  except UnicodeDecodeError as e:
    raise SyntaxError("not a notebook: not UTF-8 text (byte 0x%02x at offset %d)" % (data[e.start], e.start),
                      (path, None, None, "")) from None
  except json.JSONDecodeError as e:
    raise SyntaxError("not a notebook: invalid JSON (%s)" % e.msg, (path, e.lineno, e.colno, "")) from None
  chunks = []
  for cell in notebook.get("cells", ()):
    if cell.get("cell_type") != "code":
      continue
    source = cell.get("source", "")
    source = "".join(source) if isinstance(source, list) else source
    lines = ["# " + l if l.lstrip().startswith(("%", "!")) else l for l in source.splitlines()]
    chunks.append("\n".join(["# In[ ]:", ""] + lines + ["", ""]))
  return "\n".join(chunks).encode("utf-8")

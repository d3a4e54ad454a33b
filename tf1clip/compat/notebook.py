"""TF1 notebooks: `%load_ext tf1clip` in IPython / Jupyter, and `tf1clip run notebook.ipynb`.

Place in the data flow (DESIGN.md): compat.runner.prepare <- **compat.notebook** <- tf1clip (the IPython
extension entry point) and cli. Much TF1 teaching code lives in notebooks:

- `%load_ext tf1clip` calls `compat.runner.prepare` with the notebook's folder as the user's code and its
  cells (file-less `__main__` code) counted as the user's: the next `import tensorflow` in a cell gives the TF1
  API (graph mode, tf.contrib, tf.Session, tf.estimator), NumPy and SciPy the names of their time; libraries
  keep TensorFlow 2. Load it before the first cell that imports TensorFlow.
- `tf1clip run notebook.ipynb [args]` reads the notebook with nbformat and runs its code cells in order in an
  IPython shell in this process (magics work), from the notebook's folder, as Jupyter's "Run All" would; the
  first failing cell stops the run with its number and IPython's traceback (exit 1). A notebook whose kernel is
  not Python (its kernelspec or language_info names R, Julia, ...) is refused with a message naming the
  language (exit 2), and a file that is not UTF-8 JSON is named with the offset where decoding fails.
"""

import json
import os
import sys


def load_ipython_extension(ipython):  # pylint: disable=unused-argument
  """`%load_ext tf1clip`: legacy TF1 code in this kernel's cells (see the module docstring)."""
  from tf1clip.compat import runner  # pylint: disable=import-outside-toplevel
  runner.prepare(os.getcwd(), main_is_legacy=True)


def read(path):
  """The notebook at `path` (nbformat v4), or a ValueError naming the file and where its JSON breaks."""
  import nbformat  # pylint: disable=import-outside-toplevel
  from tf1clip.compat import source_files  # pylint: disable=import-outside-toplevel
  data = source_files.read_bytes(path)
  try:
    text = data.decode("utf-8-sig")
  except UnicodeDecodeError as e:
    raise ValueError("%s: not a notebook: not UTF-8 text (byte 0x%02x at offset %d); a notebook is UTF-8 JSON"
                     % (path, data[e.start], e.start)) from None
  try:
    data = json.loads(text)
  except json.JSONDecodeError as e:
    raise ValueError("%s: not a notebook: invalid JSON at line %d, column %d (%s)"
                     % (path, e.lineno, e.colno, e.msg)) from None
  try:
    notebook = nbformat.reads(json.dumps(data), as_version=4)
    nbformat.validate(notebook)
  except Exception as e:  # pylint: disable=broad-except
    raise ValueError("%s: not a valid notebook: %s" % (path, str(e).splitlines()[0])) from None
  language = kernel_language(notebook)
  if language is not None and language.lower() not in ("python", "python3", "python2", "ipython"):
    raise ValueError("%s: the notebook's kernel is %s, not Python: tf1clip runs Python notebooks only"
                     % (path, language))
  return notebook


def kernel_language(notebook):
  """The language a notebook was written for (kernelspec.language, else language_info.name), or None."""
  metadata = notebook.get("metadata", {}) or {}
  spec = metadata.get("kernelspec", {}) or {}
  info = metadata.get("language_info", {}) or {}
  language = spec.get("language") or info.get("name")
  if not language and spec.get("name"):
    name = str(spec["name"]).lower()
    language = "Python" if name.startswith(("python", "ipython")) else spec.get("display_name") or spec["name"]
  return language


def run_notebook(path, args=()):
  """Runs the code cells of the notebook at `path` in order; returns the exit status (1 at the first failure)."""
  try:
    notebook = read(path)
  except FileNotFoundError as e:
    print("tf1clip run: can't open file %r: [Errno %s] %s" % (os.path.abspath(path), e.errno, e.strerror),
          file=sys.stderr)
    return 2
  except OSError as e:  # compat.source_files.SourceError: a FIFO, a directory, an unreadable file
    print("tf1clip run: %s" % e, file=sys.stderr)
    return 2
  except ValueError as e:
    print("tf1clip run: %s" % e, file=sys.stderr)
    return 2
  from IPython.core.interactiveshell import InteractiveShell  # pylint: disable=import-outside-toplevel
  folder = os.path.dirname(os.path.abspath(path))
  os.chdir(folder)  # Jupyter starts a notebook's kernel in its folder
  sys.argv = [os.path.abspath(path)] + list(args)
  if sys.path:
    sys.path[0] = folder
  shell = InteractiveShell.instance(colors="NoColor")
  load_ipython_extension(shell)
  for number, cell in enumerate(notebook.cells, start=1):
    if cell.cell_type != "code" or not cell.source.strip():
      continue
    result = shell.run_cell(cell.source, store_history=True)
    error = result.error_before_exec or result.error_in_exec
    if error is not None:
      if isinstance(error, SystemExit) and error.code in (None, 0):
        return 0
      print("tf1clip run: %s: cell %d failed (%s: %s)" % (path, number, type(error).__name__, error),
            file=sys.stderr)
      return 1
  return 0

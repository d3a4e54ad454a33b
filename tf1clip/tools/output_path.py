"""The one output-path policy of every command that writes (report, upgrade, compare, parity, cluster, check).

Before any work a command calls `check_file` (a file it will write) or `check_dir` (a folder it will fill): an
existing directory where a file goes (or a file where a folder goes), a missing parent, a parent that is not a
directory, a read-only or unwritable parent are refused with an `OutputError` naming the flag, the path and
the reason. Writing goes through `atomic_file` / `write_text` / `write_bytes`: the data lands in a temporary
sibling (`.NAME.tf1clip-XXXX`) that is renamed over the target only once complete, so a full disk or a vanished
folder leaves the old file (or nothing) and never a truncated one; `staged_dir` does the same for a whole folder.
Every OSError becomes an `OutputError` whose message is one line: the path and the reason (`describe`), which
the command prints as `tf1clip CMD: ...` with exit status 2 (`fail`).

Data flow: report, tools.upgrade_cli, tools.compare, tools.check_project, v2.parity, tools.cluster
-> **tools.output_path**.
"""

import contextlib
import errno
import os
import shutil
import sys
import tempfile

EXIT_STATUS = 2


class OutputError(ValueError):
  """An output path that cannot be (or could not be) written; the message names it and says why."""


def describe(error, path=None):
  """One line for an OSError: "PATH: reason" (the reason is strerror, or the errno's name)."""
  path = path or error.filename or "?"
  reason = error.strerror or errno.errorcode.get(error.errno or 0, "") or str(error)
  if error.errno == errno.ENOSPC:
    reason = "no space left on the device"
  elif error.errno == errno.EROFS:
    reason = "read-only file system"
  elif error.errno == errno.EDQUOT:
    reason = "disk quota exceeded"
  return "%s: %s" % (path, reason)


def fail(command, error, out=None):
  """Prints `tf1clip COMMAND: message` on stderr; returns the exit status 2."""
  print("tf1clip %s: %s" % (command, error), file=out or sys.stderr)
  return EXIT_STATUS


def _label(flag, path):
  return "%s %s" % (flag, path) if flag else str(path)


def _nearest_existing(path):
  """The deepest existing ancestor of `path` (itself included)."""
  current = os.path.abspath(path)
  while not os.path.lexists(current):
    parent = os.path.dirname(current)
    if parent == current:
      break
    current = parent
  return current


def _writable_dir(folder, label):
  if not os.path.isdir(folder):
    raise OutputError("%s: %s is not a directory" % (label, folder))
  if not os.access(folder, os.W_OK | os.X_OK):
    try:
      read_only = os.statvfs(folder).f_flag & os.ST_RDONLY
    except OSError:
      read_only = False
    raise OutputError("%s: %s is %s" % (label, folder, "on a read-only file system" if read_only
                                        else "not writable (permission denied)"))


def check_file(path, flag=None, create_parents=False):
  """Refuses, before any work, a file path that cannot be written.

  Args:
    path: the file to be written (it may exist: it will be replaced).
    flag: the option that named it ("--report"), for the message.
    create_parents: the command creates missing parent folders itself; then the nearest existing ancestor
      must be a writable directory.

  Raises:
    OutputError: `path` is a directory, or its parent is missing, not a directory, or not writable.
  """
  label = _label(flag, path)
  if not path:
    raise OutputError("%s: an empty path" % (flag or "output"))
  if os.path.isdir(path):
    raise OutputError("%s is a directory; give a file name" % label)
  parent = os.path.dirname(os.path.abspath(path))
  if not os.path.lexists(parent):
    if not create_parents:
      raise OutputError("%s: the folder %s does not exist" % (label, parent))
    parent = _nearest_existing(parent)
  _writable_dir(parent, label)
  if os.path.lexists(path) and not os.path.isfile(path):
    raise OutputError("%s exists and is not a regular file" % label)


def check_dir(path, flag=None):
  """Refuses, before any work, a folder that cannot be created or written into.

  Raises:
    OutputError: `path` is an existing non-directory, or the folder (or the nearest existing ancestor it
      would be created in) is not a writable directory.
  """
  label = _label(flag, path)
  if not path:
    raise OutputError("%s: an empty path" % (flag or "output"))
  if os.path.lexists(path) and not os.path.isdir(path):
    raise OutputError("%s is an existing file, not a directory" % label)
  _writable_dir(_nearest_existing(path), label)


def makedirs(path, flag=None):
  """os.makedirs(path, exist_ok=True), an OSError as an OutputError naming the path."""
  try:
    os.makedirs(path, exist_ok=True)
  except OSError as e:
    raise OutputError("%s: cannot create the folder: %s" % (_label(flag, path), describe(e, e.filename or path)))
  return path


def _temporary_sibling(path, directory=False):
  parent = os.path.dirname(os.path.abspath(path))
  prefix = "." + os.path.basename(path) + ".tf1clip-"
  if directory:
    return tempfile.mkdtemp(prefix=prefix, dir=parent)
  fd, temporary = tempfile.mkstemp(prefix=prefix, dir=parent)
  os.close(fd)
  return temporary


@contextlib.contextmanager
def atomic_file(path, mode="w", encoding="utf-8", flag=None):
  """Opens a temporary sibling of `path` for writing; renames it over `path` when the block ends cleanly.

  Yields:
    The open file object.

  Raises:
    OutputError: any OSError on the way (open, write, flush, rename); `path` is then left as it was.
  """
  temporary = None
  try:
    temporary = _temporary_sibling(path)
    kwargs = {} if "b" in mode else {"encoding": encoding}
    with open(temporary, mode, **kwargs) as f:
      yield f
      f.flush()
      os.fsync(f.fileno())
    if os.path.exists(path):
      shutil.copymode(path, temporary)
    else:
      os.chmod(temporary, 0o666 & ~_umask())
    os.replace(temporary, path)
    temporary = None
  except OSError as e:
    raise OutputError("%scannot write %s (nothing written there)" % (
        flag + ": " if flag else "", describe(e, path))) from None
  finally:
    if temporary is not None:
      with contextlib.suppress(OSError):
        os.unlink(temporary)


def _umask():
  mask = os.umask(0)
  os.umask(mask)
  return mask


def write_text(path, text, flag=None, encoding="utf-8"):
  """Writes `text` to `path` all or nothing (see `atomic_file`)."""
  with atomic_file(path, "w", encoding=encoding, flag=flag) as f:
    f.write(text)


def write_bytes(path, data, flag=None):
  """Writes `data` to `path` all or nothing (see `atomic_file`)."""
  with atomic_file(path, "wb", flag=flag) as f:
    f.write(data)


@contextlib.contextmanager
def staged_dir(path, flag=None):
  """A temporary sibling folder to fill; renamed to `path` (which must not exist) when the block ends cleanly.

  Yields:
    The temporary folder's path.

  Raises:
    OutputError: an OSError while creating, filling or renaming; then nothing is left at `path`.
  """
  staging = None
  try:
    parent = os.path.dirname(os.path.abspath(path))
    makedirs(parent, flag)
    staging = _temporary_sibling(path, directory=True)
    os.chmod(staging, 0o777 & ~_umask())
    yield staging
    os.rename(staging, path)
    staging = None
  except OSError as e:
    raise OutputError("%scannot write %s (nothing written there)" % (
        flag + ": " if flag else "", describe(e, e.filename or path))) from None
  finally:
    if staging is not None:
      shutil.rmtree(staging, ignore_errors=True)

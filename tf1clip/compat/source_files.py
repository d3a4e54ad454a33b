"""User source read as Python reads it, and the files of a tree walked without tracebacks or silent skips.

`read_source(path)` decodes a file the way `python path` would: the UTF-8 BOM or the PEP 263 coding line
(`tokenize.open`), UTF-8 otherwise; a file that is not text in its declared encoding (a binary `model.py`, an
unknown codec) or cannot be opened raises `SourceError`, whose message names the file and the reason.
`decode_source(data, name)` is the same for bytes already read (a notebook's JSON, `-c` code).
`walk_files(root, skip_dir)` yields the regular files of a tree, and reports each entry it cannot take -- a
symbolic link that loops or points nowhere, a FIFO, a socket, a device -- as a `Skipped(path, reason)` for the
caller to print, instead of a traceback (a loop) or nothing at all (a FIFO, which `open` would block on).

Data flow: tools.check_project, tools.upgrade_cli, compat.notebook, compat.runner -> **compat.source_files**.
"""

import codecs
import collections
import errno
import io
import os
import stat
import tokenize

Skipped = collections.namedtuple("Skipped", "path reason")
Skipped.__doc__ = """An entry of a tree that is not read: its path and why (a looping link, a FIFO, ...)."""


class SourceError(OSError):
  """A source file that cannot be read as Python reads it; str() names the file and the reason."""

  def __init__(self, path, reason):
    super().__init__("%s: %s" % (path, reason))
    self.path, self.reason = path, reason

  def __str__(self):
    return "%s: %s" % (self.path, self.reason)


def not_regular(path):
  """Why `path` is not a regular file one can read (None when it is one)."""
  try:
    mode = os.stat(path).st_mode
  except OSError as e:
    if os.path.islink(path):
      return "a symbolic link that loops" if e.errno == errno.ELOOP else "a symbolic link to nothing (%s)" % e.strerror
    return e.strerror or str(e)
  if stat.S_ISREG(mode):
    return None
  if stat.S_ISDIR(mode):
    return "a directory"
  if stat.S_ISFIFO(mode):
    return "a FIFO (named pipe), not a file"
  if stat.S_ISSOCK(mode):
    return "a socket, not a file"
  if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
    return "a device, not a file"
  return "not a regular file"


def decode_source(data, name):
  """`data` (bytes) decoded as Python decodes source: BOM or coding line, else UTF-8.

  Raises:
    SourceError: an unknown codec, or bytes that are not text in the declared encoding (naming the offset).
  """
  return decode_with_encoding(data, name)[0]


def decode_with_encoding(data, name):
  """(text, encoding) of `decode_source`: the encoding to write a rewritten copy in ("utf-8-sig" for a BOM).

  Raises:
    SourceError: an unknown codec, or bytes that are not text in the declared encoding (naming the offset).
  """
  try:
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
  except SyntaxError as e:  # an unknown codec, or a BOM together with another coding line
    message = getattr(e, "msg", None) or str(e)
    if "invalid or missing encoding declaration" in message:
      message = "not UTF-8 text and no coding line declares another encoding (a binary file?)"
    raise SourceError(name, "cannot decode: %s" % message) from None
  try:
    text = data.decode(encoding)
  except UnicodeDecodeError as e:
    declared = "declared %s" % encoding if encoding not in ("utf-8", "utf-8-sig") else "UTF-8, Python's default"
    raise SourceError(name, "not text in its encoding (%s): byte 0x%02x at offset %d; a binary file?"
                      % (declared, data[e.start], e.start)) from None
  if codecs.lookup(encoding).name == "utf-8" and text.startswith("\ufeff"):
    text = text[1:]
  return text, encoding


def read_bytes(path):
  """The bytes of a regular file; SourceError naming it otherwise (a FIFO is refused, never opened).

  Raises:
    FileNotFoundError: nothing at `path` (not even a dangling link), as `open` raises it.
    SourceError: anything else that keeps it from being read.
  """
  if not os.path.lexists(path):
    raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)
  reason = not_regular(path)
  if reason is not None:
    raise SourceError(path, reason)
  try:
    with open(path, "rb") as f:
      return f.read()
  except OSError as e:
    raise SourceError(path, "cannot read: %s" % (e.strerror or e)) from None


def read_source(path):
  """The text of a Python source file, decoded as `python path` decodes it (see the module docstring)."""
  return decode_source(read_bytes(path), path)


def walk_files(root, skip_dir=None):
  """Yields (path, None) for each regular file below `root`, (path, reason) for each entry it skips.

  Directories are walked in sorted order; a directory `skip_dir(name, path)` refuses is left out silently
  (the caller's choice: .git, virtual environments); a symbolic link to a directory is followed unless it
  leads back into a directory already on the way down (a loop), which is reported.

  Yields:
    (path, reason): reason None for a file to read, else a sentence (a `Skipped`).
  """
  seen = set()

  def walk(directory):
    real = os.path.realpath(directory)
    if real in seen:
      yield Skipped(directory, "a symbolic link that loops back to %s" % real)
      return
    seen.add(real)
    try:
      names = sorted(os.listdir(directory))
    except OSError as e:
      yield Skipped(directory, "cannot list the folder: %s" % (e.strerror or e))
      names = []
    for name in names:
      path = os.path.join(directory, name)
      if os.path.isdir(path):
        if skip_dir is None or not skip_dir(name, path):
          yield from walk(path)
        continue
      reason = not_regular(path)
      yield (path, None) if reason is None else Skipped(path, reason)
    seen.discard(real)

  yield from walk(root)

"""Which records of a run's event files could not be read: truncated or CRC-damaged TFRecords, by file and offset.

An event file is a sequence of TFRecords: an 8-byte little-endian length, the masked CRC-32C of those 8
bytes, the data, the masked CRC-32C of the data. TensorBoard's reader (which `tf1clip report` uses) stops a
file at the first record that is cut short or fails its checksum, and says nothing. `damaged_records(folder)`
walks the same files: the framing is followed here (lengths, where the file ends), the checksums are checked
by TensorFlow's own record reader (`tf.compat.v1.io.tf_record_iterator`, C++), and every file that stops
early gives one `Damage(path, offset, reason, records_read, bytes_unread)`.

Data flow: report -> **event_integrity** (TensorFlow is imported only when an event file is there to check).
"""

import collections
import os
import struct

Damage = collections.namedtuple("Damage", "path offset reason records_read bytes_unread")
Damage.__doc__ = """The first record of `path` that could not be read: its byte offset, why, how many records
came before it and how many bytes of the file were left unread from there on."""

_HEADER = 12  # uint64 length + uint32 masked CRC of the length
_FOOTER = 4  # uint32 masked CRC of the data


def record_offsets(path):
  """(offsets of the records whose framing is complete, offset and reason where the framing breaks or None)."""
  offsets = []
  size = os.path.getsize(path)
  with open(path, "rb") as f:
    offset = 0
    while offset < size:
      header = f.read(_HEADER)
      if len(header) < _HEADER:
        return offsets, (offset, "truncated record header (%d of %d bytes)" % (len(header), _HEADER))
      (length,) = struct.unpack("<Q", header[:8])
      end = offset + _HEADER + length + _FOOTER
      if end > size:
        return offsets, (offset, "truncated record (%d data bytes announced, %d present)" % (
            length, max(0, size - offset - _HEADER - _FOOTER)))
      offsets.append(offset)
      f.seek(end)
      offset = end
  return offsets, None


def _readable_records(path):
  """How many records TensorFlow's reader returns before it stops, and its error (None at a clean end)."""
  import tensorflow as tf  # pylint: disable=import-outside-toplevel
  from tensorflow.python.util import deprecation  # pylint: disable=import-outside-toplevel
  count = 0
  try:
    with deprecation.silence():
      for _ in tf.compat.v1.io.tf_record_iterator(path):
        count += 1
  except tf.errors.DataLossError as e:
    return count, (e.message or str(e)).splitlines()[0]
  return count, None


def check_file(path):
  """The `Damage` of one event file, or None when every record in it reads."""
  offsets, broken = record_offsets(path)
  size = os.path.getsize(path)
  read, error = _readable_records(path)
  if read < len(offsets):  # a record whose framing is whole but whose checksum fails
    offset = offsets[read]
    reason = "checksum (CRC) mismatch; TensorFlow's reader: %s" % (error or "unreadable record")
    return Damage(path, offset, reason, read, size - offset)
  if broken is not None:
    return Damage(path, broken[0], broken[1], read, size - broken[0])
  return None


def event_files(folder):
  """The event files (names holding "tfevents") directly in `folder`, sorted."""
  try:
    names = sorted(os.listdir(folder))
  except OSError:
    return []
  return [os.path.join(folder, n) for n in names if "tfevents" in n and os.path.isfile(os.path.join(folder, n))]


def damaged_records(folder):
  """A `Damage` per event file in `folder` that stops before its end (a list, possibly empty)."""
  return [d for d in (check_file(p) for p in event_files(folder)) if d is not None]

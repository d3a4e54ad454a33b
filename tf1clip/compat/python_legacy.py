"""The Python names TF1-era code used that Python 3.10 removed: `collections.Mapping` and the other ABC aliases.

Until Python 3.9, `collections.Mapping`, `collections.Iterable`, `collections.Sequence`, ... were aliases of
the `collections.abc` classes (deprecated since 3.3); GPflow 1.5 and Keras 2.2.4 test `isinstance(x,
collections.Mapping)` at import. Under `tf1clip run` (and `tf1clip exec`) the `collections` module answers
those names again, with the `collections.abc` class itself, for every caller in the process: the aliases are
the same objects Python 3.9 gave, and no code that runs on Python 3.11 can depend on their absence.
"""

import collections
import collections.abc

# Every ABC collections.abc defines that `collections` re-exported before Python 3.10.
ALIASES = tuple(name for name in collections.abc.__all__ if hasattr(collections.abc, name))


def _getattr(name):
  if name in ALIASES:
    return getattr(collections.abc, name)
  raise AttributeError("module 'collections' has no attribute %r" % name)


def install():
  """`collections.Mapping` & co. resolve again (idempotent; names collections itself has are untouched)."""
  if getattr(collections, "__getattr__", None) is not _getattr:
    collections.__getattr__ = _getattr

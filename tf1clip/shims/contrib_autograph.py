"""The "contrib_autograph" shim: AutoGraph leaves tf1clip.contrib and tf-slim unconverted, as TF 1.15 left contrib.

Place in the data flow (DESIGN.md, "Legacy surface"): shims applies it; the TF1 facade (compat.v1) asks for it
when a script first touches `tf.contrib`, the import hook (compat.importer) before the first `import tf_slim`, so
`import tf1clip` changes nothing.

TF 1.15's contrib was part of the `tensorflow` package, which AutoGraph never converts: a contrib layer's or cell's
`call` ran as the Python it is. tf1clip serves contrib from `tf1clip.contrib` and from tf-slim, which TensorFlow 2.21's
AutoGraph does not know, so in graph mode tf-keras' legacy `Layer.__call__` sent every `call` of theirs through
AutoGraph's converter: a cost at graph-building time (a quarter of building a small attention / grid-LSTM graph) and a
change of meaning (a Python `if` on a tensor becomes a `tf.cond` instead of the error TF 1.15 raised). The patch puts
`DoNotConvert` rules for the two packages first in AutoGraph's conversion rules; nothing else changes.
"""

from tf1clip import shims

UNCONVERTED = ("tf1clip.contrib", "tf_slim")  # build_file: names, does not import


def leave_contrib_unconverted():
  """Puts AutoGraph `DoNotConvert` rules for UNCONVERTED first; True if added, False if they were there."""
  from tensorflow.python.autograph.core import config  # pylint: disable=import-outside-toplevel
  from tensorflow.python.autograph.core import config_lib  # pylint: disable=import-outside-toplevel
  present = {getattr(rule, "_prefix", None) for rule in config.CONVERSION_RULES
             if isinstance(rule, config_lib.DoNotConvert)}
  missing = tuple(config_lib.DoNotConvert(name) for name in UNCONVERTED if name not in present)
  if not missing:
    return False
  config.CONVERSION_RULES = missing + tuple(config.CONVERSION_RULES)
  return True


PATCHES = (
    shims.Patch(
        target="tensorflow.python.autograph.core.config:CONVERSION_RULES (DoNotConvert tf1clip.contrib, tf_slim)",
        source="tf1clip.shims.contrib_autograph:leave_contrib_unconverted",
        needed_by="tf.contrib layers and cells served by tf1clip and tf-slim (TF 1.15 never converted contrib code)",
        call=True),
)

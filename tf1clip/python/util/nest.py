"""`tf.contrib.framework.nest`: TensorFlow's nest (TF 1.15 re-exported it) with the TF 1.15 names TF 2.21 dropped.

Every function is TensorFlow's own object; `is_sequence` / `is_sequence_or_composite` (TF 1.15's names of
`is_nested` / `is_nested_or_composite`) are the same functions under their old names.

Place in the data flow (DESIGN.md): TensorFlow's nest <- **tf1clip.python.util.nest** <- contrib.framework.
"""

from tensorflow.python.util import nest as _nest  # pylint: disable=g-direct-tensorflow-import

globals().update({name: value for name, value in vars(_nest).items() if not name.startswith("_")})

is_sequence = _nest.is_nested
is_sequence_or_composite = _nest.is_nested_or_composite


def __getattr__(name):  # pylint: disable=invalid-name
  return getattr(_nest, name)  # nest's private and unlisted helpers, as `nest.<name>` gave them

"""`tf.contrib.autograph`: to_graph, to_code, convert, converted_call, do_not_convert, set_element_type, set_loop_options, stack, AutoGraphError, ConversionOptions, Feature, StackTraceMapper (tf.autograph's objects).

TF 1.15's names are served as the very objects TensorFlow 2.21 still has (imported below), except four that TF 1.15
ran differently (tests/oracle/test_contrib_misc_rest_oracle.py):

- `to_graph` / `to_code`: TensorFlow's, but an entity that is neither a function, a method nor a class raises TF
  1.15's NotImplementedError ("object conversion is not yet supported"; TF 2.21 raises its ConversionError);
- `converted_call(f, options, args, kwargs, caller_fn_scope=None)`: TF 1.15's argument order (TF 2.21 moved
  `options` to a keyword after `kwargs`);
- `set_loop_options(...)`: TF 1.15's directive did nothing: its converter removed the call and no option reached
  the loop (a loop given `maximum_iterations=4` ran to its end); TF 2.21's converter recognizes only its own
  function, so this one stays an ordinary call that does nothing, as TF 1.15 ran it.

Anything else raises ContribNotProvidedError with a replacement.
"""

import inspect

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tensorflow.autograph.experimental import do_not_convert
from tensorflow.python.autograph.core.converter import ConversionOptions, Feature
from tensorflow.python.autograph.impl.api import AutoGraphError, convert, StackTraceMapper
from tensorflow.python.autograph.lang.directives import set_element_type
from tensorflow.python.autograph.lang.special_functions import stack

_UNSPECIFIED = object()


def _convertible(entity):
  if not (inspect.isclass(entity) or inspect.isfunction(entity) or inspect.ismethod(entity)):
    raise NotImplementedError('cannot convert entity "{}": object conversion is not yet supported.'.format(entity))


def to_graph(entity, recursive=True, experimental_optional_features=None):
  """tf.autograph.to_graph; a non-function entity raises NotImplementedError, as on TF 1.15."""
  _convertible(entity)
  return tf.autograph.to_graph(entity, recursive=recursive,
                               experimental_optional_features=experimental_optional_features)


def to_code(entity, recursive=True, experimental_optional_features=None):
  """tf.autograph.to_code; a non-function entity raises NotImplementedError, as on TF 1.15."""
  _convertible(entity)
  return tf.autograph.to_code(entity, recursive=recursive,
                              experimental_optional_features=experimental_optional_features)


def converted_call(f, options, args, kwargs, caller_fn_scope=None):
  """AutoGraph's converted_call in TF 1.15's argument order: (f, options, args, kwargs)."""
  return _catalog.resolve("tensorflow.python.autograph.impl.api:converted_call")(
      f, args, kwargs, caller_fn_scope=caller_fn_scope, options=options)


def set_loop_options(parallel_iterations=_UNSPECIFIED, back_prop=_UNSPECIFIED, swap_memory=_UNSPECIFIED,
                     maximum_iterations=_UNSPECIFIED):
  """TF 1.15's loop directive, which its converter dropped: no option reaches the loop."""
  del parallel_iterations, back_prop, swap_memory, maximum_iterations


# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = 'tf.autograph (tf.function converts Python control flow)'

__getattr__ = _catalog.module_getattr(__name__)

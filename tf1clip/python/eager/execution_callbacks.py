"""TF 1.15's eager execution callbacks (`tfe.add_execution_callback`, `tfe.seterr`, `tfe.errstate`, the inf/nan checks).

Mirrors TF 1.15's `tensorflow/python/eager/execution_callbacks.py`.

TF 1.15 called each registered `callback(op_type, inputs, attrs, outputs, op_name)` after every eagerly executed
op. TensorFlow 2.21 calls op callbacks for eager ops and for ops added to graphs; one dispatcher registered with
TensorFlow's op_callbacks (while any TF 1.15 callback is registered) calls the TF 1.15 callbacks for eager ops
only, as TF 1.15 did. `inf_nan_callback` checks a floating, complex or integer output's values (TF 1.15 ran the
CheckNumerics kernel; a NumPy check here, the same outcome) and raises InfOrNanError, warns or prints; `seterr`
and `errstate` install it for every op (numpy-style), returning / restoring the previous setting. One deliberate
difference: `errstate` restores the previous setting also when its block raises (TF 1.15's left its own in place).
"""

import contextlib
import enum
import functools

import numpy as np
import tensorflow as tf
from absl import logging
from tensorflow.python.framework import op_callbacks  # pylint: disable=g-direct-tensorflow-import

class ExecutionCallback(enum.Enum):
  """What an inf/nan callback does on a bad value."""
  IGNORE = "ignore"
  PRINT = "print"
  RAISE = "raise"
  WARN = "warn"

_DEFAULT_CALLBACK_ACTION = ExecutionCallback.RAISE
_CALLBACKS = []  # the TF 1.15 callbacks, in registration order

class InfOrNanError(Exception):
  """An eagerly executed op produced an inf or a nan (TF 1.15's message)."""

  def __init__(self, op_type, op_name, output_index, num_outputs, value):
    self._op_type = op_type
    self._op_name = op_name
    self._output_index = output_index
    self._num_outputs = num_outputs
    self._value = value
    self._total_count = np.size(value)
    self._inf_count = np.count_nonzero(np.isinf(value))
    self._nan_count = np.count_nonzero(np.isnan(value))
    super().__init__(self._get_error_message())

  def _get_error_message(self):
    name = "'%s'" % self._op_name if self._op_name is not None else str(self._op_name)
    message = "Output %d of %d of TFE operation %s (name: %s) contains " % (
        self._output_index + 1, self._num_outputs, self._op_type, name)
    if self._inf_count and self._nan_count:
      message += "%d inf(s) and %d nan(s) " % (self._inf_count, self._nan_count)
    elif self._inf_count:
      message += "%d inf(s) " % self._inf_count
    else:
      message += "%d nan(s) " % self._nan_count
    return message + "out of a total of %d element(s). Tensor value: %s" % (self._total_count, self._value)

  op_type = property(lambda self: self._op_type)
  op_name = property(lambda self: self._op_name)
  output_index = property(lambda self: self._output_index)
  num_outputs = property(lambda self: self._num_outputs)
  value = property(lambda self: self._value)

def inf_nan_callback(op_type, inputs, attrs, outputs, op_name, check_inf=True, check_nan=True,
                     action=_DEFAULT_CALLBACK_ACTION):
  """Acts on each output of an eager op that holds an inf (check_inf) or a nan (check_nan)."""
  del attrs, inputs  # only the outputs are checked
  action = ExecutionCallback(action)
  for index, output in enumerate(outputs):
    if not output.dtype.is_numpy_compatible:
      continue
    numpy_dtype = output.dtype.as_numpy_dtype
    if not (np.issubdtype(numpy_dtype, np.floating) or np.issubdtype(numpy_dtype, np.complexfloating)
            or np.issubdtype(numpy_dtype, np.integer)):
      continue
    value = output.numpy()
    if not ((check_inf and np.any(np.isinf(value))) or (check_nan and np.any(np.isnan(value)))):
      continue
    error = InfOrNanError(op_type, op_name, index, len(outputs), value)
    if action == ExecutionCallback.PRINT:
      print("Warning: %s" % str(error))
    elif action == ExecutionCallback.WARN:
      logging.warning(str(error))
    elif action == ExecutionCallback.RAISE:
      raise error
    else:
      raise ValueError("Invalid action for inf_nan_callback: %s. Valid actions are: {PRINT | WARN | RAISE}" % action)

def inf_callback(op_type, inputs, attrs, outputs, op_name, action=_DEFAULT_CALLBACK_ACTION):
  """inf_nan_callback for infs only."""
  inf_nan_callback(op_type, inputs, attrs, outputs, op_name, check_inf=True, check_nan=False, action=action)

def nan_callback(op_type, inputs, attrs, outputs, op_name, action=_DEFAULT_CALLBACK_ACTION):
  """inf_nan_callback for nans only."""
  inf_nan_callback(op_type, inputs, attrs, outputs, op_name, check_inf=False, check_nan=True, action=action)

def _dispatch(op_type, inputs, attrs, outputs, op_name=None, graph=None):
  """TensorFlow's op callback: the TF 1.15 callbacks, for eagerly executed ops only."""
  if graph is not None or not tf.executing_eagerly():
    return None
  op_type = op_type.decode() if isinstance(op_type, bytes) else op_type
  for callback in list(_CALLBACKS):
    callback(op_type, inputs, attrs, outputs, op_name)
  return None

def add_execution_callback(callback):
  """Calls `callback(op_type, inputs, attrs, outputs, op_name)` after every eagerly executed op."""
  if not _CALLBACKS:
    op_callbacks.add_op_callback(_dispatch)
  _CALLBACKS.append(callback)

def clear_execution_callbacks():
  """Removes every execution callback."""
  if _CALLBACKS:
    op_callbacks.remove_op_callback(_dispatch)
  del _CALLBACKS[:]

def seterr(inf_or_nan=None):
  """Sets what eager ops do on an inf or nan output ('ignore', 'print', 'warn', 'raise'); returns the old setting."""
  inf_or_nan = ExecutionCallback(inf_or_nan) if inf_or_nan is not None else None
  old_settings = {"inf_or_nan": ExecutionCallback.IGNORE}
  carryover = []
  for callback in _CALLBACKS:
    if callback == inf_nan_callback:
      old_settings["inf_or_nan"] = _DEFAULT_CALLBACK_ACTION
    elif isinstance(callback, functools.partial) and callback.func == inf_nan_callback:
      old_settings["inf_or_nan"] = callback.keywords.get("action", _DEFAULT_CALLBACK_ACTION)
    elif inf_or_nan is not None:
      carryover.append(callback)
  if inf_or_nan is not None:
    clear_execution_callbacks()
    for callback in carryover:
      add_execution_callback(callback)
    if inf_or_nan != ExecutionCallback.IGNORE:
      add_execution_callback(functools.partial(inf_nan_callback, action=inf_or_nan))
  return old_settings

@contextlib.contextmanager
def errstate(inf_or_nan=None):
  """seterr(inf_or_nan) inside the context (eager only), the previous setting after it."""
  if not tf.executing_eagerly():
    yield
    return
  old_settings = seterr(inf_or_nan=inf_or_nan)
  try:
    yield
  finally:
    seterr(**old_settings)

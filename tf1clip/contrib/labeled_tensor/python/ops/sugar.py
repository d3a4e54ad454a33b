"""`ReshapeCoder`: reshape some axes into others for a function, and back afterwards.

TF 1.15's `tensorflow/contrib/labeled_tensor/python/ops/sugar.py`, written by tf1clip on `ops.reshape`:

    coder = ReshapeCoder(['channel', 'mask'], ['depth'])
    result = coder.decode(crop_center(coder.encode(masked_image)))

`encode` merges the axes `channel` and `mask` into `depth`; `decode` splits `depth` back into the axes `encode`
saw (so the function in between must keep the size of `depth`).
"""

from tf1clip.contrib.labeled_tensor.python.ops import _typecheck as tc
from tf1clip.contrib.labeled_tensor.python.ops import core
from tf1clip.contrib.labeled_tensor.python.ops import ops


class ReshapeCoder(object):
  """Reshapes the axes `existing_axis_names` into `new_axes` (`encode`), and back (`decode`)."""

  @tc.accepts(existing_axis_names=tc.Collection(str), new_axes=tc.Collection(tc.Union(str, core.AxisLike)),
              name=tc.Optional(str))
  def __init__(self, existing_axis_names, new_axes, name=None):
    self._name = name
    self._existing_axis_names = existing_axis_names
    self._new_axes = new_axes
    self._encoded_axes = None  # the original axes, from the first encode

  @tc.accepts(labeled_tensor=core.LabeledTensorLike)
  def encode(self, labeled_tensor):
    """The input with its axes `existing_axis_names` reshaped into `new_axes`.

    Raises:
      ValueError: those axes differ from the ones an earlier `encode` saw.
    """
    with core.labeled_scope(self._name, "lt_reshape_encode", labeled_tensor) as (scope, lt):
      encoded = ops.reshape(lt, self._existing_axis_names, self._new_axes, name=scope)
      original = [lt.axes[n] for n in self._existing_axis_names]
      if self._encoded_axes is not None and self._encoded_axes != original:
        raise ValueError("input axes %r do not match axes from previous method call %r" %
                         (original, self._encoded_axes))
      self._encoded_axes = original
      return encoded

  @tc.accepts(labeled_tensor=core.LabeledTensorLike)
  def decode(self, labeled_tensor):
    """The inverse of `encode`: `new_axes` reshaped back into the axes `encode` saw.

    Raises:
      ValueError: `encode` has not been called yet.
    """
    if self._encoded_axes is None:
      raise ValueError("decode called before encode")
    with core.labeled_scope(self._name, "lt_reshape_decode", labeled_tensor) as (scope, lt):
      names = [a if isinstance(a, str) else core.as_axis(a).name for a in self._new_axes]
      return ops.reshape(lt, names, self._encoded_axes, name=scope)

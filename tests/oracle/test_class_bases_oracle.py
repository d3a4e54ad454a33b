"""The base classes TF1-era libraries inspect, against TF 1.15 (issue #36, step 6).

GPflow 1.x walks `dir(tf.train)` at import and checks every `*Optimizer`'s `__base__`; other libraries test
`issubclass` along the same hierarchies. For every public class of tf.train, tf.layers, tf.estimator,
tf.distributions and tf.nn.rnn_cell, the name of its `__base__` and whether it is a `tf.train.Optimizer`,
`tf.layers.Layer` or `tf.nn.rnn_cell.RNNCell` must be what TF 1.15 gives. Stated differences, asserted as
exactly these (a new one, or one that goes away, fails the test):
- protocol-buffer classes (tf.train.Example, ...): TF 1.15's C++ protobuf gave them the base `CMessage`,
  the upb protobuf of TF 2.21 gives `Message`; both are `google.protobuf.message.Message`. Left out.
- the three tf.nn.rnn_cell wrappers: tf-keras' TF1 cells put a private `_RNNCellWrapperV1` where TF 1.15 had
  `DropoutWrapperBase` / `ResidualWrapperBase` / `DeviceWrapperBase` as first base; `issubclass(...,
  RNNCell)` agrees.
"""

from harness import assert_same, requires_tf115, run_both

SNIPPET = r'''
import tensorflow as tf
from google.protobuf import message

def classes(prefix, module):
    for name in sorted(dir(module)):
        obj = getattr(module, name, None)
        if name.startswith("_") or not isinstance(obj, type) or issubclass(obj, message.Message):
            continue
        yield prefix + "." + name, obj

roots = (("optimizer", tf.train.Optimizer), ("layer", tf.layers.Layer), ("cell", tf.nn.rnn_cell.RNNCell))
for prefix, module in (("tf.train", tf.train), ("tf.layers", tf.layers), ("tf.estimator", tf.estimator),
                       ("tf.distributions", tf.distributions), ("tf.nn.rnn_cell", tf.nn.rnn_cell)):
    for path, cls in classes(prefix, module):
        base = cls.__base__
        report(path + "/base", base.__name__ if base is not None else None)
        report(path + "/is", [root for root, parent in roots if issubclass(cls, parent)])
'''

DIFFERENT_BASE = {"tf.nn.rnn_cell.%s/base" % name: ("%sBase" % name, "_RNNCellWrapperV1")
                  for name in ("DropoutWrapper", "ResidualWrapper", "DeviceWrapper")}


@requires_tf115
def test_class_bases_are_tf115s():
  tf115, ours = run_both(SNIPPET)
  assert len(tf115) > 100
  for key, (theirs, mine) in DIFFERENT_BASE.items():
    assert (tf115.pop(key), ours.pop(key)) == (theirs, mine), key
  # Names TF 1.15 did not have (TF 2.21's tf.compat.v1.train.CheckpointOptions) are another test's concern.
  assert_same(tf115, {key: value for key, value in ours.items() if key in tf115})

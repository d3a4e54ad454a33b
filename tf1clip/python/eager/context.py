"""`list_devices`, the one function of TF 1.15's `tensorflow/python/eager/context.py` that TensorFlow 2.21 dropped.

TF 1.15 served it as `tfe.list_devices()`: the full names of the devices eager ops can run on. tf1clip's, on
`tf.config.list_logical_devices` (the rest of that module is still TensorFlow's own).
"""

import tensorflow as tf


def list_devices():
  """The names of the devices eager ops can run on ("/job:localhost/replica:0/task:0/device:CPU:0", ...)."""
  return ["/job:localhost/replica:0/task:0" + device.name for device in tf.config.list_logical_devices()]

"""TF 1.15's internal path `tensorflow.contrib.reduce_slice_ops.python.ops`."""

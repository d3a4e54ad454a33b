"""TF 1.15's internal path `tensorflow.contrib.reduce_slice_ops.python`, the only way to its ops in TF 1.15."""

"""`tf1clip.contrib.labeled_tensor.python.ops`: the package TF 1.15 had at `tensorflow.contrib.labeled_tensor.python.ops`."""

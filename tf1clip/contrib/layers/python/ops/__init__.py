"""`tf1clip.contrib.layers.python.ops`: the package TF 1.15 had at `tensorflow.contrib.layers.python.ops`."""

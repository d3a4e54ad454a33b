"""`tf1clip.python.ops`: the package TF 1.15 had at `tensorflow.python.ops`."""

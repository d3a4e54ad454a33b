"""`tf1clip.python.framework`: the package TF 1.15 had at `tensorflow.python.framework`."""

"""`tf1clip.contrib.framework.python.framework`: the package TF 1.15 had at `tensorflow.contrib.framework.python.framework`."""

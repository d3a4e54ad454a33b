"""`tf1clip.contrib.solvers.python.ops`: the package TF 1.15 had at `tensorflow.contrib.solvers.python.ops`."""

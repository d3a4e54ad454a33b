"""`tf1clip.contrib.solvers.python`: the package TF 1.15 had at `tensorflow.contrib.solvers.python`."""

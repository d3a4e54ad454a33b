"""`tf1clip.python.estimator`: the package TF 1.15 had at `tensorflow.python.estimator`."""

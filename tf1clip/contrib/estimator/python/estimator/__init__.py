"""`tf1clip.contrib.estimator.python.estimator`: the package TF 1.15 had at `tensorflow.contrib.estimator.python.estimator`."""

"""`tf1clip.python.estimator.canned`: the package TF 1.15 had at `tensorflow.python.estimator.canned`."""

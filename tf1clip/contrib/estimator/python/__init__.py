"""`tf1clip.contrib.estimator.python`: the package TF 1.15 had at `tensorflow.contrib.estimator.python`."""

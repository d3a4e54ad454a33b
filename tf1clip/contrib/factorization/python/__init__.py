"""`tf1clip.contrib.factorization.python`: the package TF 1.15 had at `tensorflow.contrib.factorization.python`."""

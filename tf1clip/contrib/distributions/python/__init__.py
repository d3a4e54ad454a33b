"""`tf1clip.contrib.distributions.python`: the package TF 1.15 had at `tensorflow.contrib.distributions.python`."""

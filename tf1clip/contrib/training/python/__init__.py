"""`tf1clip.contrib.training.python`: the package TF 1.15 had at `tensorflow.contrib.training.python`."""

"""`tf1clip.contrib.testing.python`: the package TF 1.15 had at `tensorflow.contrib.testing.python`."""

"""`tf1clip.python`: the package TF 1.15 had at `tensorflow.python`."""

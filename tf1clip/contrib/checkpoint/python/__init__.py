"""`tf1clip.contrib.checkpoint.python`: the package TF 1.15 had at `tensorflow.contrib.checkpoint.python`."""

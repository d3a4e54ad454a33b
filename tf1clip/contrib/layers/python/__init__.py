"""`tf1clip.contrib.layers.python`: the package TF 1.15 had at `tensorflow.contrib.layers.python`."""

"""`tf1clip.contrib.specs.python`: the package TF 1.15 had at `tensorflow.contrib.specs.python`."""

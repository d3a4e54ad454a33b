"""`tf1clip.contrib.image.python`: the package TF 1.15 had at `tensorflow.contrib.image.python`."""

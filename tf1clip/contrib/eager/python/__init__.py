"""`tf1clip.contrib.eager.python`: the package TF 1.15 had at `tensorflow.contrib.eager.python`."""

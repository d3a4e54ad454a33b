"""`tf1clip.python.eager`: the package TF 1.15 had at `tensorflow.python.eager`."""

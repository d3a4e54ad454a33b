"""`tf1clip.python.ops.distributions`: the package TF 1.15 had at `tensorflow.python.ops.distributions`."""

"""`tf1clip.python.util`: the package TF 1.15 had at `tensorflow.python.util`."""

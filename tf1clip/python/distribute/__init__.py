"""`tf1clip.python.distribute`: the package TF 1.15 had at `tensorflow.python.distribute`."""

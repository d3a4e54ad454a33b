"""`tf1clip.contrib.layers.python.layers`: the package TF 1.15 had at `tensorflow.contrib.layers.python.layers`."""

"""`tf1clip.contrib.image.python.ops`: the package TF 1.15 had at `tensorflow.contrib.image.python.ops`."""

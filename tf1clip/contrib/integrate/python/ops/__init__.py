"""`tf1clip.contrib.integrate.python.ops`: the package TF 1.15 had at `tensorflow.contrib.integrate.python.ops`."""

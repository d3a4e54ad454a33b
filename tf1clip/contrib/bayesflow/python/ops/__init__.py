"""`tf1clip.contrib.bayesflow.python.ops`: the package TF 1.15 had at `tensorflow.contrib.bayesflow.python.ops`."""

"""`tf1clip.contrib.bayesflow.python`: the package TF 1.15 had at `tensorflow.contrib.bayesflow.python`."""

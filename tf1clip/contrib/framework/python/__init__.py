"""`tf1clip.contrib.framework.python`: the package TF 1.15 had at `tensorflow.contrib.framework.python`."""

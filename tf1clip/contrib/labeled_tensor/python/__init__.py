"""`tf1clip.contrib.labeled_tensor.python`: the package TF 1.15 had at `tensorflow.contrib.labeled_tensor.python`."""

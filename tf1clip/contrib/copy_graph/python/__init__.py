"""`tf1clip.contrib.copy_graph.python`: the package TF 1.15 had at `tensorflow.contrib.copy_graph.python`."""

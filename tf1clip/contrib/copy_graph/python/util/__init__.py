"""`tf1clip.contrib.copy_graph.python.util`: the package TF 1.15 had at `tensorflow.contrib.copy_graph.python.util`."""

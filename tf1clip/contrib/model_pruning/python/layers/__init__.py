"""`tf1clip.contrib.model_pruning.python.layers`: the package TF 1.15 had at `tensorflow.contrib.model_pruning.python.layers`."""

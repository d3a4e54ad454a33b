"""`tf1clip.contrib.receptive_field.python`: the package TF 1.15 had at `tensorflow.contrib.receptive_field.python`."""

"""`tf1clip.contrib.receptive_field.python.util`: the package TF 1.15 had at `tensorflow.contrib.receptive_field.python.util`."""

"""`tf1clip.python.keras`: the package TF 1.15 had at `tensorflow.python.keras`."""

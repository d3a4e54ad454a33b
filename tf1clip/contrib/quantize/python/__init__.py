"""`tf1clip.contrib.quantize.python`: the package TF 1.15 had at `tensorflow.contrib.quantize.python`."""

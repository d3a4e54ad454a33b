"""`tf1clip.contrib.kernel_methods.python`: the package TF 1.15 had at `tensorflow.contrib.kernel_methods.python`."""

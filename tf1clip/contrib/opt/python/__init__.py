"""`tf1clip.contrib.opt.python`: the package TF 1.15 had at `tensorflow.contrib.opt.python`."""

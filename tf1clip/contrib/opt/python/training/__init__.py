"""`tf1clip.contrib.opt.python.training`: the package TF 1.15 had at `tensorflow.contrib.opt.python.training`."""

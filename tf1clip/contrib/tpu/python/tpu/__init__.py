"""`tf1clip.contrib.tpu.python.tpu`: the package TF 1.15 had at `tensorflow.contrib.tpu.python.tpu`."""

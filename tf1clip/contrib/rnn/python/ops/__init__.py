"""`tf1clip.contrib.rnn.python.ops`: the package TF 1.15 had at `tensorflow.contrib.rnn.python.ops`."""

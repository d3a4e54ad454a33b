"""`tf1clip.contrib.rnn.python`: the package TF 1.15 had at `tensorflow.contrib.rnn.python`."""

"""`tf1clip.contrib.cudnn_rnn.python`: the package TF 1.15 had at `tensorflow.contrib.cudnn_rnn.python`."""

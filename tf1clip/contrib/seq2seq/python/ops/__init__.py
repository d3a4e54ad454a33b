"""`tf1clip.contrib.seq2seq.python.ops`: the package TF 1.15 had at `tensorflow.contrib.seq2seq.python.ops`."""

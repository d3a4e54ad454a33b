"""`tf1clip.python.keras.wrappers`: the package TF 1.15 had at `tensorflow.python.keras.wrappers`."""

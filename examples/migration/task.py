"""The task every migration stage trains: numpy only, so TF1 and TF2 stages share it unchanged.

A character-level sequence classifier: sequences of `LENGTH` characters from a `VOCAB`-letter
alphabet, one-hot encoded, go through an LSTM of `HIDDEN` units; a dense layer reads the last
output and predicts one of `CLASSES` classes (how often the first letter occurs, mod 3).
Initial weights and batches come from seeded numpy generators, so every stage starts from the
same numbers and sees the same batches.

Weights are exchanged in TF1's layout and names: ``rnn/lstm_cell/kernel`` stacks the input and
recurrent kernels, gates in the order i, j, f, o, and the cell adds a forget bias of 1.0 at run
time. `to_keras` / `from_keras` convert to and from the Keras LSTM layout (separate kernels,
gates i, f, c, o, the forget bias inside the bias).
"""

import numpy as np

VOCAB, LENGTH, HIDDEN, CLASSES, BATCH = 6, 7, 8, 3, 16
LEARNING_RATE, CLIP_NORM, FORGET_BIAS = 0.02, 1.0, 1.0
NAMES = ("rnn/lstm_cell/kernel", "rnn/lstm_cell/bias", "softmax/kernel", "softmax/bias")


def initial_weights(seed=0):
  """dict name -> float32 array, in TF1 layout (`NAMES`)."""
  rng = np.random.default_rng(seed)
  scale = (VOCAB + HIDDEN) ** -0.5
  weights = {
      "rnn/lstm_cell/kernel": rng.uniform(-scale, scale, (VOCAB + HIDDEN, 4 * HIDDEN)),
      "rnn/lstm_cell/bias": rng.normal(0.0, 0.1, 4 * HIDDEN),
      "softmax/kernel": rng.normal(0.0, HIDDEN ** -0.5, (HIDDEN, CLASSES)),
      "softmax/bias": np.zeros(CLASSES),
  }
  return {k: v.astype(np.float32) for k, v in weights.items()}


def batch(step, seed=0):
  """Batch number `step`: (one-hot inputs [BATCH, LENGTH, VOCAB] float32, labels [BATCH] int32)."""
  rng = np.random.default_rng([seed, 1, step])
  chars = rng.integers(0, VOCAB, (BATCH, LENGTH))
  labels = (chars == 0).sum(axis=1) % CLASSES
  return np.eye(VOCAB, dtype=np.float32)[chars], labels.astype(np.int32)


def _gates(matrix, order):
  blocks = np.split(matrix, 4, axis=-1)
  return np.concatenate([blocks[i] for i in order], axis=-1)


_TF1_TO_KERAS = (0, 2, 1, 3)  # i, j, f, o -> i, f, j(c), o (a swap: its own inverse)


def to_keras(weights):
  """TF1-layout weights -> [kernel, recurrent_kernel, bias, dense kernel, dense bias]."""
  kernel = _gates(weights["rnn/lstm_cell/kernel"], _TF1_TO_KERAS)
  bias = _gates(weights["rnn/lstm_cell/bias"], _TF1_TO_KERAS)
  bias[HIDDEN:2 * HIDDEN] += FORGET_BIAS
  return [kernel[:VOCAB], kernel[VOCAB:], bias, weights["softmax/kernel"],
          weights["softmax/bias"]]


def from_keras(keras_weights):
  """The inverse of `to_keras`."""
  kernel, recurrent, bias, dense_kernel, dense_bias = [np.array(w) for w in keras_weights]
  bias[HIDDEN:2 * HIDDEN] -= FORGET_BIAS
  return {
      "rnn/lstm_cell/kernel": _gates(np.concatenate([kernel, recurrent]), _TF1_TO_KERAS),
      "rnn/lstm_cell/bias": _gates(bias, _TF1_TO_KERAS),
      "softmax/kernel": dense_kernel,
      "softmax/bias": dense_bias,
  }


def save(path, weights):
  """Writes TF1-layout weights to an .npz file (keys are `NAMES`)."""
  np.savez(path, **{name: weights[name] for name in NAMES})

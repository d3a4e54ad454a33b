"""Reading event files in tests with tensorboard's own reader, apart from the code under test (tf1clip.report)."""

import tensorflow as tf
from tensorboard.backend.event_processing import event_accumulator


def read_scalars(logdir):
  """tag -> [(step, value)] from every event file under logdir."""
  acc = event_accumulator.EventAccumulator(
      logdir, size_guidance={event_accumulator.SCALARS: 0, event_accumulator.TENSORS: 0})
  acc.Reload()
  out = {}
  for tag in acc.Tags()["scalars"]:
    out[tag] = [(e.step, e.value) for e in acc.Scalars(tag)]
  for tag in acc.Tags()["tensors"]:  # TF2 writes scalars as tensors
    out[tag] = [(e.step, float(tf.make_ndarray(e.tensor_proto))) for e in acc.Tensors(tag)]
  return out

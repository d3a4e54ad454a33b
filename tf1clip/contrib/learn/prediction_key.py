"""`tf.contrib.learn.PredictionKey`: the keys of a contrib.learn head's predictions (TF 1.15's strings).

Place in the data flow (DESIGN.md): **contrib.learn.prediction_key** <- contrib.learn.head <- contrib.learn <-
compat <- cli.
"""


class PredictionKey(object):
  """Prediction keys: classes, probabilities, logits, logistic, scores, top_k, output."""
  CLASSES = "classes"
  PROBABILITIES = "probabilities"
  LOGITS = "logits"
  LOGISTIC = "logistic"
  SCORES = "scores"
  TOP_K = "top_k"
  GENERIC = "output"

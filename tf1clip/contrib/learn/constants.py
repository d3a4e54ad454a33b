"""`tf.contrib.learn.ProblemType`: what a contrib.learn model solves, for its export signatures (TF 1.15's values).

Place in the data flow (DESIGN.md): **contrib.learn.constants** <- contrib.learn.head <- contrib.learn <- compat <- cli.
"""


class ProblemType(object):
  """The kind of problem a model solves: UNSPECIFIED 0, CLASSIFICATION 1, LINEAR_REGRESSION 2, LOGISTIC_REGRESSION 3."""
  UNSPECIFIED = 0
  CLASSIFICATION = 1
  LINEAR_REGRESSION = 2
  LOGISTIC_REGRESSION = 3


COLLECTION_DEF_KEY_FOR_INPUT_FEATURE_KEYS = "input_feature_keys"

"""`tf.contrib.learn`: the preprocessing and local-file dataset parts; the old Estimator API fails by name.

Place in the data flow (DESIGN.md): contrib (our own code, TF 1.15's semantics) <- compat <- cli.

Provided: `ModeKeys` (contrib.learn's own: TRAIN, EVAL, INFER; tf.estimator's has PREDICT), `preprocessing` (VocabularyProcessor, CategoricalVocabulary, ByteProcessor, tokenizer) and
`datasets` (`base.load_csv_with_header` / `load_csv_without_header`, `mnist.read_data_sets` from local
files). `learn.Estimator`, `DNNClassifier`, `SKCompat`, `Experiment`, ... raise ContribNotProvidedError
naming their tf.estimator replacement (tf.estimator is served from tensorflow-estimator 2.15): their
`fit(x, y)` / `ModelFnOps` signatures do not map onto tf.estimator's `train(input_fn)` /
`EstimatorSpec` without changing the script.
"""

from tf1clip.contrib import catalog
from tf1clip.contrib.learn import datasets
from tf1clip.contrib.learn import preprocessing



class ModeKeys(object):
  """contrib.learn's model modes: TRAIN "train", EVAL "eval", INFER "infer" (tf.estimator calls it PREDICT)."""
  TRAIN = "train"
  EVAL = "eval"
  INFER = "infer"


__getattr__ = catalog.missing_attribute_hook("tf.contrib.learn")

"""`tf.contrib.learn`: the preprocessing and local-file dataset parts; the old Estimator API fails by name.

Place in the data flow (DESIGN.md): contrib (our own code, TF 1.15's semantics) <- compat <- cli.

Provided: `preprocessing` (VocabularyProcessor, CategoricalVocabulary, ByteProcessor, tokenizer) and
`datasets` (`base.load_csv_with_header` / `load_csv_without_header`, `mnist.read_data_sets` from local
files). `learn.Estimator`, `DNNClassifier`, `SKCompat`, `Experiment`, ... raise ContribNotProvidedError
naming their tf.estimator replacement (tf.estimator is served from tensorflow-estimator 2.15): their
`fit(x, y)` / `ModelFnOps` signatures do not map onto tf.estimator's `train(input_fn)` /
`EstimatorSpec` without changing the script.
"""

from tf1clip.contrib import catalog
from tf1clip.contrib.learn import datasets
from tf1clip.contrib.learn import preprocessing

__getattr__ = catalog.missing_attribute_hook("tf.contrib.learn")

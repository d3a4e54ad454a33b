"""`tf.contrib.learn`: TF 1.15's estimator API (fit/evaluate/predict with x and y) on tf.estimator, and its data parts.

Place in the data flow (DESIGN.md): contrib (our own code, TF 1.15's semantics) <- compat <- cli.

Provided:
- `Estimator`, `SKCompat`, `ModelFnOps`, `MetricSpec`, `InputFnOps`, `NotFittedError`,
  `infer_real_valued_columns_from_input(_fn)` (contrib.learn.estimator: a model_fn estimator owning a
  tf.estimator.Estimator, arrays fed in TF 1.15's DataFeeder order);
- `DNNClassifier`, `DNNRegressor`, `LinearClassifier`, `LinearRegressor`,
  `DNNLinearCombinedClassifier`, `DNNLinearCombinedRegressor` (contrib.learn.canned: tf.estimator's canned
  estimators behind TF 1.15's constructors, predictions and metric names);
- `Experiment`, `learn_runner`, `RunConfig`, `monitors` (as the hooks that replaced them);
- `ModeKeys` (contrib.learn's own: TRAIN, EVAL, INFER; tf.estimator's has PREDICT = "infer" too),
  `preprocessing` (VocabularyProcessor, ...) and `datasets` (local files and the data TF 1.15 shipped);
- `ops` (embedding lookups, the linear losses, the seq2seq helpers) and `models` (linear / logistic regression).
The rest (heads, graph_actions, queue readers, DynamicRnnEstimator, SVM, ...) raises
ContribNotProvidedError naming what to use instead.
"""

from tf1clip.contrib import catalog
from tf1clip.contrib.learn import datasets
from tf1clip.contrib.learn import preprocessing
# The submodules the lazily served names live in, imported here (cheap: TensorFlow is imported inside
# their functions) so that `from tf1clip.contrib.learn import X` never reaches the missing-name hook.
from tf1clip.contrib.learn import canned  # noqa: F401
from tf1clip.contrib.learn import estimator  # noqa: F401
from tf1clip.contrib.learn import experiment  # noqa: F401
from tf1clip.contrib.learn import learn_runner  # noqa: F401
from tf1clip.contrib.learn import models  # noqa: F401
from tf1clip.contrib.learn import monitors  # noqa: F401
from tf1clip.contrib.learn import ops  # noqa: F401
from tf1clip.contrib.learn import run_config  # noqa: F401
from tf1clip.contrib.learn.estimator import ModeKeys

__getattr__ = catalog.missing_attribute_hook("tf.contrib.learn",
                                             lazy=catalog.served("tf.contrib.learn"))

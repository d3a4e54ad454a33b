"""`tf.contrib.learn`: TF 1.15's estimator API (fit/evaluate/predict with x and y) on tf.estimator, and its data parts.

Place in the data flow (DESIGN.md): contrib (our own code, TF 1.15's semantics) <- compat <- cli.

Provided:
- `Estimator`, `SKCompat`, `ModelFnOps`, `MetricSpec`, `InputFnOps`, `NotFittedError`,
  `infer_real_valued_columns_from_input(_fn)` (contrib.learn.estimator: a model_fn estimator owning a
  tf.estimator.Estimator, arrays fed in TF 1.15's DataFeeder order);
- `DNNClassifier`, `DNNRegressor`, `LinearClassifier`, `LinearRegressor`,
  `DNNLinearCombinedClassifier`, `DNNLinearCombinedRegressor` (contrib.learn.canned: TF 1.15's classes on its
  model functions and heads, with its variable names, predictions and metric names);
- `Experiment`, `learn_runner`, `RunConfig`, `monitors` (as the hooks that replaced them);
- `ModeKeys` (contrib.learn's own: TRAIN, EVAL, INFER; tf.estimator's has PREDICT = "infer" too),
  `preprocessing` (VocabularyProcessor, ...) and `datasets` (local files and the data TF 1.15 shipped);
- `ops` (embedding lookups, the linear losses, the seq2seq helpers) and `models` (linear / logistic regression);
- `io` (contrib.learn.io: the queue readers read_batch_examples / read_batch_features / ..., numpy / pandas /
  generator input_fns, the data feeders) and its read_* / extract_* names re-exported here.
- `head` (TF 1.15's heads, re-exported here: regression_head, multi_class_head, ...), `ProblemType`,
  `PredictionKey`, and the head-based `DNNEstimator` / `LinearEstimator` / `DNNLinearCombinedEstimator`
  (contrib.learn.head_estimators), `LogisticRegressor`, `KMeansClustering` (contrib.learn's own API).
- `utils` (export signature functions, serving input_fns, ExportStrategy makers), `ExportStrategy`,
  `graph_actions` (train / evaluate / infer / run_feeds / run_n, re-exported here), `Evaluable`, `Trainable`,
  `TaskType`.
- `SVM` (contrib.learn.svm: a linear SVM, binary_svm_head trained by contrib.linear_optimizer's SDCA).
DynamicRnnEstimator is TF 1.15's model_fn (dynamic_rnn_estimator, with rnn_common). The rest raises
ContribNotProvidedError naming what to use instead.
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.learn import datasets
from tf1clip.contrib.learn import preprocessing
# The submodules the lazily served names live in, imported here (cheap: TensorFlow is imported inside
# their functions) so that `from tf1clip.contrib.learn import X` never reaches the missing-name hook.
from tf1clip.contrib.learn import canned  # noqa: F401
from tf1clip.contrib.learn import dynamic_rnn_estimator  # noqa: F401
from tf1clip.contrib.learn import estimator  # noqa: F401
from tf1clip.contrib.learn import evaluable  # noqa: F401
from tf1clip.contrib.learn import export_strategy  # noqa: F401
from tf1clip.contrib.learn import experiment  # noqa: F401
from tf1clip.contrib.learn import graph_actions  # noqa: F401
from tf1clip.contrib.learn import head  # noqa: F401
from tf1clip.contrib.learn import head_estimators  # noqa: F401
from tf1clip.contrib.learn import io  # noqa: F401
from tf1clip.contrib.learn import kmeans  # noqa: F401
from tf1clip.contrib.learn import learn_runner  # noqa: F401
from tf1clip.contrib.learn import logistic_regressor  # noqa: F401
from tf1clip.contrib.learn import models  # noqa: F401
from tf1clip.contrib.learn import monitors  # noqa: F401
from tf1clip.contrib.learn import ops  # noqa: F401
from tf1clip.contrib.learn import run_config  # noqa: F401
from tf1clip.contrib.learn import svm  # noqa: F401
from tf1clip.contrib.learn import trainable  # noqa: F401
from tf1clip.contrib.learn import utils  # noqa: F401
from tf1clip.contrib.learn.estimator import ModeKeys

__getattr__ = _catalog.missing_attribute_hook("tf.contrib.learn",
                                              lazy=_catalog.served("tf.contrib.learn"))

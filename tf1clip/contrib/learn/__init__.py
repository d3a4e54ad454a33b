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
# The names this package serves, declared here (catalog.collect reads them): its submodules, and below the names
# TF 1.15 re-exported from them. Only RunConfig and TaskType wait for their first use (see __getattr__).
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

from tf1clip.contrib.learn.canned import DNNClassifier
from tf1clip.contrib.learn.canned import DNNLinearCombinedClassifier
from tf1clip.contrib.learn.canned import DNNLinearCombinedRegressor
from tf1clip.contrib.learn.canned import DNNRegressor
from tf1clip.contrib.learn.canned import LinearClassifier
from tf1clip.contrib.learn.canned import LinearRegressor
from tf1clip.contrib.learn.constants import ProblemType
from tf1clip.contrib.learn.dynamic_rnn_estimator import DynamicRnnEstimator
from tf1clip.contrib.learn.estimator import BaseEstimator
from tf1clip.contrib.learn.estimator import Estimator
from tf1clip.contrib.learn.estimator import InputFnOps
from tf1clip.contrib.learn.estimator import MetricSpec
from tf1clip.contrib.learn.estimator import ModelFnOps
from tf1clip.contrib.learn.estimator import NotFittedError
from tf1clip.contrib.learn.estimator import SKCompat
from tf1clip.contrib.learn.estimator import infer_real_valued_columns_from_input
from tf1clip.contrib.learn.estimator import infer_real_valued_columns_from_input_fn
from tf1clip.contrib.learn.evaluable import Evaluable
from tf1clip.contrib.learn.experiment import Experiment
from tf1clip.contrib.learn.export_strategy import ExportStrategy
from tf1clip.contrib.learn.graph_actions import evaluate
from tf1clip.contrib.learn.graph_actions import infer
from tf1clip.contrib.learn.graph_actions import run_feeds
from tf1clip.contrib.learn.graph_actions import run_n
from tf1clip.contrib.learn.graph_actions import train
from tf1clip.contrib.learn.head import Head
from tf1clip.contrib.learn.head import binary_svm_head
from tf1clip.contrib.learn.head import multi_class_head
from tf1clip.contrib.learn.head import multi_head
from tf1clip.contrib.learn.head import multi_label_head
from tf1clip.contrib.learn.head import no_op_train_fn
from tf1clip.contrib.learn.head import poisson_regression_head
from tf1clip.contrib.learn.head import regression_head
from tf1clip.contrib.learn.head_estimators import DNNEstimator
from tf1clip.contrib.learn.head_estimators import DNNLinearCombinedEstimator
from tf1clip.contrib.learn.head_estimators import LinearEstimator
from tf1clip.contrib.learn.io import extract_dask_data
from tf1clip.contrib.learn.io import extract_dask_labels
from tf1clip.contrib.learn.io import extract_pandas_data
from tf1clip.contrib.learn.io import extract_pandas_labels
from tf1clip.contrib.learn.io import extract_pandas_matrix
from tf1clip.contrib.learn.io import read_batch_examples
from tf1clip.contrib.learn.io import read_batch_features
from tf1clip.contrib.learn.io import read_batch_record_features
from tf1clip.contrib.learn.io import read_keyed_batch_examples
from tf1clip.contrib.learn.io import read_keyed_batch_examples_shared_queue
from tf1clip.contrib.learn.io import read_keyed_batch_features
from tf1clip.contrib.learn.io import read_keyed_batch_features_shared_queue
from tf1clip.contrib.learn.kmeans import KMeansClustering
from tf1clip.contrib.learn.logistic_regressor import LogisticRegressor
from tf1clip.contrib.learn.monitors import NanLossDuringTrainingError
from tf1clip.contrib.learn.prediction_key import PredictionKey
from tf1clip.contrib.learn.svm import SVM
from tf1clip.contrib.learn.trainable import Trainable
from tf1clip.contrib.learn.utils import build_parsing_serving_input_fn
from tf1clip.contrib.learn.utils import make_export_strategy

SUCCESSOR = ("tf.estimator (served from tensorflow-estimator 2.15); tf1clip serves contrib.learn's Estimator / "
             "SKCompat / canned DNN and linear estimators / Experiment / learn_runner / RunConfig / monitors, io, "
             "heads, graph_actions and export utilities on it; what is left went with TF 2.0")


def _task_type():
  import importlib  # pylint: disable=import-outside-toplevel
  return importlib.import_module("tensorflow_estimator.python.estimator.run_config").TaskType


# RunConfig subclasses tensorflow-estimator's (built on first use, as run_config does); TaskType is that library's.
__getattr__ = _catalog.module_getattr(__name__, lazy={"RunConfig": lambda: run_config.RunConfig,
                                                      "TaskType": _task_type})

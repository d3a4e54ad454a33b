"""`tf.contrib.timeseries` (TFTS): TF 1.15's time series Estimators, models and input pipelines.

Place in the data flow (DESIGN.md): tensorflow-estimator 2.15's timeseries package (through shims.tensorflow_estimator)
and tf.compat.v1 <- **contrib.timeseries** <- compat <- cli.

tensorflow-estimator 2.15 kept a trimmed copy of TF 1.15's library (canned/timeseries: feature keys, the heads,
`TimeSeriesRegressor`, `TimeSeriesModel`, two of the state managers, the input statistics); those objects are served
as they are. What it dropped (or broke: its saved_model_utils lost its numpy import) is TF 1.15's code here, one
module per TF 1.15 module: `ar_model` (`ARModel` with its flat and LSTM prediction models), `estimators`
(`ARRegressor`, `StructuralEnsembleRegressor`; `TimeSeriesRegressor` with TF 1.15's default state manager for
`ARModel`), `input_pipeline` (`NumpyReader`, `CSVReader`, `RandomWindowInputFn`, `WholeDatasetInputFn`,
`predict_continuation_input_fn`), `saved_model_utils`, `math_utils`, `model` (`SequentialTimeSeriesModel`),
`model_utils`, `state_management` (`ChainingStateManager`) and `state_space_models` (the Kalman filter and the
structural components).
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.timeseries import math_utils  # noqa: F401
from tf1clip.contrib.timeseries import ar_model  # noqa: F401
from tf1clip.contrib.timeseries import input_pipeline  # noqa: F401
from tf1clip.contrib.timeseries import estimators  # noqa: F401
from tf1clip.contrib.timeseries import saved_model_utils  # noqa: F401

# Served as the very objects of tensorflow-estimator 2.15's copy where it kept them (their origin is in catalog.tsv),
# TF 1.15's code here for the rest:
from tensorflow_estimator.python.estimator.canned.timeseries.feature_keys import (  # noqa: F401
    FilteringResults, TrainEvalFeatures)
from tensorflow_estimator.python.estimator.canned.timeseries.head import OneShotPredictionHead  # noqa: F401
from tf1clip.contrib.timeseries.ar_model import ARModel  # noqa: F401
from tf1clip.contrib.timeseries.estimators import (  # noqa: F401
    ARRegressor, StructuralEnsembleRegressor, TimeSeriesRegressor)
from tf1clip.contrib.timeseries.input_pipeline import (  # noqa: F401
    CSVReader, NumpyReader, RandomWindowInputFn, WholeDatasetInputFn, predict_continuation_input_fn)

__getattr__ = _catalog.module_getattr(__name__)

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

__getattr__ = _catalog.missing_attribute_hook("tf.contrib.timeseries", lazy=_catalog.served("tf.contrib.timeseries"))

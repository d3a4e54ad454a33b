"""tf1clip's timeseries input pipeline on its own: the errors for bad input name what is wrong (TF 1.15 raises the
same classes, compared in test_input_pipeline_oracle.py; the wording is ours)."""

import numpy as np
import pytest

from tf1clip.contrib.timeseries import input_pipeline

TIMES, VALUES = "times", "values"


@pytest.mark.parametrize("kwargs, named", [
    (dict(column_names=(VALUES, VALUES)), "column_names"),
    (dict(column_names=(TIMES, "load")), "column_names"),
    (dict(column_names=(TIMES, VALUES, TIMES)), "exactly one 'times'"),
    (dict(column_dtypes=("int64",)), "column_dtypes"),
])
def test_csv_reader_errors_name_the_argument(kwargs, named):
  with pytest.raises(ValueError, match=named):
    input_pipeline.CSVReader("unused.csv", **kwargs)


@pytest.mark.parametrize("data, named", [
    ({TIMES: [1, 2]}, "times and values are required"),
    ({TIMES: [1, 2], VALUES: [1.0]}, "'values' has shape"),
    ({TIMES: np.zeros([2, 2, 2]), VALUES: np.zeros([2, 2, 2])}, "at most two dimensions"),
    ({TIMES: [1, 2], VALUES: np.zeros([2, 1, 1])}, r"\[series length, number of features\] at most"),
    ({TIMES: 3, VALUES: np.zeros([1, 1])}, r"shaped \[number of features\] at most"),
])
def test_numpy_data_errors_say_which_shape_is_wrong(data, named):
  with pytest.raises(ValueError, match=named):
    input_pipeline.NumpyReader(data)


def test_numpy_reader_refuses_a_batch_and_a_window_longer_than_the_series():
  with pytest.raises(ValueError, match="unbatched"):
    input_pipeline.NumpyReader({TIMES: np.zeros([2, 3]), VALUES: np.zeros([2, 3])})
  reader = input_pipeline.NumpyReader({TIMES: [1, 2, 3], VALUES: [0.0, 1.0, 2.0]})
  with pytest.raises(ValueError, match="windows of 4 records .* only 3"):
    input_pipeline.RandomWindowInputFn(reader, window_size=4, batch_size=1)
  input_pipeline.RandomWindowInputFn(reader, window_size=3, batch_size=1)  # fits


def test_tf_example_reader_needs_times_and_values():
  with pytest.raises(ValueError, match="'values'"):
    input_pipeline.TFExampleReader("unused.tfrecord", {TIMES: None})


def test_numpy_shapes_get_batch_and_feature_dimensions():
  one_step = input_pipeline._canonicalize_numpy_data({TIMES: 4, VALUES: 2.0}, require_single_batch=True)
  assert {k: v.shape for k, v in one_step.items()} == {TIMES: (1, 1), VALUES: (1, 1, 1)}
  series = input_pipeline._canonicalize_numpy_data({TIMES: [1, 2, 3], VALUES: [1.0, 2.0, 3.0], "x": np.ones([3, 2])},
                                                   require_single_batch=True)
  assert {k: v.shape for k, v in series.items()} == {TIMES: (1, 3), VALUES: (1, 3, 1), "x": (1, 3, 2)}
  batch = input_pipeline._canonicalize_numpy_data({TIMES: np.zeros([2, 3]), VALUES: np.zeros([2, 3])},
                                                  require_single_batch=False)
  assert batch[VALUES].shape == (2, 3)  # as in TF 1.15: a batch is left as given


"""contrib.learn.datasets' bundled iris and Boston data against TF 1.15: the same arrays and dtypes from
load_iris, load_boston, load_dataset and base.load_iris; load_dataset's error for an unknown name."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.learn.datasets.load_iris", "tf.contrib.learn.datasets.load_boston",
                 "tf.contrib.learn.datasets.load_dataset", "tf.contrib.learn.datasets.base.load_iris",
                 "tf.contrib.learn.datasets.base.load_boston")

SNIPPET = r'''
import tensorflow as tf
ds = tf.contrib.learn.datasets
for key, loaded in (("iris", ds.load_iris()), ("boston", ds.load_boston()), ("by_name", ds.load_dataset("iris")),
                    ("base_boston", ds.base.load_boston())):
    report(key, {"data": loaded.data, "target": loaded.target,
                 "dtypes": [loaded.data.dtype.name, loaded.target.dtype.name], "fields": list(loaded._fields)})
try:
    ds.load_dataset("no_such")
    report("unknown", "no error")
except Exception as e:
    report("unknown", "%s: %s" % (type(e).__name__, e))
'''


@requires_tf115
def test_bundled_datasets_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["iris"]["dtypes"] == ["float64", "int64"] and tf115["iris"]["data"].shape == (150, 4)
  assert tf115["unknown"] == "ValueError: Name of dataset is not found: no_such"
  assert_same(tf115, ours, rtol=0, atol=0)

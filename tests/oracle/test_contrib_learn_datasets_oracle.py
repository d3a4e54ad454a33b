"""contrib.learn.datasets' bundled iris and Boston data against TF 1.15: the same arrays and dtypes from
load_iris, load_boston, load_dataset and base.load_iris; load_dataset's error for an unknown name."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.learn.datasets.load_iris", "tf.contrib.learn.datasets.load_boston",
                 "tf.contrib.learn.datasets.load_dataset", "tf.contrib.learn.datasets.base.load_iris",
                 "tf.contrib.learn.datasets.base.load_boston", "tf.contrib.learn.datasets.make_dataset",
                 "tf.contrib.learn.datasets.synthetic", "tf.contrib.learn.datasets.synthetic.circles",
                 "tf.contrib.learn.datasets.synthetic.spirals")

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
# the synthetic datasets: the same seed gives the same points, labels, noise and order
syn = ds.synthetic
for key, made in (("circles", ds.make_dataset("circles", n_samples=31, noise=0.05, seed=3)),
                  ("circles_3", syn.circles(n_samples=20, seed=1, factor=0.5, n_classes=3)),
                  ("spirals", ds.make_dataset("spirals", n_samples=21, noise=0.1, seed=4)),
                  ("spirals_bernoulli", syn.spirals(n_samples=12, seed=2, mode="bernoulli", n_loops=1)),
                  ("spirals_fermat", syn.spirals(n_samples=13, seed=5, mode="fermat"))):
    report(key, [made.data, made.target])
report_errors("synthetic_errors", (("name", lambda: ds.make_dataset("squares")),
                                   ("mode", lambda: syn.spirals(mode="golden"))))
'''


@requires_tf115
def test_bundled_datasets_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["iris"]["dtypes"] == ["float64", "int64"] and tf115["iris"]["data"].shape == (150, 4)
  assert tf115["unknown"] == "ValueError: Name of dataset is not found: no_such"
  assert tf115["synthetic_errors"] == {"name": "ValueError", "mode": "ValueError"}
  assert_same(tf115, ours, rtol=1e-12, atol=1e-12)

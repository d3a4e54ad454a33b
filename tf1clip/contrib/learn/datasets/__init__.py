"""`tf.contrib.learn.datasets`: MNIST and the CSV loaders, from local files only.

Place in the data flow (DESIGN.md): contrib.learn <- compat <- cli. `base` holds the Dataset tuples and
CSV loaders, `mnist` the idx-file reader (also served as tensorflow.examples.tutorials.mnist.input_data),
`synthetic` the circles and spirals that `make_dataset` names.
`load_iris` / `load_boston` (and `load_dataset("iris" | "boston")`) read the copies TF 1.15 shipped; the
downloaders (`load_dataset("dbpedia")`, `maybe_download`) fetched files from the network; tf1clip does not:
`text_datasets.load_dbpedia` reads the DBpedia CSVs when they are on disk (or, test_with_fake_data, the two tiny
ones TF 1.15 shipped).
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.learn.datasets import base
from tf1clip.contrib.learn.datasets import mnist
from tf1clip.contrib.learn.datasets import synthetic
from tf1clip.contrib.learn.datasets import text_datasets
from tf1clip.contrib.learn.datasets.base import load_boston
from tf1clip.contrib.learn.datasets.base import load_iris

_BUNDLED = {"iris": load_iris, "boston": load_boston}
SYNTHETIC = {"circles": synthetic.circles, "spirals": synthetic.spirals}


def load_dataset(name, size="small", test_with_fake_data=False):
  """TF 1.15's loader by name: "iris" and "boston" (bundled), "dbpedia" (local files; see text_datasets)."""
  if name == "dbpedia":
    return text_datasets.load_dbpedia(size, test_with_fake_data)
  if name not in _BUNDLED:
    raise ValueError("Name of dataset is not found: %s" % name)
  return _BUNDLED[name]()


def make_dataset(name, n_samples=100, noise=None, seed=42, *args, **kwargs):  # pylint: disable=keyword-arg-before-vararg
  """A synthetic two-class dataset by name ("circles" or "spirals"); see `synthetic`.

  Raises:
    ValueError: an unknown name.
  """
  if name not in SYNTHETIC:
    raise ValueError("Synthetic dataset not found or not implemented: %s" % name)
  return SYNTHETIC[name](n_samples=n_samples, noise=noise, seed=seed, *args, **kwargs)


__getattr__ = _catalog.module_getattr(__name__)

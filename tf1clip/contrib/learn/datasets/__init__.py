"""`tf.contrib.learn.datasets`: MNIST and the CSV loaders, from local files only.

Place in the data flow (DESIGN.md): contrib.learn <- compat <- cli. `base` holds the Dataset tuples and
CSV loaders, `mnist` the idx-file reader (also served as tensorflow.examples.tutorials.mnist.input_data).
TF 1.x's downloaders (`load_dataset("iris")`, ...) fetched files from the network; tf1clip does not.
"""

from tf1clip.contrib import catalog
from tf1clip.contrib.learn.datasets import base
from tf1clip.contrib.learn.datasets import mnist

__getattr__ = catalog.missing_attribute_hook("tf.contrib.learn.datasets")

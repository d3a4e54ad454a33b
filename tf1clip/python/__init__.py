"""TF 1.15's `tensorflow.python` modules that TensorFlow 2.21 and its libraries dropped, rewritten by tf1clip.

The tree mirrors TF 1.15's: `tf1clip/python/<path>.py` serves `tensorflow.python.<path>` (the estimator modules
`tensorflow.python.estimator.*`, which TF 1.15 made a second name of tensorflow_estimator's). Importing the package
installs tf1clip.shims' import hook, as the contrib catalog does: tensorflow-estimator gets its shim before its
first import.
"""

from tf1clip import shims as _shims

_shims.install_import_hook()

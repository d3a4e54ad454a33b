"""Where each TF1 name comes from on TensorFlow 2.21: the table the facade, the importer and `check` share.

A TF1 script's `tf.<name>` resolves, in this order, to:
  0. the names TF1CLIP_NAMES lists -> tf1clip's own ports, added to the namespace that serves the rest
     (`tf.examples.tutorials.mnist.input_data`, `tf.keras.wrappers.scikit_learn`, `tf.estimator.BoostedTrees*`,
     `tf.distributions.kl_divergence`)
  1. `tf.contrib...`           -> tf1clip.contrib (what training scripts used; the rest fails by name)
  2. `tf.keras`, `tf.layers`,
     `tf.nn.rnn_cell`          -> tf-keras' v1 API, taken from tf_keras directly so they work whichever
                                  Keras TensorFlow itself picked when it was imported
  3. `tf.compat.v1`            -> the TF1 API itself; `tf.compat.v2` -> the real TF2 API
     `tf.estimator`            -> tensorflow-estimator 2.15's v1 API, shimmed (LIBRARY_NAMESPACES)
  4. anything else             -> `tf.compat.v1.<name>` of the installed TensorFlow (flags, app, logging,
                                  gfile, train, summary, test, ... are all still there)
  5. names TF 2.21 dropped     -> a NotProvidedError naming the symbol and its replacement (REMOVED)

Data flow: compat.surface <- compat.v1 (the facade) <- compat.importer <- compat.runner <- cli, and
tools.check reads the same table without running anything, so what `tf1clip check` reports is what
`tf1clip run` does. This module imports neither TensorFlow nor Keras.
"""

CONTRIB_PACKAGE = "tf1clip.contrib"

# TF1 namespaces that TensorFlow 2.21 serves from Keras; tf-keras keeps their TF1 (graph-mode) versions.
TF_KERAS_MODULES = {
    "keras": "tf_keras.api._v1.keras",
    "layers": "tf_keras.api._v1.keras.__internal__.legacy.layers",
    "nn.rnn_cell": "tf_keras.api._v1.keras.__internal__.legacy.rnn_cell",
}

# TF1 namespaces served by a last-released library made to import by a shim (shims):
# name below `tf.` -> ("module:function" returning the namespace, where it comes from).
LIBRARY_NAMESPACES = {
    "estimator": ("tf1clip.shims.tensorflow_estimator:v1_api",
                  "tensorflow-estimator 2.15's v1 API, through tf1clip's shim (shims.tensorflow_estimator)"),
}

# TF1 names that neither TensorFlow 2.21 nor tf1clip provide, with what to use instead.
REMOVED = {
    "examples": (
        "tf1clip serves tensorflow.examples.tutorials.mnist.input_data (from local files) and no other "
        "tutorial module; copy the tutorial code you need into your project"),
}

# TF1 names that TensorFlow 2.21 or the library serving their namespace dropped, served by tf1clip itself:
# dotted name below `tf.` -> "module" (the module is the name) or "module:attribute". The facade (compat.v1) adds
# them to the namespace that serves the rest (tf.keras: tf-keras; tf.estimator: tensorflow-estimator), building
# the namespaces on the way that nobody else serves (tf.examples, tf.examples.tutorials, ...); `tf1clip check`
# reports them provided and tools.api_coverage resolves them through the facade.
TF1CLIP_NAMES = {
    "examples.tutorials.mnist.input_data": "tf1clip.contrib.learn.datasets.mnist",
    "keras.wrappers.scikit_learn": "tf1clip.python.keras.wrappers.scikit_learn",  # tf-keras dropped it (TF 2.12)
    # tensorflow-estimator 2.15 dropped the boosted-trees estimators (and TensorFlow 2.21 their kernels)
    **{"estimator." + name: "tf1clip.python.estimator.canned.boosted_trees:" + name
       for name in ("BoostedTreesClassifier", "BoostedTreesRegressor", "BoostedTreesEstimator")},
    # TF 1.15 had one KL registry for tf.distributions and tf.contrib.distributions; here they are TensorFlow's
    # classes and tfp's: one function for both names takes either
    # (tf1clip/python/ops/distributions/kullback_leibler.py).
    "distributions.kl_divergence": "tf1clip.python.ops.distributions.kullback_leibler:kl_divergence",
}


class NotProvidedError(AttributeError):
  """A TF1 name that neither TensorFlow 2.21 nor tf1clip provides (raised where the script uses it)."""


class NotProvidedImportError(ImportError):
  """An `import tensorflow.<module>` of a TF1 module that neither TensorFlow 2.21 nor tf1clip provides."""


def not_provided_message(symbol, suggestion=None):
  """The one sentence every unsupported TF1 symbol gets.

  Args:
    symbol: the dotted name as the script wrote it, e.g. "tf.examples.tutorials".
    suggestion: what to use instead, or None when there is no replacement.

  Returns:
    A message such as "tf.examples is not provided by tf1clip (TensorFlow 2.21 has no such name): ...".
  """
  message = "%s is not provided by tf1clip (TensorFlow 2.21 has no such name)" % symbol
  if suggestion:
    message += ": " + suggestion
  return message


def removed_suggestion(dotted):
  """The replacement REMOVED lists for a dotted TF1 name below `tf.` (e.g. "examples.tutorials"), or None."""
  return REMOVED.get(dotted.split(".", 1)[0])

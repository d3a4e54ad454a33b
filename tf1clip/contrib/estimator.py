"""`tf.contrib.estimator.clip_gradients_by_norm`, served by tf1clip.optimizer.

Place in the data flow (DESIGN.md): optimizer <- **contrib.estimator** <- compat <- cli. The rest
of tf.contrib.estimator went with tf.estimator (removed in TensorFlow 2.16) and raises
ContribNotProvidedError where a script uses it.
"""

from tf1clip.contrib import catalog

__getattr__ = catalog.missing_attribute_hook("tf.contrib.estimator", lazy={
    "clip_gradients_by_norm": "tf1clip.optimizer:clip_gradients_by_norm",
})

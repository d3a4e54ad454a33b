"""`tf.contrib.compiler.xla`: `compile` is `tf.compat.v1.xla.experimental.compile`; `estimator_model_fn` is not
provided (a clear error naming the replacement)."""

from tf1clip.contrib import catalog

__getattr__ = catalog.missing_attribute_hook("tf.contrib.compiler.xla",
                                             lazy=catalog.served("tf.contrib.compiler.xla"))

"""`tf.contrib.losses`: TF 1.15's contrib losses, which are tf-slim's `losses` module now.

Place in the data flow (DESIGN.md): **contrib.losses** <- compat <- cli. These keep contrib's
argument order (`mean_squared_error(predictions, labels, weights)`, `softmax_cross_entropy(logits,
onehot_labels)`), which `tf.compat.v1.losses` reversed, so they are tf-slim 1.1.0's objects, not
compat.v1's. `metric_learning` (`triplet_semihard_loss`, `npairs_loss`, ...) is tf-slim's module too.
The table is `catalog.SERVED`.
"""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.missing_attribute_hook("tf.contrib.losses",
                                              lazy=_catalog.served("tf.contrib.losses"))

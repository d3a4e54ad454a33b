"""`tf.contrib.losses`: TF 1.15's contrib losses, which are tf-slim's `losses` module now.

These keep contrib's argument order (`mean_squared_error(predictions, labels, weights)`,
`softmax_cross_entropy(logits, onehot_labels)`), which `tf.compat.v1.losses` reversed, so they are tf-slim 1.1.0's
objects, not compat.v1's. `metric_learning` (`triplet_semihard_loss`, `npairs_loss`, ...) is tf-slim's module too.
"""

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tf_slim.losses import (
    absolute_difference, add_loss, compute_weighted_loss, cosine_distance, get_losses, get_regularization_losses,
    get_total_loss, hinge_loss, log_loss, mean_pairwise_squared_error, mean_squared_error, metric_learning,
    sigmoid_cross_entropy, softmax_cross_entropy, sparse_softmax_cross_entropy)

# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = 'tf.compat.v1.losses (labels come before predictions there)'

__getattr__ = _catalog.module_getattr(__name__)

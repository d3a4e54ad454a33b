"""`tf.contrib.layers`: the initializers, regularizers and layer functions training scripts use.

Place in the data flow (DESIGN.md): tf_slim <- **contrib.layers** <- compat <- cli.
`optimize_loss`, `adaptive_clipping_fn`, `OPTIMIZER_CLS_NAMES` and `OPTIMIZER_SUMMARIES` are tf-slim's (TF 1.15's
code; the same objects as `tf.contrib.slim.optimize_loss`, as in TF 1.15: the oracle judged tf1clip.training_op's
own `optimize_loss`, whose fixes differ from TF 1.15, against it), imported on first use. Every name tf-slim has
(tf-slim is TF 1.15's contrib.layers moved out: `fully_connected`, `flatten`, `layer_norm`, `conv2d`, `batch_norm`,
the initializers and regularizers, `summarize_*`, ...) is tf-slim's own object, served on first use through
`catalog.SERVED`, so `arg_scope` and every other slim mechanism sees the functions it decorated. Ours only where
tf-slim has nothing: `embed_sequence`, `bow_encoder` (encoders) and `embedding_lookup_unique`, and the first
feature-column API (`real_valued_column`, `sparse_column_with_keys`, ... in feature_column, on tf.feature_column).
Any other name raises ContribNotProvidedError with a replacement.
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.layers import feature_column  # noqa: F401  (its names are served lazily)
from tf1clip.contrib.layers.encoders import bow_encoder
from tf1clip.contrib.layers.encoders import embed_sequence

__getattr__ = _catalog.missing_attribute_hook("tf.contrib.layers", lazy=_catalog.served("tf.contrib.layers"))

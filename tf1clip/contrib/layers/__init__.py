"""`tf.contrib.layers`: the initializers, regularizers and layer functions training scripts use.

Place in the data flow (DESIGN.md): optimizer/optimize_loss <- **contrib.layers** <- compat <- cli.
`optimize_loss`, `adaptive_clipping_fn` and `OPTIMIZER_CLS_NAMES` are tf1clip.training_op's,
imported on first use. The layer functions TF 1.15 moved to tf-slim (`conv2d`, `batch_norm`,
`max_pool2d`, `dropout`, `repeat`, `stack`, `summarize_*`, ...) are tf-slim's own objects, served on
first use through `catalog.SERVED`; `embedding_lookup_unique` is ours. Any other name raises
ContribNotProvidedError with a replacement.
"""

from tf1clip.contrib import catalog
from tf1clip.contrib.layers.core import flatten
from tf1clip.contrib.layers.core import fully_connected
from tf1clip.contrib.layers.encoders import bow_encoder
from tf1clip.contrib.layers.encoders import embed_sequence
from tf1clip.contrib.layers.initializers import variance_scaling_initializer
from tf1clip.contrib.layers.initializers import xavier_initializer
from tf1clip.contrib.layers.initializers import xavier_initializer_conv2d
from tf1clip.contrib.layers.normalization import layer_norm
from tf1clip.contrib.layers.regularizers import apply_regularization
from tf1clip.contrib.layers.regularizers import l1_l2_regularizer
from tf1clip.contrib.layers.regularizers import l1_regularizer
from tf1clip.contrib.layers.regularizers import l2_regularizer
from tf1clip.contrib.layers.regularizers import sum_regularizer

__getattr__ = catalog.missing_attribute_hook("tf.contrib.layers", lazy={
    **catalog.served("tf.contrib.layers"),
    "optimize_loss": "tf1clip.training_op:optimize_loss",
    "adaptive_clipping_fn": "tf1clip.training_op:adaptive_clipping_fn",
    "OPTIMIZER_CLS_NAMES": "tf1clip.training_op:OPTIMIZER_CLS_NAMES",
})

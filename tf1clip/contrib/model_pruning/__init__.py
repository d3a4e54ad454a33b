"""`tf.contrib.model_pruning`: TF 1.15's magnitude-based weight pruning (masks, schedule, masked layers), its code.

Mirrors TF 1.15's `tensorflow/contrib/model_pruning/__init__.py`.

The modules mirror TF 1.15's `contrib/model_pruning/python`: `pruning` (apply_mask, the collection getters,
get_pruning_hparams, Pruning), `pruning_utils` (the mask / threshold variables, block pooling and expansion),
`core_layers` (MaskedConv2D, MaskedFullyConnected and the collection names), `layers` (masked_convolution =
masked_conv2d, masked_fully_connected), `rnn_cells` (MaskedBasicLSTMCell, MaskedLSTMCell), `learning` (train:
slim's loop plus the mask update) and `strip_pruning_vars_lib` (strip_pruning_vars_fn, graph_def_from_checkpoint).
Variables keep TF 1.15's names (`<layer>/mask`, `<layer>/threshold`, `model_pruning/last_mask_update_step`), so
TF 1.15 checkpoints of pruned models restore.
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.model_pruning.python.layers import core_layers  # noqa: F401
from tf1clip.contrib.model_pruning.python.layers import layers  # noqa: F401
from tf1clip.contrib.model_pruning.python import learning  # noqa: F401
from tf1clip.contrib.model_pruning.python import pruning  # noqa: F401
from tf1clip.contrib.model_pruning.python import pruning_utils  # noqa: F401
from tf1clip.contrib.model_pruning.python.layers import rnn_cells  # noqa: F401
from tf1clip.contrib.model_pruning.python import strip_pruning_vars_lib  # noqa: F401
from tf1clip.contrib.model_pruning.python.layers.layers import masked_conv2d  # noqa: F401
from tf1clip.contrib.model_pruning.python.layers.layers import masked_convolution  # noqa: F401
from tf1clip.contrib.model_pruning.python.layers.layers import masked_fully_connected  # noqa: F401
from tf1clip.contrib.model_pruning.python.learning import train  # noqa: F401
from tf1clip.contrib.model_pruning.python.pruning import apply_mask  # noqa: F401
from tf1clip.contrib.model_pruning.python.pruning import get_masked_weights  # noqa: F401
from tf1clip.contrib.model_pruning.python.pruning import get_masks  # noqa: F401
from tf1clip.contrib.model_pruning.python.pruning import get_pruning_hparams  # noqa: F401
from tf1clip.contrib.model_pruning.python.pruning import get_thresholds  # noqa: F401
from tf1clip.contrib.model_pruning.python.pruning import get_weight_sparsity  # noqa: F401
from tf1clip.contrib.model_pruning.python.pruning import get_weights  # noqa: F401
from tf1clip.contrib.model_pruning.python.pruning import Pruning  # noqa: F401
from tf1clip.contrib.model_pruning.python.layers.rnn_cells import MaskedBasicLSTMCell  # noqa: F401
from tf1clip.contrib.model_pruning.python.layers.rnn_cells import MaskedLSTMCell  # noqa: F401
from tf1clip.contrib.model_pruning.python.strip_pruning_vars_lib import graph_def_from_checkpoint  # noqa: F401
from tf1clip.contrib.model_pruning.python.strip_pruning_vars_lib import strip_pruning_vars_fn  # noqa: F401

__getattr__ = _catalog.module_getattr(__name__)

"""`tf.contrib.rnn`: TF1's RNN cells, wrappers and static RNNs, plus contrib's own cells, block/fused LSTMs
and stacked bidirectional RNNs.

The core cells are tf-keras' legacy TF1 cells, imported from tf_keras directly, so they are the classes
`tf.compat.v1.nn.rnn_cell` serves when TF_USE_LEGACY_KERAS=1 and they work whichever Keras TensorFlow picked; their
variables keep TF1's names (`rnn/basic_lstm_cell/kernel`). Contrib's own, in python/ops/ under TF 1.15's
module names: NASCell, LayerNormBasicLSTMCell (rnn_cell), LSTMBlockCell, GRUBlockCell(V2) (lstm_ops, on
TensorFlow's kernels), LSTMBlockFusedCell and the fused adaptors (fused_rnn_cell), stack_bidirectional_(dynamic_)rnn
(rnn); TF 1.15's rnn_cell also held the rest, in private parts here: CoupledInputForgetGateLSTMCell, IndyLSTMCell,
UGRNNCell (_rnn_cell_gated), IndRNNCell, IndyGRUCell, SRUCell, IntersectionRNNCell, PhasedLSTMCell, GLSTMCell
(_rnn_cell_independent), TimeFreqLSTMCell, GridLSTMCell, BidirectionalGridLSTMCell (_rnn_cell_grid),
AttentionCellWrapper, HighwayWrapper, CompiledWrapper, EmbeddingWrapper, InputProjectionWrapper,
OutputProjectionWrapper, transpose_batch_time, best_effort_input_batch_size (_rnn_cell_wrappers), ConvLSTMCell and
Conv1D/2D/3DLSTMCell (_rnn_cell_conv_lstm); _linear builds their gates. Any other name
raises ContribNotProvidedError with a replacement.
"""

import tensorflow as tf
from tf_keras.src.layers.rnn.legacy_cell_wrappers import DeviceWrapper
from tf_keras.src.layers.rnn.legacy_cell_wrappers import DropoutWrapper
from tf_keras.src.layers.rnn.legacy_cell_wrappers import ResidualWrapper
from tf_keras.src.layers.rnn.legacy_cells import BasicLSTMCell
from tf_keras.src.layers.rnn.legacy_cells import BasicRNNCell
from tf_keras.src.layers.rnn.legacy_cells import GRUCell
from tf_keras.src.layers.rnn.legacy_cells import LayerRNNCell
from tf_keras.src.layers.rnn.legacy_cells import LSTMCell
from tf_keras.src.layers.rnn.legacy_cells import LSTMStateTuple
from tf_keras.src.layers.rnn.legacy_cells import MultiRNNCell
from tf_keras.src.layers.rnn.legacy_cells import RNNCell

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.rnn.python.ops._rnn_cell_conv_lstm import Conv1DLSTMCell
from tf1clip.contrib.rnn.python.ops._rnn_cell_conv_lstm import Conv2DLSTMCell
from tf1clip.contrib.rnn.python.ops._rnn_cell_conv_lstm import Conv3DLSTMCell
from tf1clip.contrib.rnn.python.ops._rnn_cell_conv_lstm import ConvLSTMCell
from tf1clip.contrib.rnn.python.ops.rnn_cell import LayerNormBasicLSTMCell
from tf1clip.contrib.rnn.python.ops.rnn_cell import NASCell
from tf1clip.contrib.rnn.python.ops.lstm_ops import GRUBlockCell
from tf1clip.contrib.rnn.python.ops.lstm_ops import GRUBlockCellV2
from tf1clip.contrib.rnn.python.ops.lstm_ops import LSTMBlockCell
from tf1clip.contrib.rnn.python.ops.fused_rnn_cell import FusedRNNCell
from tf1clip.contrib.rnn.python.ops.fused_rnn_cell import FusedRNNCellAdaptor
from tf1clip.contrib.rnn.python.ops.fused_rnn_cell import LSTMBlockFusedCell
from tf1clip.contrib.rnn.python.ops.fused_rnn_cell import LSTMBlockWrapper
from tf1clip.contrib.rnn.python.ops.fused_rnn_cell import TimeReversedFusedRNN
from tf1clip.contrib.rnn.python.ops._rnn_cell_gated import CoupledInputForgetGateLSTMCell
from tf1clip.contrib.rnn.python.ops._rnn_cell_gated import IndyLSTMCell
from tf1clip.contrib.rnn.python.ops._rnn_cell_gated import UGRNNCell
from tf1clip.contrib.rnn.python.ops._rnn_cell_grid import BidirectionalGridLSTMCell
from tf1clip.contrib.rnn.python.ops._rnn_cell_grid import GridLSTMCell
from tf1clip.contrib.rnn.python.ops._rnn_cell_grid import TimeFreqLSTMCell
from tf1clip.contrib.rnn.python.ops._rnn_cell_independent import GLSTMCell
from tf1clip.contrib.rnn.python.ops._rnn_cell_independent import IndRNNCell
from tf1clip.contrib.rnn.python.ops._rnn_cell_independent import IndyGRUCell
from tf1clip.contrib.rnn.python.ops._rnn_cell_independent import IntersectionRNNCell
from tf1clip.contrib.rnn.python.ops._rnn_cell_independent import PhasedLSTMCell
from tf1clip.contrib.rnn.python.ops._rnn_cell_independent import SRUCell
from tf1clip.contrib.rnn.python.ops.rnn import stack_bidirectional_dynamic_rnn
from tf1clip.contrib.rnn.python.ops.rnn import stack_bidirectional_rnn
from tf1clip.contrib.rnn.python.ops._rnn_cell_wrappers import AttentionCellWrapper
from tf1clip.contrib.rnn.python.ops._rnn_cell_wrappers import CompiledWrapper
from tf1clip.contrib.rnn.python.ops._rnn_cell_wrappers import EmbeddingWrapper
from tf1clip.contrib.rnn.python.ops._rnn_cell_wrappers import HighwayWrapper
from tf1clip.contrib.rnn.python.ops._rnn_cell_wrappers import InputProjectionWrapper
from tf1clip.contrib.rnn.python.ops._rnn_cell_wrappers import OutputProjectionWrapper
from tf1clip.contrib.rnn.python.ops._rnn_cell_wrappers import best_effort_input_batch_size
from tf1clip.contrib.rnn.python.ops._rnn_cell_wrappers import transpose_batch_time

static_rnn = tf.compat.v1.nn.static_rnn
static_bidirectional_rnn = tf.compat.v1.nn.static_bidirectional_rnn
static_state_saving_rnn = tf.compat.v1.nn.static_state_saving_rnn

# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = 'tf.compat.v1.nn.rnn_cell'

__getattr__ = _catalog.module_getattr(__name__)

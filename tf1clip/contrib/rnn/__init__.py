"""`tf.contrib.rnn`: TF1's RNN cells, wrappers and static RNNs, plus contrib's own cells, block/fused LSTMs
and stacked bidirectional RNNs.

The core cells are tf-keras' legacy TF1 cells, imported from tf_keras directly, so they are the classes
`tf.compat.v1.nn.rnn_cell` serves when TF_USE_LEGACY_KERAS=1 and they work whichever Keras TensorFlow picked; their
variables keep TF1's names (`rnn/basic_lstm_cell/kernel`). Contrib's own: NASCell, LayerNormBasicLSTMCell (cells),
LSTMBlockCell, GRUBlockCell(V2) (block_cells, on TensorFlow's kernels), LSTMBlockFusedCell and the fused adaptors
(fused), CoupledInputForgetGateLSTMCell, IndyLSTMCell, UGRNNCell (gated_cells), IndRNNCell, IndyGRUCell, SRUCell,
IntersectionRNNCell, PhasedLSTMCell, GLSTMCell (independent_cells), TimeFreqLSTMCell, GridLSTMCell,
BidirectionalGridLSTMCell (grid_cells), AttentionCellWrapper, HighwayWrapper, CompiledWrapper, EmbeddingWrapper,
InputProjectionWrapper, OutputProjectionWrapper, transpose_batch_time, best_effort_input_batch_size (wrappers),
ConvLSTMCell and Conv1D/2D/3DLSTMCell (conv_lstm), stack_bidirectional_(dynamic_)rnn (stacked). Any other name
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
from tf1clip.contrib.rnn.conv_lstm import Conv1DLSTMCell
from tf1clip.contrib.rnn.conv_lstm import Conv2DLSTMCell
from tf1clip.contrib.rnn.conv_lstm import Conv3DLSTMCell
from tf1clip.contrib.rnn.conv_lstm import ConvLSTMCell
from tf1clip.contrib.rnn.cells import LayerNormBasicLSTMCell
from tf1clip.contrib.rnn.cells import NASCell
from tf1clip.contrib.rnn.block_cells import GRUBlockCell
from tf1clip.contrib.rnn.block_cells import GRUBlockCellV2
from tf1clip.contrib.rnn.block_cells import LSTMBlockCell
from tf1clip.contrib.rnn.fused import FusedRNNCell
from tf1clip.contrib.rnn.fused import FusedRNNCellAdaptor
from tf1clip.contrib.rnn.fused import LSTMBlockFusedCell
from tf1clip.contrib.rnn.fused import LSTMBlockWrapper
from tf1clip.contrib.rnn.fused import TimeReversedFusedRNN
from tf1clip.contrib.rnn.gated_cells import CoupledInputForgetGateLSTMCell
from tf1clip.contrib.rnn.gated_cells import IndyLSTMCell
from tf1clip.contrib.rnn.gated_cells import UGRNNCell
from tf1clip.contrib.rnn.grid_cells import BidirectionalGridLSTMCell
from tf1clip.contrib.rnn.grid_cells import GridLSTMCell
from tf1clip.contrib.rnn.grid_cells import TimeFreqLSTMCell
from tf1clip.contrib.rnn.independent_cells import GLSTMCell
from tf1clip.contrib.rnn.independent_cells import IndRNNCell
from tf1clip.contrib.rnn.independent_cells import IndyGRUCell
from tf1clip.contrib.rnn.independent_cells import IntersectionRNNCell
from tf1clip.contrib.rnn.independent_cells import PhasedLSTMCell
from tf1clip.contrib.rnn.independent_cells import SRUCell
from tf1clip.contrib.rnn.stacked import stack_bidirectional_dynamic_rnn
from tf1clip.contrib.rnn.stacked import stack_bidirectional_rnn
from tf1clip.contrib.rnn.wrappers import AttentionCellWrapper
from tf1clip.contrib.rnn.wrappers import CompiledWrapper
from tf1clip.contrib.rnn.wrappers import EmbeddingWrapper
from tf1clip.contrib.rnn.wrappers import HighwayWrapper
from tf1clip.contrib.rnn.wrappers import InputProjectionWrapper
from tf1clip.contrib.rnn.wrappers import OutputProjectionWrapper
from tf1clip.contrib.rnn.wrappers import best_effort_input_batch_size
from tf1clip.contrib.rnn.wrappers import transpose_batch_time

static_rnn = tf.compat.v1.nn.static_rnn
static_bidirectional_rnn = tf.compat.v1.nn.static_bidirectional_rnn
static_state_saving_rnn = tf.compat.v1.nn.static_state_saving_rnn

# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = 'tf.compat.v1.nn.rnn_cell'

__getattr__ = _catalog.module_getattr(__name__)

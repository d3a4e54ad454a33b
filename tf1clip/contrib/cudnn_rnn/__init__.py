"""`tf.contrib.cudnn_rnn`: cuDNN RNN layers on a GPU, the compatible cells on CPU, and the weight conversion.

  python/layers/cudnn_rnn     CudnnLSTM, CudnnGRU, CudnnRNNTanh, CudnnRNNRelu (GPU only; a clear error elsewhere)
  python/ops/cudnn_rnn_ops   CudnnParamsFormatConverterLSTM / GRU / Tanh / Relu (opaque <-> TF canonical, by
             cuDNN's ops) and CudnnLSTMSaveable / CudnnGRUSaveable / CudnnRNNTanhSaveable / CudnnRNNReluSaveable
             (the checkpoint saveables the layers register); GPU kernels only, as the layers. Its private parts:
  python/ops/_cudnn_compatible_cells   CudnnCompatibleLSTMCell, CudnnCompatibleGRUCell (CPU, same numbers, same
             checkpoint names)
  python/ops/_canonical      opaque <-> cuDNN canonical <-> TF canonical parameters, and the checkpoint names
Any other name raises ContribNotProvidedError with a replacement.
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.cudnn_rnn.python.ops._canonical import CUDNN_GRU
from tf1clip.contrib.cudnn_rnn.python.ops._canonical import CUDNN_INPUT_LINEAR_MODE
from tf1clip.contrib.cudnn_rnn.python.ops._canonical import CUDNN_LSTM
from tf1clip.contrib.cudnn_rnn.python.ops._canonical import CUDNN_RNN_BIDIRECTION
from tf1clip.contrib.cudnn_rnn.python.ops._canonical import CUDNN_RNN_RELU
from tf1clip.contrib.cudnn_rnn.python.ops._canonical import CUDNN_RNN_TANH
from tf1clip.contrib.cudnn_rnn.python.ops._canonical import CUDNN_RNN_UNIDIRECTION
from tf1clip.contrib.cudnn_rnn.python.ops._cudnn_compatible_cells import CudnnCompatibleGRUCell
from tf1clip.contrib.cudnn_rnn.python.ops._cudnn_compatible_cells import CudnnCompatibleLSTMCell
from tf1clip.contrib.cudnn_rnn.python.layers.cudnn_rnn import CudnnGRU
from tf1clip.contrib.cudnn_rnn.python.layers.cudnn_rnn import CudnnLSTM
from tf1clip.contrib.cudnn_rnn.python.layers.cudnn_rnn import CudnnNotAvailableError
from tf1clip.contrib.cudnn_rnn.python.layers.cudnn_rnn import CudnnRNNRelu
from tf1clip.contrib.cudnn_rnn.python.layers.cudnn_rnn import CudnnRNNTanh
from tf1clip.contrib.cudnn_rnn.python.ops.cudnn_rnn_ops import CudnnGRUSaveable
from tf1clip.contrib.cudnn_rnn.python.ops.cudnn_rnn_ops import CudnnLSTMSaveable
from tf1clip.contrib.cudnn_rnn.python.ops.cudnn_rnn_ops import CudnnParamsFormatConverterGRU
from tf1clip.contrib.cudnn_rnn.python.ops.cudnn_rnn_ops import CudnnParamsFormatConverterLSTM
from tf1clip.contrib.cudnn_rnn.python.ops.cudnn_rnn_ops import CudnnParamsFormatConverterRelu
from tf1clip.contrib.cudnn_rnn.python.ops.cudnn_rnn_ops import CudnnParamsFormatConverterTanh
from tf1clip.contrib.cudnn_rnn.python.ops.cudnn_rnn_ops import CudnnRNNReluSaveable
from tf1clip.contrib.cudnn_rnn.python.ops.cudnn_rnn_ops import CudnnRNNTanhSaveable

__getattr__ = _catalog.module_getattr(__name__)

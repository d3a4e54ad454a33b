"""`tf.contrib.cudnn_rnn`: cuDNN RNN layers on a GPU, the compatible cells on CPU, and the weight conversion.

  layers     CudnnLSTM, CudnnGRU, CudnnRNNTanh, CudnnRNNRelu (GPU only; a clear error elsewhere)
  cells      CudnnCompatibleLSTMCell, CudnnCompatibleGRUCell (CPU, same numbers, same checkpoint names)
  params     CudnnParamsFormatConverterLSTM / GRU / Tanh / Relu (opaque <-> TF canonical, by cuDNN's ops)
             and CudnnLSTMSaveable / CudnnGRUSaveable / CudnnRNNTanhSaveable / CudnnRNNReluSaveable (the
             checkpoint saveables the layers register); GPU kernels only, as the layers
  canonical  opaque <-> cuDNN canonical <-> TF canonical parameters, and the checkpoint names
Any other name raises ContribNotProvidedError with a replacement.
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.cudnn_rnn.canonical import CUDNN_GRU
from tf1clip.contrib.cudnn_rnn.canonical import CUDNN_INPUT_LINEAR_MODE
from tf1clip.contrib.cudnn_rnn.canonical import CUDNN_LSTM
from tf1clip.contrib.cudnn_rnn.canonical import CUDNN_RNN_BIDIRECTION
from tf1clip.contrib.cudnn_rnn.canonical import CUDNN_RNN_RELU
from tf1clip.contrib.cudnn_rnn.canonical import CUDNN_RNN_TANH
from tf1clip.contrib.cudnn_rnn.canonical import CUDNN_RNN_UNIDIRECTION
from tf1clip.contrib.cudnn_rnn.cells import CudnnCompatibleGRUCell
from tf1clip.contrib.cudnn_rnn.cells import CudnnCompatibleLSTMCell
from tf1clip.contrib.cudnn_rnn.layers import CudnnGRU
from tf1clip.contrib.cudnn_rnn.layers import CudnnLSTM
from tf1clip.contrib.cudnn_rnn.layers import CudnnNotAvailableError
from tf1clip.contrib.cudnn_rnn.layers import CudnnRNNRelu
from tf1clip.contrib.cudnn_rnn.layers import CudnnRNNTanh
from tf1clip.contrib.cudnn_rnn.params import CudnnGRUSaveable
from tf1clip.contrib.cudnn_rnn.params import CudnnLSTMSaveable
from tf1clip.contrib.cudnn_rnn.params import CudnnParamsFormatConverterGRU
from tf1clip.contrib.cudnn_rnn.params import CudnnParamsFormatConverterLSTM
from tf1clip.contrib.cudnn_rnn.params import CudnnParamsFormatConverterRelu
from tf1clip.contrib.cudnn_rnn.params import CudnnParamsFormatConverterTanh
from tf1clip.contrib.cudnn_rnn.params import CudnnRNNReluSaveable
from tf1clip.contrib.cudnn_rnn.params import CudnnRNNTanhSaveable

__getattr__ = _catalog.module_getattr(__name__)

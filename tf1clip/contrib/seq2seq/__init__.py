"""`tf.contrib.seq2seq`: TF 1.15's dynamic decoding, attention and beam search API, on TensorFlow 2.21.

Place in the data flow (DESIGN.md): contrib.rnn (cells) / tf.compat.v1.layers <- **contrib.seq2seq**
<- compat (facade, runner) <- cli. Nothing in TensorFlow 2.21 or a maintained library serves this API
(tensorflow-addons' tfa.seq2seq is archived and a Keras-layer API), so these are our own modules with
TF 1.15's semantics and variable names, in python/ops/ under TF 1.15's module names:

  loss                  sequence_loss, SequenceLoss
  decoder               Decoder, dynamic_decode
  basic_decoder         BasicDecoder, BasicDecoderOutput
  helper                Helper, TrainingHelper, GreedyEmbeddingHelper, SampleEmbeddingHelper,
                        ScheduledEmbeddingTrainingHelper, ScheduledOutputTrainingHelper,
                        InferenceHelper, CustomHelper
  attention_wrapper     AttentionWrapper, AttentionWrapperState; TF 1.15's module also held the mechanisms,
                        in two private parts here: _attention_mechanisms (AttentionMechanism,
                        BahdanauAttention, LuongAttention, BahdanauMonotonicAttention,
                        LuongMonotonicAttention, hardmax) and _monotonic (safe_cumprod, monotonic_attention)
  beam_search_decoder   BeamSearchDecoder, BeamSearchDecoderState, BeamSearchDecoderOutput,
                        FinalBeamSearchDecoderOutput, tile_batch
  beam_search_ops       gather_tree

Variables keep TF 1.15's names (`memory_layer/kernel`, `decoder/attention_wrapper/<cell>/kernel`,
`decoder/attention_wrapper/bahdanau_attention/query_layer/kernel`, `.../attention_v`,
`decoder/attention_wrapper/attention_layer/kernel`, `decoder/dense/kernel`), so a TF 1.15
checkpoint restores into the same script run through `tf1clip run`.
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.seq2seq.python.ops._attention_mechanisms import AttentionMechanism
from tf1clip.contrib.seq2seq.python.ops._attention_mechanisms import BahdanauAttention
from tf1clip.contrib.seq2seq.python.ops._attention_mechanisms import BahdanauMonotonicAttention
from tf1clip.contrib.seq2seq.python.ops._attention_mechanisms import LuongAttention
from tf1clip.contrib.seq2seq.python.ops._attention_mechanisms import LuongMonotonicAttention
from tf1clip.contrib.seq2seq.python.ops._attention_mechanisms import hardmax
from tf1clip.contrib.seq2seq.python.ops.attention_wrapper import AttentionWrapper
from tf1clip.contrib.seq2seq.python.ops.attention_wrapper import AttentionWrapperState
from tf1clip.contrib.seq2seq.python.ops.basic_decoder import BasicDecoder
from tf1clip.contrib.seq2seq.python.ops.basic_decoder import BasicDecoderOutput
from tf1clip.contrib.seq2seq.python.ops.beam_search_decoder import BeamSearchDecoder
from tf1clip.contrib.seq2seq.python.ops.beam_search_decoder import BeamSearchDecoderOutput
from tf1clip.contrib.seq2seq.python.ops.beam_search_decoder import BeamSearchDecoderState
from tf1clip.contrib.seq2seq.python.ops.beam_search_decoder import FinalBeamSearchDecoderOutput
from tf1clip.contrib.seq2seq.python.ops.beam_search_decoder import tile_batch
from tf1clip.contrib.seq2seq.python.ops.decoder import Decoder
from tf1clip.contrib.seq2seq.python.ops.decoder import dynamic_decode
from tf1clip.contrib.seq2seq.python.ops.beam_search_ops import gather_tree
from tf1clip.contrib.seq2seq.python.ops.loss import SequenceLoss
from tf1clip.contrib.seq2seq.python.ops.loss import sequence_loss
from tf1clip.contrib.seq2seq.python.ops._monotonic import monotonic_attention
from tf1clip.contrib.seq2seq.python.ops._monotonic import safe_cumprod
from tf1clip.contrib.seq2seq.python.ops.helper import CustomHelper
from tf1clip.contrib.seq2seq.python.ops.helper import GreedyEmbeddingHelper
from tf1clip.contrib.seq2seq.python.ops.helper import Helper
from tf1clip.contrib.seq2seq.python.ops.helper import InferenceHelper
from tf1clip.contrib.seq2seq.python.ops.helper import SampleEmbeddingHelper
from tf1clip.contrib.seq2seq.python.ops.helper import ScheduledEmbeddingTrainingHelper
from tf1clip.contrib.seq2seq.python.ops.helper import ScheduledOutputTrainingHelper
from tf1clip.contrib.seq2seq.python.ops.helper import TrainingHelper

# The declaration (catalog.tsv): the TF 1.15 names not served, and what to use instead.
NOT_SERVED = {
    "BaseDecoder": ("the TF1 graph-mode class tf.contrib.seq2seq.Decoder (provided; TF 1.15's Keras-layer V2 "
                      'variants are not ported)'),
    "BasicDecoderV2": ("the TF1 graph-mode class tf.contrib.seq2seq.BasicDecoder (provided; TF 1.15's "
                         'Keras-layer V2 variants are not ported)'),
    "BeamSearchDecoderV2": ("the TF1 graph-mode class tf.contrib.seq2seq.BeamSearchDecoder (provided; TF 1.15's "
                              'Keras-layer V2 variants are not ported)'),
    "BahdanauAttentionV2": ("the TF1 graph-mode class tf.contrib.seq2seq.BahdanauAttention (provided; TF 1.15's "
                              'Keras-layer V2 variants are not ported)'),
    "LuongAttentionV2": ("the TF1 graph-mode class tf.contrib.seq2seq.LuongAttention (provided; TF 1.15's "
                           'Keras-layer V2 variants are not ported)'),
    "BahdanauMonotonicAttentionV2": ('the TF1 graph-mode class tf.contrib.seq2seq.BahdanauMonotonicAttention '
                                       "(provided; TF 1.15's Keras-layer V2 variants are not ported)"),
    "LuongMonotonicAttentionV2": ('the TF1 graph-mode class tf.contrib.seq2seq.LuongMonotonicAttention '
                                    "(provided; TF 1.15's Keras-layer V2 variants are not ported)"),
}

__getattr__ = _catalog.module_getattr(__name__)

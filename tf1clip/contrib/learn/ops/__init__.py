"""`tf.contrib.learn.ops`: the skflow-era graph helpers TF 1.15 still had (embeddings, losses, seq2seq), its code.

Place in the data flow (DESIGN.md): tf.compat.v1 <- **contrib.learn.ops** <- contrib.learn.models <- compat <- cli.
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.learn.ops import embeddings_ops
from tf1clip.contrib.learn.ops import losses_ops
from tf1clip.contrib.learn.ops import seq2seq_ops
from tf1clip.contrib.learn.ops.embeddings_ops import categorical_variable
from tf1clip.contrib.learn.ops.embeddings_ops import embedding_lookup
from tf1clip.contrib.learn.ops.losses_ops import mean_squared_error_regressor
from tf1clip.contrib.learn.ops.losses_ops import softmax_classifier
from tf1clip.contrib.learn.ops.seq2seq_ops import rnn_decoder
from tf1clip.contrib.learn.ops.seq2seq_ops import rnn_seq2seq
from tf1clip.contrib.learn.ops.seq2seq_ops import seq2seq_inputs
from tf1clip.contrib.learn.ops.seq2seq_ops import sequence_classifier


__getattr__ = _catalog.module_getattr(__name__)

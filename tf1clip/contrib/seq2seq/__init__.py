"""`tf.contrib.seq2seq`: TF 1.15's dynamic decoding, attention and beam search API, on TensorFlow 2.21.

Place in the data flow (DESIGN.md): contrib.rnn (cells) / tf.compat.v1.layers <- **contrib.seq2seq**
<- compat (facade, runner) <- cli. Nothing in TensorFlow 2.21 or a maintained library serves this API
(tensorflow-addons' tfa.seq2seq is archived and a Keras-layer API), so these are our own modules with
TF 1.15's semantics and variable names:

  loss                 sequence_loss
"""

from tf1clip.contrib import catalog
from tf1clip.contrib.seq2seq.loss import sequence_loss

__getattr__ = catalog.missing_attribute_hook("tf.contrib.seq2seq")

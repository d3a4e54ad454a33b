"""`tf.contrib.proto`: decode_proto and encode_proto (tf.io's ops).

TF 1.15's names are served as the very objects TensorFlow 2.21 still has (imported below); anything else raises
ContribNotProvidedError with a replacement.
"""

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tensorflow.io import decode_proto, encode_proto

# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = 'tf.io.decode_proto / tf.io.encode_proto'

__getattr__ = _catalog.module_getattr(__name__)

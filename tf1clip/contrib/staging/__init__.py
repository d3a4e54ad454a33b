"""`tf.contrib.staging`: StagingArea (tensorflow.python.ops.data_flow_ops' class: stage tensors on a device for the next step).

TF 1.15's names are served as the very objects TensorFlow 2.21 still has (imported below); anything else raises
ContribNotProvidedError with a replacement.
"""

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tensorflow.python.ops.data_flow_ops import StagingArea

# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = "tf.data's Dataset.prefetch (StagingArea's successor for overlapping input with compute)"

__getattr__ = _catalog.module_getattr(__name__)

"""`tf.contrib.quantize`: the graph rewrites of quantization-aware training, TF 1.15's behaviour on TF 2.21 graphs.

Mirrors TF 1.15's `tensorflow/contrib/quantize/__init__.py`, which served the four rewrites of its quantize_graph
module: `create_training_graph(input_graph=None, quant_delay=0)`, `create_eval_graph(input_graph=None)` and the
`experimental_` pair (bit widths, symmetric ranges, `freeze_bn_delay`, `scope`). They rewrite the graph a TF1
script built, in place, into the graph TF 1.15 built: batch norms folded into the Conv2D / MatMul /
DepthwiseConv2dNative before them (python/fold_batch_norms.py), then FakeQuantWithMinMaxVars ops with their `min` /
`max` variables after weights, activations and bypass adds (python/quantize.py, python/quant_ops.py), under TF
1.15's op and variable names, so checkpoints carry over. The rest of python/ (graph_matcher, input_to_ops, common)
is the machinery those two share, one TF 1.15 module each.
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.quantize.python.quantize_graph import create_eval_graph  # noqa: F401
from tf1clip.contrib.quantize.python.quantize_graph import create_training_graph  # noqa: F401
from tf1clip.contrib.quantize.python.quantize_graph import experimental_create_eval_graph  # noqa: F401
from tf1clip.contrib.quantize.python.quantize_graph import experimental_create_training_graph  # noqa: F401

__getattr__ = _catalog.module_getattr(__name__)

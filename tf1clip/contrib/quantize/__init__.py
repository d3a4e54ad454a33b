"""`tf.contrib.quantize`: TF 1.15's graph rewrites for quantization-aware training, its code on TF 2.21's graphs.

Place in the data flow (DESIGN.md): tf.Graph, contrib.graph_editor <- **contrib.quantize** <- compat <- cli.

`create_training_graph(input_graph=None, quant_delay=0)` and `create_eval_graph(input_graph=None)` (and the
`experimental_` variants with bit widths, symmetric ranges, `freeze_bn_delay` and `scope`) rewrite the graph a
TF1 script built, in place: batch norms are folded into the preceding Conv2D / MatMul / DepthwiseConv2dNative
(fold_batch_norms) and FakeQuantWithMinMaxVars ops with their `min` / `max` variables are inserted after weights,
activations and bypass adds (quantize, quant_ops). The modules mirror TF 1.15's: quantize_graph (the four names),
quantize, fold_batch_norms, quant_ops, graph_matcher, input_to_ops, common. The patterns are TF 1.15's; the graphs
a TF1 script builds under `tf1clip run` differ from TF 1.15's in ways they already accept (AddV2 for Add,
FusedBatchNormV3 reading the moving statistics).
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.quantize import common  # noqa: F401
from tf1clip.contrib.quantize import fold_batch_norms  # noqa: F401
from tf1clip.contrib.quantize import graph_matcher  # noqa: F401
from tf1clip.contrib.quantize import input_to_ops  # noqa: F401
from tf1clip.contrib.quantize import quant_ops  # noqa: F401
from tf1clip.contrib.quantize import quantize  # noqa: F401
from tf1clip.contrib.quantize import quantize_graph  # noqa: F401
from tf1clip.contrib.quantize.quantize_graph import create_eval_graph  # noqa: F401
from tf1clip.contrib.quantize.quantize_graph import create_training_graph  # noqa: F401
from tf1clip.contrib.quantize.quantize_graph import experimental_create_eval_graph  # noqa: F401
from tf1clip.contrib.quantize.quantize_graph import experimental_create_training_graph  # noqa: F401

__getattr__ = _catalog.missing_attribute_hook("tf.contrib.quantize", lazy=_catalog.served("tf.contrib.quantize"))

"""`tf.contrib.tensor_forest.ops`: TF 1.15's python/ops package (data_ops, model_ops, stats_ops, tensor_forest_ops).

Place in the data flow (DESIGN.md): contrib.tensor_forest.{data_ops, model_ops, stats_ops, tensor_forest_ops} <-
**ops** <- compat. Each is the flat module itself, under this name too.
"""

import sys

from tf1clip.contrib.tensor_forest import data_ops
from tf1clip.contrib.tensor_forest import model_ops
from tf1clip.contrib.tensor_forest import stats_ops
from tf1clip.contrib.tensor_forest import tensor_forest_ops

for _module in (data_ops, model_ops, stats_ops, tensor_forest_ops):
  sys.modules[__name__ + "." + _module.__name__.rsplit(".", 1)[1]] = _module

"""`tensorflow.contrib.tensor_forest.python.ops`: TF 1.15's ops package under its internal path.

Place in the data flow (DESIGN.md): contrib.tensor_forest.ops <- **python.ops** <- compat.
"""

import sys

from tf1clip.contrib.tensor_forest import data_ops
from tf1clip.contrib.tensor_forest import model_ops
from tf1clip.contrib.tensor_forest import stats_ops
from tf1clip.contrib.tensor_forest import tensor_forest_ops

for _module in (data_ops, model_ops, stats_ops, tensor_forest_ops):
  sys.modules[__name__ + "." + _module.__name__.rsplit(".", 1)[1]] = _module

"""`tf.contrib.tensor_forest.client`: TF 1.15's client package (eval_metrics, random_forest), the flat modules here.

Place in the data flow (DESIGN.md): contrib.tensor_forest.{eval_metrics, random_forest} <- **client** <- compat.

`tensorflow.contrib.tensor_forest.client.random_forest` is tf1clip.contrib.tensor_forest.random_forest itself (one
module under both names, as `import` statements of TF 1.15 scripts reach it).
"""

import sys

from tf1clip.contrib.tensor_forest import eval_metrics
from tf1clip.contrib.tensor_forest import random_forest

for _module in (eval_metrics, random_forest):
  sys.modules[__name__ + "." + _module.__name__.rsplit(".", 1)[1]] = _module

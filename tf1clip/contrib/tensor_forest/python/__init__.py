"""`tensorflow.contrib.tensor_forest.python`: the package TF 1.15 scripts import `tensor_forest` from.

Place in the data flow (DESIGN.md): contrib.tensor_forest.{tensor_forest, ops} <- **python** <- compat.
`python.tensor_forest` is tf1clip.contrib.tensor_forest.tensor_forest, `python.ops` the ops package.
"""

import sys

from tf1clip.contrib.tensor_forest import data_ops  # noqa: F401
from tf1clip.contrib.tensor_forest import model_ops  # noqa: F401
from tf1clip.contrib.tensor_forest import stats_ops  # noqa: F401
from tf1clip.contrib.tensor_forest import tensor_forest
from tf1clip.contrib.tensor_forest import tensor_forest_ops  # noqa: F401
from tf1clip.contrib.tensor_forest.python import ops  # noqa: F401

sys.modules[__name__ + ".tensor_forest"] = tensor_forest

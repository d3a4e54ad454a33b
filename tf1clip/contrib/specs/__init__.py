"""`tf.contrib.specs`: TF 1.15's little language for describing networks over tf-slim's layers, TF 1.15's code.

Mirrors TF 1.15's `tensorflow/contrib/specs/__init__.py`.

`create_net("net = Cr(32, [3, 3]) | Mp([2, 2]) | Flat | Fs(10)", images)` builds the network a spec describes:
`Cr` / `Fs` / `Mp` / ... are curried tf-slim layer functions (specs_ops), `|` composes, `**` repeats, `+` / `*`
combine (specs_lib); `eval_params` draws random hyperparameters (params_ops) and `tf_spec_structure` /
`tf_spec_summary` describe what a spec builds (summaries). The package holds TF 1.15's five modules, and its names
(served from them through `catalog.SERVED`) are what TF 1.15's star imports gave it: their public names, Python's
`math` functions and constants (params_ops' `from math import *`, Python 3.7's set), `exec_` (six's: the built-in
`exec`) and `layers`, tf.contrib.layers itself (TF 1.15 leaked its layers module; see catalog.MODULE_ALIASES).
"""

from tf1clip.contrib import catalog as _catalog
import tf1clip.contrib.specs.python.params_ops as params_ops  # noqa: F401  (tf.contrib.specs.params_ops)
import tf1clip.contrib.specs.python.specs as specs  # noqa: F401  (tf.contrib.specs.specs)
import tf1clip.contrib.specs.python.specs_lib as specs_lib
import tf1clip.contrib.specs.python.specs_ops as specs_ops  # noqa: F401  (tf.contrib.specs.specs_ops)
import tf1clip.contrib.specs.python.summaries as summaries  # noqa: F401  (tf.contrib.specs.summaries)

# TF 1.15's star import copied specs_lib's debugging flag as it was then (`debug()` sets specs_lib's own).
debug_ = specs_lib.debug_

__getattr__ = _catalog.missing_attribute_hook("tf.contrib.specs", lazy=_catalog.served("tf.contrib.specs"))

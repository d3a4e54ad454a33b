"""`tf.contrib.learn.utils`: TF 1.15's export helpers (signature functions, input_fn builders, export strategies).

Place in the data flow (DESIGN.md): tf.compat.v1.saved_model, contrib.learn.estimator <- **contrib.learn.utils**
<- contrib.learn <- compat <- cli.

Submodules mirror TF 1.15's: `export` (signature functions, export_estimator), `gc` (export garbage-collection
filters: tensorflow-estimator's own copy), `input_fn_utils` (InputFnOps, serving input_fn builders) and
`saved_model_export_utils` (signature defs, timestamped export directories, ExportStrategy makers).
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.learn.utils import export
from tf1clip.contrib.learn.utils import gc
from tf1clip.contrib.learn.utils import input_fn_utils
from tf1clip.contrib.learn.utils import saved_model_export_utils
from tf1clip.contrib.learn.utils.export import export_estimator
from tf1clip.contrib.learn.utils.input_fn_utils import InputFnOps
from tf1clip.contrib.learn.utils.input_fn_utils import build_default_serving_input_fn
from tf1clip.contrib.learn.utils.input_fn_utils import build_parsing_serving_input_fn
from tf1clip.contrib.learn.utils.saved_model_export_utils import make_export_strategy

__getattr__ = _catalog.module_getattr(__name__)

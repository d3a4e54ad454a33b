"""`tf.contrib.metrics`: TF 1.15's streaming metrics, which are tf-slim's `metrics` module now.

Place in the data flow (DESIGN.md): **contrib.metrics** <- compat <- cli. Every `streaming_*`
function, `aggregate_metrics`, `aggregate_metric_map`, `auc_using_histogram`, ... is tf-slim 1.1.0's
own object (tf-slim is where TF 1.15's contrib.metrics moved), imported through tf1clip.contrib.slim's
shim on first use; `confusion_matrix` and the `set_*` functions are `tf.compat.v1`'s, as TF 1.15
re-exported them. The table is `catalog.SERVED`.
"""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.missing_attribute_hook("tf.contrib.metrics",
                                              lazy=_catalog.served("tf.contrib.metrics"))

"""`tf.contrib.learn.ExportStrategy`: a named export function that Experiment runs after evaluations (TF 1.15's).

Place in the data flow (DESIGN.md): contrib.learn.utils.saved_model_export_utils <- **contrib.learn.export_strategy**
<- contrib.learn.experiment <- compat <- cli.

`ExportStrategy(name, export_fn, strip_default_attrs=None)` is TF 1.15's namedtuple; `export(estimator,
export_path, checkpoint_path=None, eval_result=None)` passes `checkpoint_path`, `eval_result` and
`strip_default_attrs` only to an export_fn whose arguments name them, and rejects one that takes eval_result
without checkpoint_path, as TF 1.15 did.
"""

import collections
import inspect

from tf1clip.contrib import catalog as _catalog

__all__ = ["ExportStrategy"]


class ExportStrategy(collections.namedtuple("ExportStrategy", ["name", "export_fn", "strip_default_attrs"])):
  """A type of model export: `name` (its directory under the export base) and `export_fn` (TF 1.15's)."""

  def __new__(cls, name, export_fn, strip_default_attrs=None):
    return super(ExportStrategy, cls).__new__(cls, name, export_fn, strip_default_attrs)

  def export(self, estimator, export_path, checkpoint_path=None, eval_result=None):
    """Runs export_fn(estimator, export_path, ...) with the optional arguments it accepts; its result."""
    export_fn_args = inspect.getfullargspec(self.export_fn).args
    kwargs = {}
    if "checkpoint_path" in export_fn_args:
      kwargs["checkpoint_path"] = checkpoint_path
    if "eval_result" in export_fn_args:
      if "checkpoint_path" not in export_fn_args:
        raise ValueError("An export_fn accepting eval_result must also accept checkpoint_path.")
      kwargs["eval_result"] = eval_result
    if "strip_default_attrs" in export_fn_args:
      kwargs["strip_default_attrs"] = self.strip_default_attrs
    return self.export_fn(estimator, export_path, **kwargs)


__getattr__ = _catalog.module_getattr(__name__)

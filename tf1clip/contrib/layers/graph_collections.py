"""How contrib layers file their variables and outputs in graph collections (TF 1.15 rules).

Place in the data flow (DESIGN.md): contrib.layers' core/normalization/encoders use this module.

`variables_collections` may be a list (every variable goes there) or a dict keyed by the
variable's short name ("weights", "biases", "beta", "gamma", ...). `outputs_collections` receives
each layer's output tensor, tagged with the layer's scope name in `tensor.aliases`, which is how
TF1 scripts collected "end points".
"""

import tensorflow as tf


def variable_collections(variables_collections, name):
  """The collections for the variable `name` given a layer's `variables_collections` argument."""
  if isinstance(variables_collections, dict):
    return variables_collections.get(name, None)
  return variables_collections


def add_variable_to_collections(var, variables_collections, name):
  """Adds `var` to its collections (see `variable_collections`), each at most once."""
  for collection in variable_collections(variables_collections, name) or []:
    if var not in tf.compat.v1.get_collection(collection):
      tf.compat.v1.add_to_collection(collection, var)


def collect_named_outputs(collections, alias, outputs):
  """Adds `outputs` to `collections` (if any), appending `alias` to `outputs.aliases`.

  Args:
    collections: a collection name, a list of them, or None to do nothing.
    alias: the layer's scope name, e.g. "fc1" (a trailing "/" is dropped).
    outputs: the layer's output tensor.

  Returns:
    `outputs`, so a layer can end with `return collect_named_outputs(...)`.
  """
  if collections:
    alias = alias[:-1] if alias.endswith("/") else alias
    aliases = getattr(outputs, "aliases", None)
    if aliases is None:
      outputs.aliases = [alias]
    else:
      aliases.append(alias)
    tf.compat.v1.add_to_collections(collections, outputs)
  return outputs

"""Row updates of a variable, the same three for ref and resource variables: what contrib.opt's sparse updates use.

Place in the data flow (DESIGN.md): tf.compat.v1 scatter ops / ResourceVariable.scatter_* <- **contrib.opt's _rows** <-
the contrib.opt optimizers (weight_decay_optimizers, nadam_optimizer, addsign). `ref(use_locking)` gives
`tf.compat.v1.scatter_*` (the TF1 ref-variable ops, honouring use_locking); `RESOURCE` gives the resource
variable's own methods.
Each is called as `op(variable, indices, rows)` and returns the updated variable (ref) or the update op.
"""

import collections

import tensorflow as tf

RowOps = collections.namedtuple("RowOps", "add sub update")


def ref(use_locking):
  """Row updates of a ref variable (`tf.compat.v1.scatter_add / scatter_sub / scatter_update`)."""
  return RowOps(lambda x, i, u: tf.compat.v1.scatter_add(x, i, u, use_locking=use_locking),
                lambda x, i, u: tf.compat.v1.scatter_sub(x, i, u, use_locking=use_locking),
                lambda x, i, u: tf.compat.v1.scatter_update(x, i, u, use_locking=use_locking))


RESOURCE = RowOps(lambda x, i, u: x.scatter_add(tf.IndexedSlices(u, i)),
                  lambda x, i, u: x.scatter_sub(tf.IndexedSlices(u, i)),
                  lambda x, i, u: x.scatter_update(tf.IndexedSlices(u, i)))

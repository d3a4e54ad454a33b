"""tf1clip.v2: the same gradient pipeline for TF2 (eager, tf.function, Keras optimizers).

- `WrappedOptimizer`, `clip_gradients_by_norm`: tf1clip transforms around a Keras 3 or
  tf-keras optimizer (optimizer.py).
- `GradientAccumulationOptimizer`: n micro-batches, one Keras update (accumulation.py).
- `keras_optimizer_like`, `keras_kwargs_like`, `migrate_optimizer`, `MAPPINGS`: which Keras
  optimizer and settings take the same steps as a TF1 optimizer (mapping.py).
- `check_parity`, `ParityReport`: train both worlds side by side (parity.py, the
  ``tf1clip parity`` CLI).
- `TF1Graph`, `TF1Checkpoint`: TF1 model code run eagerly through ``wrap_function`` + ``prune``, and the
  ``Saver`` as a ``tf.train.Checkpoint`` under TF1 names (tf1_graph.py, tf1_checkpoint.py; what
  ``tf1clip upgrade --stage 3`` programs use).

Place in the data flow (DESIGN.md): clipping <- transforms <- optimizer <- accumulation
<- **v2** <- cli.
"""

from tf1clip.v2.accumulation import GradientAccumulationOptimizer
from tf1clip.v2.mapping import MAPPINGS
from tf1clip.v2.mapping import keras_kwargs_like
from tf1clip.v2.mapping import keras_optimizer_like
from tf1clip.v2.mapping import mapping_for
from tf1clip.v2.mapping import migrate_optimizer
from tf1clip.v2.optimizer import WrappedOptimizer
from tf1clip.v2.optimizer import clip_gradients_by_norm
from tf1clip.v2.parity import ParityReport
from tf1clip.v2.parity import check_parity
from tf1clip.v2.tf1_checkpoint import TF1Checkpoint
from tf1clip.v2.tf1_graph import TF1Graph

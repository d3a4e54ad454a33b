"""Gradient accumulation in graph mode: simulate a big batch with n micro-batches.

Three recipes, one per module, all giving the inner optimizer's step on the big batch:

- `GradientAccumulationOptimizer` (optimizer.py): one ``sess.run`` per micro-batch; state in
  variables; every n-th run applies the mean.
- `HostGradientAverager` (host_averaging.py): gradients fetched to numpy, averaged on the
  host, fed back through placeholders into ``apply_gradients``.
- `fused_accumulation_step` (fused.py): one ``sess.run`` takes the whole big batch and loops
  over its micro-batches inside the graph (``tf.while_loop``), then applies once.

accumulators.py holds the dense/sparse sums they share.

Place in the data flow (DESIGN.md): clipping <- transforms <- optimizer <- **accumulation**
<- contrib/compat/v2 <- cli.
"""

from tf1clip.accumulation.optimizer import GradientAccumulationOptimizer
from tf1clip.accumulation.fused import FusedStep
from tf1clip.accumulation.fused import fused_accumulation_step
from tf1clip.accumulation.host_averaging import HostGradientAverager
from tf1clip.accumulation.host_averaging import average_gradients

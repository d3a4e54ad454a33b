"""tf1clip: legacy TensorFlow 1 training code on current TensorFlow, with a better gradient pipeline.

The public names mirror TF1's where a TF1 counterpart exists, so that
``tf.clip_by_global_norm`` becomes ``tf1clip.clip_by_global_norm`` with the same
signature and the same numbers (see DESIGN.md, "Numerical contract").

Data flow (one-way): clipping <- transforms <- optimizer <- accumulation <- contrib/compat/v2 <- cli.
"""

__version__ = "0.1.0"

# --- clipping (issue 2) ---
from tf1clip.clipping import clip_by_average_norm
from tf1clip.clipping import clip_by_global_norm
from tf1clip.clipping import clip_by_norm
from tf1clip.clipping import clip_by_value
from tf1clip.clipping import global_norm

# --- optimizer wrappers (issue 3) ---
from tf1clip import transforms
from tf1clip.optimize_loss import adaptive_clipping_fn
from tf1clip.optimize_loss import optimize_loss
from tf1clip.optimizer import WrappedOptimizer
from tf1clip.optimizer import clip_gradients_by_norm
from tf1clip.variables import block_gradient
from tf1clip.variables import reverse_gradient
from tf1clip.variables import scale_gradient
from tf1clip.variables import select_variables

# --- gradient accumulation (issue 4) ---
from tf1clip.accumulation import FusedStep
from tf1clip.accumulation import GradientAccumulationOptimizer
from tf1clip.accumulation import HostGradientAverager
from tf1clip.accumulation import average_gradients
from tf1clip.accumulation import fused_accumulation_step

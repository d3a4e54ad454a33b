"""`tf.contrib.opt`: LazyAdamOptimizer, MultitaskOptimizerWrapper and clip_gradients_by_global_norm.

Place in the data flow (DESIGN.md): clipping / tf.compat.v1.train <- **contrib.opt** <- compat <-
cli. Any other name raises ContribNotProvidedError with a replacement.
"""

from tf1clip.contrib import catalog
from tf1clip.contrib.opt.lazy_adam import LazyAdamOptimizer
from tf1clip.contrib.opt.multitask import MultitaskOptimizerWrapper
from tf1clip.contrib.opt.multitask import clip_gradients_by_global_norm

__getattr__ = catalog.missing_attribute_hook("tf.contrib.opt")

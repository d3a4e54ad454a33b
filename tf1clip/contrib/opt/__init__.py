"""`tf.contrib.opt`: TF 1.15's optimizers that training code used, with TF 1.15's semantics and slot names.

Each lives in python/training/ under the name of TF 1.15's module: LazyAdamOptimizer (lazy_adam_optimizer),
MultitaskOptimizerWrapper and clip_gradients_by_global_norm (multitask_optimizer_wrapper); AdamWOptimizer,
MomentumWOptimizer, DecoupledWeightDecayExtension and extend_with_decoupled_weight_decay (weight_decay_optimizers);
NadamOptimizer and AdaMaxOptimizer (nadam_optimizer); AddSignOptimizer and PowerSignOptimizer (addsign);
VariableClippingOptimizer; MovingAverageOptimizer; ScipyOptimizerInterface and ExternalOptimizerInterface
(external_optimizer); LARSOptimizer; RegAdagradOptimizer; DropStaleGradientOptimizer; AdamGSOptimizer and
LazyAdamGSOptimizer (adam_gs_optimizer); GGTOptimizer (ggt); ShampooOptimizer (shampoo); the ps/worker optimizers
ElasticAverageOptimizer / ElasticAverageCustomGetter (elastic_average_optimizer), ModelAverageOptimizer /
ModelAverageCustomGetter (model_average_optimizer) and AGNOptimizer / AGNCustomGetter (agn_optimizer).

Any other name raises ContribNotProvidedError with a replacement.
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.opt.python.training.adam_gs_optimizer import AdamGSOptimizer
from tf1clip.contrib.opt.python.training.adam_gs_optimizer import LazyAdamGSOptimizer
from tf1clip.contrib.opt.python.training.addsign import AddSignOptimizer
from tf1clip.contrib.opt.python.training.addsign import PowerSignOptimizer
from tf1clip.contrib.opt.python.training.agn_optimizer import AGNCustomGetter
from tf1clip.contrib.opt.python.training.agn_optimizer import AGNOptimizer
from tf1clip.contrib.opt.python.training.drop_stale_gradient_optimizer import DropStaleGradientOptimizer
from tf1clip.contrib.opt.python.training.elastic_average_optimizer import ElasticAverageCustomGetter
from tf1clip.contrib.opt.python.training.elastic_average_optimizer import ElasticAverageOptimizer
from tf1clip.contrib.opt.python.training.external_optimizer import ExternalOptimizerInterface
from tf1clip.contrib.opt.python.training.external_optimizer import ScipyOptimizerInterface
from tf1clip.contrib.opt.python.training.ggt import GGTOptimizer
from tf1clip.contrib.opt.python.training.lars_optimizer import LARSOptimizer
from tf1clip.contrib.opt.python.training.lazy_adam_optimizer import LazyAdamOptimizer
from tf1clip.contrib.opt.python.training.model_average_optimizer import ModelAverageCustomGetter
from tf1clip.contrib.opt.python.training.model_average_optimizer import ModelAverageOptimizer
from tf1clip.contrib.opt.python.training.moving_average_optimizer import MovingAverageOptimizer
from tf1clip.contrib.opt.python.training.multitask_optimizer_wrapper import MultitaskOptimizerWrapper
from tf1clip.contrib.opt.python.training.multitask_optimizer_wrapper import clip_gradients_by_global_norm
from tf1clip.contrib.opt.python.training.nadam_optimizer import AdaMaxOptimizer
from tf1clip.contrib.opt.python.training.nadam_optimizer import NadamOptimizer
from tf1clip.contrib.opt.python.training.reg_adagrad_optimizer import RegAdagradOptimizer
from tf1clip.contrib.opt.python.training.shampoo import ShampooOptimizer
from tf1clip.contrib.opt.python.training.variable_clipping_optimizer import VariableClippingOptimizer
from tf1clip.contrib.opt.python.training.weight_decay_optimizers import AdamWOptimizer
from tf1clip.contrib.opt.python.training.weight_decay_optimizers import DecoupledWeightDecayExtension
from tf1clip.contrib.opt.python.training.weight_decay_optimizers import MomentumWOptimizer
from tf1clip.contrib.opt.python.training.weight_decay_optimizers import extend_with_decoupled_weight_decay

# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = 'tf.compat.v1.train optimizers, or Keras optimizers'

__getattr__ = _catalog.module_getattr(__name__)

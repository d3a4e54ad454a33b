"""`tf.contrib.opt`: TF 1.15's optimizers that training code used, with TF 1.15's semantics and slot names.

LazyAdamOptimizer, MultitaskOptimizerWrapper and clip_gradients_by_global_norm; AdamWOptimizer,
MomentumWOptimizer, DecoupledWeightDecayExtension and extend_with_decoupled_weight_decay (weight_decay);
NadamOptimizer and AdaMaxOptimizer (adam_variants); AddSignOptimizer and PowerSignOptimizer (sign);
VariableClippingOptimizer; MovingAverageOptimizer; ScipyOptimizerInterface and ExternalOptimizerInterface
(external); LARSOptimizer; RegAdagradOptimizer; DropStaleGradientOptimizer; AdamGSOptimizer and
LazyAdamGSOptimizer (adam_gs); GGTOptimizer (ggt); ShampooOptimizer (shampoo); the ps/worker optimizers
ElasticAverageOptimizer / ElasticAverageCustomGetter (elastic_average), ModelAverageOptimizer /
ModelAverageCustomGetter (model_average) and AGNOptimizer / AGNCustomGetter (agn).

Any other name raises ContribNotProvidedError with a replacement.
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.opt.adam_gs import AdamGSOptimizer
from tf1clip.contrib.opt.adam_gs import LazyAdamGSOptimizer
from tf1clip.contrib.opt.adam_variants import AdaMaxOptimizer
from tf1clip.contrib.opt.adam_variants import NadamOptimizer
from tf1clip.contrib.opt.agn import AGNCustomGetter
from tf1clip.contrib.opt.agn import AGNOptimizer
from tf1clip.contrib.opt.drop_stale import DropStaleGradientOptimizer
from tf1clip.contrib.opt.elastic_average import ElasticAverageCustomGetter
from tf1clip.contrib.opt.elastic_average import ElasticAverageOptimizer
from tf1clip.contrib.opt.external import ExternalOptimizerInterface
from tf1clip.contrib.opt.external import ScipyOptimizerInterface
from tf1clip.contrib.opt.ggt import GGTOptimizer
from tf1clip.contrib.opt.lars import LARSOptimizer
from tf1clip.contrib.opt.lazy_adam import LazyAdamOptimizer
from tf1clip.contrib.opt.model_average import ModelAverageCustomGetter
from tf1clip.contrib.opt.model_average import ModelAverageOptimizer
from tf1clip.contrib.opt.moving_average import MovingAverageOptimizer
from tf1clip.contrib.opt.multitask import MultitaskOptimizerWrapper
from tf1clip.contrib.opt.multitask import clip_gradients_by_global_norm
from tf1clip.contrib.opt.reg_adagrad import RegAdagradOptimizer
from tf1clip.contrib.opt.shampoo import ShampooOptimizer
from tf1clip.contrib.opt.sign import AddSignOptimizer
from tf1clip.contrib.opt.sign import PowerSignOptimizer
from tf1clip.contrib.opt.variable_clipping import VariableClippingOptimizer
from tf1clip.contrib.opt.weight_decay import AdamWOptimizer
from tf1clip.contrib.opt.weight_decay import DecoupledWeightDecayExtension
from tf1clip.contrib.opt.weight_decay import MomentumWOptimizer
from tf1clip.contrib.opt.weight_decay import extend_with_decoupled_weight_decay

# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = 'tf.compat.v1.train optimizers, or Keras optimizers'

__getattr__ = _catalog.module_getattr(__name__)

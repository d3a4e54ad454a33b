"""The part of TensorFlow 1.15's `tf.contrib` that classic training scripts use, on TensorFlow 2.21.

The TF1 facade serves this package as `tf.contrib` and the runner as `tensorflow.contrib`.

Provided (behaving as in TF 1.15; catalog.tsv lists every name and where its object comes from; names
that still exist elsewhere are served as those objects, imported by the package that serves them):
  estimator       clip_gradients_by_norm (tf1clip.optimizer), forward_features, and add_metrics,
                  the early-stopping hooks, ... from tensorflow-estimator 2.15 (shims.tensorflow_estimator)
  tpu             TPUEstimator, TPUEstimatorSpec, RunConfig, TPUConfig, InputPipelineConfig
                  (tensorflow-estimator 2.15) and tf.compat.v1.tpu's ops
  cluster_resolver  tf.distribute.cluster_resolver (TPUClusterResolver with a clear no-TPU error)
  data            tf.compat.v1.data.experimental's functions, and TF 1.15's four deprecated wrappers
  layers          optimize_loss, adaptive_clipping_fn, OPTIMIZER_CLS_NAMES (tf-slim, TF 1.15's code),
                  initializers, regularizers, fully_connected, layer_norm, flatten, embed_sequence;
                  conv2d, batch_norm, max_pool2d, dropout, repeat, stack, summarize_*, ... (tf-slim)
  rnn             the TF1 cells and wrappers (tf-keras' legacy cells), static_rnn, NASCell, the block
                  and fused LSTM/GRU cells on TF's kernels, stack_bidirectional_(dynamic_)rnn, ...
  crf             crf_log_likelihood, crf_decode, viterbi_decode, ... (TF 1.15's linear-chain CRF)
  cudnn_rnn       CudnnLSTM/GRU/RNNTanh/RNNRelu (GPU), CudnnCompatibleLSTMCell/GRUCell (CPU)
  legacy_seq2seq  all of it: rnn_decoder, the embedding / tied / attention / one2many seq2seq models,
                  model_with_buckets, sequence_loss(_by_example) (TF 1.15's code and scopes)
  grid_rnn        GridRNNCell and the Grid1/2/3 cells (TF 1.15's code, on contrib.rnn's cells)
  seq2seq         dynamic_decode, BasicDecoder, the Helpers, attention, BeamSearchDecoder,
                  sequence_loss (tf1clip.contrib.seq2seq, TF 1.15's variable names)
  framework       global step and variable-collection helpers; arg_scope, assign_from_checkpoint_fn,
                  ... (tf-slim); list_variables, load_variable, nest (TensorFlow)
  metrics, losses tf-slim's streaming metrics and contrib-order losses (+ losses.metric_learning)
  distributions   tfp 0.25's classes (the core ones too, so they mix) and `bijectors`; TF 1.15's moving
                  statistics, percentile and *WithSoftplus* classes (ours)
  summary         the graph-mode writer API (TensorFlow's summary_ops_v2)
  image           rotate, transform, dense_image_warp, connected_components, bipartite_match,
                  interpolate_spline, sparse_image_warp, ... (tf1clip's own)
  signal, util    tf.signal; make_tensor_proto, constant_value
  opt             clip_gradients_by_global_norm, MultitaskOptimizerWrapper, LazyAdam(GS), AdamW, MomentumW,
                  Nadam, AdaMax, AddSign, PowerSign, LARS, RegAdagrad, AdamGS, VariableClipping,
                  MovingAverage, DropStaleGradient, ScipyOptimizerInterface, GGT, Shampoo (tf1clip's ports)
  nn, stateless   alpha_dropout, scaled_softplus, nth_element, ... (ours); conv1d_transpose and the
                  stateless random ops (TensorFlow's)
  keras           tf-keras' TF1 Keras API (the modules tf1clip serves as tf.keras.*)
  training        HParams, bucket_by_sequence_length (ours); create_train_op, train, evaluate_* (tf-slim)
  graph_editor    TF 1.15's graph editor (select, subgraph, reroute, edit, transform), our own code
  learn           Estimator, SKCompat, the canned DNN / linear / wide-and-deep estimators with fit(x, y),
                  Experiment, learn_runner, RunConfig, monitors (on tf.estimator); preprocessing
                  (VocabularyProcessor, ...), datasets (mnist, CSV, the bundled iris/Boston), ops and
                  models (the skflow-era helpers)
  estimator       clip_gradients_by_norm, forward_features, the heads (multi_label_head, multi_head, ...),
                  the export functions; the rest of tensorflow-estimator 2.15's
  eager           tfe: TensorFlow's eager objects; metrics, Saver, the execution callbacks (TF 1.15's code)
  distribute      MirroredStrategy (TF 1.15's per-replica batches), ParameterServerStrategy, ... on
                  TensorFlow's v1 strategies; the context functions
  feature_column  the sequence columns (TensorFlow's) and sequence_input_layer (ours)
  optimizer_v2    the six OptimizerV2 optimizers (v1 optimizers; RMSProp with TF 1.15's own epsilon rule)
  staging, proto, autograph, batching, deprecated, sparsemax
                  TensorFlow's objects where they still exist; ports of the rest
  the long tail   integrate (odeint), bayesflow.monte_carlo, solvers (CG, CGLS, Lanczos), copy_graph,
                  receptive_field, recurrent (functional RNNs), memory_stats, tensorboard (projector), tfprof,
                  kernel_methods, resampler, input_pipeline, periodic_resample, testing, util.loader, quantize
                  (the fake-quant rewrite), quantization, saved_model (Keras SavedModels), specs, labeled_tensor,
                  model_pruning, linear_optimizer (SDCA): TF 1.15's code (TensorFlow's, TensorBoard's or the
                  estimator library's objects where they still exist)
  timeseries      ARRegressor, StructuralEnsembleRegressor, TimeSeriesRegressor, the readers and input_fns,
                  saved_model_utils: TF 1.15's code (ARModel, the state space models), tensorflow-estimator
                  2.15's feature keys, heads and TimeSeriesRegressor
  slim            the whole tf-slim 1.1.0 package, run on TensorFlow 2.21 by tf1clip.contrib.slim's shim,
                  and the names TF 1.15's slim leaked from contrib.layers / framework / metrics / lookup

Everything else fails where the script first uses it, with a `ContribNotProvidedError` (an
ImportError) naming the dotted symbol and what to use instead; `tf.contrib.crf` and the other
TF 1.15 submodules are stand-in modules so the message can name `tf.contrib.crf.crf_log_likelihood`.
Submodules are imported on first access, so `import tf1clip.contrib` does not load tf-keras' cells.
"""

import importlib

from tf1clip.contrib.catalog import PROVIDED_SUBMODULES
from tf1clip.contrib.catalog import ContribNotProvidedError
from tf1clip.contrib.catalog import explain
from tf1clip.contrib.catalog import is_provided
from tf1clip.contrib.catalog import unsupported_module

__all__ = sorted(PROVIDED_SUBMODULES) + ["ContribNotProvidedError", "explain", "is_provided"]


def __getattr__(name):  # pylint: disable=invalid-name
  if name in PROVIDED_SUBMODULES:
    module = importlib.import_module(__name__ + "." + name)
    globals()[name] = module
    return module
  if name.startswith("__"):
    raise AttributeError("module %r has no attribute %r" % (__name__, name))
  from tf1clip.contrib import catalog  # pylint: disable=import-outside-toplevel
  if name in catalog.TF115_SUBMODULES:
    return unsupported_module("tf.contrib." + name)
  raise ContribNotProvidedError("tf.contrib." + name)


def __dir__():  # pylint: disable=invalid-name
  return sorted(set(globals()) | PROVIDED_SUBMODULES)

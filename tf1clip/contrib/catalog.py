"""What tf1clip provides under `tf.contrib`, what it does not, and the error a script gets for the rest.

Place in the data flow (DESIGN.md): optimizer/clipping <- **contrib** <- compat (facade, runner,
`tf1clip check`) <- cli. This module is the one table both sides read: the contrib package's
module-level `__getattr__` hooks raise from it while a script runs, and `tf1clip check` reads it
without running anything. It imports neither TensorFlow nor Keras itself.

- `PROVIDED` maps every dotted name tf1clip serves (e.g. "tf.contrib.rnn.BasicLSTMCell") to where
  the object comes from.
- `UNSUPPORTED` maps dotted names and prefixes (e.g. "tf.contrib.tpu") to what to use instead.
- `explain(name)` gives the one sentence for any name; `ContribNotProvidedError` carries it.

Why the error is an `ImportError`: Python turns an `AttributeError` raised by a module's
`__getattr__` into its own "cannot import name 'tpu' from 'tensorflow.contrib'" during
`from tensorflow.contrib import tpu`, losing the replacement; an `ImportError` reaches the user as
raised, from both `from tensorflow.contrib import tpu` and `tf.contrib.tpu.TPUEstimator`. (A class
cannot derive from both: CPython rejects the two instance layouts.) Dunder lookups (`__path__`,
`__wrapped__`, ...) still get a plain `AttributeError`, so the import system and introspection
work as for any module.
"""

import types

# Every tf.contrib submodule TensorFlow 1.15 had. A name in this list that tf1clip does not
# provide gets a stub module (see `unsupported_module`), so `tf.contrib.tpu.TPUEstimator` can
# name the whole dotted path; a name not in it was never in tf.contrib.
TF115_SUBMODULES = frozenset("""
    all_reduce autograph batching bayesflow bigtable boosted_trees checkpoint cloud cluster_resolver
    coder compiler constrained_optimization copy_graph crf cudnn_rnn data decision_trees deprecated
    distribute distributions eager estimator factorization feature_column ffmpeg framework gan
    graph_editor grid_rnn hadoop image input_pipeline integrate keras kernel_methods kinesis
    labeled_tensor layers learn legacy_seq2seq libsvm linear_optimizer lookup losses memory_stats
    meta_graph_transform metrics mixed_precision model_pruning nccl nearest_neighbor nn opt
    optimizer_v2 periodic_resample predictor proto quantization quantize rate receptive_field
    recurrent reduce_slice_ops remote_fused_graph resampler rnn rpc saved_model seq2seq
    session_bundle signal slim solvers sparsemax specs staging stat_summarizer stateless summary
    tensor_forest tensorboard testing text tfprof timeseries tpu training util
    """.split())

_CELLS = "tf_keras.src.layers.rnn.legacy_cells"
_WRAPPERS = "tf_keras.src.layers.rnn.legacy_cell_wrappers"
_PORT = "tf1clip's port of TF 1.15 contrib"
_SLIM = "tf-slim 1.1.0, through tf1clip.contrib.slim's shim: tf_slim"
_ESTIMATOR = "tensorflow-estimator 2.15, through tf1clip's shim (compat.estimator_shim): "

# Dotted name -> where the object comes from. Submodules listed here are importable as
# tf1clip.contrib.<name> (and, through the runner, as tensorflow.contrib.<name>).
PROVIDED = {
    # contrib.estimator
    "tf.contrib.estimator.clip_gradients_by_norm": "tf1clip.optimizer.clip_gradients_by_norm",
    "tf.contrib.estimator.forward_features": _PORT + " (tensorflow-estimator 2.15 dropped it)",
    **{"tf.contrib.estimator." + name: _ESTIMATOR + where for name, where in (
        ("add_metrics", "tf.estimator.add_metrics"),
        ("make_early_stopping_hook", "tf.estimator.experimental.make_early_stopping_hook"),
        ("stop_if_higher_hook", "tf.estimator.experimental.stop_if_higher_hook"),
        ("stop_if_lower_hook", "tf.estimator.experimental.stop_if_lower_hook"),
        ("stop_if_no_increase_hook", "tf.estimator.experimental.stop_if_no_increase_hook"),
        ("stop_if_no_decrease_hook", "tf.estimator.experimental.stop_if_no_decrease_hook"),
        ("read_eval_metrics", "early_stopping.read_eval_metrics"),
        ("InMemoryEvaluatorHook", "tf.estimator.experimental.InMemoryEvaluatorHook"),
        ("make_stop_at_checkpoint_step_hook",
         "tf.estimator.experimental.make_stop_at_checkpoint_step_hook"),
        ("build_raw_supervised_input_receiver_fn",
         "tf.estimator.experimental.build_raw_supervised_input_receiver_fn"),
        ("build_supervised_input_receiver_fn_from_input_fn",
         "export.build_supervised_input_receiver_fn_from_input_fn"),
        ("call_logit_fn", "tf.estimator.experimental.call_logit_fn"),
        ("dnn_logit_fn_builder", "tf.estimator.experimental.dnn_logit_fn_builder"),
        ("linear_logit_fn_builder", "tf.estimator.experimental.linear_logit_fn_builder"),
        ("SavedModelEstimator", "canned.saved_model_estimator.SavedModelEstimator"))},
    # contrib.tpu
    **{"tf.contrib.tpu." + name: _ESTIMATOR + "tf.compat.v1.estimator.tpu." + name for name in (
        "TPUEstimator", "TPUEstimatorSpec", "RunConfig", "TPUConfig", "InputPipelineConfig",
        "experimental")},
    **{"tf.contrib.tpu." + name: "tf.compat.v1.tpu." + name for name in (
        "CrossShardOptimizer", "rewrite", "shard", "replicate", "batch_parallel", "bfloat16_scope",
        "outside_compilation", "initialize_system", "shutdown_system", "cross_replica_sum", "core")},
    # contrib.cluster_resolver
    "tf.contrib.cluster_resolver.TPUClusterResolver": (
        "tf.distribute.cluster_resolver.TPUClusterResolver (a subclass whose error says when no TPU "
        "is reachable)"),
    **{"tf.contrib.cluster_resolver." + name: "tf.distribute.cluster_resolver." + name for name in (
        "ClusterResolver", "SimpleClusterResolver", "UnionResolver", "TFConfigClusterResolver",
        "GCEClusterResolver", "KubernetesClusterResolver", "SlurmClusterResolver")},
    "tf.contrib.cluster_resolver.UnionClusterResolver": "tf.distribute.cluster_resolver.UnionResolver",
    # contrib.data
    **{"tf.contrib.data." + name: "tf.compat.v1.data.experimental." + name for name in """
        AUTOTUNE Counter CsvDataset Optional RandomDataset Reducer SqlDataset TFRecordWriter
        bucket_by_sequence_length choose_from_datasets copy_to_device dense_to_sparse_batch
        enumerate_dataset get_next_as_optional get_single_element group_by_reducer group_by_window
        ignore_errors make_batched_features_dataset make_csv_dataset make_saveable_from_iterator
        map_and_batch parallel_interleave parse_example_dataset prefetch_to_device rejection_resample
        sample_from_datasets scan shuffle_and_repeat unbatch unique""".split()},
    "tf.contrib.data.batch_and_drop_remainder": _PORT + ": Dataset.batch(n, drop_remainder=True)",
    "tf.contrib.data.padded_batch_and_drop_remainder": (
        _PORT + ": Dataset.padded_batch(..., drop_remainder=True)"),
    "tf.contrib.data.sloppy_interleave": (
        _PORT + ": tf.data.experimental.parallel_interleave(..., sloppy=True)"),
    "tf.contrib.data.sliding_window_batch": _PORT + ": Dataset.window(...).flat_map(batch)",
    # contrib.layers
    "tf.contrib.layers.optimize_loss": "tf1clip.training_op.optimize_loss",
    "tf.contrib.layers.adaptive_clipping_fn": "tf1clip.training_op.adaptive_clipping_fn",
    "tf.contrib.layers.OPTIMIZER_CLS_NAMES": "tf1clip.training_op.OPTIMIZER_CLS_NAMES",
    "tf.contrib.layers.xavier_initializer": _PORT,
    "tf.contrib.layers.xavier_initializer_conv2d": _PORT,
    "tf.contrib.layers.variance_scaling_initializer": _PORT,
    "tf.contrib.layers.l1_regularizer": _PORT,
    "tf.contrib.layers.l2_regularizer": _PORT,
    "tf.contrib.layers.l1_l2_regularizer": _PORT,
    "tf.contrib.layers.sum_regularizer": _PORT,
    "tf.contrib.layers.apply_regularization": _PORT,
    "tf.contrib.layers.fully_connected": _PORT + "; variables <scope>/weights, <scope>/biases",
    "tf.contrib.layers.layer_norm": _PORT + "; variables LayerNorm/beta, LayerNorm/gamma",
    "tf.contrib.layers.flatten": _PORT,
    "tf.contrib.layers.embed_sequence": _PORT + "; variable EmbedSequence/embeddings",
    # contrib.rnn
    "tf.contrib.rnn.RNNCell": _CELLS + ".RNNCell",
    "tf.contrib.rnn.BasicRNNCell": _CELLS + ".BasicRNNCell",
    "tf.contrib.rnn.BasicLSTMCell": _CELLS + ".BasicLSTMCell",
    "tf.contrib.rnn.LSTMCell": _CELLS + ".LSTMCell",
    "tf.contrib.rnn.GRUCell": _CELLS + ".GRUCell",
    "tf.contrib.rnn.MultiRNNCell": _CELLS + ".MultiRNNCell",
    "tf.contrib.rnn.LSTMStateTuple": _CELLS + ".LSTMStateTuple",
    "tf.contrib.rnn.DropoutWrapper": _WRAPPERS + ".DropoutWrapper",
    "tf.contrib.rnn.ResidualWrapper": _WRAPPERS + ".ResidualWrapper",
    "tf.contrib.rnn.DeviceWrapper": _WRAPPERS + ".DeviceWrapper",
    "tf.contrib.rnn.static_rnn": "tf.compat.v1.nn.static_rnn",
    "tf.contrib.rnn.static_bidirectional_rnn": "tf.compat.v1.nn.static_bidirectional_rnn",
    "tf.contrib.rnn.static_state_saving_rnn": "tf.compat.v1.nn.static_state_saving_rnn",
    "tf.contrib.rnn.NASCell": _PORT,
    "tf.contrib.rnn.LayerNormBasicLSTMCell": _PORT,
    # contrib.legacy_seq2seq
    "tf.contrib.legacy_seq2seq.rnn_decoder": _PORT,
    "tf.contrib.legacy_seq2seq.basic_rnn_seq2seq": _PORT,
    "tf.contrib.legacy_seq2seq.sequence_loss": _PORT,
    "tf.contrib.legacy_seq2seq.sequence_loss_by_example": _PORT,
    # contrib.framework
    "tf.contrib.framework.get_or_create_global_step": "tf.compat.v1.train.get_or_create_global_step",
    "tf.contrib.framework.get_global_step": "tf.compat.v1.train.get_global_step",
    "tf.contrib.framework.get_variables": _PORT,
    "tf.contrib.framework.get_variables_to_restore": _PORT,
    "tf.contrib.framework.get_model_variables": _PORT,
    "tf.contrib.framework.get_trainable_variables": _PORT,
    "tf.contrib.framework.get_local_variables": _PORT,
    "tf.contrib.framework.get_variables_by_name": _PORT,
    "tf.contrib.framework.get_variables_by_suffix": _PORT,
    "tf.contrib.framework.add_model_variable": _PORT,
    "tf.contrib.framework.model_variable": _PORT,
    "tf.contrib.framework.variable": _PORT,
    # contrib.opt
    "tf.contrib.opt.clip_gradients_by_global_norm": _PORT,
    "tf.contrib.opt.MultitaskOptimizerWrapper": _PORT,
    "tf.contrib.opt.LazyAdamOptimizer": _PORT + "; a tf.compat.v1.train.AdamOptimizer subclass",
    # contrib.training
    "tf.contrib.training.HParams": _PORT + " (without the protocol-buffer methods)",
    # contrib.slim: the whole tf_slim package (see WHOLE_PACKAGES); the names training scripts use
    **{"tf.contrib.slim." + name: _SLIM + "." + name for name in """
        arg_scope add_arg_scope conv2d fully_connected max_pool2d avg_pool2d flatten dropout
        batch_norm l2_regularizer l1_regularizer learning losses metrics get_variables
        get_variables_to_restore get_model_variables assign_from_checkpoint_fn model_variable
        variable local_variable global_variable""".split()},
}

# Provided submodules that serve a whole package -> where every name below them comes from.
WHOLE_PACKAGES = {"slim": _SLIM}

PROVIDED_SUBMODULES = frozenset(name.split(".")[2] for name in PROVIDED)

_NO_LEARN = ("tf.contrib.learn went with TF 2.0: use tf.estimator (provided by tf1clip via "
             "tensorflow-estimator 2.15) or tf.Session / tf.train.MonitoredTrainingSession")
_ADDONS = "tensorflow-addons (archived in 2024, no release for TensorFlow 2.16+)"
_CONTRIB_SOURCE = ("no maintained replacement; port the class from TensorFlow 1.15's "
                   "tensorflow/contrib sources onto tf.compat.v1.nn.rnn_cell.RNNCell")

# Dotted name or prefix -> what to use instead. `explain` uses the longest matching prefix.
UNSUPPORTED = {
    "tf.contrib": "no maintained replacement",
    "tf.contrib.all_reduce": "tf.distribute (MirroredStrategy's cross-device ops)",
    "tf.contrib.autograph": "tf.autograph (tf.function converts Python control flow)",
    "tf.contrib.batching": "TensorFlow Serving's batching",
    "tf.contrib.bayesflow": "tensorflow-probability",
    "tf.contrib.boosted_trees": "TensorFlow Decision Forests (tensorflow-decision-forests)",
    "tf.contrib.checkpoint": "tf.train.Checkpoint",
    "tf.contrib.cloud": "tf.io.gfile with gs:// paths",
    "tf.contrib.cluster_resolver": "tf.distribute.cluster_resolver",
    "tf.contrib.compiler": "tf.function(jit_compile=True)",
    "tf.contrib.crf": "tensorflow-addons' tfa.text.crf_* (archived) or your own CRF layer",
    "tf.contrib.cudnn_rnn": ("tf.keras.layers.LSTM / GRU (they pick the cuDNN kernel themselves; "
                             "the weight layout differs)"),
    "tf.contrib.data": ("tf.data (most functions moved to tf.data.Dataset methods or "
                        "tf.data.experimental)"),
    "tf.contrib.data.CheckpointInputPipelineHook": (
        "tf.train.Checkpoint of the iterator (TF 2.21 removed the estimator hook)"),
    "tf.contrib.data.LMDBDataset": "no maintained replacement (TF 2.21 removed the LMDB reader)",
    "tf.contrib.data.read_batch_features": "tf.contrib.data.make_batched_features_dataset (provided)",
    "tf.contrib.data.reduce_dataset": "Dataset.reduce(initial_state, reduce_func)",
    "tf.contrib.data.assert_element_shape": "Dataset.map with tf.ensure_shape",
    "tf.contrib.data.latency_stats": "the tf.data service / TensorBoard profiler (stats ops were removed)",
    "tf.contrib.data.set_stats_aggregator": (
        "the tf.data service / TensorBoard profiler (stats ops were removed)"),
    "tf.contrib.data.StatsAggregator": "the TensorBoard profiler (stats ops were removed)",
    "tf.contrib.decision_trees": "TensorFlow Decision Forests (tensorflow-decision-forests)",
    "tf.contrib.distribute": "tf.distribute",
    "tf.contrib.distributions": "tensorflow-probability (tfp.distributions)",
    "tf.contrib.eager": "TensorFlow 2 runs eagerly by default (tf.function, tf.GradientTape)",
    "tf.contrib.estimator": (
        "tensorflow-estimator 2.15 no longer has it: heads -> tf.estimator.BinaryClassHead, "
        "MultiClassHead, MultiLabelHead, RegressionHead, PoissonRegressionHead, "
        "LogisticRegressionHead, MultiHead (provided); replicate_model_fn / TowerOptimizer -> "
        "tf.distribute.MirroredStrategy in RunConfig(train_distribute=...)"),
    "tf.contrib.estimator.RNNClassifier": (
        "tf.compat.v1.keras RNN layers in a model_fn (the library's RNNClassifier has another API)"),
    "tf.contrib.estimator.RNNEstimator": (
        "tf.compat.v1.keras RNN layers in a model_fn (the library's RNNEstimator has another API)"),
    "tf.contrib.estimator.export_saved_model_for_mode": (
        "tf.estimator.Estimator.experimental_export_all_saved_models"),
    "tf.contrib.estimator.export_all_saved_models": (
        "tf.estimator.Estimator.experimental_export_all_saved_models"),
    "tf.contrib.factorization": "no maintained replacement (tf.compat.v1 has none either)",
    "tf.contrib.feature_column": "tf.compat.v1.feature_column, or Keras preprocessing layers",
    "tf.contrib.framework": "tf.compat.v1.train / tf.compat.v1 variable functions",
    "tf.contrib.framework.arg_scope": "tf.contrib.slim.arg_scope (tf-slim, provided)",
    "tf.contrib.framework.add_arg_scope": "tf.contrib.slim.add_arg_scope (tf-slim, provided)",
    "tf.contrib.framework.nest": "tf.nest",
    "tf.contrib.framework.assign_from_checkpoint_fn": (
        "tf.contrib.slim.assign_from_checkpoint_fn (tf-slim, provided), or "
        "tf.compat.v1.train.Saver(var_list).restore(sess, path)"),
    "tf.contrib.gan": "TF-GAN (the tensorflow-gan package)",
    "tf.contrib.graph_editor": "no maintained replacement",
    "tf.contrib.grid_rnn": _CONTRIB_SOURCE,
    "tf.contrib.image": "tf.image, or tensorflow-addons' tfa.image (archived)",
    "tf.contrib.keras": "tf_keras (Keras 2) or keras (Keras 3)",
    "tf.contrib.layers": ("tf.compat.v1.layers (conv2d, batch_normalization, dropout, dense, "
                          "max_pooling2d, ...; variables are named kernel/bias, not weights/biases)"),
    "tf.contrib.layers.conv2d": ("tf.contrib.slim.conv2d (the same function, from tf-slim; provided), "
                                 "or tf.compat.v1.layers.conv2d (variables conv2d/kernel, conv2d/bias)"),
    "tf.contrib.layers.batch_norm": ("tf.contrib.slim.batch_norm (the same function, from tf-slim; "
                                     "provided), or tf.compat.v1.layers.batch_normalization"),
    "tf.contrib.layers.dropout": "tf.compat.v1.layers.dropout (rate = 1 - keep_prob)",
    "tf.contrib.layers.summarize_tensor": "tf.compat.v1.summary.histogram / scalar",
    "tf.contrib.learn": _NO_LEARN,
    "tf.contrib.learn.datasets": "tf.keras.datasets (e.g. tf.keras.datasets.mnist.load_data())",
    "tf.contrib.legacy_seq2seq": ("port the function from TensorFlow 1.15's legacy_seq2seq onto "
                                  "tf.contrib.legacy_seq2seq.rnn_decoder / tf.compat.v1.nn"),
    "tf.contrib.linear_optimizer": "tf.compat.v1.train optimizers on a linear model",
    "tf.contrib.lookup": "tf.lookup",
    "tf.contrib.losses": "tf.compat.v1.losses",
    "tf.contrib.metrics": "tf.compat.v1.metrics (streaming_<m> became tf.compat.v1.metrics.<m>)",
    "tf.contrib.mixed_precision": ("tf.compat.v1.train.experimental.MixedPrecisionLossScaleOptimizer, "
                                   "or tf.keras.mixed_precision"),
    "tf.contrib.model_pruning": "tensorflow-model-optimization (tfmot.sparsity)",
    "tf.contrib.nccl": "tf.distribute.NcclAllReduce",
    "tf.contrib.nn": "tf.nn",
    "tf.contrib.opt": "tf.compat.v1.train optimizers, or Keras optimizers",
    "tf.contrib.opt.AdamWOptimizer": "tf.keras.optimizers.AdamW (TF2 path)",
    "tf.contrib.opt.MovingAverageOptimizer": "tf.compat.v1.train.ExponentialMovingAverage",
    "tf.contrib.opt.ScipyOptimizerInterface": "scipy.optimize with gradients from a tf.Session",
    "tf.contrib.optimizer_v2": "tf.keras.optimizers",
    "tf.contrib.predictor": "tf.saved_model.load",
    "tf.contrib.quantize": "tensorflow-model-optimization (tfmot.quantization)",
    "tf.contrib.rnn": "tf.compat.v1.nn.rnn_cell",
    "tf.contrib.rnn.AttentionCellWrapper": (
        _ADDONS + " had tfa.seq2seq.AttentionWrapper; otherwise " + _CONTRIB_SOURCE),
    "tf.contrib.rnn.LSTMBlockCell": "tf.contrib.rnn.LSTMCell (the same LSTM without the fused kernel)",
    "tf.contrib.rnn.LSTMBlockFusedCell": "tf.compat.v1.nn.dynamic_rnn with tf.contrib.rnn.LSTMCell",
    "tf.contrib.rnn.GRUBlockCell": "tf.contrib.rnn.GRUCell",
    "tf.contrib.rnn.GRUBlockCellV2": "tf.contrib.rnn.GRUCell",
    "tf.contrib.rnn.ConvLSTMCell": "tf.keras.layers.ConvLSTM2D",
    "tf.contrib.rnn.OutputProjectionWrapper": ("apply tf.compat.v1.layers.dense to the RNN outputs "
                                               "(variables are named differently)"),
    "tf.contrib.rnn.EmbeddingWrapper": "tf.nn.embedding_lookup on the inputs before the cell",
    "tf.contrib.rnn.InputProjectionWrapper": "tf.compat.v1.layers.dense on the inputs before the cell",
    "tf.contrib.rnn.stack_bidirectional_rnn": "a loop of tf.contrib.rnn.static_bidirectional_rnn",
    "tf.contrib.rnn.stack_bidirectional_dynamic_rnn": "a loop of tf.compat.v1.nn.bidirectional_dynamic_rnn",
    "tf.contrib.saved_model": "tf.compat.v1.saved_model",
    "tf.contrib.seq2seq": (_ADDONS + " continued it as tfa.seq2seq; port decoding to Keras layers "
                           "or KerasHub"),
    "tf.contrib.signal": "tf.signal",
    "tf.contrib.sparsemax": "tensorflow-addons' tfa.activations.sparsemax (archived)",
    "tf.contrib.stateless": "tf.random.stateless_uniform / stateless_normal",
    "tf.contrib.summary": "tf.summary (TF2) or tf.compat.v1.summary",
    "tf.contrib.tensor_forest": "TensorFlow Decision Forests (tensorflow-decision-forests)",
    "tf.contrib.text": "tensorflow-text",
    "tf.contrib.timeseries": "tensorflow-probability (tfp.sts)",
    "tf.contrib.tpu": ("tf.distribute.TPUStrategy (tf1clip provides TPUEstimator and its "
                       "configuration, and the ops still in tf.compat.v1.tpu)"),
    "tf.contrib.tpu.keras_to_tpu_model": "tf.distribute.TPUStrategy with Keras",
    "tf.contrib.tpu.TPUDistributionStrategy": "tf.distribute.TPUStrategy",
    "tf.contrib.training": ("tf.data for input pipelines (bucket_by_sequence_length -> "
                            "tf.data.experimental.bucket_by_sequence_length)"),
}


class ContribNotProvidedError(ImportError):
  """A `tf.contrib` name that tf1clip does not provide; raised where the script first uses it.

  Attributes:
    symbol: the dotted name, spelled "tf.contrib...." whatever the script wrote.
  """

  def __init__(self, symbol):
    self.symbol = normalize(symbol)
    super().__init__(explain(self.symbol), name=self.symbol)

  def __reduce__(self):  # pickle (multiprocessing) must rebuild it from the symbol, not the message
    return type(self), (self.symbol,)


def normalize(name):
  """Spells a contrib name as "tf.contrib.<...>" ("tensorflow.contrib.rnn" -> "tf.contrib.rnn")."""
  name = name.strip()
  for prefix in ("tensorflow.contrib", "tf1clip.contrib", "contrib"):
    if name == prefix or name.startswith(prefix + "."):
      return "tf.contrib" + name[len(prefix):]
  return name


def is_provided(name):
  """True when `name` (a dotted contrib name, or a provided submodule) is served by tf1clip."""
  name = normalize(name)
  if name in PROVIDED or name == "tf.contrib":
    return True
  parts = name.split(".")
  if len(parts) > 3 and parts[2] in WHOLE_PACKAGES:
    return True
  return len(parts) == 3 and parts[2] in PROVIDED_SUBMODULES


def replacement(name):
  """What to use instead of an unsupported contrib name (longest matching UNSUPPORTED prefix)."""
  parts = normalize(name).split(".")
  for end in range(len(parts), 1, -1):
    advice = UNSUPPORTED.get(".".join(parts[:end]))
    if advice is not None:
      return advice
  return UNSUPPORTED["tf.contrib"]


def explain(name):
  """The one sentence `tf1clip run` raises and `tf1clip check` prints for a contrib name.

  Args:
    name: a dotted name such as "tf.contrib.tpu.TPUEstimator" (or "tensorflow.contrib...").

  Returns:
    "tf.contrib.rnn.BasicLSTMCell is provided by tf1clip (from ...)" for provided names, else
    "tf.contrib.tpu.TPUEstimator is not provided by tf1clip; use instead: ...".
  """
  name = normalize(name)
  if name in PROVIDED:
    return "%s is provided by tf1clip (from %s)" % (name, PROVIDED[name])
  parts = name.split(".")
  if len(parts) > 3 and parts[2] in WHOLE_PACKAGES:
    return "%s is provided by tf1clip (from %s)" % (
        name, ".".join([WHOLE_PACKAGES[parts[2]]] + parts[3:]))
  if is_provided(name):
    return "%s is provided by tf1clip (module tf1clip.contrib%s)" % (name, name[len("tf.contrib"):])
  if len(parts) >= 3 and parts[:2] == ["tf", "contrib"] and parts[2] not in TF115_SUBMODULES:
    return ("%s is not provided by tf1clip (TensorFlow 1.15 had no tf.contrib.%s either)"
            % (name, parts[2]))
  return "%s is not provided by tf1clip; use instead: %s" % (name, replacement(name))


class UnsupportedModule(types.ModuleType):
  """Stands for an unsupported `tf.contrib.<name>` so the error can name the whole dotted path.

  Touching any public attribute raises ContribNotProvidedError("tf.contrib.<name>.<attr>");
  calling it raises for "tf.contrib.<name>". Dunder lookups raise AttributeError so importlib,
  pickle and introspection treat it as an ordinary (empty) module.
  """

  def __init__(self, symbol):
    super().__init__(normalize(symbol), explain(symbol))
    self.__dict__["_symbol"] = normalize(symbol)

  def __getattr__(self, attr):
    if attr.startswith("__"):
      raise AttributeError(attr)
    raise ContribNotProvidedError(self._symbol + "." + attr)

  def __call__(self, *args, **kwargs):
    raise ContribNotProvidedError(self._symbol)

  def __repr__(self):
    return "<tf1clip stand-in for %s: not provided>" % self._symbol


def unsupported_module(symbol):
  """The stand-in module for an unsupported contrib submodule (e.g. "tf.contrib.tpu")."""
  return UnsupportedModule(symbol)


def missing_attribute_hook(module_symbol, lazy=None):
  """Builds the module-level `__getattr__` of a provided contrib module.

  Args:
    module_symbol: the module's TF1 name, e.g. "tf.contrib.rnn".
    lazy: optional dict attr -> "package.module:attr" resolved on first access (for names that
      other tf1clip modules own, imported only when used).

  Returns:
    A `__getattr__(attr)` that resolves `lazy` names and raises ContribNotProvidedError naming
    "<module_symbol>.<attr>" for every other public name.
  """
  lazy = dict(lazy or {})

  def __getattr__(attr):  # pylint: disable=invalid-name
    if attr in lazy:
      import importlib  # pylint: disable=import-outside-toplevel
      module_name, _, target = lazy[attr].partition(":")
      return getattr(importlib.import_module(module_name), target)
    if attr.startswith("__"):
      raise AttributeError("module %r has no attribute %r" % (module_symbol, attr))
    raise ContribNotProvidedError(module_symbol + "." + attr)

  return __getattr__

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

import collections
import functools
import os
import sys
import types

from tf1clip import shims
from tf1clip import tf115

# A contrib module may import tf-slim or tensorflow-estimator at its top: their shims go in first (tf1clip.shims).
shims.install_import_hook()

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

# Served names whose parameters differ from TF 1.15's in a way a TF 1.15 call can notice (not just a new
# parameter with a default), and why; a key ending in "." covers every name below it. tests/oracle/test_inventory.py compares every served signature with
# the inventory (TF 1.15's own) and fails on a difference that is not listed here; docs/contrib.md shows it.
_TFP = ("tensorflow-probability 0.25's class (TF 1.15's contrib.distributions continued there; the same "
        "object tfp users get): ")
SIGNATURE_DIFFERENCES = {
    "tf.contrib.cluster_resolver.SlurmClusterResolver": (
        "TensorFlow 2.21's class (TF 1.15 re-exported the same one): `jobs` became optional and the GPU "
        "counts default to auto-detection (None) instead of 1"),
    "tf.contrib.data.make_batched_features_dataset": (
        "TensorFlow 2.21's function: `reader=None` stands for TFRecordDataset, TF 1.15's default"),
    "tf.contrib.layers.safe_embedding_lookup_sparse": (
        "TensorFlow 2.21's tf.compat.v1.nn function: `combiner=None` was TF 1.15's spelling of the default "
        "'mean' (it logged a warning and used 'mean'); `allow_fast_lookup` is new"),
    **{"tf.contrib.framework.nest." + name: (
        "TensorFlow 2.21's nest (TF 1.15's contrib.framework re-exported TensorFlow's own): "
        "`check_subtrees_length` is gone; shallow structures are always checked in full")
       for name in ("assert_shallow_structure", "flatten_up_to", "flatten_with_tuple_paths_up_to")},
    "tf.contrib.lookup.HashTable": (
        "TensorFlow 2.21's lookup_ops.HashTable (TF 1.15's own class): `shared_name` is gone (tables are "
        "no longer shared between sessions by name); pass `name=` by keyword"),
    "tf.contrib.eager.": (
        "TensorFlow 2.21's own objects that continued tfe's (tf.function for defun, OwnedIterator for Iterator, "
        "tf.py_function for py_func, ...): their parameters evolved with TensorFlow (experimental_relax_shapes "
        "became reduce_retracing, arguments gained defaults); TF 1.15's calls work"),
    # every class contrib.distributions serves from tfp (and its bijectors): tfp's constructors grew
    # parameters and renamed a few since TF 1.15 (InverseGamma's rate -> scale, MultivariateNormalDiag
    # lost scale_identity_multiplier, Mixture lost use_static_graph, ...)
    "tf.contrib.distributions.": _TFP + "check the class's tfp documentation for what changed",
}

_CELLS = "tf_keras.src.layers.rnn.legacy_cells"
_WRAPPERS = "tf_keras.src.layers.rnn.legacy_cell_wrappers"
_PORT = "tf1clip's port of TF 1.15 contrib"
_SLIM = "tf-slim 1.1.0, through tf1clip.contrib.slim's shim: tf_slim"
_ESTIMATOR = "tensorflow-estimator 2.15, through tf1clip's shim (shims.tensorflow_estimator): "

# Dotted name -> where the object comes from. Submodules listed here are importable as
# tf1clip.contrib.<name> (and, through the runner, as tensorflow.contrib.<name>).
PROVIDED = {
    # contrib.estimator
    "tf.contrib.estimator.clip_gradients_by_norm": "tf1clip.optimizer.clip_gradients_by_norm",
    "tf.contrib.estimator.forward_features": _PORT + " (tensorflow-estimator 2.15 dropped it)",
    **{"tf.contrib.estimator." + name: _PORT + " (tensorflow-estimator 2.15 dropped it)" for name in (
        "export_saved_model_for_mode", "export_all_saved_models")},
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
    "tf.contrib.data.LMDBDataset": _PORT + " (the files read with py-lmdb; TensorFlow 2 removed the kernel)",
    **{"tf.contrib.data." + name: _PORT + " (tensorflow dropped it)" for name in (
        "assert_element_shape", "reduce_dataset", "read_batch_features", "CheckpointInputPipelineHook")},
    # contrib.layers
    **{"tf.contrib.layers." + name: _SLIM + ".optimizers." + name + " (TF 1.15's code, = tf.contrib.slim's)"
       for name in ("optimize_loss", "adaptive_clipping_fn", "OPTIMIZER_CLS_NAMES", "OPTIMIZER_SUMMARIES")},
    "tf.contrib.layers.embed_sequence": _PORT + "; variable EmbedSequence/embeddings",
    "tf.contrib.layers.bow_encoder": _PORT + "; variable bow_encoder/embeddings",
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
    "tf.contrib.rnn.LSTMBlockCell": _PORT + " on tf.raw_ops.LSTMBlockCell; variables lstm_cell/kernel, bias",
    "tf.contrib.rnn.LSTMBlockFusedCell": _PORT + " on tf.raw_ops.BlockLSTM; variables lstm_fused_cell/kernel, bias",
    "tf.contrib.rnn.LSTMBlockWrapper": _PORT,
    "tf.contrib.rnn.GRUBlockCell": _PORT + " on tf.raw_ops.GRUBlockCell; variables gru_cell/w_ru, b_ru, w_c, b_c",
    "tf.contrib.rnn.GRUBlockCellV2": _PORT + " on tf.raw_ops.GRUBlockCell; variables gru_cell/gates/kernel, ...",
    "tf.contrib.rnn.FusedRNNCell": _PORT,
    "tf.contrib.rnn.FusedRNNCellAdaptor": _PORT,
    "tf.contrib.rnn.TimeReversedFusedRNN": _PORT,
    "tf.contrib.rnn.AttentionCellWrapper": _PORT,
    "tf.contrib.rnn.HighwayWrapper": _PORT,
    "tf.contrib.rnn.EmbeddingWrapper": _PORT + " (the embedding is not pinned to /cpu:0)",
    **{"tf.contrib.rnn." + name: _PORT + " (tf1clip.contrib.rnn.conv_lstm; variables kernel, biases)"
       for name in "ConvLSTMCell Conv1DLSTMCell Conv2DLSTMCell Conv3DLSTMCell".split()},
    "tf.contrib.rnn.InputProjectionWrapper": _PORT,
    "tf.contrib.rnn.OutputProjectionWrapper": _PORT,
    "tf.contrib.rnn.transpose_batch_time": _PORT,
    "tf.contrib.rnn.CompiledWrapper": _PORT + " (the cell's ops in tf.compat.v1.xla.experimental.jit_scope)",
    "tf.contrib.rnn.best_effort_input_batch_size": _PORT,
    "tf.contrib.rnn.LayerRNNCell": ("tf-keras' legacy LayerRNNCell (the base class of "
                                    "tf.compat.v1.nn.rnn_cell's cells)"),
    "tf.contrib.rnn.CoupledInputForgetGateLSTMCell": _PORT,
    "tf.contrib.rnn.IndyLSTMCell": _PORT,
    "tf.contrib.rnn.UGRNNCell": _PORT,
    **{"tf.contrib.rnn." + name: _PORT + " (tf1clip.contrib.rnn.independent_cells)" for name in (
        "IndRNNCell", "IndyGRUCell", "SRUCell", "IntersectionRNNCell", "PhasedLSTMCell", "GLSTMCell")},
    **{"tf.contrib.rnn." + name: _PORT + " (tf1clip.contrib.rnn.grid_cells)" for name in (
        "TimeFreqLSTMCell", "GridLSTMCell", "BidirectionalGridLSTMCell")},
    "tf.contrib.rnn.stack_bidirectional_rnn": _PORT,
    "tf.contrib.rnn.stack_bidirectional_dynamic_rnn": _PORT,
    # contrib.crf
    "tf.contrib.crf.crf_log_likelihood": _PORT + "; creates the variable transitions [num_tags, num_tags]",
    **{"tf.contrib.crf." + name: _PORT for name in """
        crf_sequence_score crf_unary_score crf_binary_score crf_log_norm crf_decode viterbi_decode
        CrfForwardRnnCell CrfDecodeForwardRnnCell CrfDecodeBackwardRnnCell crf_multitag_sequence_score""".split()},
    # contrib.cudnn_rnn
    **{"tf.contrib.cudnn_rnn." + name: _PORT + " on tf.raw_ops.CudnnRNNV3 (GPU only; on CPU: the "
       "CudnnCompatible cells)" for name in "CudnnLSTM CudnnGRU CudnnRNNTanh CudnnRNNRelu".split()},
    "tf.contrib.cudnn_rnn.CudnnCompatibleLSTMCell": _PORT + "; variables cudnn_compatible_lstm_cell/kernel, bias",
    "tf.contrib.cudnn_rnn.CudnnCompatibleGRUCell": _PORT + "; variables cudnn_compatible_gru_cell/gates/...",
    **{"tf.contrib.cudnn_rnn." + name: _PORT + " on tf.raw_ops.CudnnRNNParamsToCanonical / CudnnRNNCanonicalToParams "
       "(GPU only: the graph builds anywhere, running it needs a GPU)" for name in """
        CudnnLSTMSaveable CudnnGRUSaveable CudnnRNNTanhSaveable CudnnRNNReluSaveable CudnnParamsFormatConverterLSTM
        CudnnParamsFormatConverterGRU CudnnParamsFormatConverterTanh CudnnParamsFormatConverterRelu""".split()},
    **{"tf.contrib.cudnn_rnn." + name: _PORT for name in """
        CUDNN_LSTM CUDNN_GRU CUDNN_RNN_TANH CUDNN_RNN_RELU CUDNN_RNN_UNIDIRECTION CUDNN_RNN_BIDIRECTION
        CUDNN_INPUT_LINEAR_MODE""".split()},
    # contrib.legacy_seq2seq
    "tf.contrib.legacy_seq2seq.rnn_decoder": _PORT,
    "tf.contrib.legacy_seq2seq.basic_rnn_seq2seq": _PORT,
    "tf.contrib.legacy_seq2seq.sequence_loss": _PORT,
    "tf.contrib.legacy_seq2seq.sequence_loss_by_example": _PORT,
    "tf.contrib.legacy_seq2seq.tied_rnn_seq2seq": _PORT,
    "tf.contrib.legacy_seq2seq.embedding_rnn_decoder": _PORT,
    "tf.contrib.legacy_seq2seq.embedding_rnn_seq2seq": _PORT,
    "tf.contrib.legacy_seq2seq.embedding_tied_rnn_seq2seq": _PORT,
    "tf.contrib.legacy_seq2seq.attention_decoder": _PORT,
    "tf.contrib.legacy_seq2seq.embedding_attention_decoder": _PORT,
    "tf.contrib.legacy_seq2seq.embedding_attention_seq2seq": _PORT,
    "tf.contrib.legacy_seq2seq.one2many_rnn_seq2seq": _PORT,
    "tf.contrib.legacy_seq2seq.model_with_buckets": _PORT,
    # contrib.seq2seq
    "tf.contrib.seq2seq.sequence_loss": _PORT,
    "tf.contrib.seq2seq.SequenceLoss": _PORT + " (a tf-keras Loss)",
    "tf.contrib.seq2seq.dynamic_decode": _PORT,
    "tf.contrib.seq2seq.Decoder": _PORT,
    "tf.contrib.seq2seq.BasicDecoder": _PORT,
    "tf.contrib.seq2seq.BasicDecoderOutput": _PORT,
    "tf.contrib.seq2seq.Helper": _PORT,
    "tf.contrib.seq2seq.TrainingHelper": _PORT,
    "tf.contrib.seq2seq.GreedyEmbeddingHelper": _PORT,
    "tf.contrib.seq2seq.SampleEmbeddingHelper": _PORT,
    "tf.contrib.seq2seq.ScheduledEmbeddingTrainingHelper": _PORT,
    "tf.contrib.seq2seq.ScheduledOutputTrainingHelper": _PORT,
    "tf.contrib.seq2seq.InferenceHelper": _PORT,
    "tf.contrib.seq2seq.CustomHelper": _PORT,
    "tf.contrib.seq2seq.AttentionMechanism": _PORT,
    "tf.contrib.seq2seq.BahdanauAttention": _PORT,
    "tf.contrib.seq2seq.LuongAttention": _PORT,
    "tf.contrib.seq2seq.BahdanauMonotonicAttention": _PORT,
    "tf.contrib.seq2seq.LuongMonotonicAttention": _PORT,
    "tf.contrib.seq2seq.AttentionWrapper": _PORT,
    "tf.contrib.seq2seq.AttentionWrapperState": _PORT,
    "tf.contrib.seq2seq.hardmax": _PORT,
    "tf.contrib.seq2seq.safe_cumprod": _PORT,
    "tf.contrib.seq2seq.monotonic_attention": _PORT,
    "tf.contrib.seq2seq.BeamSearchDecoder": _PORT,
    "tf.contrib.seq2seq.BeamSearchDecoderState": _PORT,
    "tf.contrib.seq2seq.BeamSearchDecoderOutput": _PORT,
    "tf.contrib.seq2seq.FinalBeamSearchDecoderOutput": _PORT,
    "tf.contrib.seq2seq.tile_batch": _PORT,
    "tf.contrib.seq2seq.gather_tree": _PORT,
    # contrib.framework
    "tf.contrib.framework.get_or_create_global_step": "tf.compat.v1.train.get_or_create_global_step",
    "tf.contrib.framework.get_global_step": _SLIM + ".get_global_step (TF 1.15's deprecated wrapper of "
                                            "tf.compat.v1.train.get_global_step)",
    **{"tf.contrib.framework." + name: _PORT + " (TF 1.15's parameter names; tf.train's function inside)"
       for name in ("list_variables", "load_variable", "load_checkpoint", "init_from_checkpoint")},
    "tf.contrib.lookup.string_to_index": _PORT + " (index_table_from_tensor(...).lookup)",
    "tf.contrib.lookup.index_to_string": _PORT + " (index_to_string_table_from_tensor(...).lookup)",
    "tf.contrib.lookup.string_to_index_table_from_file": _PORT + " (index_table_from_file)",
    "tf.contrib.lookup.string_to_index_table_from_tensor": _PORT + " (index_table_from_tensor)",
    "tf.contrib.lookup.index_table_from_tensor": _PORT + " (TF 1.15's `mapping` name; lookup_ops inside)",
    "tf.contrib.lookup.index_to_string_table_from_tensor": _PORT + " (TF 1.15's `mapping` name)",
    "tf.contrib.learn.ModeKeys": _PORT + " (TRAIN 'train', EVAL 'eval', INFER 'infer')",
    "tf.contrib.eager.Variable": "TensorFlow's ResourceVariable (what tfe.Variable was)",
    **{"tf.contrib.mixed_precision." + name: _PORT + " (tf1clip.contrib.mixed_precision)" for name in (
        "LossScaleOptimizer", "LossScaleManager", "FixedLossScaleManager", "ExponentialUpdateLossScaleManager")},
    "tf.contrib.factorization.KMeans": "TensorFlow's clustering_ops.KMeans (TF 1.15's own class)",
    "tf.contrib.framework.get_variables": _PORT,
    "tf.contrib.framework.get_variables_to_restore": _PORT,
    "tf.contrib.framework.get_model_variables": _PORT,
    "tf.contrib.framework.get_trainable_variables": _PORT,
    "tf.contrib.framework.get_local_variables": _SLIM + ".get_local_variables",
    "tf.contrib.framework.get_variables_by_name": _PORT,
    "tf.contrib.framework.get_variables_by_suffix": _SLIM + ".get_variables_by_suffix",
    "tf.contrib.framework.add_model_variable": _SLIM + ".add_model_variable",
    "tf.contrib.framework.model_variable": _PORT,
    "tf.contrib.framework.variable": _PORT,
    # contrib.opt
    "tf.contrib.opt.clip_gradients_by_global_norm": _PORT,
    "tf.contrib.opt.MultitaskOptimizerWrapper": _PORT,
    **{"tf.contrib.nn." + name: _PORT + " (tf1clip.contrib.nn)" for name in """alpha_dropout scaled_softplus
        sampled_sparse_softmax_loss rank_sampled_softmax_loss
        nth_element deprecated_flipped_softmax_cross_entropy_with_logits
        deprecated_flipped_sparse_softmax_cross_entropy_with_logits
        deprecated_flipped_sigmoid_cross_entropy_with_logits""".split()},
    "tf.contrib.compiler.jit": "tf1clip.contrib.compiler.jit (experimental_jit_scope: TensorFlow's jit_scope)",
    "tf.contrib.compiler.xla": ("tf1clip.contrib.compiler.xla (compile: tf.compat.v1.xla.experimental.compile; "
                                "estimator_model_fn: TF 1.15's decorator on it)"),
    "tf.contrib.keras.api": "tf1clip.contrib.keras.api (its `keras` is tf.contrib.keras again)",
    "tf.contrib.keras.wrappers": ("tf1clip.contrib.keras.wrappers (scikit_learn: TF 1.15's KerasClassifier / "
                                  "KerasRegressor, tf1clip.python.keras.wrappers.scikit_learn)"),
    "tf.contrib.opt.LazyAdamOptimizer": _PORT + "; a tf.compat.v1.train.AdamOptimizer subclass",
    "tf.contrib.opt.AdamWOptimizer": _PORT + "; decoupled weight decay around tf.compat.v1.train.AdamOptimizer",
    "tf.contrib.opt.MomentumWOptimizer": _PORT + "; decoupled weight decay around MomentumOptimizer",
    "tf.contrib.opt.DecoupledWeightDecayExtension": _PORT,
    "tf.contrib.opt.extend_with_decoupled_weight_decay": _PORT,
    "tf.contrib.opt.NadamOptimizer": _PORT + "; TF's ApplyAdam kernel with use_nesterov=True",
    "tf.contrib.opt.AdaMaxOptimizer": _PORT + "; TF's ApplyAdaMax kernel",
    "tf.contrib.opt.AddSignOptimizer": _PORT + "; TF's ApplyAddSign kernel",
    "tf.contrib.opt.PowerSignOptimizer": _PORT + "; TF's ApplyPowerSign kernel",
    "tf.contrib.opt.VariableClippingOptimizer": _PORT,
    "tf.contrib.opt.MovingAverageOptimizer": _PORT + "; tf.compat.v1.train.ExponentialMovingAverage inside",
    "tf.contrib.opt.ScipyOptimizerInterface": _PORT + "; scipy.optimize.minimize (L-BFGS-B by default)",
    "tf.contrib.opt.ExternalOptimizerInterface": _PORT,
    "tf.contrib.opt.LARSOptimizer": _PORT + "; TF's momentum kernels",
    "tf.contrib.opt.RegAdagradOptimizer": _PORT + "; TF's Adagrad kernels with update_slots",
    "tf.contrib.opt.DropStaleGradientOptimizer": _PORT,
    "tf.contrib.opt.AdamGSOptimizer": _PORT + "; a tf.compat.v1.train.AdamOptimizer subclass",
    "tf.contrib.opt.LazyAdamGSOptimizer": _PORT + "; a LazyAdamOptimizer subclass",
    "tf.contrib.opt.GGTOptimizer": _PORT + "; on the v1 Optimizer (TF 1.15's was an OptimizerV2)",
    "tf.contrib.opt.ShampooOptimizer": _PORT + " (tf1clip.contrib.opt.shampoo)",
    # contrib.training
    "tf.contrib.training.HParams": _PORT + " (without the protocol-buffer methods)",
    # contrib.graph_editor: ours, on tf.Graph / tf.Operation (in_place.py holds the private calls)
    **{"tf.contrib.graph_editor." + name: _PORT + " (tf1clip.contrib.graph_editor)" for name in """
        sgv sgv_scope ph make_view make_view_from_scope SubGraphView
        select_ops select_ts select_ops_and_ts filter_ts filter_ts_from_regex filter_ops
        filter_ops_from_regex get_name_scope_ops get_ops_ios compute_boundary_ts check_cios
        get_within_boundary_ops get_forward_walk_ops get_backward_walk_ops
        get_walks_intersection_ops get_walks_union_ops
        reroute_ts swap_ts reroute_inputs swap_inputs reroute_outputs swap_outputs reroute_ios
        swap_ios add_control_inputs remove_control_inputs
        detach detach_inputs detach_outputs detach_control_inputs detach_control_outputs connect
        bypass
        Transformer TransformerInfo copy copy_with_input_replacements graph_replace copy_op_handler
        replace_t_with_placeholder_handler keep_t_if_possible_handler
        transform_op_if_inside_handler
        get_consuming_ops get_generating_ops get_tensors ControlOutputs make_list_of_op
        make_list_of_t get_unique_graph is_iterable concatenate_unique flatten_tree transform_tree
        ListView placeholder_name make_placeholder_from_tensor make_placeholder_from_dtype_and_shape
        get_predefined_collection_names find_corresponding find_corresponding_elem can_be_regex make_regex
        assign_renamed_collections_handler util""".split()},
    # contrib.learn: preprocessing and local-file datasets (ours); its Estimator API is SERVED below
    **{"tf.contrib.learn.preprocessing." + name: _PORT + " (tf1clip.contrib.learn.preprocessing)"
       for name in "VocabularyProcessor CategoricalVocabulary ByteProcessor tokenizer".split()},
    **{"tf.contrib.learn.datasets." + name: _PORT + " (tf1clip.contrib.learn.datasets; local files only)"
       for name in "base mnist load_dataset".split()},
    **{"tf.contrib.learn.datasets." + name: _PORT + " (the data file TF 1.15 shipped, bundled)"
       for name in "load_iris load_boston".split()},
    **{"tf.contrib.learn.datasets." + name: _PORT + " (tf1clip.contrib.learn.datasets.synthetic; NumPy)"
       for name in "make_dataset synthetic".split()},
    "tf.contrib.learn.preprocessing": _PORT + " (tf1clip.contrib.learn.preprocessing)",
    "tf.contrib.learn.datasets": _PORT + " (tf1clip.contrib.learn.datasets)",
    # contrib.slim: the whole tf_slim package (see WHOLE_PACKAGES); the names training scripts use
    **{"tf.contrib.slim." + name: _SLIM + "." + name for name in """
        arg_scope add_arg_scope conv2d fully_connected max_pool2d avg_pool2d flatten dropout
        batch_norm l2_regularizer l1_regularizer learning losses metrics get_variables
        get_variables_to_restore get_model_variables assign_from_checkpoint_fn model_variable
        variable local_variable global_variable""".split()},
}

# Dotted TF1 name -> "python.module:attribute.path" of the object served under it, resolved on first
# access by the contrib module's `__getattr__` (see `served`). Each is the same object TensorFlow 2.21,
# tf-slim, tensorflow-probability (or tf1clip's own module) holds, so tests compare identities.
SERVED = {}


def _serve(module, source, names):
  """Adds `tf.contrib.<module>.<name>` -> `<source>.<name>` to SERVED for each of `names`."""
  package, _, prefix = source.partition(":")
  for name in names.split():
    SERVED["tf.contrib.%s.%s" % (module, name)] = "%s:%s" % (package, (prefix + "." + name).lstrip("."))


# contrib.layers: TF 1.15's layer functions are tf-slim's (tf-slim is contrib.layers moved out); every
# name tf-slim has is tf-slim's object (tf1clip's own copies of flatten / fully_connected / layer_norm got
# TF 1.15's behaviour wrong: flatten of an unknown batch, arg_scope's @add_arg_scope).
_serve("layers", "tf_slim:", """
    flatten fully_connected layer_norm xavier_initializer xavier_initializer_conv2d
    variance_scaling_initializer l1_regularizer l2_regularizer l1_l2_regularizer sum_regularizer
    apply_regularization avg_pool2d avg_pool3d batch_norm bias_add conv1d conv2d conv2d_in_plane conv2d_transpose conv3d
    conv3d_transpose convolution convolution1d convolution2d convolution2d_in_plane
    convolution2d_transpose convolution3d convolution3d_transpose dense_to_sparse dropout elu GDN gdn
    group_norm images_to_sequence instance_norm legacy_fully_connected legacy_linear legacy_relu
    linear max_pool2d max_pool3d maxout one_hot_encoding pool relu relu6 repeat scale_gradient
    separable_conv2d separable_convolution2d sequence_to_images softmax spatial_softmax stack
    unit_norm summarize_activation summarize_activations summarize_biases summarize_collection
    summarize_tensor summarize_tensors summarize_variables summarize_weights RevBlock rev_block
    recompute_grad""")
_serve("layers", "tf_slim.layers:layers", "poincare_normalize")
# optimize_loss and its helpers: TF 1.15's code (contrib/layers/optimizers.py moved to tf-slim), the same objects as
# tf.contrib.slim.optimize_loss, as in TF 1.15 (tf1clip.optimize_loss is tf1clip's own, with its fixes)
_serve("layers", "tf_slim.layers:optimizers",
       "optimize_loss adaptive_clipping_fn OPTIMIZER_CLS_NAMES OPTIMIZER_SUMMARIES")
# TF 1.15's contrib.layers.summaries module is tf-slim's (the summarize_* functions above come from it)
SERVED["tf.contrib.layers.summaries"] = "tf_slim.layers.summaries:"
_serve("layers", "tensorflow:compat.v1.nn", "safe_embedding_lookup_sparse")
_serve("layers", "tf1clip.contrib.layers.embedding_ops:", "embedding_lookup_unique")
# contrib.framework
_serve("framework", "tf_slim:", """
    arg_scope add_arg_scope arg_scoped_arguments has_arg_scope current_arg_scope arg_scope_func_key
    assign_from_checkpoint assign_from_checkpoint_fn assign_from_values assign_from_values_fn
    local_variable global_variable filter_variables get_unique_variable get_variable_full_name
    assert_global_step assert_or_get_global_step create_global_step VariableDeviceChooser
    get_global_step add_model_variable get_local_variables get_variables_by_suffix""")
_serve("framework", "tensorflow:compat.v1", "is_tensor convert_to_tensor_or_sparse_tensor")
SERVED["tf.contrib.framework.nest"] = "tf1clip.python.util.nest:"
_serve("framework", "tensorflow:", "sort argsort")  # TF 1.13 moved them from contrib to core
_serve("framework", "tensorflow.python.framework.ops:", "get_name_scope")
_serve("framework", "tensorflow.python.framework.smart_cond:", "smart_cond")
# contrib.metrics: tf-slim's metrics are TF 1.15's contrib.metrics moved out.
_serve("metrics", "tf_slim:metrics", """
    accuracy aggregate_metric_map aggregate_metrics auc_using_histogram auc_with_confidence_intervals
    cohen_kappa count f1_score precision_at_recall precision_recall_at_equal_thresholds
    recall_at_precision sparse_recall_at_top_k streaming_accuracy streaming_auc streaming_concat
    streaming_covariance streaming_curve_points streaming_dynamic_auc streaming_false_negative_rate
    streaming_false_negative_rate_at_thresholds streaming_false_negatives
    streaming_false_negatives_at_thresholds streaming_false_positive_rate
    streaming_false_positive_rate_at_thresholds streaming_false_positives
    streaming_false_positives_at_thresholds streaming_mean streaming_mean_absolute_error
    streaming_mean_cosine_distance streaming_mean_iou streaming_mean_relative_error
    streaming_mean_squared_error streaming_mean_tensor streaming_pearson_correlation
    streaming_percentage_less streaming_precision streaming_precision_at_thresholds
    streaming_recall streaming_recall_at_k streaming_recall_at_thresholds
    streaming_root_mean_squared_error streaming_sensitivity_at_specificity
    streaming_sparse_average_precision_at_k streaming_sparse_average_precision_at_top_k
    streaming_sparse_precision_at_k streaming_sparse_precision_at_top_k streaming_sparse_recall_at_k
    streaming_specificity_at_sensitivity streaming_true_negatives
    streaming_true_negatives_at_thresholds streaming_true_positives
    streaming_true_positives_at_thresholds""")
_serve("metrics", "tensorflow:compat.v1", "confusion_matrix")
_serve("metrics", "tensorflow:compat.v1.sets", "set_difference set_intersection set_size set_union")
# contrib.losses: tf-slim's losses keep contrib's argument order (predictions before labels).
_serve("losses", "tf_slim:losses", """
    absolute_difference add_loss compute_weighted_loss cosine_distance get_losses
    get_regularization_losses get_total_loss hinge_loss log_loss mean_pairwise_squared_error
    mean_squared_error sigmoid_cross_entropy softmax_cross_entropy sparse_softmax_cross_entropy
    metric_learning""")
_serve("losses.metric_learning", "tf_slim.losses:metric_learning", """
    cluster_loss contrastive_loss lifted_struct_loss npairs_loss npairs_loss_multilabel
    triplet_semihard_loss""")
# contrib.distributions: TF 1.15 re-exported tf.distributions' classes (TensorFlow 2.21 still has them, in
# tf.compat.v1) beside contrib's own, which continued in tensorflow-probability; all are tfp's here, so they mix
# (a core Normal inside tfp's TransformedDistribution or MixtureSameFamily fails: the oracle found it).
# kl_divergence is one function for both names and both families, as TF 1.15's one registry was.
_serve("distributions", "tensorflow_probability:distributions", """
    Bernoulli Beta Categorical Dirichlet DirichletMultinomial Distribution Exponential Gamma Laplace
    Multinomial Normal StudentT Uniform RegisterKL ReparameterizationType
    FULLY_REPARAMETERIZED NOT_REPARAMETERIZED""")
_serve("distributions", "tf1clip.contrib.distributions.kl:", "kl_divergence")
_serve("distributions", "tf1clip.contrib.distributions.autoregressive:", "Autoregressive")
_serve("distributions", "tensorflow_probability:distributions", """
    BatchReshape Binomial Cauchy Chi2 Deterministic VectorDeterministic
    ExpRelaxedOneHotCategorical Geometric Gumbel HalfNormal Independent InverseGamma Kumaraswamy
    Logistic Mixture MixtureSameFamily MultivariateNormalDiag MultivariateNormalDiagPlusLowRank
    MultivariateNormalFullCovariance MultivariateNormalTriL MultivariateNormalLinearOperator
    NegativeBinomial OneHotCategorical Poisson PoissonLogNormalQuadratureCompound
    QuantizedDistribution RelaxedBernoulli RelaxedOneHotCategorical SinhArcsinh
    TransformedDistribution""")
_serve("distributions", "tensorflow_probability:math", "fill_triangular softplus_inverse")
# ... the utilities TensorFlow 2.21 still has in tensorflow.python.ops.distributions (TF 1.15 re-exported them),
# tfp's where the function kept its signature, and TF 1.15's code where tfp changed or dropped it.
_serve("distributions", "tensorflow.python.ops.distributions.util:", """
    matrix_diag_transform fill_triangular_inverse tridiag reduce_weighted_logsumexp""")
_serve("distributions", "tensorflow_probability:stats", "auto_correlation")
_serve("distributions", "tensorflow_probability:distributions", """
    quadrature_scheme_lognormal_gauss_hermite quadrature_scheme_lognormal_quantiles""")
_serve("distributions", "tensorflow_probability:util", "SeedStream")
_serve("distributions", "tf1clip.contrib.distributions.sample_stats:", "percentile")
_serve("distributions", "tf1clip.contrib.distributions.moving_stats:", """
    assign_moving_mean_variance assign_log_moving_mean_exp moving_mean_variance""")
_serve("distributions", "tf1clip.contrib.distributions.transformed_parameters:", """
    BetaWithSoftplusConcentration ExponentialWithSoftplusRate GammaWithSoftplusConcentrationRate
    LaplaceWithSoftplusScale NormalWithSoftplusScale StudentTWithAbsDfSoftplusScale Chi2WithAbsDf
    InverseGammaWithSoftplusConcentrationRate MultivariateNormalDiagWithSoftplusScale""")
_serve("distributions", "tensorflow_probability:distributions", """
    normal_conjugates_known_scale_posterior normal_conjugates_known_scale_predictive""")
_serve("distributions", "tf1clip.contrib.distributions.wishart:", "WishartCholesky WishartFull")
_serve("distributions", "tf1clip.contrib.distributions.conditional:", """
    ConditionalDistribution ConditionalTransformedDistribution""")
_serve("distributions", "tf1clip.contrib.distributions.vector_distributions:", """
    VectorLaplaceDiag VectorExponentialDiag VectorSinhArcsinhDiag""")
_serve("distributions", "tf1clip.contrib.distributions.estimator:", "estimator_head_distribution_regression")
SERVED["tf.contrib.distributions.bijectors"] = "tf1clip.contrib.distributions.bijectors:"
_serve("distributions.bijectors", "tf1clip.contrib.distributions.bijectors:", """
    Affine AffineLinearOperator AffineScalar ConditionalBijector Gumbel Kumaraswamy Ordered ScaleTriL""")
# ... and tfp's where tfp changed TF 1.15's math or construction, with TF 1.15's on top
_serve("distributions.bijectors", "tf1clip.contrib.distributions.bijectors:", """
    BatchNormalization FillTriangular MatrixInverseTriL SinhArcsinh SoftmaxCentered""")
_serve("distributions.bijectors", "tensorflow_probability:bijectors", """
    AbsoluteValue Bijector Chain CholeskyOuterProduct Exp Identity
    Inline Invert MaskedAutoregressiveFlow Permute PowerTransform RealNVP Reshape
    Sigmoid Softplus Softsign Square TransformDiagonal
    masked_autoregressive_default_template masked_dense real_nvp_default_template""")
# contrib.lookup: TF 1.15's contrib.lookup was lookup_ops; TF 2.21 still has every class and function but
# four deprecated aliases (ours, in tf1clip.contrib.lookup).
_serve("lookup", "tensorflow.python.ops.lookup_ops:", """
    FastHashSpec HashTable HasherSpec IdTableWithHashBuckets InitializableLookupTableBase
    KeyValueTensorInitializer LookupInterface MutableHashTable StrongHashSpec
    TableInitializerBase TextFileIdTableInitializer TextFileIndex TextFileInitializer
    TextFileStringTableInitializer index_table_from_file index_to_string_table_from_file""")
SERVED["tf.contrib.lookup.MutableDenseHashTable"] = "tensorflow.python.ops.lookup_ops:DenseHashTable"  # renamed
# contrib.factorization's K-means Estimator: tensorflow-estimator's, with TF 1.15's constructor and transform.
_serve("factorization", "tf1clip.contrib.factorization.python.ops.kmeans:", "KMeansClustering")
# contrib.factorization: the KMeans graph builder and its constants (TensorFlow's clustering_ops).
_serve("factorization", "tensorflow.python.ops.clustering_ops:", """
    KMeans COSINE_DISTANCE SQUARED_EUCLIDEAN_DISTANCE RANDOM_INIT KMEANS_PLUS_PLUS_INIT""")
# contrib.eager (tfe): the TF 2.21 objects that continued TF 1.x's eager API.
_serve("eager", "tensorflow:", "GradientTape TensorSpec custom_gradient executing_eagerly function")
_serve("eager", "tensorflow:compat.v1", "enable_eager_execution make_template")
_serve("eager", "tensorflow:compat.v1.train", "Checkpoint")
_serve("eager", "tensorflow.python.eager.context:", """
    SYNC ASYNC DEVICE_PLACEMENT_EXPLICIT DEVICE_PLACEMENT_WARN DEVICE_PLACEMENT_SILENT async_wait
    async_clear_error num_gpus execution_mode set_execution_mode""")
_serve("eager", "tensorflow.python.ops.variable_scope:", "EagerVariableStore")
_serve("eager", "tensorflow.python.eager.remote:", "connect_to_remote_host")
# TF 1.15's eager-only helpers (tf1clip.contrib.eager.python.saver / .metrics, tf1clip.python.eager.context's
# list_devices, and tf1clip.python.framework.ops' eager_run: tfe.run)
_serve("eager", "tf1clip.contrib.eager.python.saver:", "Saver restore_variables_on_create get_optimizer_variables")
_serve("eager", "tf1clip.contrib.eager:", "metrics")
_serve("eager", "tf1clip.python.eager.context:", "list_devices")
SERVED["tf.contrib.eager.run"] = "tf1clip.python.framework.ops:eager_run"
_serve("eager", "tf1clip.python.eager.execution_callbacks:", """
    ExecutionCallback add_execution_callback clear_execution_callbacks errstate seterr inf_callback nan_callback
    inf_nan_callback""")
SERVED.update({"tf.contrib.eager." + name: source for name, source in (
    ("Variable", "tensorflow.python.ops.resource_variable_ops:ResourceVariable"),
    ("Checkpointable", "tensorflow.python.trackable.autotrackable:AutoTrackable"),
    ("Iterator", "tensorflow.python.data.ops.iterator_ops:OwnedIterator"),
    ("defun", "tensorflow:function"),
    ("in_eager_mode", "tensorflow:executing_eagerly"),
    ("py_func", "tensorflow:py_function"),
    ("gradients_function", "tensorflow.python.eager.backprop:gradients_function"),
    ("value_and_gradients_function", "tensorflow.python.eager.backprop:val_and_grad_function"),
    ("implicit_gradients", "tensorflow.python.eager.backprop:implicit_grad"),
    ("implicit_value_and_gradients", "tensorflow.python.eager.backprop:implicit_val_and_grad"),
    ("run_test_in_graph_and_eager_modes", "tensorflow.python.framework.test_util:run_in_graph_and_eager_modes"),
    ("run_all_tests_in_graph_and_eager_modes",
     "tensorflow.python.framework.test_util:run_all_in_graph_and_eager_modes"))})
# contrib.summary: TF 1.15's module was summary_ops_v2's graph-mode writer API, still in TF 2.21.
_serve("summary", "tensorflow.python.ops.summary_ops_v2:", """
    SummaryWriter always_record_summaries audio create_file_writer
    create_summary_file_writer eval_dir flush generic histogram image import_event initialize
    never_record_summaries record_summaries_every_n_global_steps scalar should_record_summaries
    summary_writer_initializer_op""")
SERVED["tf.contrib.summary.graph"] = (  # TF 1.15's graph(param, step, name), kept as graph_v1
    "tensorflow.python.ops.summary_ops_v2:graph_v1")
SERVED["tf.contrib.summary.all_summary_ops"] = (  # the same function, renamed
    "tensorflow.python.ops.summary_ops_v2:all_v2_summary_ops")
SERVED["tf.contrib.summary.create_db_writer"] = "tf1clip.contrib.summary:create_db_writer"
# contrib.image: no public TF 2.21 function; tf1clip's own, on the ImageProjectiveTransformV3 op.
_serve("image", "tf1clip.contrib.image:", """
    angles_to_projective_transforms compose_transforms connected_components dense_image_warp
    flat_transforms_to_matrices interpolate_bilinear matrices_to_flat_transforms rotate transform
    translate translations_to_projective_transforms bipartite_match interpolate_spline sparse_image_warp""")
_serve("image", "tf1clip.contrib.image.python.ops.single_image_random_dot_stereograms:", "single_image_random_dot_stereograms")
_serve("signal", "tensorflow:signal", """
    frame hamming_window hann_window inverse_stft inverse_stft_window_fn linear_to_mel_weight_matrix
    mfccs_from_log_mel_spectrograms overlap_and_add stft""")
_serve("util", "tensorflow:", "make_ndarray")
SERVED["tf.contrib.util.constant_value"] = "tensorflow:get_static_value"  # the same function, renamed
# contrib.stateless: TF 2.21's stateless random ops (renamed in tf.random); contrib.nn's conv1d_transpose.
SERVED.update({"tf.contrib.stateless." + name: source for name, source in (
    ("stateless_random_uniform", "tensorflow:random.stateless_uniform"),
    ("stateless_random_normal", "tensorflow:random.stateless_normal"),
    ("stateless_truncated_normal", "tensorflow:random.stateless_truncated_normal"),
    ("stateless_multinomial", "tensorflow:compat.v1.random.stateless_multinomial"))})
SERVED["tf.contrib.nn.conv1d_transpose"] = "tensorflow:nn.conv1d_transpose"
# contrib.framework: the names TF 1.15 re-exported from TensorFlow's own modules, still there in TF 2.21.
SERVED.update({"tf.contrib.framework." + name: source for name, source in (
    ("TensorSpec", "tensorflow:TensorSpec"),
    ("BoundedTensorSpec", "tensorflow.python.framework.tensor_spec:BoundedTensorSpec"),
    ("RecordInput", "tensorflow.python.ops.data_flow_ops:RecordInput"),
    ("assert_same_float_dtype", "tensorflow.python.ops.check_ops:assert_same_float_dtype"),
    ("assert_scalar", "tensorflow:compat.v1.assert_scalar"),
    ("convolutional_delta_orthogonal", "tensorflow.python.ops.init_ops:ConvolutionDeltaOrthogonal"),
    ("convolutional_orthogonal_1d", "tensorflow.python.ops.init_ops:ConvolutionOrthogonal1D"),
    ("convolutional_orthogonal_2d", "tensorflow.python.ops.init_ops:ConvolutionOrthogonal2D"),
    ("convolutional_orthogonal_3d", "tensorflow.python.ops.init_ops:ConvolutionOrthogonal3D"),
    ("deprecated", "tensorflow.python.util.deprecation:deprecated"),
    ("deprecated_args", "tensorflow.python.util.deprecation:deprecated_args"),
    ("deprecated_arg_values", "tensorflow.python.util.deprecation:deprecated_arg_values"),
    ("load_and_remap_matrix_initializer",
     "tensorflow.python.training.checkpoint_ops:_load_and_remap_matrix_initializer"),
    ("load_embedding_initializer", "tensorflow.python.training.checkpoint_ops:_load_embedding_initializer"),
    ("prepend_name_scope", "tensorflow.python.framework.ops:prepend_name_scope"),
    ("strip_name_scope", "tensorflow.python.framework.ops:strip_name_scope"),
    ("smart_case", "tensorflow.python.framework.smart_cond:smart_case"),
    ("smart_constant_value", "tensorflow.python.framework.smart_cond:smart_constant_value"))})
# contrib.framework's own small ops (ported: contrib.framework.python.framework.tensor_util) and the graph helper TF still has.
_serve("framework", "tf1clip.contrib.framework.python.framework.tensor_util:", """
    reduce_sum_n remove_squeezable_dimensions with_shape with_same_shape assert_scalar_int
    get_placeholders fuse_op py_func zero_initializer load_linear_multiclass_bias_initializer
    load_variable_slot_initializer""")
SERVED["tf.contrib.framework.get_graph_from_inputs"] = (
    "tensorflow.python.framework.ops:_get_graph_from_inputs")  # TF 1.15's forwarded to it
# contrib.distribute: TF 1.15's strategies with their constructors (ours, on TensorFlow's v1 strategies) and
# TensorFlow's own context objects and functions.
_serve("distribute", "tf1clip.contrib.distribute:", """
    MirroredStrategy ParameterServerStrategy CollectiveAllReduceStrategy AllReduceCrossDeviceOps Monitor
    UpdateContext""")
_serve("distribute", "tf1clip.python.distribute.cross_device_ops:", "MultiWorkerAllReduce")
SERVED.update({"tf.contrib.distribute." + name: source for name, source in (
    ("OneDeviceStrategy", "tensorflow:compat.v1.distribute.OneDeviceStrategy"),
    ("TPUStrategy", "tensorflow:compat.v1.distribute.experimental.TPUStrategy"),
    ("CrossDeviceOps", "tensorflow:distribute.CrossDeviceOps"),
    ("DistributionStrategy", "tensorflow:compat.v1.distribute.Strategy"),
    ("ReplicaContext", "tensorflow:compat.v1.distribute.ReplicaContext"),
    ("DistributeConfig", "tensorflow.python.distribute.distribute_config:DistributeConfig"),
    ("get_replica_context", "tensorflow:compat.v1.distribute.get_replica_context"),
    ("get_cross_replica_context", "tensorflow.python.distribute.distribute_lib:get_cross_replica_context"),
    ("get_strategy", "tensorflow:compat.v1.distribute.get_strategy"),
    ("get_distribution_strategy", "tensorflow:compat.v1.distribute.get_strategy"),  # TF 1.15's old name
    ("has_strategy", "tensorflow:compat.v1.distribute.has_strategy"),
    ("has_distribution_strategy", "tensorflow:compat.v1.distribute.has_strategy"),  # TF 1.15's old name
    ("in_cross_replica_context", "tensorflow:compat.v1.distribute.in_cross_replica_context"),
    ("require_replica_context", "tensorflow.python.distribute.distribute_lib:require_replica_context"),
    ("get_loss_reduction", "tensorflow:compat.v1.distribute.get_loss_reduction"),
    ("initialize_tpu_system", "tensorflow:tpu.experimental.initialize_tpu_system"),
    ("run_standard_tensorflow_server",
     "tensorflow.python.distribute.distribute_coordinator:run_standard_tensorflow_server"))})
# contrib.optimizer_v2: TF 1.15's OptimizerV2 versions of six optimizers kept the v1 optimizers' signatures and
# slot names; five made the same updates (the v1 optimizers are served), RMSProp is ours.
SERVED.update({"tf.contrib.optimizer_v2." + name: "tensorflow:compat.v1.train." + name for name in (
    "AdadeltaOptimizer", "AdagradOptimizer", "AdamOptimizer", "GradientDescentOptimizer",
    "MomentumOptimizer")})
_serve("optimizer_v2", "tf1clip.contrib.optimizer_v2:", "RMSPropOptimizer")  # its own rms start and epsilon
# contrib.feature_column: the sequence columns moved into TensorFlow; sequence_input_layer is ours.
SERVED.update({"tf.contrib.feature_column." + name: "tensorflow:feature_column." + name for name in (
    "sequence_categorical_column_with_hash_bucket", "sequence_categorical_column_with_identity",
    "sequence_categorical_column_with_vocabulary_file", "sequence_categorical_column_with_vocabulary_list",
    "sequence_numeric_column")})
_serve("feature_column", "tf1clip.contrib.feature_column:", "sequence_input_layer")
# Small contrib modules whose names TensorFlow 2.21 still has: staging, proto, autograph (and batching, on
# TensorFlow's op).
SERVED["tf.contrib.staging.StagingArea"] = "tensorflow.python.ops.data_flow_ops:StagingArea"
SERVED["tf.contrib.proto.decode_proto"] = "tensorflow:io.decode_proto"
SERVED["tf.contrib.proto.encode_proto"] = "tensorflow:io.encode_proto"
_serve("batching", "tf1clip.contrib.batching:", "batch_function")  # TF 1.15's flat list of outputs
SERVED.update({"tf.contrib.autograph." + name: source for name, source in (
    ("to_graph", "tf1clip.contrib.autograph:to_graph"), ("to_code", "tf1clip.contrib.autograph:to_code"),
    ("do_not_convert", "tensorflow:autograph.experimental.do_not_convert"),
    ("set_loop_options", "tf1clip.contrib.autograph:set_loop_options"),
    ("set_element_type", "tensorflow.python.autograph.lang.directives:set_element_type"),
    ("stack", "tensorflow.python.autograph.lang.special_functions:stack"),
    ("convert", "tensorflow.python.autograph.impl.api:convert"),
    ("converted_call", "tf1clip.contrib.autograph:converted_call"),
    ("AutoGraphError", "tensorflow.python.autograph.impl.api:AutoGraphError"),
    ("StackTraceMapper", "tensorflow.python.autograph.impl.api:StackTraceMapper"),
    ("ConversionOptions", "tensorflow.python.autograph.core.converter:ConversionOptions"),
    ("Feature", "tensorflow.python.autograph.core.converter:Feature"))})
# contrib.deprecated (pre-1.0 summary ops) and contrib.sparsemax: ported.
_serve("deprecated", "tf1clip.contrib.deprecated:", """
    scalar_summary histogram_summary image_summary audio_summary merge_summary merge_all_summaries""")
_serve("sparsemax", "tf1clip.contrib.sparsemax:", "sparsemax sparsemax_loss")
# contrib.reduce_slice_ops: TF 1.15's four ops as TF ops, in the public module (TF 1.15's exported none) and at the
# internal path TF 1.15 scripts imported them from.
_serve("reduce_slice_ops", "tf1clip.contrib.reduce_slice_ops:",
       "reduce_slice_sum reduce_slice_prod reduce_slice_max reduce_slice_min")
SERVED["tf.contrib.reduce_slice_ops.python.ops.reduce_slice_ops"] = (
    "tf1clip.contrib.reduce_slice_ops.python.ops.reduce_slice_ops:")
# contrib.tpu's TPU-program building blocks: TensorFlow 2.21's own (tensorflow.python.tpu), as TF 1.15 re-exported
# them; they build graphs anywhere and run only on a TPU (repeat / while_loop run anywhere).
_serve("tpu", "tensorflow.python.tpu.tpu_feed:", "InfeedQueue")
_serve("tpu", "tensorflow.python.tpu.training_loop:", "repeat while_loop")
_serve("tpu", "tensorflow.python.tpu.ops.tpu_ops:", """
    infeed_dequeue infeed_dequeue_tuple infeed_enqueue infeed_enqueue_tuple outfeed_dequeue outfeed_dequeue_tuple
    outfeed_enqueue outfeed_enqueue_tuple""")
_serve("tpu", "tensorflow_estimator.python.estimator.tpu.tpu_estimator:", "export_estimator_savedmodel")
_serve("tpu", "tf1clip.contrib.tpu.python.tpu.async_checkpoint:", "AsyncCheckpointSaverHook")
_serve("tpu", "tf1clip.contrib.tpu.python.tpu.topology:", "Topology DeviceAssignment device_assignment")
# contrib.estimator's heads: the library's v1 heads with TF 1.15's arguments, and TF 1.15's multi-label and
# multi-head heads on the same interface.
_serve("estimator", "tf1clip.contrib.estimator.python.estimator.head:", """
    binary_classification_head multi_class_head regression_head poisson_regression_head logistic_regression_head
    multi_label_head multi_head""")
# contrib.grid_rnn: TF 1.15's Grid LSTM cells (ported), and the three names its module leaked from its imports
# (`layers`, `rnn`: tf.contrib.layers and tf.contrib.rnn themselves; collections' `namedtuple`).
_serve("grid_rnn", "tf1clip.contrib.grid_rnn:", """
    GridRNNCell Grid1BasicRNNCell Grid2BasicRNNCell Grid1BasicLSTMCell Grid2BasicLSTMCell Grid1LSTMCell
    Grid2LSTMCell Grid3LSTMCell Grid2GRUCell layers rnn namedtuple""")
_serve("predictor", "tf1clip.contrib.predictor:", "from_saved_model from_estimator")
# contrib.checkpoint: TensorFlow's tracking classes and checkpoint utilities under their TF 1.x names.
SERVED.update({"tf.contrib.checkpoint." + name: source for name, source in (
    ("CheckpointManager", "tensorflow:train.CheckpointManager"),
    ("Checkpointable", "tensorflow.python.trackable.autotrackable:AutoTrackable"),
    ("CheckpointableBase", "tensorflow.python.trackable.base:Trackable"),
    ("CheckpointableObjectGraph", "tensorflow.core.protobuf.trackable_object_graph_pb2:TrackableObjectGraph"),
    ("List", "tensorflow.python.trackable.data_structures:List"),
    ("Mapping", "tensorflow.python.trackable.data_structures:Mapping"),
    ("NoDependency", "tensorflow.python.trackable.data_structures:NoDependency"),
    ("PythonStateWrapper", "tensorflow.python.trackable.python_state:PythonState"),
    ("capture_dependencies", "tensorflow.python.checkpoint.checkpoint:capture_dependencies"),
    ("list_objects", "tensorflow.python.checkpoint.checkpoint:list_objects"),
    ("object_metadata", "tensorflow.python.checkpoint.checkpoint:object_metadata"))})
# contrib.compiler: TF 2.21's XLA scope and compile, the same functions.
# contrib.learn's estimator API on tf.estimator (contrib.learn.estimator / canned / experiment /
# run_config / monitors) and the first feature-column API on tf.feature_column.
_serve("learn", "tf1clip.contrib.learn.estimator:", """
    BaseEstimator Estimator SKCompat ModelFnOps MetricSpec InputFnOps NotFittedError
    infer_real_valued_columns_from_input infer_real_valued_columns_from_input_fn""")
# contrib.learn's skflow-era graph helpers and regression model functions (TF 1.15's code).
_serve("learn", "tf1clip.contrib.learn:", "ops models")
_serve("learn.ops", "tf1clip.contrib.learn.ops:", """
    embeddings_ops losses_ops seq2seq_ops categorical_variable embedding_lookup mean_squared_error_regressor
    softmax_classifier rnn_decoder rnn_seq2seq seq2seq_inputs sequence_classifier""")
_serve("learn.models", "tf1clip.contrib.learn.models:", """
    linear_regression linear_regression_zero_init logistic_regression logistic_regression_zero_init""")
_serve("learn", "tf1clip.contrib.learn.canned:", """
    DNNClassifier DNNRegressor LinearClassifier LinearRegressor DNNLinearCombinedClassifier
    DNNLinearCombinedRegressor""")
_serve("learn", "tf1clip.contrib.learn.experiment:", "Experiment")
_serve("learn", "tf1clip.contrib.learn.run_config:", "RunConfig")
_serve("learn", "tf1clip.contrib.learn.monitors:", "NanLossDuringTrainingError")
SERVED["tf.contrib.learn.monitors"] = "tf1clip.contrib.learn.monitors:"
_serve("learn.monitors", "tf1clip.contrib.learn.monitors:", """
    StopAtStep CheckpointSaver StepCounter SummarySaver NanLoss PrintTensor ValidationMonitor
    NanLossDuringTrainingError replace_monitors_with_hooks""")
SERVED["tf.contrib.learn.learn_runner"] = "tf1clip.contrib.learn.learn_runner:"
_serve("learn.learn_runner", "tf1clip.contrib.learn.learn_runner:", "run tune")
_serve("layers", "tf1clip.contrib.layers.feature_column:", """
    real_valued_column sparse_column_with_keys sparse_column_with_hash_bucket
    sparse_column_with_integerized_feature sparse_column_with_vocabulary_file weighted_sparse_column
    embedding_column shared_embedding_columns one_hot_column bucketized_column crossed_column
    infer_real_valued_columns create_feature_spec_for_parsing input_from_feature_columns""")
SERVED["tf.contrib.compiler.jit.experimental_jit_scope"] = "tensorflow:compat.v1.xla.experimental.jit_scope"
SERVED["tf.contrib.compiler.xla.compile"] = "tensorflow:compat.v1.xla.experimental.compile"
SERVED["tf.contrib.compiler.xla.estimator_model_fn"] = "tf1clip.contrib.compiler.xla:estimator_model_fn"
# contrib.keras: TF 1.15's Keras API under a second name; tf-keras' TF1 API (what tf1clip serves as tf.keras).
_serve("keras", "tf_keras.api._v1.keras:", """
    activations applications backend callbacks constraints datasets initializers layers losses metrics models
    optimizers preprocessing regularizers utils""")
_serve("util", "tensorflow:compat.v1", "make_tensor_proto")
_serve("util", "tensorflow.python.framework.meta_graph:",
       "ops_used_by_graph_def stripped_op_list_for_graph")
# contrib.training: TF 1.15's training and evaluation helpers are tf-slim's.
_serve("training", "tf_slim:training", """
    add_gradients_summaries clip_gradient_norms clip_gradient_norms_fn create_train_op
    multiply_gradients train""")
_serve("training", "tf_slim.training:evaluation", """
    StopAfterNEvalsHook SummaryAtEndHook checkpoints_iterator evaluate_once evaluate_repeatedly
    get_or_create_eval_step wait_for_new_checkpoint""")
_serve("training", "tf1clip.contrib.training.python.training.bucket_ops:", "bucket bucket_by_sequence_length")
_serve("training", "tf1clip.contrib.training.python.training.device_setter:",
       "RandomStrategy GreedyLoadBalancingStrategy byte_size_load_fn")
_serve("training", "tf1clip.contrib.training.python.training.resample:", "resample_at_rate weighted_resample")
_serve("training", "tf1clip.contrib.training.python.training.sampling_ops:", "rejection_sample stratified_sample")
_serve("training", "tf1clip.contrib.training:", "parse_values")
# The long tail (#21): small contrib modules, each one tf1clip module with TF 1.15's names.
_serve("integrate", "tf1clip.contrib.integrate:", "odeint odeint_fixed")
_serve("bayesflow", "tf1clip.contrib.bayesflow:", "monte_carlo")
_serve("bayesflow.monte_carlo", "tf1clip.contrib.bayesflow.python.ops.monte_carlo:",
       "expectation expectation_importance_sampler expectation_importance_sampler_logspace")
_serve("solvers", "tf1clip.contrib.solvers:", "lanczos least_squares linear_equations util")
_serve("solvers.lanczos", "tf1clip.contrib.solvers.python.ops.lanczos:", "bidiag_matmul lanczos_bidiag")
_serve("solvers.least_squares", "tf1clip.contrib.solvers.python.ops.least_squares:", "cgls")
_serve("solvers.linear_equations", "tf1clip.contrib.solvers.python.ops.linear_equations:", "conjugate_gradient")
_serve("solvers.util", "tf1clip.contrib.solvers.python.ops.util:",
       "create_operator dot identity_operator l2norm l2norm_squared l2normalize")
_serve("copy_graph", "tf1clip.contrib.copy_graph:", "copy_op_to_graph copy_variable_to_graph get_copied_op")
_serve("receptive_field", "tf1clip.contrib.receptive_field:",
       "compute_receptive_field_from_graph_def get_compute_order")
_serve("resampler", "tf1clip.contrib.resampler:", "resampler")
_serve("input_pipeline", "tf1clip.contrib.input_pipeline:", "obtain_next")
_serve("periodic_resample", "tf1clip.contrib.periodic_resample:", "periodic_resample")
_serve("testing", "tf1clip.contrib.testing:", """
    FakeSummaryWriter assert_summary latest_event_file latest_events latest_summaries simple_values_from_events
    to_summary_proto""")
_serve("tfprof", "tf1clip.contrib.tfprof:", "ProfileContext model_analyzer tfprof_logger")
_serve("tfprof.model_analyzer", "tf1clip.contrib.tfprof.model_analyzer:", "advise print_model_analysis")
_serve("tfprof.tfprof_logger", "tf1clip.contrib.tfprof.tfprof_logger:", "write_op_log")
_serve("recurrent", "tf1clip.contrib.recurrent:", "Recurrent functional_rnn bidirectional_functional_rnn")
_serve("saved_model", "tf1clip.contrib.saved_model:", "save_keras_model load_keras_model")
_serve("util", "tf1clip.contrib.util:", "loader")
_serve("util.loader", "tf1clip.contrib.util.loader:", "load_op_library")
_serve("tensorboard", "tf1clip.contrib.tensorboard:", "plugins")
_serve("tensorboard.plugins", "tf1clip.contrib.tensorboard.plugins:", "projector")
_serve("tensorboard.plugins.projector", "tf1clip.contrib.tensorboard.plugins.projector:",
       "visualize_embeddings projector_config_pb2")
_serve("tensorboard.plugins.projector", "tensorboard.plugins.projector:", "EmbeddingInfo ProjectorConfig SpriteMetadata")
_serve("memory_stats", "tf1clip.contrib.memory_stats:", "BytesInUse MaxBytesInUse")
_serve("kernel_methods", "tf1clip.contrib.kernel_methods:",
       "KernelLinearClassifier RandomFourierFeatureMapper sparse_multiclass_hinge_loss")
# contrib.learn.io: TF 1.15's queue readers, input_fns and data feeders (tf1clip.contrib.learn.io, one module each)
_serve("learn", "tf1clip.contrib.learn:", "io")
_serve("learn", "tf1clip.contrib.learn.io:", """
    read_batch_examples read_batch_features read_batch_record_features read_keyed_batch_examples
    read_keyed_batch_examples_shared_queue read_keyed_batch_features read_keyed_batch_features_shared_queue
    extract_dask_data extract_dask_labels extract_pandas_data extract_pandas_labels extract_pandas_matrix""")
_serve("learn.io", "tf1clip.contrib.learn.io:", """
    dask_io data_feeder generator_io graph_io numpy_io pandas_io queue_parsed_features read_batch_examples
    read_batch_features read_batch_record_features read_keyed_batch_examples read_keyed_batch_examples_shared_queue
    read_keyed_batch_features read_keyed_batch_features_shared_queue numpy_input_fn pandas_input_fn
    generator_input_fn extract_dask_data extract_dask_labels extract_pandas_data extract_pandas_labels
    extract_pandas_matrix""")
_serve("learn.io.graph_io", "tf1clip.contrib.learn.io.graph_io:", """
    queue_parsed_features read_batch_examples read_batch_features read_batch_record_features
    read_keyed_batch_examples read_keyed_batch_examples_shared_queue read_keyed_batch_features
    read_keyed_batch_features_shared_queue""")
_serve("learn.io.numpy_io", "tf1clip.contrib.learn.io.numpy_io:", "numpy_input_fn")
_serve("learn.io.pandas_io", "tf1clip.contrib.learn.io.pandas_io:",
       "pandas_input_fn extract_pandas_data extract_pandas_labels extract_pandas_matrix")
_serve("learn.io.generator_io", "tf1clip.contrib.learn.io.generator_io:", "generator_input_fn")
_serve("learn.io.dask_io", "tf1clip.contrib.learn.io.dask_io:", "extract_dask_data extract_dask_labels")
_serve("learn.io.data_feeder", "tf1clip.contrib.learn.io.data_feeder:", """
    DataFeeder StreamingDataFeeder DaskDataFeeder check_array setup_train_data_feeder setup_predict_data_feeder
    setup_processor_data_feeder""")
# contrib.learn's heads (TF 1.15's head.py, ported) and the head-based estimators on contrib.learn.Estimator.
SERVED["tf.contrib.learn.head"] = "tf1clip.contrib.learn.head:"
_serve("learn.head", "tf1clip.contrib.learn.head:", """
    Head regression_head poisson_regression_head multi_class_head binary_svm_head multi_label_head
    loss_only_head multi_head no_op_train_fn""")
_serve("learn", "tf1clip.contrib.learn.head:", """
    Head regression_head poisson_regression_head multi_class_head binary_svm_head multi_label_head
    multi_head no_op_train_fn""")
_serve("learn", "tf1clip.contrib.learn.constants:", "ProblemType")
_serve("learn", "tf1clip.contrib.learn.prediction_key:", "PredictionKey")
_serve("learn", "tf1clip.contrib.learn.head_estimators:",
       "DNNEstimator LinearEstimator DNNLinearCombinedEstimator")
_serve("learn", "tf1clip.contrib.learn.logistic_regressor:", "LogisticRegressor")
_serve("learn", "tf1clip.contrib.learn.kmeans:", "KMeansClustering")
# contrib.learn's export utilities, graph_actions, the monitor protocol and the smaller leftovers (TF 1.15's code).
SERVED["tf.contrib.learn.utils"] = "tf1clip.contrib.learn.utils:"
_serve("learn.utils", "tf1clip.contrib.learn.utils:", """
    export gc input_fn_utils saved_model_export_utils InputFnOps build_default_serving_input_fn
    build_parsing_serving_input_fn export_estimator make_export_strategy""")
_serve("learn.utils.export", "tf1clip.contrib.learn.utils.export:", """
    classification_signature_fn classification_signature_fn_with_prob export_estimator generic_signature_fn
    logistic_regression_signature_fn regression_signature_fn""")
SERVED.update({"tf.contrib.learn.utils.gc." + name: "tensorflow_estimator.python.estimator.gc:" + private
               for name, private in [(n, n if n == "Path" else "_" + n) for n in """Path get_paths
                   largest_export_versions mod_export_version negation one_of_every_n_export_versions
                   union""".split()]})
_serve("learn.utils.input_fn_utils", "tf1clip.contrib.learn.utils.input_fn_utils:",
       "InputFnOps build_default_serving_input_fn build_parsing_serving_input_fn")
_serve("learn.utils.saved_model_export_utils", "tf1clip.contrib.learn.utils.saved_model_export_utils:", """
    BestModelSelector build_all_signature_defs build_standardized_signature_def extend_export_strategy
    garbage_collect_exports get_input_alternatives get_most_recent_export get_output_alternatives
    get_temp_export_dir get_timestamped_export_dir make_best_model_export_strategy make_export_strategy
    make_parsing_export_strategy""")
_serve("learn", "tf1clip.contrib.learn.utils:", "make_export_strategy build_parsing_serving_input_fn")
_serve("learn", "tf1clip.contrib.learn.export_strategy:", "ExportStrategy")
SERVED["tf.contrib.learn.graph_actions"] = "tf1clip.contrib.learn.graph_actions:"
_serve("learn.graph_actions", "tf1clip.contrib.learn.graph_actions:", """
    clear_summary_writers evaluate get_summary_writer infer run_feeds run_feeds_iter run_n train""")
_serve("learn", "tf1clip.contrib.learn.graph_actions:", "evaluate infer run_feeds run_n train")
_serve("learn", "tf1clip.contrib.learn.evaluable:", "Evaluable")
_serve("learn", "tf1clip.contrib.learn.trainable:", "Trainable")
_serve("learn", "tensorflow_estimator.python.estimator.run_config:", "TaskType")
_serve("learn.monitors", "tf1clip.contrib.learn.monitors:", """
    BaseMonitor EveryN CaptureVariable GraphDump LoggingTrainable ExportMonitor RunHookAdapterForMonitors
    get_default_monitors""")
_serve("learn.datasets", "tf1clip.contrib.learn.datasets:", "text_datasets")
_serve("learn.datasets.text_datasets", "tf1clip.contrib.learn.datasets.text_datasets:",
       "load_dbpedia maybe_download_dbpedia")
_serve("learn.datasets.base", "tf1clip.contrib.learn.datasets.base:", "retry shrink_csv urlretrieve_with_retry")
_serve("learn.models", "tf1clip.contrib.learn.models:", "bidirectional_rnn get_rnn_model")
_serve("learn.preprocessing", "tf1clip.contrib.learn.preprocessing:", "CategoricalProcessor categorical")
_serve("learn.preprocessing.categorical", "tf1clip.contrib.learn.preprocessing.categorical:",
       "CategoricalProcessor")
# contrib.specs: TF 1.15's five modules (ported) with their names (with the DSL's commands and constants, which
# TF 1.15's inventory lists at the top only); the package has what their star imports gave it: those names, Python's
# math objects (params_ops' `from math import *`, Python 3.7's set), six's `exec_` (the built-in exec), `debug_`
# (copied at import) and `layers` (tf.contrib.layers itself, see MODULE_ALIASES).
_SPECS_NAMES = {
    "params_ops": "Lf Li Nt Uf Ui",
    "specs": "LocalImport create_net create_net_fun eval_params eval_spec",
    "specs_lib": """Callable Composable Composition External Function Import Operator check_keywords debug
        get_positional QUOTED KEYWORDS""",
    "specs_ops": """Conc Dwm Dws Idx Shared Var External Import Fun debug Print Id Cx Cs Ct Cr Cm Cl Fx Fs Ft Fr Fm Fl
        Mp Ap Do Bn Lrn Unit Flat Reshape Transpose Squeeze Expand Relu Sig Tanh Smax layers""",
    "summaries": """SHORT_NAMES SHORT_NAMES_SRC tf_left_split tf_num_params tf_parameter_iter tf_parameter_summary
        tf_print tf_spec_print tf_spec_structure tf_spec_summary tf_structure""",
}
for _module, _names in _SPECS_NAMES.items():
  _serve("specs", "tf1clip.contrib.specs.python.%s:" % _module, _names)
  _serve("specs." + _module, "tf1clip.contrib.specs.python.%s:" % _module, _names)
for _module in ("specs", "specs.params_ops"):
  _serve(_module, "math:", """
      acos acosh asin asinh atan atan2 atanh ceil copysign cos cosh degrees e erf erfc exp expm1 fabs factorial
      floor fmod frexp fsum gamma gcd hypot inf isclose isfinite isinf isnan ldexp lgamma log log10 log1p log2 modf
      nan pi pow radians remainder sin sinh sqrt tan tanh tau trunc""")
del _module, _names
_serve("specs", "tf1clip.contrib.specs:", "params_ops specs specs_lib specs_ops summaries debug_")
SERVED["tf.contrib.specs.exec_"] = "builtins:exec"
_serve("specs.specs", "tf1clip.contrib.specs.python.specs:", "ops")
_serve("specs.specs_lib", "tf1clip.contrib.specs.python.specs_lib:", "debug_")
_serve("specs.specs_ops", "tf1clip.contrib.specs.python.specs_ops:", "specs_lib")
_serve("specs.summaries", "tf1clip.contrib.specs.python.summaries:", "specs")
# Python 3.11's math objects (TF 1.15 leaked Python 3.7's): three read differently now.
SIGNATURE_DIFFERENCES.update({
    "tf.contrib.specs.factorial": ("Python 3.11's math.factorial: its one positional-only parameter is named n "
                                   "(x in Python 3.7's); every call binds the same"),
    "tf.contrib.specs.gcd": "Python 3.11's math.gcd: takes any number of integers (Python 3.7's took two)",
    "tf.contrib.specs.hypot": "Python 3.11's math.hypot: takes any number of coordinates (Python 3.7's took two)",
})
_serve("labeled_tensor", "tf1clip.contrib.labeled_tensor:", """
    Axes Axis AxisOrderError FixedLenFeature LabeledTensor ReshapeCoder abs acos add align as_axis asin atan
    axis_order_scope batch boolean_mask cast ceil check_axis_order concat constant convert_to_labeled_tensor cos
    define_binary_op define_reduce_op define_unary_op digamma div equal erf erfc exp expand_dims floor foldl greater
    greater_equal identity igamma igammac impose_axis_order less less_equal lgamma log logical_and logical_not
    logical_or logical_xor map_fn matmul maximum minimum mod mul neg nn not_equal ones_like pack pad parse_example
    parse_single_example placeholder polygamma pow random_crop reciprocal reduce_all reduce_any reduce_logsumexp
    reduce_max reduce_mean reduce_min reduce_prod reduce_sum rename_axis reshape round rsqrt select shuffle_batch
    sigmoid sign sin slice sqrt square squared_difference squeeze sub tan tanh tile transpose unpack
    verify_tensor_all_finite where zeros_like zeta""")
_serve("labeled_tensor.nn", "tf1clip.contrib.labeled_tensor.python.ops.nn:", """
    crelu elu l2_loss log_softmax relu relu6 sigmoid_cross_entropy_with_logits softmax
    softmax_cross_entropy_with_logits softplus sparse_softmax_cross_entropy_with_logits""")
# contrib.estimator's RNN estimators, replicate_model_fn / TowerOptimizer and the layer-annotated DNNs: TF 1.15's
# code (tensorflow-estimator 2.15 dropped them; its RNNClassifier has another API).
_serve("estimator", "tf1clip.contrib.estimator.python.estimator.rnn:", "RNNClassifier RNNEstimator")
_serve("estimator", "tf1clip.python.estimator.canned.boosted_trees:",
       "boosted_trees_classifier_train_in_memory boosted_trees_regressor_train_in_memory")
_serve("estimator", "tf1clip.contrib.estimator.python.estimator.replicate_model_fn:", "replicate_model_fn TowerOptimizer")
_serve("estimator", "tf1clip.contrib.estimator.python.estimator.dnn_with_layer_annotations:",
       "DNNClassifierWithLayerAnnotations DNNRegressorWithLayerAnnotations")
# contrib.opt's ps/worker optimizers and their custom getters (TF 1.15's code).
_serve("opt", "tf1clip.contrib.opt.elastic_average:", "ElasticAverageOptimizer ElasticAverageCustomGetter")
_serve("opt", "tf1clip.contrib.opt.model_average:", "ModelAverageOptimizer ModelAverageCustomGetter")
_serve("opt", "tf1clip.contrib.opt.agn:", "AGNOptimizer AGNCustomGetter")
# contrib.eager's Network / Sequential and network checkpoints (TF 1.15's code); the remote-eager setup is TF's own.
_serve("eager", "tf1clip.contrib.eager.python.network:", """
    Network Sequential save_network_checkpoint restore_network_checkpoint""")
_serve("eager", "tensorflow.python.eager.context:", "set_server_def")  # TF 1.15's object, unchanged in TF 2.21
SERVED["tf.contrib.eager.enable_remote_eager_execution"] = (
    "tensorflow.python.framework.ops:enable_eager_execution_internal")
# contrib.model_pruning: TF 1.15's pruning library (masks, thresholds, masked layers and cells, strip tools).
_serve("model_pruning", "tf1clip.contrib.model_pruning.python.pruning:", """
    Pruning get_pruning_hparams apply_mask get_masked_weights get_masks get_thresholds get_weights
    get_weight_sparsity""")
_serve("model_pruning", "tf1clip.contrib.model_pruning.python.layers.layers:", "masked_conv2d masked_convolution masked_fully_connected")
_serve("model_pruning", "tf1clip.contrib.model_pruning.python.layers.rnn_cells:", "MaskedBasicLSTMCell MaskedLSTMCell")
_serve("model_pruning", "tf1clip.contrib.model_pruning.python.strip_pruning_vars_lib:",
       "graph_def_from_checkpoint strip_pruning_vars_fn")
_serve("model_pruning", "tf1clip.contrib.model_pruning.python.learning:", "train")
# contrib.layers' feature-column ops, target columns, scattered / distributed embedding lookups, sparse ops and
# sparse_feature_cross (TF 1.15's code, ported), and what slim leaked from contrib.layers' package (target_column,
# sparse_feature_cross_op, loader, InputLayer, experimental, make_all: slim.X is contrib.layers' X, MODULE_ALIASES).
_serve("layers", "tf1clip.contrib.layers.feature_column_ops:", """
    weighted_sum_from_feature_columns joint_weighted_sum_from_feature_columns sequence_input_from_feature_columns
    transform_features parse_feature_columns_from_examples parse_feature_columns_from_sequence_examples
    check_feature_columns experimental""")
_serve("layers", "tf1clip.contrib.layers.feature_column:",
       "make_place_holder_tensors_for_base_features scattered_embedding_column")
_serve("layers.feature_column", "tf1clip.contrib.layers.feature_column:",
       "make_place_holder_tensors_for_base_features scattered_embedding_column")
_serve("layers", "tf1clip.contrib.layers.target_column:", """
    multi_class_target regression_target binary_svm_target ProblemType get_default_binary_metrics_for_eval""")
SERVED["tf.contrib.layers.target_column"] = "tf1clip.contrib.layers.target_column:"
_serve("layers", "tf1clip.contrib.layers.embedding_ops:", """
    scattered_embedding_lookup scattered_embedding_lookup_sparse
    embedding_lookup_sparse_with_distributed_aggregation""")
_serve("layers", "tf1clip.contrib.layers.sparse_feature_cross_op:",
       "sparse_feature_cross SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY")
SERVED["tf.contrib.layers.sparse_feature_cross_op"] = "tf1clip.contrib.layers.sparse_feature_cross_op:"
_serve("layers", "tf1clip.contrib.layers.sparse_ops:",
       "dense_to_sparse_tensor indicators_to_sparse_ids sparse_row_envelope")
SERVED["tf.contrib.layers.loader"] = "tf1clip.contrib.util.loader:"  # TF 1.15's tf.contrib.util.loader
SERVED["tf.contrib.layers.InputLayer"] = "tensorflow.python.feature_column.feature_column:InputLayer"
SERVED["tf.contrib.layers.make_all"] = "tensorflow.python.util.all_util:make_all"
# contrib.linear_optimizer: TF 1.15's SDCA (SdcaModel on tensorflow-estimator's, TF 1.15's rules; the library's
# SparseFeatureColumn, unchanged) and contrib.learn.SVM on the contrib.learn Estimator and binary_svm_head.
_serve("linear_optimizer", "tf1clip.contrib.linear_optimizer.sdca_ops:", "SdcaModel")
_serve("linear_optimizer", "tf1clip.contrib.linear_optimizer.sdca_optimizer:", "SDCAOptimizer")
SERVED["tf.contrib.linear_optimizer.SparseFeatureColumn"] = (
    "tensorflow_estimator.python.estimator.canned.linear_optimizer.python.utils.sdca_ops:_SparseFeatureColumn")
_serve("learn", "tf1clip.contrib.learn.svm:", "SVM")
# contrib.factorization's GMM and WALS: TF 1.15's graphs and contrib.learn Estimators, ported (WALS's two
# custom kernels composed from TF ops).
_serve("factorization", "tf1clip.contrib.factorization.python.ops.gmm:", "GMM GmmAlgorithm gmm")
_serve("factorization", "tf1clip.contrib.factorization.python.ops.wals:", "WALSModel WALSMatrixFactorization")
# contrib.quantization: TF 1.15's three array ops (tf.raw_ops under TF 1.15's signatures), their module, and the two
# API-export decorators its `import *` leaked (TensorFlow's own).
_serve("quantization", "tf1clip.contrib.quantization:", "quantize_v2 dequantize quantized_concat")
SERVED["tf.contrib.quantization.quantized_array_ops"] = "tf1clip.contrib.quantization:"
SERVED["tf.contrib.quantization.tf_export"] = "tensorflow.python.util.tf_export:tf_export"
SERVED["tf.contrib.quantization.deprecated_endpoints"] = "tensorflow.python.util.deprecation:deprecated_endpoints"
# contrib.checkpoint's own helpers (TF 1.15's code), contrib.distribute's step functions (TensorFlow's step_fn,
# TF 1.15's module), contrib.predictor's contrib.learn path.
_serve("checkpoint", "tf1clip.contrib.checkpoint:", """
    NumpyState UniqueNameTracker dot_graph_from_checkpoint split_dependency""")
_serve("distribute", "tensorflow.python.distribute.step_fn:", "Step StandardInputStep StandardSingleLossStep")
_serve("predictor", "tf1clip.contrib.predictor:", "from_contrib_estimator")
_serve("optimizer_v2", "tf1clip.contrib.optimizer_v2.optimizer_v2:", "OptimizerV2")  # TF 1.15's base class, ported
_serve("distributions", "tf1clip.contrib.distributions.vector_diffeomixture:", """
    VectorDiffeomixture quadrature_scheme_softmaxnormal_gauss_hermite quadrature_scheme_softmaxnormal_quantiles""")
# contrib.learn.DynamicRnnEstimator: TF 1.15's model_fn (dynamic_rnn + fully_connected + optimize_loss) ported.
_serve("learn", "tf1clip.contrib.learn.dynamic_rnn_estimator:", "DynamicRnnEstimator")
# contrib.training's sequence state saver (TF 1.15's code on TensorFlow's Barrier and FIFOQueue).
_serve("training", "tf1clip.contrib.training.python.training.sequence_queueing_state_saver:",
       "SequenceQueueingStateSaver NextQueuedSequenceBatch batch_sequences_with_states")
_serve("constrained_optimization", "tf1clip.contrib.constrained_optimization.candidates:",
       "find_best_candidate_distribution find_best_candidate_index")
_serve("constrained_optimization", "tf1clip.contrib.constrained_optimization.constrained_minimization_problem:",
       "ConstrainedMinimizationProblem")
_serve("constrained_optimization", "tf1clip.contrib.constrained_optimization.constrained_optimizer:",
       "ConstrainedOptimizer")
_serve("constrained_optimization", "tf1clip.contrib.constrained_optimization.external_regret_optimizer:",
       "AdditiveExternalRegretOptimizer")
_serve("constrained_optimization", "tf1clip.contrib.constrained_optimization.swap_regret_optimizer:",
       "AdditiveSwapRegretOptimizer MultiplicativeSwapRegretOptimizer")
SERVED["tf.contrib.training.FeedingQueueRunner"] = (  # TF 1.15 re-exported the estimator library's class
    "tensorflow_estimator.python.estimator.inputs.queues.feeding_queue_runner:_FeedingQueueRunner")
# contrib.timeseries: tensorflow-estimator 2.15's trimmed copy of TF 1.15's library where it kept the object (feature
# keys, the one-shot head), TF 1.15's code for what it dropped or broke (ARModel, ARRegressor, the state space models
# of StructuralEnsembleRegressor, the readers and input_fns, saved_model_utils: the library's lost its numpy import);
# TimeSeriesRegressor is the library's with TF 1.15's default state manager for ARModel.
_TS = "tensorflow_estimator.python.estimator.canned.timeseries."
_serve("timeseries", _TS + "feature_keys:", "TrainEvalFeatures FilteringResults")
_serve("timeseries", _TS + "head:", "OneShotPredictionHead")
SERVED["tf.contrib.timeseries.saved_model_utils"] = "tf1clip.contrib.timeseries.saved_model_utils:"
_serve("timeseries.saved_model_utils", "tf1clip.contrib.timeseries.saved_model_utils:",
       "cold_start_filter filter_continuation predict_continuation")
_serve("timeseries", "tf1clip.contrib.timeseries.ar_model:", "ARModel")
_serve("timeseries", "tf1clip.contrib.timeseries.estimators:",
       "ARRegressor StructuralEnsembleRegressor TimeSeriesRegressor")
_serve("timeseries", "tf1clip.contrib.timeseries.input_pipeline:", """
    CSVReader NumpyReader RandomWindowInputFn WholeDatasetInputFn predict_continuation_input_fn""")
# contrib.tensor_forest: TF 1.15's Python code (one module per TF 1.15 module) on its v4 C++ kernels ported to NumPy
# (tf1clip.contrib.tensor_forest.kernels, TensorFlow's Philox for the split candidates); client / ops / python are TF
# 1.15's package paths to the same modules.
_TF = "tf1clip.contrib.tensor_forest"
for _path in ("client", "client.eval_metrics", "client.random_forest", "data_ops", "eval_metrics", "model_ops", "ops",
              "ops.data_ops", "ops.model_ops", "ops.stats_ops", "ops.tensor_forest_ops", "proto",
              "proto.tensor_forest_params_pb2", "random_forest", "stats_ops", "tensor_forest", "tensor_forest_ops",
              # not public in TF 1.15, but where its scripts imported from (tensorflow.contrib.tensor_forest.python)
              "python", "python.tensor_forest", "python.ops", "python.ops.data_ops", "python.ops.model_ops",
              "python.ops.stats_ops", "python.ops.tensor_forest_ops"):
  SERVED["tf.contrib.tensor_forest." + _path] = "%s.%s:" % (_TF, _path)
for _path in ("client.eval_metrics", "eval_metrics"):
  _serve("tensor_forest." + _path, _TF + ".eval_metrics:", "get_metric get_prediction_key")
for _path in ("client.random_forest", "random_forest"):
  _serve("tensor_forest." + _path, _TF + ".random_forest:", """
      TensorForestEstimator CoreTensorForestEstimator MultiForestMultiHeadEstimator TensorForestLossHook
      TensorForestRunOpAtEndHook ModelBuilderOutputType get_model_fn get_combined_model_fn""")
for _path in ("data_ops", "ops.data_ops"):
  _serve("tensor_forest." + _path, _TF + ".data_ops:", """
      CastToFloat DataColumn DataColumnCollection GetColumnName ParseDataTensorOrDict ParseLabelTensorOrDict
      TensorForestDataSpec""")
for _path in ("model_ops", "ops.model_ops"):
  _serve("tensor_forest." + _path, _TF + ".model_ops:", "TreeVariable TreeVariableSavable tree_variable")
for _path in ("stats_ops", "ops.stats_ops"):
  _serve("tensor_forest." + _path, _TF + ".stats_ops:",
         "FertileStatsVariable FertileStatsVariableSavable fertile_stats_variable")
_serve("tensor_forest.proto.tensor_forest_params_pb2", _TF + ".proto.tensor_forest_params_pb2:", """
    DepthDependentParam ExponentialParam LinearParam SplitFinishConfig SplitPruningConfig TensorForestParams
    ThresholdParam""")
_serve("tensor_forest.tensor_forest", _TF + ".tensor_forest:", """
    ForestHParams RandomForestGraphs RandomTreeGraphs TreeVariables ForestVariables build_params_proto
    get_epoch_variable parse_number_or_string_to_proto""")



def _describe(source):
  dotted = source.replace(":", ".").rstrip(".")
  if dotted.startswith("tf_slim."):
    return _SLIM + dotted[len("tf_slim"):]
  return dotted


PROVIDED.update({name: _describe(source) for name, source in SERVED.items()})

# Provided submodules that serve a whole package -> where every name below them comes from.
WHOLE_PACKAGES = {"slim": _SLIM}

# Names under a whole package that the package lacks: tf-slim has no DataFrameColumn (see
# UNSUPPORTED["tf.contrib.layers.feature_column"]). tests/test_contrib_catalog.py checks this set against
# what tf1clip.contrib.slim serves.
WHOLE_PACKAGE_GAPS = frozenset({
    "tf.contrib.slim.DataFrameColumn",
    "tf.contrib.slim.fc.DataFrameColumn",
    "tf.contrib.slim.feature_column.DataFrameColumn",
})

# The contrib modules tf1clip serves: the packages of tf1clip/contrib/ (read from the tree, nothing imported).
PROVIDED_SUBMODULES = frozenset(
    entry for entry in os.listdir(os.path.dirname(os.path.abspath(__file__)))
    if os.path.isfile(os.path.join(os.path.dirname(os.path.abspath(__file__)), entry, "__init__.py")))

_NO_LEARN = ("tf.contrib.learn went with TF 2.0: use tf.estimator (provided by tf1clip via "
             "tensorflow-estimator 2.15) or tf.Session / tf.train.MonitoredTrainingSession")
_ADDONS = "tensorflow-addons (archived in 2024, no release for TensorFlow 2.16+)"
_SEQ2SEQ_V2 = ("the TF1 graph-mode class %s (provided; TF 1.15's Keras-layer V2 variants are not "
               "ported)")

# Dotted name or prefix -> what to use instead. `explain` uses the longest matching prefix.
UNSUPPORTED = {
    # contrib modules TF 1.15 had that tf1clip does not serve: the successor, or why there is none
    "tf.contrib.deprecated": ("tf.compat.v1.summary.scalar / histogram / image / audio / "
        "merge_all (the pre-1.0 summary names)"),
    "tf.contrib.ffmpeg": ("tf.audio.decode_wav / encode_wav, or tensorflow-io's audio "
        "ops (the FFmpeg ops were removed)"),
    "tf.contrib.memory_stats": ("tf.config.experimental.get_memory_info('GPU:0') (peak and "
        "current bytes in use)"),
    "tf.contrib.memory_stats.BytesLimit": ("no successor: TensorFlow 2.21 does not expose a GPU allocator's limit "
        "(tf.config.experimental.get_memory_info('GPU:0') gives the current and peak bytes)"),
    "tf.contrib.proto": "tf.io.decode_proto / tf.io.encode_proto",
    "tf.contrib.remote_fused_graph": ("no successor: remote fused-graph execution (Hexagon DSP) "
        "was removed from TensorFlow"),
    "tf.contrib.rpc": ("no successor op: call the gRPC service from Python "
        "(tf.py_function) or outside the graph"),
    "tf.contrib.staging": ("tf.data's Dataset.prefetch (StagingArea's successor for "
        "overlapping input with compute)"),
    "tf.contrib.stat_summarizer": "tf.profiler.experimental and TensorBoard's profiler",
    "tf.contrib": "no maintained replacement",
    "tf.contrib.all_reduce": "tf.distribute (MirroredStrategy's cross-device ops)",
    "tf.contrib.autograph": "tf.autograph (tf.function converts Python control flow)",
    "tf.contrib.batching": "TensorFlow Serving's batching",
    "tf.contrib.boosted_trees": "TensorFlow Decision Forests (tensorflow-decision-forests)",
    "tf.contrib.checkpoint": "tf.train.Checkpoint",
    "tf.contrib.cloud": "tf.io.gfile with gs:// paths",
    "tf.contrib.cluster_resolver": "tf.distribute.cluster_resolver",
    "tf.contrib.compiler": "tf.function(jit_compile=True)",
    "tf.contrib.data": ("tf.data (most functions moved to tf.data.Dataset methods or "
                        "tf.data.experimental)"),
    "tf.contrib.data.latency_stats": "the tf.data service / TensorBoard profiler (stats ops were removed)",
    "tf.contrib.data.set_stats_aggregator": (
        "the tf.data service / TensorBoard profiler (stats ops were removed)"),
    "tf.contrib.data.StatsAggregator": "the TensorBoard profiler (stats ops were removed)",
    "tf.contrib.decision_trees": "TensorFlow Decision Forests (tensorflow-decision-forests)",
    "tf.contrib.distribute": ("tf.distribute (tf1clip serves contrib.distribute's strategies and context "
                              "functions on it)"),
    "tf.contrib.distributions": "tensorflow-probability 0.25's tfp.distributions",
    "tf.contrib.distributions.bijectors.Weibull": "tfp.bijectors.WeibullCDF (renamed)",
    "tf.contrib.eager": "TensorFlow 2 runs eagerly by default (tf.function, tf.GradientTape)",
    "tf.contrib.estimator": "tensorflow-estimator 2.15 (tf.estimator); it no longer has this name",
    "tf.contrib.factorization": "no maintained replacement (tf.compat.v1 has none either)",
    "tf.contrib.feature_column": ("tf.feature_column's sequence columns (tf1clip serves contrib.feature_column's "
                                  "six names), or Keras preprocessing layers"),
    "tf.contrib.framework": "tf.compat.v1.train / tf.compat.v1 variable functions",
    "tf.contrib.gan": "TF-GAN (the tensorflow-gan package)",
    "tf.contrib.image": "tf.image, or tensorflow-addons' tfa.image (archived)",
    "tf.contrib.keras": "tf_keras (Keras 2) or keras (Keras 3)",
    "tf.contrib.layers": ("tf.compat.v1.layers (conv2d, batch_normalization, dropout, dense, "
                          "max_pooling2d, ...; variables are named kernel/bias, not weights/biases)"),
    # The old (pre-tf.feature_column) columns are served (contrib.layers.feature_column); these had no
    # successor in tf.feature_column.
    "tf.contrib.layers.feature_column": (
        "tf.compat.v1.feature_column (tf1clip serves the first feature-column API's constructors and helpers "
        "on it; its column classes are gone, and DataFrameColumn wrapped a contrib.learn dataframe Series, which "
        "TF 1.15 no longer had: no TF 1.15 script could build one)"),
    "tf.contrib.learn": ("tf.estimator (served from tensorflow-estimator 2.15); tf1clip serves "
                         "contrib.learn's Estimator / SKCompat / canned DNN and linear estimators / "
                         "Experiment / learn_runner / RunConfig / monitors, io, heads, graph_actions and "
                         "export utilities on it; what is left went with TF 2.0"),
    "tf.contrib.lookup": "tf.lookup",
    "tf.contrib.losses": "tf.compat.v1.losses (labels come before predictions there)",
    "tf.contrib.metrics": "tf.compat.v1.metrics (streaming_<m> became tf.compat.v1.metrics.<m>)",
    "tf.contrib.mixed_precision": ("tf.compat.v1.train.experimental.MixedPrecisionLossScaleOptimizer, "
                                   "or tf.keras.mixed_precision"),
    "tf.contrib.nccl": "tf.distribute.NcclAllReduce",
    "tf.contrib.nn": "tf.nn",
    "tf.contrib.opt": "tf.compat.v1.train optimizers, or Keras optimizers",
    "tf.contrib.optimizer_v2": ("tf.compat.v1.train optimizers (tf1clip serves contrib.optimizer_v2's six and "
                                "the OptimizerV2 base), or tf.keras.optimizers"),
    "tf.contrib.predictor": ("tf.saved_model.load (tf1clip serves from_saved_model, from_estimator and "
                             "from_contrib_estimator)"),
    "tf.contrib.rnn": "tf.compat.v1.nn.rnn_cell",
    "tf.contrib.seq2seq.BaseDecoder": _SEQ2SEQ_V2 % "tf.contrib.seq2seq.Decoder",
    "tf.contrib.seq2seq.BasicDecoderV2": _SEQ2SEQ_V2 % "tf.contrib.seq2seq.BasicDecoder",
    "tf.contrib.seq2seq.BeamSearchDecoderV2": _SEQ2SEQ_V2 % "tf.contrib.seq2seq.BeamSearchDecoder",
    "tf.contrib.seq2seq.BahdanauAttentionV2": _SEQ2SEQ_V2 % "tf.contrib.seq2seq.BahdanauAttention",
    "tf.contrib.seq2seq.LuongAttentionV2": _SEQ2SEQ_V2 % "tf.contrib.seq2seq.LuongAttention",
    "tf.contrib.seq2seq.BahdanauMonotonicAttentionV2": _SEQ2SEQ_V2 % "tf.contrib.seq2seq.BahdanauMonotonicAttention",
    "tf.contrib.seq2seq.LuongMonotonicAttentionV2": _SEQ2SEQ_V2 % "tf.contrib.seq2seq.LuongMonotonicAttention",
    "tf.contrib.signal": "tf.signal",
    "tf.contrib.sparsemax": "tensorflow-addons' tfa.activations.sparsemax (archived)",
    "tf.contrib.stateless": "tf.random.stateless_uniform / stateless_normal",
    "tf.contrib.summary": "tf.summary (TF2) or tf.compat.v1.summary",
    "tf.contrib.text": "tensorflow-text",
    "tf.contrib.tpu": ("tf.distribute.TPUStrategy (tf1clip provides TPUEstimator and its "
                       "configuration, and the ops still in tf.compat.v1.tpu)"),
    "tf.contrib.tpu.keras_to_tpu_model": "tf.distribute.TPUStrategy with Keras",
    "tf.contrib.tpu.TPUDistributionStrategy": "tf.distribute.TPUStrategy",
    "tf.contrib.tpu.profiler": "the TensorBoard profiler plugin (tf.profiler.experimental)",
}


class ContribNotProvidedError(ImportError):
  """A `tf.contrib` name that tf1clip does not provide; raised where the script first uses it.

  Attributes:
    symbol: the dotted name, spelled "tf.contrib...." whatever the script wrote.
  """

  def __init__(self, symbol):
    self.symbol = normalize(symbol)
    # Raised because the lookup failed: never "is provided", even inside a package served whole (slim).
    super().__init__(explain(self.symbol, missing=True), name=self.symbol)

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
  """True when `name` (a dotted contrib name, or a served submodule) is served by tf1clip (read from the index)."""
  name = normalize(name)
  if name == "tf.contrib":
    return True
  record = index().get(name)
  if record is not None:
    return record.status != NOT_SERVED_STATUS
  whole = _whole_package_of(name)
  return whole is not None


# Modules whose TF 1.15 names were another contrib module's (leaked by TF 1.15's imports): tf1clip serves them
# from that module (contrib.slim's LEAKED_MODULES is read from here), and a name there has that module's advice
# and documented signature differences. "tf.contrib.slim" itself: the names slim leaked from contrib.layers.
MODULE_ALIASES = {
    "tf.contrib.grid_rnn.layers": "tf.contrib.layers",
    "tf.contrib.grid_rnn.rnn": "tf.contrib.rnn",
    "tf.contrib.specs.layers": "tf.contrib.layers",
    "tf.contrib.slim": "tf.contrib.layers",
    "tf.contrib.slim.contrib_framework": "tf.contrib.framework",
    "tf.contrib.slim.contrib_variables": "tf.contrib.framework",
    "tf.contrib.slim.checkpoint_utils": "tf.contrib.framework",
    "tf.contrib.slim.metric_ops": "tf.contrib.metrics",
    "tf.contrib.slim.loss_ops": "tf.contrib.losses",
    "tf.contrib.slim.lookup": "tf.contrib.lookup",
    "tf.contrib.slim.fc": "tf.contrib.layers.feature_column",
    "tf.contrib.slim.feature_column": "tf.contrib.layers.feature_column",
    "tf.contrib.slim.feature_column_ops": "tf.contrib.layers",
    "tf.contrib.slim.embedding_ops": "tf.contrib.layers",
    "tf.contrib.slim.encoders": "tf.contrib.layers",
    "tf.contrib.slim.contrib_sparse_ops": "tf.contrib.layers",
    "tf.contrib.slim.target_column": "tf.contrib.layers.target_column",
    "tf.contrib.slim.sparse_feature_cross_op": "tf.contrib.layers.sparse_feature_cross_op",
    "tf.contrib.slim.loader": "tf.contrib.util.loader",
}


def canonical(name):
  """The name a leaked alias stands for ("tf.contrib.slim.metric_ops.auc" -> "tf.contrib.metrics.auc")."""
  name = normalize(name)
  parts = name.split(".")
  for end in range(len(parts) - 1, 2, -1):
    module = ".".join(parts[:end])
    if module in MODULE_ALIASES:
      return ".".join([MODULE_ALIASES[module]] + parts[end:])
  return name


def signature_difference(name):
  """Why a served name's parameters differ from TF 1.15's (SIGNATURE_DIFFERENCES, through aliases), or None."""
  for candidate in dict.fromkeys((normalize(name), canonical(name))):
    record = index().get(candidate)
    if record is not None and record.difference:
      return record.difference
  return None


def replacement(name):
  """What to use instead of an unsupported contrib name: the longest matching UNSUPPORTED prefix, of the name or of a
  name TF 1.15 served as the same object (`tf.contrib.slim.DataFrameColumn` gets `tf.contrib.layers.feature_column`'s
  advice, not slim's)."""
  name = normalize(name)
  candidates = [name] + [n for n in _same_object_names(name) if n != name]
  best, best_length = None, 2
  for candidate in candidates:
    parts = candidate.split(".")
    for end in range(len(parts), best_length, -1):
      advice = _declared_advice(".".join(parts[:end]))
      if advice is not None:
        best, best_length = advice, end
        break
  if best is not None:
    return best
  if canonical(name) != name and tf115.has(name):
    return replacement(canonical(name))
  return NO_REPLACEMENT


def _same_object_names(name):
  """The names TF 1.15 served as the same object as `name` (the inventory's same_as column), `name` included."""
  entry = tf115.entries().get(name)
  if entry is None:
    return [name]
  return tf115.same_object_groups().get(entry.same_as or name, [name])


def explain(name, missing=False):
  """The one sentence `tf1clip run` raises and `tf1clip check` prints for a contrib name.

  Args:
    name: a dotted name such as "tf.contrib.tpu.TPUEstimator" (or "tensorflow.contrib...").
    missing: the name was looked up and is not there (the error's case): skip the "provided" answers
      the table would give for a package served whole.

  Returns:
    "tf.contrib.rnn.BasicLSTMCell is provided by tf1clip (from ...)" for provided names, else
    "tf.contrib.tpu.TPUEstimator is not provided by tf1clip; use instead: ...".
  """
  name = normalize(name)
  record = index().get(name)
  if record is not None and record.status != NOT_SERVED_STATUS and not missing:
    return "%s is provided by tf1clip (from %s)" % (name, record.origin)
  parts = name.split(".")
  whole = _whole_package_of(name) if record is None else None
  if whole is not None and not missing:
    return "%s is provided by tf1clip (from %s)" % (name, _below_whole(whole, name))
  if record is not None and record.status == NOT_SERVED_STATUS and record.advice:
    return "%s is not provided by tf1clip; use instead: %s" % (name, record.advice)
  if len(parts) >= 3 and parts[:2] == ["tf", "contrib"] and parts[2] not in TF115_SUBMODULES:
    return ("%s is not provided by tf1clip (TensorFlow 1.15 had no tf.contrib.%s either)"
            % (name, parts[2]))
  parent = ".".join(parts[:-1])
  if len(parts) >= 4 and not tf115.has(name) and tf115.kind_of(parent) == "module":
    # TF 1.15's public API had no such name (it moved earlier, or never existed): say so, and keep
    # the advice the table has for it or its module.
    message = ("%s is not provided by tf1clip (TensorFlow 1.15's %s had no public %s either)"
               % (name, parent, parts[-1]))
    advice = replacement(name)
    if advice != NO_REPLACEMENT:
      message += "; use instead: " + advice
    return message
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


def served(module_symbol):
  """The `lazy` table of a contrib module: attr -> "package.module:attr.path" for its SERVED names.

  Args:
    module_symbol: the module's TF1 name, e.g. "tf.contrib.metrics".

  Returns:
    A dict for `missing_attribute_hook(module_symbol, lazy=...)`.
  """
  prefix = module_symbol + "."
  return {name[len(prefix):]: source for name, source in SERVED.items()
          if name.startswith(prefix) and "." not in name[len(prefix):]}


def resolve(source):
  """The object at "package.module:attr.path" (tf-slim's shim installed first for tf_slim).

  Args:
    source: a SERVED value; an empty attribute path means the module itself. tf-slim and
      tensorflow-estimator get their shims first.

  Returns:
    The object.
  """
  import importlib  # pylint: disable=import-outside-toplevel
  module_name, _, path = source.partition(":")
  obj = importlib.import_module(module_name)  # tf-slim / tensorflow-estimator: shimmed by the import hook
  for attr in filter(None, path.split(".")):
    obj = getattr(obj, attr)
  return obj


def missing_attribute_hook(module_symbol, lazy=None):
  """Builds the module-level `__getattr__` of a provided contrib module.

  Args:
    module_symbol: the module's TF1 name, e.g. "tf.contrib.rnn".
    lazy: optional dict attr -> "package.module:attr.path" resolved on each access (for names that
      other tf1clip modules or other libraries own, imported only when used); see `served`.

  Returns:
    A `__getattr__(attr)` that resolves `lazy` names and raises ContribNotProvidedError naming
    "<module_symbol>.<attr>" for every other public name.
  """
  lazy = dict(lazy or {})

  def __getattr__(attr):  # pylint: disable=invalid-name
    if attr in lazy:
      return resolve(lazy[attr])
    if attr.startswith("__"):
      raise AttributeError("module %r has no attribute %r" % (module_symbol, attr))
    raise ContribNotProvidedError(module_symbol + "." + attr)

  return __getattr__


# --- The index: what every TF 1.15 tf.contrib name is under tf1clip, collected from the packages -------------------
#
# Each contrib package declares what it serves beside its code: its public attributes are the served names (real
# imports), `NOT_SERVED` maps a TF 1.15 name of the module that tf1clip does not serve to what to use instead,
# `SIGNATURE_DIFFERENCES` a served name whose parameters differ from TF 1.15's to why, `SUCCESSOR` says what replaced
# the whole module in TF 2, and `WHOLE` names a library package served whole (slim: every name tf-slim has).
# `collect()` imports every package and writes what it finds, for every name of TF 1.15's inventory (tf115/api.tsv),
# to catalog.tsv; `tf1clip check`, `explain`, docs/contrib.md and the tests read that file without importing
# TensorFlow. tests/contrib/test_catalog_index.py fails when it is stale: `make catalog` writes it again.


INDEX_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "catalog.tsv")
SERVED_STATUS, WHOLE_STATUS, NOT_SERVED_STATUS = "served", "whole", "not served"
NO_REPLACEMENT = "no maintained replacement"

Record = collections.namedtuple("Record", "name status origin advice difference alias")
Record.__doc__ = """One TF 1.15 contrib name as tf1clip serves it.

status: "served", "whole" (a module served as a whole library package: every name the library has below it), or
"not served". origin: where the served object comes from ("tf-slim 1.1.0: tf_slim.layers.layers.conv2d").
advice: what to use instead (a name tf1clip does not serve) or what replaced the module in TF 2 (a served module).
difference: why its parameters differ from TF 1.15's, if they do. alias: a public TF name outside tf.contrib that is
the same object on TensorFlow 2.21 (what `tf1clip upgrade` writes instead), if any.
"""

_INDEX_HEADER = "# name\tstatus\torigin\tadvice\tdifference\talias  (written by `make catalog`: python -m tf1clip.contrib --write)"


@functools.lru_cache(maxsize=None)
def index():
  """{contrib name: Record} from catalog.tsv (no TensorFlow import)."""
  found = {}
  if not os.path.exists(INDEX_FILE):
    return found
  with open(INDEX_FILE, encoding="utf-8") as f:
    for line in f:
      if line.startswith("#") or not line.strip():
        continue
      fields = (line.rstrip("\n").split("\t") + [""] * 6)[:6]
      found[fields[0]] = Record(*fields)
  return found


def provided_names():
  """The contrib names tf1clip serves, as in the index (modules included; names below a whole package are not)."""
  return [name for name, record in index().items() if record.status != NOT_SERVED_STATUS]


def origin(name):
  """Where the object tf1clip serves for `name` comes from, or None when it is not served."""
  name = normalize(name)
  record = index().get(name)
  if record is not None:
    return record.origin if record.status != NOT_SERVED_STATUS else None
  whole = _whole_package_of(name)
  return _below_whole(whole, name) if whole is not None else None


def _below_whole(whole, name):
  """"tf-slim 1.1.0: tf_slim.nets.resnet_v1" for a name below a whole package's record ("tf.contrib.slim")."""
  label, _, package = whole.origin.partition(": package ")
  return "%s: %s" % (label, ".".join([package] + name.split(".")[len(whole.name.split(".")):]))


def tf_alias(name):
  """A public TF name outside tf.contrib that is the very object tf1clip serves for `name` ("tf.nn.static_rnn"), or
  None."""
  record = index().get(normalize(name))
  return record.alias or None if record is not None else None


def _whole_package_of(name):
  """The index record of the whole-package module `name` lies below, unless the index lists `name` itself."""
  records = index()
  if name in records:
    return None
  parts = name.split(".")
  for end in range(len(parts) - 1, 2, -1):
    record = records.get(".".join(parts[:end]))
    if record is not None:
      return record if record.status == WHOLE_STATUS else None
  return None


def _package_of(name):
  """The loaded tf1clip module that serves the contrib module `name`, or None ("tf.contrib.rnn" -> tf1clip.contrib.rnn)."""
  return sys.modules.get("tf1clip" + name[len("tf"):]) if name.startswith("tf.contrib.") else None


def _declaration(module, attr, default=None):
  """A declaration a contrib module makes (NOT_SERVED, SUCCESSOR, ...), read from its namespace: a module's
  `__getattr__` would answer a missing one with ContribNotProvidedError."""
  return vars(module).get(attr, default) if module is not None else default


def _declared_advice(name):
  """What to use instead of `name` (a contrib name or module), as declared: the live package's NOT_SERVED /
  SUCCESSOR, else the index, else the table of modules tf1clip does not serve."""
  module, _, leaf = name.rpartition(".")
  package = _package_of(module)
  if leaf in _declaration(package, "NOT_SERVED", {}):
    return package.NOT_SERVED[leaf]
  successor = _declaration(_package_of(name), "SUCCESSOR")
  if successor:
    return successor
  record = index().get(name)
  if record is not None and record.advice:
    return record.advice
  return UNSUPPORTED.get(name)


def module_getattr(module_name, lazy=None):
  """The module-level `__getattr__` of a contrib package or module (`__getattr__ = module_getattr(__name__)`).

  Args:
    module_name: the module's `__name__` ("tf1clip.contrib.rnn"); errors name it as "tf.contrib.rnn.<attr>".
    lazy: optional {attr: callable returning the object}, for the rare name whose import must wait for its first
      use (a cycle, or a heavy library few users of the package touch). The value is kept in the module.

  Returns:
    A `__getattr__(attr)` that serves `lazy` names and raises ContribNotProvidedError, with the package's declared
    reason (NOT_SERVED) or the module's successor, for every other public name.
  """
  lazy = dict(lazy or {})
  symbol = normalize(module_name)

  def __getattr__(attr):  # pylint: disable=invalid-name
    if attr in lazy:
      value = lazy[attr]()
      setattr(sys.modules[module_name], attr, value)
      return value
    if attr.startswith("__"):
      raise AttributeError("module %r has no attribute %r" % (module_name, attr))
    raise ContribNotProvidedError(symbol + "." + attr)

  return __getattr__


_LIBRARIES = (  # top-level package -> (what to call it, its distribution for the version)
    ("tf1clip", "tf1clip's own code", None),
    ("tf_slim", "tf-slim", "tf-slim"),
    ("tensorflow_estimator", "tensorflow-estimator", "tensorflow-estimator"),
    ("tensorflow_probability", "tensorflow-probability", "tensorflow-probability"),
    ("tf_keras", "tf-keras", "tf-keras"),
    ("tensorboard", "TensorBoard", "tensorboard"),
    ("keras", "Keras", "keras"),
    ("tensorflow", "TensorFlow", "tensorflow"),
)


def _library_label(module_name):
  from importlib import metadata  # pylint: disable=import-outside-toplevel
  root = module_name.split(".")[0]
  for package, label, distribution in _LIBRARIES:
    if root == package:
      if distribution:
        try:
          label += " " + metadata.version(distribution)
        except metadata.PackageNotFoundError:
          pass
      return label
  return root


def describe_origin(obj, holder):
  """"<library>: <module>.<name>" for a served object (`holder`: the module it was found in, for plain values)."""
  if isinstance(obj, types.ModuleType):
    return "%s: module %s" % (_library_label(obj.__name__), obj.__name__)
  module = getattr(obj, "__module__", None) if isinstance(obj, (type, types.FunctionType, types.BuiltinFunctionType)) \
      or callable(obj) else None
  if not isinstance(module, str) or not module:
    return "%s: a value of %s" % (_library_label(holder), holder)
  qualname = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None) or type(obj).__name__
  return "%s: %s.%s" % (_library_label(module), module, qualname)


def _contrib_modules():
  """TF 1.15's tf.contrib names of kind module, shallow first."""
  return sorted((name for name, entry in tf115.entries().items()
                 if name.startswith("tf.contrib.") and entry.kind == "module"), key=lambda n: (n.count("."), n))


def collect():
  """Every TF 1.15 tf.contrib name as tf1clip serves it now: a list of Records, in the inventory's order.

  Imports TensorFlow and every contrib package (and applies the shims contrib needs, as the facade does).
  """
  import importlib  # pylint: disable=import-outside-toplevel
  shims.apply("graph_editor")
  shims.apply("contrib_autograph")
  contrib = importlib.import_module("tf1clip.contrib")
  tf_v1 = importlib.import_module("tensorflow").compat.v1
  inventory = tf115.entries()
  groups = tf115.same_object_groups()
  records = []

  def lookup(root, parts):
    obj = root
    for part in parts:
      obj = getattr(obj, part)
    return obj

  for name, entry in inventory.items():
    if not name.startswith("tf.contrib.") or entry.kind == "import-error":
      continue
    parts = name.split(".")
    module_name, _, leaf = name.rpartition(".")
    try:
      obj = lookup(contrib, parts[2:])
      found = not isinstance(obj, UnsupportedModule)
    except (ImportError, AttributeError):
      obj, found = None, False
    holder = sys.modules.get("tf1clip" + module_name[len("tf"):], contrib)
    package = sys.modules.get("tf1clip" + name[len("tf"):])
    whole = _declaration(package, "WHOLE")
    if whole is None and entry.kind == "module" and parts[2:3] and len(parts) == 3 and parts[2] in WHOLE_PACKAGES:
      whole = "tf_slim"  # until the package declares WHOLE itself
    if found:
      status = WHOLE_STATUS if whole else SERVED_STATUS
      source = ("%s: package %s" % (_library_label(whole), whole)) if whole else describe_origin(
          obj, getattr(holder, "__name__", "tf1clip.contrib"))
      advice = _declaration(package, "SUCCESSOR") or (
          UNSUPPORTED.get(name, "") if entry.kind == "module" else "")
      difference = _declared_difference(name, holder)
      alias = ""
      # a public TF name outside contrib for the same object: TF 1.15's same-object group, else the names TensorFlow
      # 2.21 exports the object under (its tf_export record)
      exported = vars(obj).get("_tf_api_names_v1", ()) if hasattr(obj, "__dict__") else ()
      for other in [n for n in groups.get(entry.same_as or name, ()) if not n.startswith("tf.contrib.")] + [
          "tf." + n for n in exported]:
        try:
          if other.startswith("tf.") and lookup(tf_v1, other.split(".")[1:]) is obj:
            alias = other
            break
        except AttributeError:
          continue
      records.append(Record(name, status, source, advice or "", difference or "", alias))
    else:
      records.append(Record(name, NOT_SERVED_STATUS, "", replacement(name) if not _declared_advice(name)
                            else _declared_advice(name), "", ""))
  return records


def _declared_difference(name, holder):
  """A served name's declared signature difference: its package's SIGNATURE_DIFFERENCES, else the central table."""
  leaf = name.rpartition(".")[2]
  declared = _declaration(holder, "SIGNATURE_DIFFERENCES", {})
  if leaf in declared:
    return declared[leaf]
  for candidate in dict.fromkeys((name, canonical(name))):
    why = SIGNATURE_DIFFERENCES.get(candidate) or next(
        (v for k, v in SIGNATURE_DIFFERENCES.items() if k.endswith(".") and candidate.startswith(k)), None)
    if why:
      return why
  return None


def _clean(text):
  return " ".join(str(text).split())


def index_text(records):
  """catalog.tsv's text for `records`."""
  lines = [_INDEX_HEADER]
  for r in records:
    lines.append("\t".join(_clean(v) for v in r))
  return "\n".join(lines) + "\n"


def main(argv=None):
  """`python -m tf1clip.contrib [--write | --check]`: write catalog.tsv, or exit 1 when it is stale."""
  import argparse  # pylint: disable=import-outside-toplevel
  parser = argparse.ArgumentParser(prog="python -m tf1clip.contrib", description=main.__doc__)
  parser.add_argument("--write", action="store_true", help="write %s" % INDEX_FILE)
  parser.add_argument("--check", action="store_true", help="exit 1 when the file differs from the tree")
  args = parser.parse_args(argv)
  text = index_text(collect())
  current = open(INDEX_FILE, encoding="utf-8").read() if os.path.exists(INDEX_FILE) else ""
  if args.write:
    with open(INDEX_FILE, "w", encoding="utf-8") as f:
      f.write(text)
    print("wrote %s (%d names)" % (INDEX_FILE, text.count("\n") - 1))
    return 0
  if args.check:
    if text != current:
      print("%s is stale: run `make catalog`" % INDEX_FILE)
      print("".join(__import__("difflib").unified_diff(current.splitlines(True), text.splitlines(True),
                                                      "catalog.tsv", "the tree", n=0))[:4000])
      return 1
    return 0
  sys.stdout.write(text)
  return 0


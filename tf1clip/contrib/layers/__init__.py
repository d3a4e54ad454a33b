"""`tf.contrib.layers`: the initializers, regularizers and layer functions training scripts use.

`optimize_loss`, `adaptive_clipping_fn`, `OPTIMIZER_CLS_NAMES` and `OPTIMIZER_SUMMARIES` are tf-slim's (TF 1.15's
code; the same objects as `tf.contrib.slim.optimize_loss`, as in TF 1.15: the oracle judged tf1clip.training_op's
own `optimize_loss`, whose fixes differ from TF 1.15, against it), imported on first use. Every name tf-slim has
(tf-slim is TF 1.15's contrib.layers moved out: `fully_connected`, `flatten`, `layer_norm`, `conv2d`, `batch_norm`,
the initializers and regularizers, `summarize_*`, ...) is tf-slim's own object, imported from tf-slim below, so `arg_scope` and every other slim mechanism sees the functions it decorated. Ours only where
tf-slim has nothing: `embed_sequence`, `bow_encoder` (encoders) and `embedding_lookup_unique`, and the first
feature-column API (`real_valued_column`, `sparse_column_with_keys`, ... in feature_column, on tf.feature_column).
Any other name raises ContribNotProvidedError with a replacement.
"""

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tensorflow.compat.v1.nn import safe_embedding_lookup_sparse
from tensorflow.python.feature_column.feature_column import InputLayer
from tensorflow.python.util.all_util import make_all
from tf1clip.contrib.layers.python.layers import target_column
from tf1clip.contrib.layers.python.layers.embedding_ops import (
    embedding_lookup_sparse_with_distributed_aggregation, embedding_lookup_unique, scattered_embedding_lookup,
    scattered_embedding_lookup_sparse)
from tf1clip.contrib.layers.python.layers.feature_column import (
    bucketized_column, create_feature_spec_for_parsing, crossed_column, embedding_column, infer_real_valued_columns,
    input_from_feature_columns, make_place_holder_tensors_for_base_features, one_hot_column, real_valued_column,
    scattered_embedding_column, shared_embedding_columns, sparse_column_with_hash_bucket,
    sparse_column_with_integerized_feature, sparse_column_with_keys, sparse_column_with_vocabulary_file,
    weighted_sparse_column)
from tf1clip.contrib.layers.python.layers.feature_column_ops import (
    check_feature_columns, experimental, joint_weighted_sum_from_feature_columns, parse_feature_columns_from_examples,
    parse_feature_columns_from_sequence_examples, sequence_input_from_feature_columns, transform_features,
    weighted_sum_from_feature_columns)
from tf1clip.contrib.layers.python.ops.sparse_feature_cross_op import (
    sparse_feature_cross, SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY)
from tf1clip.contrib.layers.python.ops.sparse_ops import (
    dense_to_sparse_tensor, indicators_to_sparse_ids, sparse_row_envelope)
from tf1clip.contrib.layers.python.layers.target_column import (
    binary_svm_target, get_default_binary_metrics_for_eval, multi_class_target, ProblemType, regression_target)
from tf1clip.contrib.util import loader
from tf_slim import (
    apply_regularization, avg_pool2d, avg_pool3d, batch_norm, bias_add, conv1d, conv2d, conv2d_in_plane,
    conv2d_transpose, conv3d, conv3d_transpose, convolution, convolution1d, convolution2d, convolution2d_in_plane,
    convolution2d_transpose, convolution3d, convolution3d_transpose, dense_to_sparse, dropout, elu, flatten,
    fully_connected, gdn, GDN, group_norm, images_to_sequence, instance_norm, l1_l2_regularizer, l1_regularizer,
    l2_regularizer, layer_norm, legacy_fully_connected, legacy_linear, legacy_relu, linear, max_pool2d, max_pool3d,
    maxout, one_hot_encoding, pool, recompute_grad, relu, relu6, repeat, rev_block, RevBlock, scale_gradient,
    separable_conv2d, separable_convolution2d, sequence_to_images, softmax, spatial_softmax, stack, sum_regularizer,
    summarize_activation, summarize_activations, summarize_biases, summarize_collection, summarize_tensor,
    summarize_tensors, summarize_variables, summarize_weights, unit_norm, variance_scaling_initializer,
    xavier_initializer, xavier_initializer_conv2d)
from tf_slim.layers import summaries
from tf_slim.layers.layers import poincare_normalize
from tf_slim.layers.optimizers import adaptive_clipping_fn, optimize_loss, OPTIMIZER_CLS_NAMES, OPTIMIZER_SUMMARIES
from tf1clip.contrib.layers.python.layers import feature_column  # noqa: F401  (its names are served lazily)
from tf1clip.contrib.layers.python.ops import sparse_feature_cross_op  # noqa: F401  (slim leaked it)
from tf1clip.contrib.layers.python.layers.encoders import bow_encoder
from tf1clip.contrib.layers.python.layers.encoders import embed_sequence

# The declaration: served names whose parameters differ from TF 1.15's in a way a TF 1.15 call can notice.
SIGNATURE_DIFFERENCES = {
    "safe_embedding_lookup_sparse": (
        "TensorFlow 2.21's tf.compat.v1.nn function: `combiner=None` was TF 1.15's spelling of the default "
        "'mean' (it logged a warning and used 'mean'); `allow_fast_lookup` is new"),
}

# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = ('tf.compat.v1.layers (conv2d, batch_normalization, dropout, dense, max_pooling2d, ...; variables are '
             'named kernel/bias, not weights/biases)')

__getattr__ = _catalog.module_getattr(__name__)

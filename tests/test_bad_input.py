"""Every bad input of issue 14's campaign: an early error naming the argument, the value and what is accepted.

One row per case. Each row builds its call in a fresh graph and checks the exception type and that the
message names the argument (and the value, where there is one); the wordings come from tf1clip.validation
(one per condition), so the same condition reads the same everywhere. The parity CLI's bad inputs belong
to tests of tf1clip.v2.parity.
"""

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from tf1clip import transforms
from tf1clip.accumulation import GradientAccumulationOptimizer
from tf1clip.accumulation import HostGradientAverager
from tf1clip.accumulation import fused_accumulation_step

V1 = tf.compat.v1


def _t():
  return tf.constant([[3.0, 4.0], [1.0, 2.0]])


def _sgd():
  return V1.train.GradientDescentOptimizer(0.1)


def _model():
  x = V1.placeholder(tf.float32, [None, 2])
  w = V1.get_variable("w", initializer=[[1.0], [2.0]])
  loss = tf.reduce_mean(tf.matmul(x, w))
  return x, w, loss


def _optimize_loss(**kwargs):
  _, _, loss = _model()
  args = dict(global_step=V1.train.get_or_create_global_step(), learning_rate=0.1, optimizer="SGD")
  args.update(kwargs)
  return tf1clip.optimize_loss(loss, **args)


def _fused(model_fn, inputs, k=2):
  return fused_accumulation_step(model_fn, inputs, k, _sgd())


def _fused_mean_loss(batch):
  w = V1.get_variable("fw", initializer=[[1.0], [2.0]])
  return tf.reduce_mean(tf.matmul(batch["x"], w))


def _host_apply_strings():
  _, w, loss = _model()
  averager = HostGradientAverager(_sgd(), loss)
  with V1.Session() as sess:
    sess.run(V1.global_variables_initializer())
    averager.apply(sess, [["abc"]])


def _dtype_changing_transform():
  _, w, loss = _model()

  def to_float64(grads_and_vars):
    return [(tf.cast(g, tf.float64), v) for g, v in grads_and_vars]

  tf1clip.WrappedOptimizer(_sgd(), [to_float64]).minimize(loss)  # must raise while building


CASES = [
    # silently accepted before
    ("clip_by_norm_inf", lambda: tf1clip.clip_by_norm(_t(), float("inf")),
     ValueError, r"`clip_norm` must be finite; got inf"),
    ("clip_by_global_norm_inf", lambda: tf1clip.clip_by_global_norm([_t()], float("inf")),
     ValueError, r"`clip_norm` must be finite; got inf"),
    ("use_norm_negative", lambda: tf1clip.clip_by_global_norm([_t()], 1.0, use_norm=-1.0),
     ValueError, r"`use_norm` must be >= 0; got -1.0"),
    ("clip_by_value_nan", lambda: tf1clip.clip_by_value(_t(), float("nan"), 1.0),
     ValueError, r"`clip_value_min` must not be NaN; got nan"),
    ("optimize_loss_learning_rate_nan", lambda: _optimize_loss(learning_rate=float("nan")),
     ValueError, r"`learning_rate` must be >= 0; got nan"),
    ("adaptive_decay_1_5", lambda: tf1clip.adaptive_clipping_fn(decay=1.5),
     ValueError, r"`decay` must be in \[0, 1\]; got 1.5"),
    ("adaptive_std_factor_negative", lambda: tf1clip.adaptive_clipping_fn(std_factor=-2.0),
     ValueError, r"`std_factor` must be >= 0; got -2.0"),
    ("accumulation_2_pow_63", lambda: GradientAccumulationOptimizer(_sgd(), 2**63),
     ValueError, r"`num_micro_batches` must be an int in \[1, 2147483647\]; got 9223372036854775808"),
    ("fused_non_scalar_loss",
     lambda: _fused(lambda b: tf.matmul(b["x"], V1.get_variable("nw", [2, 1])),
                    {"x": V1.placeholder(tf.float32, [4, 2])}),
     ValueError, r"`model_fn` must return a scalar loss.*got shape \(2, 1\)"),
    ("fused_unequal_batch_sizes",
     lambda: _fused(_fused_mean_loss, {"x": V1.placeholder(tf.float32, [4, 2]),
                                       "y": V1.placeholder(tf.float32, [6])}),
     ValueError, r"`inputs` must share their batch dimension; got batch sizes inputs\[0\]: 4, "
                 r"inputs\[1\]: 6"),
    # crashed with internal messages before
    ("clip_by_norm_string", lambda: tf1clip.clip_by_norm(_t(), "abc"),
     TypeError, r"`clip_norm` must be a number or a scalar Tensor; got a str: 'abc'"),
    ("clip_by_norm_numeric_string", lambda: tf1clip.clip_by_norm(_t(), "5"),
     TypeError, r"`clip_norm` must be a number or a scalar Tensor; got a str: '5'"),
    ("clip_by_global_norm_numeric_string", lambda: tf1clip.clip_by_global_norm([_t()], "5"),
     TypeError, r"`clip_norm` must be a number or a scalar Tensor; got a str: '5'"),
    ("clip_by_average_norm_numeric_string", lambda: tf1clip.clip_by_average_norm(_t(), "5"),
     TypeError, r"`clip_norm` must be a number or a scalar Tensor; got a str: '5'"),
    ("clip_by_value_string", lambda: tf1clip.clip_by_value(_t(), "0", 1.0),
     TypeError, r"`clip_value_min` must be a number or a Tensor; got a str: '0'"),
    ("clip_gradients_by_norm_string", lambda: tf1clip.clip_gradients_by_norm(_sgd(), "5"),
     TypeError, r"`clip_norm` must be a number or a scalar Tensor; got a str: '5'"),
    ("transform_clip_by_norm_string", lambda: transforms.clip_by_norm("5"),
     TypeError, r"`clip_norm` must be a number or a scalar Tensor; got a str: '5'"),
    ("v2_clip_gradients_by_norm_string",
     lambda: tf1clip.v2.clip_gradients_by_norm(__import__("keras").optimizers.SGD(0.1), "5"),
     TypeError, r"`clip_norm` must be a number or a scalar Tensor; got a str: '5'"),
    ("select_variables_scope_int", lambda: tf1clip.select_variables(scope=5),
     TypeError, r"`scope` must be a scope name or a list of them; got a int: 5"),
    ("accumulation_2_pow_64_plus_3", lambda: GradientAccumulationOptimizer(_sgd(), 2**64 + 3),
     ValueError, r"`num_micro_batches` must be an int in \[1, 2147483647\]; got 18446744073709551619"),
    ("host_averager_strings", _host_apply_strings,
     TypeError, r"`gradients_list\[0\]\[0\]` must be a numeric array.*got a str: 'abc'"),
    ("transform_changes_dtype", _dtype_changing_transform,
     ValueError, r"to_float64 changed the dtype of the gradient of w \(position 0\) to float64; "
                 r"it must stay the variable's dtype float32"),
    # unclear before
    ("clip_by_norm_bool", lambda: tf1clip.clip_by_norm(_t(), True),
     TypeError, r"`clip_norm` must be a number or a scalar Tensor; got a bool: True"),
    ("clip_by_norm_int_tensor", lambda: tf1clip.clip_by_norm(tf.constant([3, 4]), 1.0),
     TypeError, r"`t` must have a floating-point dtype; got int32"),
    ("clip_by_global_norm_int_tensor",
     lambda: tf1clip.clip_by_global_norm([tf.constant([3, 4])], 1.0),
     TypeError, r"`t_list\[0\]` must have a floating-point dtype; got int32"),
    ("clip_by_norm_string_tensor", lambda: tf1clip.clip_by_norm(tf.constant(["a"]), 1.0),
     TypeError, r"`t` must have a floating-point dtype; got string"),
    ("clip_by_value_string_tensor", lambda: tf1clip.clip_by_value(tf.constant(["a"]), 0.0, 1.0),
     TypeError, r"`t` must have a floating-point dtype; got string"),
    ("optimize_loss_clip_gradients_negative", lambda: _optimize_loss(clip_gradients=-1),
     ValueError, r"`clip_gradients` must be > 0; got -1"),
    ("select_variables_bad_regex", lambda: (_model(), tf1clip.select_variables(regex="w(")),
     ValueError, r"`regex` must be a valid regular expression; got 'w\(' \(missing \)"),
    # issue 24: the last silent and unclear ones
    ("clip_aggregated_replicas_zero", lambda: tf1clip.clip_aggregated_gradients(_sgd(), 1.0, 0),
     ValueError, r"`replicas_to_aggregate` must be an int in \[1, 2147483647\]; got 0"),
    ("clip_aggregated_total_replicas_zero",
     lambda: tf1clip.clip_aggregated_gradients(_sgd(), 1.0, 2, total_num_replicas=0),
     ValueError, r"`total_num_replicas` must be an int in \[1, 2147483647\]; got 0"),
    ("clip_aggregated_replicas_negative", lambda: tf1clip.clip_aggregated_gradients(_sgd(), 1.0, -2),
     ValueError, r"`replicas_to_aggregate` must be an int in \[1, 2147483647\]; got -2"),
    ("clip_aggregated_replicas_float", lambda: tf1clip.clip_aggregated_gradients(_sgd(), 1.0, 2.5),
     ValueError, r"`replicas_to_aggregate` must be an int in \[1, 2147483647\]; got a float: 2.5"),
    ("clip_by_norm_axes_out_of_rank", lambda: tf1clip.clip_by_norm(tf.constant([3.0, 4.0]), 1.0, axes=[5]),
     ValueError, r"`axes` must be dimensions of `t` \(rank 1: -1 to 0\); got axes=\[5\]"),
    ("clip_by_value_bound_shape",
     lambda: tf1clip.clip_by_value(tf.constant([1.0, 2.0, 3.0]), tf.zeros([4]), 2.0),
     ValueError, r"`clip_value_min` must broadcast to the shape of `t` \[3\]; got shape \[4\]"),
    ("clip_by_value_int_tensor_float_bounds",
     lambda: tf1clip.clip_by_value(tf.constant([1, 2, 3]), 0.5, 1.5),
     TypeError, r"`clip_value_min` must be a whole number for an integer `t` \(int32\); got 0.5"),
    ("fused_model_fn_returns_none",
     lambda: _fused(lambda b: None, {"x": V1.placeholder(tf.float32, [4, 2])}),
     TypeError, r"`model_fn` must return the micro-batch's scalar loss Tensor; got a NoneType: None"),
]


@pytest.mark.parametrize("build,error,message", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_raises_early_naming_the_argument_and_value(graph, build, error, message):
  with pytest.raises(error, match=message):
    build()
  # Early: nothing ran, and no run-time assert was left to catch it later.
  assert not [op for op in graph.get_operations() if op.type == "Assert"]


def test_each_condition_is_worded_only_in_the_validation_module():
  import pathlib  # pylint: disable=g-import-not-at-top
  package = pathlib.Path(tf1clip.__file__).parent
  wordings = ("must be > 0; got", "must be >= 0; got", "must be finite; got", "must not be NaN; got",
              "must have a floating-point dtype; got", "must be an int in [")
  owners = {}
  for path in package.rglob("*.py"):
    # parity.py's own flags belong to engineer "observe" (its bad inputs are their task).
    if path.name in ("validation.py", "parity.py"):
      continue
    text = path.read_text()
    for wording in wordings:
      if wording in text:
        owners.setdefault(wording, []).append(str(path.relative_to(package)))
  assert owners == {}

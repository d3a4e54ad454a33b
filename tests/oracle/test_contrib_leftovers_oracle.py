"""Small contrib leftovers against TF 1.15: quantization's quantize_v2 / dequantize / quantized_concat (values and
ranges, MIN_COMBINED and SCALED) with the module's leaked names; distributions'
VectorDiffeomixture (log_prob, mean, covariance, variance, grid, shapes, errors) and the quantile scheme; distribute's
StandardSingleLossStep on a OneDeviceStrategy (two steps of two iterations); predictor.from_contrib_estimator
(a contrib.learn Estimator's feeds, fetches and predictions); and an OptimizerV2 subclass (slots, non-slot
variable, dynamic hyper-parameter, sparse update, global step, names and errors; its tf.train.Checkpoint keys
and a restore applied when the slots are created)."""

import numpy as np
from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.quantization." + n for n in (
    "quantize_v2", "dequantize", "quantized_concat", "quantized_array_ops", "tf_export", "deprecated_endpoints")) + \
    tuple("tf.contrib.distribute." + n for n in ("Step", "StandardInputStep", "StandardSingleLossStep")) + (
        "tf.contrib.predictor.from_contrib_estimator", "tf.contrib.optimizer_v2.OptimizerV2") + tuple(
        "tf.contrib.distributions." + n for n in (
            "VectorDiffeomixture", "quadrature_scheme_softmaxnormal_gauss_hermite",
            "quadrature_scheme_softmaxnormal_quantiles"))

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
side = "tf115" if tf.__version__.startswith("1.") else "tf1clip"
base = os.path.join(ORACLE_SHARED, side)
# -- quantization ------------------------------------------------------------------------------------------
q = tf.contrib.quantization
x = tf.constant([[-1.0, 0.0, 0.5, 2.0]])
qo = q.quantize_v2(x, -1.0, 2.0, tf.quint8)
dq = q.dequantize(qo.output, qo.output_min, qo.output_max)
qc = q.quantized_concat(0, [qo.output, qo.output], [qo.output_min, -2.0], [qo.output_max, 2.0])
qs = q.quantize_v2(x, -1.0, 2.0, tf.qint8, mode="SCALED", round_mode="HALF_TO_EVEN")
dqs = q.dequantize(qs.output, qs.output_min, qs.output_max, mode="SCALED")
def undecorated():
    pass
report("quantization_names", [type(qo).__name__, list(qo._fields), type(qc).__name__,
                              q.quantized_array_ops.quantize_v2 is q.quantize_v2,
                              list(q.deprecated_endpoints("a.b", "c")(undecorated)._tf_deprecated_api_names),
                              callable(q.tf_export("tf1clip_oracle_unused_name"))])
# -- distribute step functions --------------------------------------------------------------------------------
strategy = tf.contrib.distribute.OneDeviceStrategy("/cpu:0")
with strategy.scope():
    layer = tf.layers.Dense(1, kernel_initializer=tf.ones_initializer(), use_bias=False)
    def loss_fn(ctx, inputs):
        y = tf.reshape(layer(inputs), []) - 1.
        return y * y
    step = tf.contrib.distribute.StandardSingleLossStep(
        lambda: tf.data.Dataset.from_tensors([[2.0]]).repeat(), loss_fn,
        tf.train.GradientDescentOptimizer(0.05), strategy, iterations_per_step=2)
    step_op = step()
    step_init = step.initialize()
report("step_types", [isinstance(step, tf.contrib.distribute.StandardInputStep),
                      isinstance(step, tf.contrib.distribute.Step), step.distribution is strategy,
                      tf.contrib.distribute.Step(strategy).initialize()])
# -- optimizer_v2.OptimizerV2 ---------------------------------------------------------------------------------
class MySGD(tf.contrib.optimizer_v2.OptimizerV2):
    def __init__(self, learning_rate, momentum=0.5, name="MySGD"):
        super(MySGD, self).__init__(False, name)
        self._set_hyper("learning_rate", learning_rate)
        self._set_hyper("momentum", momentum)
    def _create_vars(self, var_list, state):
        for v in var_list:
            state.zeros_slot(v, "m")
        state.create_non_slot(initial_value=1.0, name="count")
    def _apply_dense(self, grad, var, state):
        m = state.get_slot(var, "m")
        m_t = m.assign(state.get_hyper("momentum", var.dtype.base_dtype) * m + grad)
        return var.assign_sub(state.get_hyper("learning_rate", var.dtype.base_dtype) * m_t)
    _resource_apply_dense = _apply_dense
    def _apply_sparse(self, grad, var, state):
        return tf.scatter_sub(var, grad.indices, state.get_hyper("learning_rate") * grad.values)
    def _resource_apply_sparse(self, grad, var, indices, state):
        return tf.scatter_sub(var, indices, state.get_hyper("learning_rate") * grad)
    def _finish(self, state):
        count = state.get_non_slot("count")
        return count.assign(count * 2.0)
class OverridesSlots(tf.contrib.optimizer_v2.OptimizerV2):
    def _create_slots(self, var_list):
        pass
w = tf.get_variable("w", initializer=[1.0, 2.0])
emb = tf.get_variable("emb", initializer=[[1.0], [2.0], [3.0]])
lr = tf.placeholder_with_default(0.1, [])
opt_loss = tf.reduce_sum(w * w) + tf.reduce_sum(tf.nn.embedding_lookup(emb, [0, 2, 2]))
gs = tf.train.get_or_create_global_step()
opt = MySGD(lambda: lr * 1.0)
train = opt.minimize(opt_loss, global_step=gs, var_list=[w, emb])
report("optimizer_names", [train.name, [v.name for v in opt.variables()], opt.get_slot_names(),
                           opt.get_slot(w, "m").name, isinstance(opt, tf.train.Optimizer),
                           train in tf.get_collection(tf.GraphKeys.TRAIN_OP)])
report_errors("optimizer_errors", [("create_slots", lambda: OverridesSlots(False, "x")),
                                   ("no_name", lambda: MySGD(0.1, name="")),
                                   ("no_grads", lambda: opt.apply_gradients([(None, w)]))])
# -- distributions.VectorDiffeomixture --------------------------------------------------------------------------
tfd = tf.contrib.distributions
def scales(n=2):
    return [tf.linalg.LinearOperatorScaledIdentity(num_rows=3, multiplier=np.float32(1.1), is_positive_definite=True),
            tf.linalg.LinearOperatorDiag(diag=np.float32([2.5, 3., 3.5]), is_positive_definite=True)][:n]
vdm = tfd.VectorDiffeomixture(mix_loc=[[0.], [1.]], temperature=[1.], distribution=tfd.Normal(0., 1.),
                              loc=[None, np.float32([2.] * 3)], scale=scales(), quadrature_size=4, validate_args=True)
vdm2 = tfd.VectorDiffeomixture(
    mix_loc=[0.5], temperature=[0.7], distribution=tfd.Normal(0., 1.),
    loc=[np.float32([1., -1.]), np.float32([0., 2.])],
    scale=[tf.linalg.LinearOperatorLowerTriangular([[1.5, 0.], [0.3, 1.2]], is_positive_definite=True),
           tf.linalg.LinearOperatorIdentity(num_rows=2, dtype=tf.float32, is_positive_definite=True)],
    quadrature_size=3)
report("vdm_shapes", [vdm.batch_shape.as_list(), vdm.event_shape.as_list(), vdm2.batch_shape.as_list(),
                      vdm2.event_shape.as_list(), vdm.sample(5, seed=1).shape.as_list(),
                      vdm2.sample([2, 3], seed=2).shape.as_list(),
                      vdm.reparameterization_type == tfd.FULLY_REPARAMETERIZED])
report_errors("vdm_errors", [
    ("one_scale", lambda: tfd.VectorDiffeomixture([0.], [1.], tfd.Normal(0., 1.), scale=scales(1))),
    ("three_scales", lambda: tfd.VectorDiffeomixture([0.], [1.], tfd.Normal(0., 1.), scale=scales() + scales(1))),
    ("two_temperatures", lambda: tfd.VectorDiffeomixture([0.], [1., 2.], tfd.Normal(0., 1.), scale=scales())),
    ("dtype", lambda: tfd.VectorDiffeomixture([0.], [1.], tfd.Normal(np.float64(0.), np.float64(1.)),
                                              scale=scales()))])
with case("gauss_hermite"):
    # TF 1.15's raised AttributeError on every call (it read `dt.dtype` of a DType); ours computes the grid
    gauss_hermite = tfd.quadrature_scheme_softmaxnormal_gauss_hermite(
        np.float32([[0.2], [-0.5]]), np.float32([[1.3], [0.4]]), 4)
    with tf.Session() as sess:
        report("gauss_hermite", sess.run(gauss_hermite))
vdm_values = {"lp": vdm.log_prob(np.float32([[[0.5, 1., -0.3]], [[2., 0.1, 1.]]])), "mean": vdm.mean(),
              "cov": vdm.covariance(), "var": vdm.variance(), "std": vdm.stddev(), "grid": vdm.grid,
              "lp2": vdm2.log_prob([[0.1, 0.2], [1., -1.]]), "mean2": vdm2.mean(), "cov2": vdm2.covariance(),
              "var2": vdm2.variance(), "quantiles": tfd.quadrature_scheme_softmaxnormal_quantiles(
                  [[0.2], [-0.5]], [[1.3], [0.4]], 4)}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(step_init)
    report("quantized", sess.run({"q": qo, "dq": dq, "qc": qc, "qs": qs, "dqs": dqs, "vdm": vdm_values}))
    sess.run(step_op)
    sess.run([step_op, train])
    sess.run(train, {lr: 0.2})
    report("trained", sess.run({"kernel": layer.kernel, "w": w, "emb": emb, "gs": gs,
                                "opt_vars": opt.variables()}))
    opt_path = tf.train.Checkpoint(w=w, optimizer=opt).save(os.path.join(base, "opt", "c"), session=sess)
report("optimizer_checkpoint_keys", sorted(tf.train.load_checkpoint(opt_path).get_variable_to_shape_map()))
with tf.Graph().as_default():  # restored before the slots exist: applied when minimize creates them
    w = tf.Variable([0.0, 0.0], name="w")
    opt = MySGD(0.1)
    status = tf.train.Checkpoint(w=w, optimizer=opt).restore(opt_path)
    opt.minimize(tf.reduce_sum(w * w), var_list=[w])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        status.run_restore_ops(sess)
        report("optimizer_restored", sess.run([w, opt.get_slot(w, "m")] + opt.variables()))
# -- predictor.from_contrib_estimator -------------------------------------------------------------------------
learn = tf.contrib.learn
def model_fn(features, labels, mode):
    wv = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer([[0.5], [-1.0]]))
    pred = tf.matmul(features["x"], wv)
    loss = None if labels is None else tf.losses.mean_squared_error(labels, pred)
    train_op = None
    if mode == learn.ModeKeys.TRAIN:
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, tf.train.get_global_step())
    return learn.ModelFnOps(mode=mode, predictions={"y": pred, "double": 2 * pred}, loss=loss, train_op=train_op)
est = learn.Estimator(model_fn=model_fn, model_dir=os.path.join(base, "estimator"))
xs = np.array([[1., 2.], [3., 4.]], np.float32)
est.fit(input_fn=lambda: ({"x": tf.constant(xs)}, tf.constant([[1.], [2.]])), steps=2)
def prediction_input_fn():
    xin = tf.placeholder(tf.float32, [None, 2], name="xin")
    return learn.InputFnOps({"x": xin}, None, {"inp": xin})
predictor = tf.contrib.predictor.from_contrib_estimator(est, prediction_input_fn)
report("predictor", [sorted(predictor.feed_tensors), sorted(predictor.fetch_tensors), predictor({"inp": xs})])
report_errors("predictor_errors", [("output_key", lambda: tf.contrib.predictor.from_contrib_estimator(
    est, prediction_input_fn, output_alternative_key="nope"))])
'''


@requires_tf115
def test_contrib_leftovers_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["gauss_hermite:error"] == "AttributeError"
  grid, probs = np.polynomial.hermite.hermgauss(4)  # what TF 1.15's code meant to compute
  shifted = np.float32([[0.2], [-0.5]])[..., None] + np.sqrt(2.) * np.float32([[1.3], [0.4]])[..., None] * grid
  logits = -np.concatenate([np.zeros_like(shifted), shifted], axis=-2)
  np.testing.assert_allclose(ours["gauss_hermite"][0], np.exp(logits) / np.exp(logits).sum(-2, keepdims=True),
                             rtol=1e-5)
  np.testing.assert_allclose(ours["gauss_hermite"][1], probs / probs.sum(), rtol=1e-6)
  assert_same(tf115, ours, differences={
      "gauss_hermite": "TF 1.15's quadrature_scheme_softmaxnormal_gauss_hermite raised AttributeError on every call "
                       "(its `dt.dtype` of a DType); tf1clip's computes the Gauss-Hermite grid and probabilities",
      "gauss_hermite:error": "the same bug: only TF 1.15 raises"})

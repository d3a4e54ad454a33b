"""tf.contrib.optimizer_v2 against TF 1.15: each of its six optimizers (served as the v1 optimizer of the same name)
gives the same weights after three steps (dense and sparse gradients), with the same slot and non-slot
variables and slot names; RMSProp's own start of the `rms` slot at epsilon included.

An OptimizerV2 subclass (SUBCLASS_SNIPPET): slots, non-slot variable, dynamic hyper-parameter, sparse update,
global step, names and errors; its tf.train.Checkpoint keys and a restore applied when the slots are created.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.optimizer_v2." + n for n in (
    "AdamOptimizer", "AdagradOptimizer", "MomentumOptimizer", "RMSPropOptimizer", "AdadeltaOptimizer",
    "GradientDescentOptimizer"))

ORACLE_TESTED = ORACLE_TESTED + ("tf.contrib.optimizer_v2.OptimizerV2",)

SNIPPET = r'''
import numpy as np
import tensorflow as tf
o2 = tf.contrib.optimizer_v2
for name, make in (("adam", lambda: o2.AdamOptimizer(0.1)), ("adagrad", lambda: o2.AdagradOptimizer(0.1)),
                   ("momentum", lambda: o2.MomentumOptimizer(0.1, 0.9, use_nesterov=True)),
                   ("rms", lambda: o2.RMSPropOptimizer(0.1, momentum=0.5, centered=True)),
                   ("rms_plain", lambda: o2.RMSPropOptimizer(0.05, epsilon=1e-3)),
                   ("adadelta", lambda: o2.AdadeltaOptimizer(1.0)), ("sgd", lambda: o2.GradientDescentOptimizer(0.1))):
    with tf.Graph().as_default():
        v = tf.Variable([1.0, 2.0], name="v")
        emb = tf.Variable(np.arange(6, dtype=np.float32).reshape(3, 2), name="emb")
        loss = tf.reduce_sum(v * v) + tf.reduce_sum(tf.nn.embedding_lookup(emb, [0, 2, 2]) ** 2)
        opt = make()
        step = opt.minimize(loss, global_step=tf.train.get_or_create_global_step())
        report("variables_" + name, sorted((x.op.name, x.shape.as_list()) for x in tf.global_variables()))
        report("slots_" + name, [opt.get_name(), sorted(opt.get_slot_names())])
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            for _ in range(3):
                s.run(step)
            report("values_" + name, s.run([v, emb]))
'''


@requires_tf115
def test_optimizer_v2_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6)


SUBCLASS_SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
side = "tf115" if tf.__version__.startswith("1.") else "tf1clip"
base = os.path.join(ORACLE_SHARED, side)
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
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(train)
    sess.run(train, {lr: 0.2})
    report("trained", sess.run({"w": w, "emb": emb, "gs": gs,
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
'''


@requires_tf115
def test_optimizer_v2_subclass_matches_tf115():
  tf115, ours = run_both(SUBCLASS_SNIPPET)
  assert_same(tf115, ours)

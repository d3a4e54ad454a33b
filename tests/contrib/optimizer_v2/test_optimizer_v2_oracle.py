"""tf.contrib.optimizer_v2 against TF 1.15: each of its six optimizers (served as the v1 optimizer of the same name)
gives the same weights after three steps (dense and sparse gradients), with the same slot and non-slot
variables and slot names; RMSProp's own start of the `rms` slot at epsilon included."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.optimizer_v2." + n for n in (
    "AdamOptimizer", "AdagradOptimizer", "MomentumOptimizer", "RMSPropOptimizer", "AdadeltaOptimizer",
    "GradientDescentOptimizer"))

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

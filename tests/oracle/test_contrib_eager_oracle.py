"""A TF 1.x eager script (`tf.enable_eager_execution()` first, `tfe = tf.contrib.eager`) under `tf1clip run`,
against TF 1.15 itself: variables, the gradient functions, GradientTape, defun, py_func, Iterator, Checkpoint."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.eager." + n for n in (
    "Variable", "GradientTape", "gradients_function", "value_and_gradients_function", "implicit_gradients",
    "implicit_value_and_gradients", "defun", "py_func", "Iterator", "Checkpoint", "executing_eagerly",
    "enable_eager_execution", "num_gpus", "in_eager_mode")) + ("tf.enable_eager_execution",)

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
tf.enable_eager_execution()
tfe = tf.contrib.eager
report("eager", [tf.executing_eagerly(), tfe.executing_eagerly(), tfe.in_eager_mode(), tfe.num_gpus()])
w = tfe.Variable(np.array([[0.5], [-1.0]], np.float32), name="w")
b = tfe.Variable(0.25, name="b")
x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
def loss_fn(x):
    return tf.reduce_sum(tf.square(tf.matmul(x, w) + b))
report("implicit", [g.numpy() for g, _ in tfe.implicit_gradients(loss_fn)(x)])
value, grads = tfe.implicit_value_and_gradients(loss_fn)(x)
report("implicit_value", value.numpy())
f = lambda a, c: a * a * c
report("gradients_function", [g.numpy() for g in tfe.gradients_function(f)(3.0, 2.0)])
v, gs = tfe.value_and_gradients_function(f)(3.0, 2.0)
report("value_and_gradients", [v.numpy()] + [g.numpy() for g in gs])
with tfe.GradientTape() as tape:
    loss = loss_fn(x)
report("tape", [g.numpy() for g in tape.gradient(loss, [w, b])])
report("defun", tfe.defun(lambda t: tf.matmul(t, w) * 2.0)(x).numpy())
report("py_func", tfe.py_func(lambda t: t * 3, [tf.constant([1.0, 2.0])], tf.float32).numpy())
report("iterator", [t.numpy() for t in tfe.Iterator(tf.data.Dataset.range(4).map(lambda i: i * 2))])
opt = tf.train.GradientDescentOptimizer(0.01)
for _ in range(3):
    opt.minimize(lambda: loss_fn(x), var_list=[w, b])
report("trained", [w.numpy(), b.numpy()])
ckpt = tfe.Checkpoint(w=w, b=b)
path = ckpt.save(os.path.join(ORACLE_SHARED, "tf1clip" if "tf1clip" in __import__("sys").modules else "tf115"))
w.assign(tf.zeros_like(w))
ckpt.restore(path)
report("restored", w.numpy())
'''

@requires_tf115
def test_tf1_eager_script_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["eager"][:3] == [True, True, True]
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6)

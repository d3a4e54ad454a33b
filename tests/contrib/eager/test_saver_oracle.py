"""Old eager checkpoints restore: a TF 1.x eager script (`tf.enable_eager_execution()` first, `tfe =
tf.contrib.eager`) trains a small tf.keras model and a tfe.Variable on TF 1.15 with tfe.GradientTape and
tfe.implicit_gradients and tf.train.AdamOptimizer (its slots and beta powers), then saves it twice: object-based
with tf.train.Checkpoint (model, optimizer, global step) and name-based with tfe.Saver (the variables, the
optimizer's variables from tfe.get_optimizer_variables and the global step), and trains on. The same model under
tf1clip restores each checkpoint (the object-based one before its variables exist: deferred restoration, Adam's
slots restored when created; the name-based one into built variables, and by tfe.restore_variables_on_create),
saves the same keys again (a tf.keras Sequential's object-based keys aside: tf-keras writes "layer_with_weights-N"
where TF 1.15 wrote "layer-N", see the test), and its next steps end where TF 1.15's own continuation ends.

One process a side (an eager script cannot share the batch): TF 1.15 writes both checkpoints into the shared
folder, then tf1clip restores them."""

import os
import tempfile

from harness import assert_same, requires_tf115, run_tf115, run_tf1clip

ORACLE_TESTED = tuple("tf.contrib.eager." + n for n in (
    "Saver", "Checkpoint", "GradientTape", "implicit_gradients", "get_optimizer_variables",
    "restore_variables_on_create", "Variable"))

MODEL = r'''
import os
import numpy as np
import tensorflow as tf
tf.enable_eager_execution()
tfe = tf.contrib.eager
rng = np.random.RandomState(0)
x = tf.constant(rng.randn(6, 4).astype(np.float32))
y = tf.constant(rng.randn(6, 1).astype(np.float32))
K1, K2 = rng.randn(4, 3).astype(np.float32) * 0.5, rng.randn(3, 1).astype(np.float32) * 0.5


def build():
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(3, activation=tf.nn.tanh, name="hidden", kernel_initializer=tf.constant_initializer(K1),
                              bias_initializer=tf.constant_initializer(0.1)),
        tf.keras.layers.Dense(1, name="out", kernel_initializer=tf.constant_initializer(K2))], name="net")
    scale = tfe.Variable(1.5, name="scale")
    opt = tf.train.AdamOptimizer(0.05)
    return model, scale, opt


def loss_fn(model, scale):
    return tf.reduce_mean(tf.square(model(x) * scale - y))


def train(model, scale, opt, step, n):
    for i in range(n):
        if i % 2 == 0:
            with tfe.GradientTape() as tape:
                loss = loss_fn(model, scale)
            variables = model.trainable_variables + [scale]
            opt.apply_gradients(zip(tape.gradient(loss, variables), variables), global_step=step)
        else:
            opt.apply_gradients(tfe.implicit_gradients(lambda: loss_fn(model, scale))(), global_step=step)


def state(model, scale, opt, step):
    return {"model": [v.numpy() for v in model.variables], "scale": scale.numpy(), "step": int(step.numpy()),
            "slots": [[opt.get_slot(v, "m").numpy(), opt.get_slot(v, "v").numpy()]
                      for v in model.trainable_variables + [scale]],
            "powers": [v.numpy() for v in sorted(tfe.get_optimizer_variables(opt), key=lambda v: v.name)
                       if v.name.startswith("beta")],
            "loss": loss_fn(model, scale).numpy()}


def keys(path):
    return sorted(n for n, _ in tf.train.list_variables(path))


OBJECT = os.path.join(ORACLE_SHARED, "object", "ckpt")
NAMED = os.path.join(ORACLE_SHARED, "named", "model")
'''

TRAIN_AND_SAVE = MODEL + r'''
model, scale, opt = build()
step = tf.train.get_or_create_global_step()
train(model, scale, opt, step, 3)
report("names", sorted(v.name for v in model.variables + [scale, step] + tfe.get_optimizer_variables(opt)))
path = tf.train.Checkpoint(model=model, optimizer=opt, step=step, scale=scale).save(OBJECT)
report("object_keys", keys(path))
report("object_path", os.path.basename(path))
saver = tfe.Saver(model.variables + [scale, step] + tfe.get_optimizer_variables(opt))
named = saver.save(NAMED, global_step=step)
report("named_keys", keys(named))
report("named_path", os.path.basename(named))
train(model, scale, opt, step, 3)
continued = state(model, scale, opt, step)
report("object_continued", continued)
report("named_continued", continued)
report("on_create_continued", continued)
'''

RESTORE_AND_CONTINUE = MODEL + r'''
named = tf.train.latest_checkpoint(os.path.dirname(NAMED))
# name-based, as the variables are created (the model, the global step and Adam's variables within the scope;
# first, as in a new TF 1.x eager program: a second optimizer's slots would be named Adam_2 / Adam_3)
with tfe.restore_variables_on_create(named):
    model, scale, opt = build()
    step = tf.train.get_or_create_global_step()
    train(model, scale, opt, step, 1)
train(model, scale, opt, step, 2)
report("on_create_continued", state(model, scale, opt, step))
report("names", sorted(v.name for v in model.variables + [scale, step] + tfe.get_optimizer_variables(opt)))
# name-based into the existing variables: tfe.Saver rolls them back to the checkpoint
saver = tfe.Saver(model.variables + [scale, step] + tfe.get_optimizer_variables(opt))
saver.restore(named)
report("named_keys", keys(saver.save(os.path.join(os.getcwd(), "named", "model"), global_step=step)))
train(model, scale, opt, step, 3)
report("named_continued", state(model, scale, opt, step))
# object-based: restored before the variables exist (deferred; Adam's slots restored on their creation)
model, scale, opt = build()
step = tf.Variable(0, dtype=tf.int64, name="global_step", trainable=False)
ckpt = tf.train.Checkpoint(model=model, optimizer=opt, step=step, scale=scale)
status = ckpt.restore(tf.train.latest_checkpoint(os.path.dirname(OBJECT)))
train(model, scale, opt, step, 1)
status.assert_consumed()
report("object_keys", keys(ckpt.save(os.path.join(os.getcwd(), "object", "ckpt"))))
train(model, scale, opt, step, 2)
report("object_continued", state(model, scale, opt, step))
'''


@requires_tf115
def test_tf115_eager_checkpoints_restore_and_training_continues_as_on_tf115():
  with tempfile.TemporaryDirectory() as shared:
    theirs = run_tf115(TRAIN_AND_SAVE, shared=shared)
    assert os.path.exists(os.path.join(shared, "object", "checkpoint"))
    ours = run_tf1clip(RESTORE_AND_CONTINUE, shared=shared)
  assert any("OPTIMIZER_SLOT" in k for k in theirs["object_keys"]), theirs["object_keys"]
  assert any(k.endswith("/Adam_1") for k in theirs["named_keys"]), theirs["named_keys"]
  assert_same(theirs, ours, rtol=2e-5, atol=1e-6,
              keys=["names", "object_continued", "named_keys", "named_continued", "on_create_continued"])
  # The object-based keys: the same variables, slots, beta powers, step and save counter; but tf.keras (tf-keras on
  # TF 2.21, not contrib.eager) names a Sequential's layers with weights "layer_with_weights-N" in the keys it
  # writes, where TF 1.15's Sequential wrote "layer-N" (tf-keras' object graph has both names for each layer, so TF
  # 1.15's checkpoint restores, assert_consumed above passes, and TF 1.15 finds its "layer-N" in ours).
  assert sorted(k.replace("model/layer-", "model/layer_with_weights-") for k in theirs["object_keys"]) == ours[
      "object_keys"], (theirs["object_keys"], ours["object_keys"])

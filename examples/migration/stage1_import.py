"""Migration stage 1: the same script, one line changed, run with plain `python`.

The only difference from stage0_tf1.py is the import: `import tf1clip.compat.v1 as tf` gives
the script the TF1 API (graph mode, `tf.placeholder`, `tf.Session`, `tf.contrib`, `tf.layers`)
on TensorFlow 2, so no runner is needed:

  python examples/migration/stage1_import.py --out stage1.npz

Next stage: stage2_wrappers.py replaces the hand-written gradient code.
"""

import tf1clip.compat.v1 as tf

import task

flags = tf.app.flags
flags.DEFINE_integer("steps", 12, "training steps")
flags.DEFINE_string("out", "", "if set, write the final weights to this .npz file")
FLAGS = flags.FLAGS


def build_model():
  """Placeholders, the LSTM classifier and its mean cross-entropy loss."""
  inputs = tf.placeholder(tf.float32, [None, task.LENGTH, task.VOCAB], name="inputs")
  labels = tf.placeholder(tf.int32, [None], name="labels")
  cell = tf.nn.rnn_cell.LSTMCell(task.HIDDEN, forget_bias=task.FORGET_BIAS)
  _, state = tf.nn.dynamic_rnn(cell, inputs, dtype=tf.float32)
  logits = tf.layers.dense(state.h, task.CLASSES, name="softmax")
  loss = tf.reduce_mean(
      tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
  return inputs, labels, loss


def main(_):
  inputs, labels, loss = build_model()
  global_step = tf.train.get_or_create_global_step()
  optimizer = tf.train.AdamOptimizer(task.LEARNING_RATE)
  # The three steps: compute, clip, apply.
  grads, variables = zip(*optimizer.compute_gradients(loss))
  grads, _ = tf.clip_by_global_norm(grads, task.CLIP_NORM)
  train_op = optimizer.apply_gradients(zip(grads, variables), global_step=global_step)

  initial = task.initial_weights()
  load_initial = [tf.assign(v, initial[v.op.name]) for v in tf.trainable_variables()]
  with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(load_initial)
    for step in range(FLAGS.steps):
      x, y = task.batch(step)
      _, loss_value = sess.run([train_op, loss], {inputs: x, labels: y})
      if step % 4 == 0:
        print("step %d loss %.4f" % (step, loss_value))
    if FLAGS.out:
      names = [v.op.name for v in tf.trainable_variables()]
      task.save(FLAGS.out, dict(zip(names, sess.run(tf.trainable_variables()))))


if __name__ == "__main__":
  tf.app.run()

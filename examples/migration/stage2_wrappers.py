"""Migration stage 2: tf1clip's optimizer wrapper replaces the hand-written gradient code.

Still graph mode and the TF1 API (as stage1_import.py). The compute / clip / apply lines
become one wrapped optimizer and `minimize`, which is what TF2 code will keep:

  python examples/migration/stage2_wrappers.py --out stage2.npz

Next stage: stage3_tf2.py moves to eager TF2 with the same wrapper around a Keras optimizer.
"""

import tf1clip
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
  optimizer = tf1clip.clip_gradients_by_norm(
      tf.train.AdamOptimizer(task.LEARNING_RATE), task.CLIP_NORM)
  train_op = optimizer.minimize(loss, global_step=global_step)

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

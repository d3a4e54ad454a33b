"""Migration stage 3: TF2 eager, `tf.function`, Keras layers, and tf1clip.v2's wrapper.

The graph, placeholders and Session are gone: the model is a Keras 3 model, a training step
is a `tf.function`, and the gradient pipeline of stage2_wrappers.py carries over as
`tf1clip.v2.clip_gradients_by_norm` around the Keras optimizer that takes TF1 Adam's steps
(`epsilon=1e-8`, TF1's default; Keras' own default is 1e-7). The weights start from the
TF1-layout values, converted to the Keras LSTM layout (task.to_keras), and are written back
in TF1 layout, so the test can compare them with stage 2's:

  python examples/migration/stage3_tf2.py --out stage3.npz

Next stage: stage4_keras.py drops the custom loop for `model.fit`.
"""

from absl import app
from absl import flags
import keras
import tensorflow as tf

import task
import tf1clip.v2

FLAGS = flags.FLAGS


def build_model():
  """The classifier as a Keras model, holding the task's initial weights."""
  model = keras.Sequential([
      keras.Input((task.LENGTH, task.VOCAB)),
      keras.layers.LSTM(task.HIDDEN),
      keras.layers.Dense(task.CLASSES),
  ])
  model.set_weights(task.to_keras(task.initial_weights()))
  return model


def train(steps):
  """Trains for `steps` batches; returns the final weights in TF1 layout."""
  model = build_model()
  optimizer = tf1clip.v2.clip_gradients_by_norm(
      keras.optimizers.Adam(task.LEARNING_RATE, epsilon=1e-8), task.CLIP_NORM)
  loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

  @tf.function
  def train_step(x, y):
    return optimizer.minimize(lambda: loss_fn(y, model(x, training=True)),
                              model.trainable_variables)

  for step in range(steps):
    x, y = task.batch(step)
    if step % 4 == 0:  # the loss before the step, as stages 0-2 print it (sess.run of loss with train_op)
      print("step %d loss %.4f" % (step, float(loss_fn(y, model(x, training=False)))))
    train_step(x, y)
  return task.from_keras(model.get_weights())


def main(argv):
  del argv
  weights = train(FLAGS.steps)
  if FLAGS.out:
    task.save(FLAGS.out, weights)


if __name__ == "__main__":
  flags.DEFINE_integer("steps", 12, "training steps")
  flags.DEFINE_string("out", "", "if set, write the final weights to this .npz file")
  app.run(main)

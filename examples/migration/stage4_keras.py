"""Migration stage 4: plain Keras 3, `model.compile` and `model.fit`.

The custom loop of stage3_tf2.py becomes `fit`; the clipping moves into the optimizer's own
`global_clipnorm`, which on one device computes what `tf1clip.v2.clip_gradients_by_norm` does
(see docs/migration.md for where plain Keras differs: under `tf.distribute` it clips each
replica's gradient before the sum, and its Adam squares repeated rows of a sparse gradient
separately):

  python examples/migration/stage4_keras.py --out stage4.npz
"""

from absl import app
from absl import flags
import keras
import numpy as np

import task

FLAGS = flags.FLAGS


def train(steps):
  """Trains for `steps` batches; returns the final weights in TF1 layout."""
  model = keras.Sequential([
      keras.Input((task.LENGTH, task.VOCAB)),
      keras.layers.LSTM(task.HIDDEN),
      keras.layers.Dense(task.CLASSES),
  ])
  model.set_weights(task.to_keras(task.initial_weights()))
  model.compile(
      optimizer=keras.optimizers.Adam(task.LEARNING_RATE, epsilon=1e-8,
                                      global_clipnorm=task.CLIP_NORM),
      loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
  batches = [task.batch(step) for step in range(steps)]
  x = np.concatenate([b[0] for b in batches])
  y = np.concatenate([b[1] for b in batches])
  progress = keras.callbacks.LambdaCallback(
      on_train_batch_end=lambda step, logs: print("step %d mean loss so far %.4f" % (step, logs["loss"]))
      if step % 4 == 0 else None)
  model.fit(x, y, batch_size=task.BATCH, epochs=1, shuffle=False, verbose=0, callbacks=[progress])
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

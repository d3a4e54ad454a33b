"""Train a character-level LSTM language model on a text file (TensorFlow 1.x style, 2018).

Run it unchanged on TensorFlow 2.21 with tf1clip:

  tf1clip run examples/legacy/char_rnn_train.py --save_dir /tmp/char_rnn
  tf1clip run examples/legacy/char_rnn_sample.py --save_dir /tmp/char_rnn

Writes a checkpoint, the vocabulary and the config (pickles) to --save_dir and TensorBoard
summaries to --summaries_dir.
"""

from __future__ import print_function

import argparse
import collections
import os
import pickle
import time

import numpy as np
import tensorflow as tf

from char_rnn_model import Model

flags = tf.flags
flags.DEFINE_string("data_path", os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "lighthouse.txt"),
                    "text file to train on")
flags.DEFINE_string("save_dir", "save", "directory to store checkpointed models")
flags.DEFINE_string("summaries_dir", None, "directory for TensorBoard logs (default: <save_dir>/logs)")
flags.DEFINE_integer("rnn_size", 128, "size of RNN hidden state")
flags.DEFINE_integer("num_layers", 2, "number of layers in the RNN")
flags.DEFINE_integer("batch_size", 16, "minibatch size")
flags.DEFINE_integer("seq_length", 32, "RNN sequence length")
flags.DEFINE_integer("num_epochs", 50, "number of epochs")
flags.DEFINE_integer("max_steps", 0, "stop after this many steps (0: run all epochs)")
flags.DEFINE_integer("save_every", 100, "save frequency (steps)")
flags.DEFINE_integer("log_every", 1, "print the loss of every this many steps (and of the last)")
flags.DEFINE_float("grad_clip", 5.0, "clip gradients at this global norm")
flags.DEFINE_float("learning_rate", 0.004, "learning rate")
flags.DEFINE_float("decay_rate", 0.98, "decay rate of the learning rate per epoch")
flags.DEFINE_float("output_keep_prob", 1.0, "probability of keeping weights in the hidden layer")
flags.DEFINE_integer("seed", 1234, "random seed")
FLAGS = flags.FLAGS


class TextLoader(object):
  """Turns a text file into batches of character ids (x, and y = x shifted by one)."""

  def __init__(self, data_path, batch_size, seq_length):
    with open(data_path, "r") as f:
      data = f.read()
    counter = collections.Counter(data)
    count_pairs = sorted(counter.items(), key=lambda x: -x[1])
    self.chars, _ = zip(*count_pairs)
    self.vocab_size = len(self.chars)
    self.vocab = dict(zip(self.chars, range(len(self.chars))))
    self.tensor = np.array(list(map(self.vocab.get, data)))
    self.num_batches = int(self.tensor.size / (batch_size * seq_length))
    assert self.num_batches > 0, "not enough data: make seq_length and batch_size smaller"
    self.tensor = self.tensor[:self.num_batches * batch_size * seq_length]
    xdata = self.tensor
    ydata = np.copy(self.tensor)
    ydata[:-1] = xdata[1:]
    ydata[-1] = xdata[0]
    self.x_batches = np.split(xdata.reshape(batch_size, -1), self.num_batches, 1)
    self.y_batches = np.split(ydata.reshape(batch_size, -1), self.num_batches, 1)
    self.pointer = 0

  def next_batch(self):
    x, y = self.x_batches[self.pointer], self.y_batches[self.pointer]
    self.pointer += 1
    return x, y

  def reset_batch_pointer(self):
    self.pointer = 0


def main(_):
  tf.logging.set_verbosity(tf.logging.INFO)
  np.random.seed(FLAGS.seed)
  tf.set_random_seed(FLAGS.seed)
  data_loader = TextLoader(FLAGS.data_path, FLAGS.batch_size, FLAGS.seq_length)
  config = dict((name, FLAGS[name].value) for name in
                ["rnn_size", "num_layers", "batch_size", "seq_length", "grad_clip", "output_keep_prob"])
  config["vocab_size"] = data_loader.vocab_size

  if not tf.gfile.Exists(FLAGS.save_dir):
    tf.gfile.MakeDirs(FLAGS.save_dir)
  with open(os.path.join(FLAGS.save_dir, "config.pkl"), "wb") as f:
    pickle.dump(config, f)
  with open(os.path.join(FLAGS.save_dir, "chars_vocab.pkl"), "wb") as f:
    pickle.dump((data_loader.chars, data_loader.vocab), f)

  model = Model(argparse.Namespace(**config))
  tf.logging.info("vocabulary: %d characters, %d batches per epoch",
                  data_loader.vocab_size, data_loader.num_batches)

  log_dir = FLAGS.summaries_dir or os.path.join(FLAGS.save_dir, "logs")
  with tf.Session() as sess:
    summaries = tf.summary.merge_all()
    writer = tf.summary.FileWriter(os.path.join(log_dir, time.strftime("%Y-%m-%d-%H-%M-%S")))
    writer.add_graph(sess.graph)

    sess.run(tf.global_variables_initializer())
    saver = tf.train.Saver(tf.global_variables())
    total = FLAGS.num_epochs * data_loader.num_batches
    if FLAGS.max_steps:
      total = min(total, FLAGS.max_steps)
    checkpoint_path = os.path.join(FLAGS.save_dir, "model.ckpt")
    step = 0
    for e in range(FLAGS.num_epochs):
      sess.run(tf.assign(model.lr, FLAGS.learning_rate * (FLAGS.decay_rate ** e)))
      data_loader.reset_batch_pointer()
      state = sess.run(model.initial_state)
      for b in range(data_loader.num_batches):
        if step >= total:
          break
        start = time.time()
        x, y = data_loader.next_batch()
        feed = {model.input_data: x, model.targets: y}
        for i, (c, h) in enumerate(model.initial_state):
          feed[c] = state[i].c
          feed[h] = state[i].h
        summ, train_loss, norm, state, _ = sess.run(
            [summaries, model.cost, model.grad_norm, model.final_state, model.train_op], feed)
        writer.add_summary(summ, step)
        step += 1
        end = time.time()
        if step % FLAGS.log_every == 0 or step == total:
          print("{}/{} (epoch {}), train_loss = {:.3f}, grad_norm = {:.2f}, time/batch = {:.3f}"
                .format(step, total, e, train_loss, norm, end - start))
        if step % FLAGS.save_every == 0 or step == total:
          saver.save(sess, checkpoint_path, global_step=step)
          print("model saved to {}".format(checkpoint_path))
    writer.close()


if __name__ == "__main__":
  tf.app.run()

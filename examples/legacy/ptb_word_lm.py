"""Word-level LSTM language model, in the shape of TensorFlow 1.x's PTB tutorial (ptb_word_lm.py, 2017).

Run it unchanged on TensorFlow 2.21 with tf1clip:

  tf1clip run examples/legacy/ptb_word_lm.py                      # BasicLSTMCell
  tf1clip run examples/legacy/ptb_word_lm.py --rnn_mode=block     # tf.contrib.rnn.LSTMBlockCell

The reader splits one text file (default: data/lighthouse.txt) into train/valid/test word streams
(90/5/5), maps words to ids by frequency, and batches them with a queue (tf.train.range_input_producer),
as the tutorial's reader.py did. Training uses tf.contrib.seq2seq.sequence_loss, gradients clipped
with tf.clip_by_global_norm, plain SGD with a decaying learning rate, and a tf.train.Supervisor;
train and valid perplexity are printed every epoch.
"""

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import collections
import os
import time

import numpy as np
import tensorflow as tf

flags = tf.flags
logging = tf.logging

flags.DEFINE_string("data_path",
                    os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "lighthouse.txt"),
                    "the text file to train on")
flags.DEFINE_string("save_path", None, "model output directory (optional)")
flags.DEFINE_string("rnn_mode", "basic", "the LSTM implementation: basic (BasicLSTMCell) or block "
                    "(tf.contrib.rnn.LSTMBlockCell)")
flags.DEFINE_integer("hidden_size", 128, "LSTM units per layer")
flags.DEFINE_integer("num_layers", 2, "number of LSTM layers")
flags.DEFINE_integer("num_steps", 10, "unrolled steps of the LSTM")
flags.DEFINE_integer("batch_size", 8, "batch size")
flags.DEFINE_integer("max_epoch", 6, "epochs trained with the initial learning rate")
flags.DEFINE_integer("max_max_epoch", 25, "total number of epochs")
flags.DEFINE_float("learning_rate", 1.0, "initial learning rate")
flags.DEFINE_float("lr_decay", 0.8, "learning-rate decay per epoch after max_epoch")
flags.DEFINE_float("max_grad_norm", 5.0, "clip the gradients to this global norm")
flags.DEFINE_float("keep_prob", 1.0, "dropout keep probability")
flags.DEFINE_float("init_scale", 0.1, "uniform initialization scale")
flags.DEFINE_integer("seed", 1234, "graph-level random seed")
FLAGS = flags.FLAGS

BASIC = "basic"
BLOCK = "block"


# --- reader (the tutorial's reader.py) ------------------------------------------------------------

def _read_words(filename):
  with tf.gfile.GFile(filename, "r") as f:
    return f.read().replace("\n", " <eos> ").split()


def _build_vocab(words):
  counter = collections.Counter(words)
  count_pairs = sorted(counter.items(), key=lambda x: (-x[1], x[0]))
  words, _ = list(zip(*count_pairs))
  return dict(zip(words, range(len(words))))


def raw_data(data_path):
  """Splits the file into train/valid/test id streams; the vocabulary comes from train."""
  words = _read_words(data_path)
  n_valid = n_test = max(len(words) // 20, 1)
  train_words = words[:len(words) - n_valid - n_test]
  valid_words = words[len(train_words):len(train_words) + n_valid]
  test_words = words[len(train_words) + n_valid:]
  word_to_id = _build_vocab(train_words)
  to_ids = lambda ws: [word_to_id[w] for w in ws if w in word_to_id]
  return to_ids(train_words), to_ids(valid_words), to_ids(test_words), len(word_to_id)


def producer(raw, batch_size, num_steps, name=None):
  """Iterates on raw data with a queue: returns (x, y) [batch_size, num_steps], y shifted by one."""
  with tf.name_scope(name, "Producer", [raw, batch_size, num_steps]):
    raw = tf.convert_to_tensor(raw, name="raw_data", dtype=tf.int32)
    data_len = tf.size(raw)
    batch_len = data_len // batch_size
    data = tf.reshape(raw[0: batch_size * batch_len], [batch_size, batch_len])
    epoch_size = (batch_len - 1) // num_steps
    assertion = tf.assert_positive(epoch_size,
                                   message="epoch_size == 0, decrease batch_size or num_steps")
    with tf.control_dependencies([assertion]):
      epoch_size = tf.identity(epoch_size, name="epoch_size")
    i = tf.train.range_input_producer(epoch_size, shuffle=False).dequeue()
    x = tf.strided_slice(data, [0, i * num_steps], [batch_size, (i + 1) * num_steps])
    x.set_shape([batch_size, num_steps])
    y = tf.strided_slice(data, [0, i * num_steps + 1], [batch_size, (i + 1) * num_steps + 1])
    y.set_shape([batch_size, num_steps])
    return x, y


# --- model ----------------------------------------------------------------------------------------

class Input(object):
  """The input data."""

  def __init__(self, config, data, name=None):
    self.batch_size = batch_size = config.batch_size
    self.num_steps = num_steps = config.num_steps
    self.epoch_size = ((len(data) // batch_size) - 1) // num_steps
    self.input_data, self.targets = producer(data, batch_size, num_steps, name=name)


class Model(object):
  """The word-level LSTM language model."""

  def __init__(self, is_training, config, input_):
    self._is_training = is_training
    self._input = input_
    self.batch_size = input_.batch_size
    self.num_steps = input_.num_steps
    size = config.hidden_size
    vocab_size = config.vocab_size

    embedding = tf.get_variable("embedding", [vocab_size, size], dtype=tf.float32)
    inputs = tf.nn.embedding_lookup(embedding, input_.input_data)
    if is_training and config.keep_prob < 1:
      inputs = tf.nn.dropout(inputs, config.keep_prob)

    output, state = self._build_rnn_graph(inputs, config, is_training)

    softmax_w = tf.get_variable("softmax_w", [size, vocab_size], dtype=tf.float32)
    softmax_b = tf.get_variable("softmax_b", [vocab_size], dtype=tf.float32)
    logits = tf.nn.xw_plus_b(output, softmax_w, softmax_b)
    logits = tf.reshape(logits, [self.batch_size, self.num_steps, vocab_size])
    loss = tf.contrib.seq2seq.sequence_loss(
        logits, input_.targets, tf.ones([self.batch_size, self.num_steps], dtype=tf.float32),
        average_across_timesteps=False, average_across_batch=True)
    self._cost = tf.reduce_sum(loss)
    self._final_state = state

    if not is_training:
      return

    self._lr = tf.Variable(0.0, trainable=False)
    tvars = tf.trainable_variables()
    grads, self._grad_norm = tf.clip_by_global_norm(tf.gradients(self._cost, tvars),
                                                    config.max_grad_norm)
    optimizer = tf.train.GradientDescentOptimizer(self._lr)
    self._train_op = optimizer.apply_gradients(
        zip(grads, tvars), global_step=tf.train.get_or_create_global_step())
    self._new_lr = tf.placeholder(tf.float32, shape=[], name="new_learning_rate")
    self._lr_update = tf.assign(self._lr, self._new_lr)

  def _get_lstm_cell(self, config, is_training):
    if config.rnn_mode == BASIC:
      return tf.contrib.rnn.BasicLSTMCell(config.hidden_size, forget_bias=0.0, state_is_tuple=True,
                                          reuse=not is_training)
    if config.rnn_mode == BLOCK:
      return tf.contrib.rnn.LSTMBlockCell(config.hidden_size, forget_bias=0.0)
    raise ValueError("rnn_mode %s not supported" % config.rnn_mode)

  def _build_rnn_graph(self, inputs, config, is_training):
    def make_cell():
      cell = self._get_lstm_cell(config, is_training)
      if is_training and config.keep_prob < 1:
        cell = tf.contrib.rnn.DropoutWrapper(cell, output_keep_prob=config.keep_prob)
      return cell

    cell = tf.contrib.rnn.MultiRNNCell([make_cell() for _ in range(config.num_layers)],
                                       state_is_tuple=True)
    self._initial_state = cell.zero_state(config.batch_size, tf.float32)
    state = self._initial_state
    outputs = []
    with tf.variable_scope("RNN"):
      for time_step in range(self.num_steps):
        if time_step > 0:
          tf.get_variable_scope().reuse_variables()
        (cell_output, state) = cell(inputs[:, time_step, :], state)
        outputs.append(cell_output)
    output = tf.reshape(tf.concat(outputs, 1), [-1, config.hidden_size])
    return output, state

  def assign_lr(self, session, lr_value):
    session.run(self._lr_update, feed_dict={self._new_lr: lr_value})

  @property
  def input(self):
    return self._input

  @property
  def initial_state(self):
    return self._initial_state

  @property
  def cost(self):
    return self._cost

  @property
  def final_state(self):
    return self._final_state

  @property
  def lr(self):
    return self._lr

  @property
  def train_op(self):
    return self._train_op


def run_epoch(session, model, eval_op=None, verbose=False):
  """Runs the model on its data for one epoch; returns the perplexity."""
  start_time = time.time()
  costs = 0.0
  iters = 0
  state = session.run(model.initial_state)
  fetches = {"cost": model.cost, "final_state": model.final_state}
  if eval_op is not None:
    fetches["eval_op"] = eval_op
  for step in range(model.input.epoch_size):
    feed_dict = {}
    for i, (c, h) in enumerate(model.initial_state):
      feed_dict[c] = state[i].c
      feed_dict[h] = state[i].h
    vals = session.run(fetches, feed_dict)
    state = vals["final_state"]
    costs += vals["cost"]
    iters += model.input.num_steps
    if verbose and step % (model.input.epoch_size // 10 + 1) == 10:
      print("%.3f perplexity: %.3f speed: %.0f wps" % (
          step * 1.0 / model.input.epoch_size, np.exp(costs / iters),
          iters * model.input.batch_size / (time.time() - start_time)))
  return np.exp(costs / iters)


class Config(object):
  """The model's hyperparameters, from the flags."""

  def __init__(self, vocab_size):
    for name in ["hidden_size", "num_layers", "num_steps", "batch_size", "max_epoch",
                 "max_max_epoch", "learning_rate", "lr_decay", "max_grad_norm", "keep_prob",
                 "init_scale", "rnn_mode"]:
      setattr(self, name, getattr(FLAGS, name))
    self.vocab_size = vocab_size


def main(_):
  if FLAGS.rnn_mode not in (BASIC, BLOCK):
    raise ValueError("--rnn_mode must be basic or block; got %r" % FLAGS.rnn_mode)
  train_data, valid_data, test_data, vocab_size = raw_data(FLAGS.data_path)
  config = Config(vocab_size)
  eval_config = Config(vocab_size)
  eval_config.batch_size = 1
  eval_config.num_steps = 1
  print("vocabulary: %d words; %d train, %d valid, %d test words; rnn_mode %s" % (
      vocab_size, len(train_data), len(valid_data), len(test_data), config.rnn_mode))

  with tf.Graph().as_default():
    tf.set_random_seed(FLAGS.seed)
    initializer = tf.random_uniform_initializer(-config.init_scale, config.init_scale)

    with tf.name_scope("Train"):
      train_input = Input(config=config, data=train_data, name="TrainInput")
      with tf.variable_scope("Model", reuse=None, initializer=initializer):
        m = Model(is_training=True, config=config, input_=train_input)
      tf.summary.scalar("Training Loss", m.cost)
      tf.summary.scalar("Learning Rate", m.lr)

    with tf.name_scope("Valid"):
      valid_input = Input(config=eval_config, data=valid_data, name="ValidInput")
      with tf.variable_scope("Model", reuse=True, initializer=initializer):
        mvalid = Model(is_training=False, config=eval_config, input_=valid_input)
      tf.summary.scalar("Validation Loss", mvalid.cost)

    with tf.name_scope("Test"):
      test_input = Input(config=eval_config, data=test_data, name="TestInput")
      with tf.variable_scope("Model", reuse=True, initializer=initializer):
        mtest = Model(is_training=False, config=eval_config, input_=test_input)

    sv = tf.train.Supervisor(logdir=FLAGS.save_path)
    with sv.managed_session() as session:
      for i in range(config.max_max_epoch):
        lr_decay = config.lr_decay ** max(i + 1 - config.max_epoch, 0.0)
        m.assign_lr(session, config.learning_rate * lr_decay)
        print("Epoch: %d Learning rate: %.3f" % (i + 1, session.run(m.lr)))
        train_perplexity = run_epoch(session, m, eval_op=m.train_op, verbose=True)
        print("Epoch: %d Train Perplexity: %.3f" % (i + 1, train_perplexity))
        valid_perplexity = run_epoch(session, mvalid)
        print("Epoch: %d Valid Perplexity: %.3f" % (i + 1, valid_perplexity))
      test_perplexity = run_epoch(session, mtest)
      print("Test Perplexity: %.3f" % test_perplexity)
      if FLAGS.save_path:
        print("Saving model to %s." % FLAGS.save_path)
        sv.saver.save(session, FLAGS.save_path, global_step=sv.global_step)


if __name__ == "__main__":
  tf.app.run()

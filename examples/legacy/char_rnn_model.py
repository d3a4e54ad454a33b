"""Character-level LSTM language model, TensorFlow 1.x style (2018).

Shared by char_rnn_train.py and char_rnn_sample.py. Written the way TF 1.x char-rnn code was
written (tf.contrib.rnn cells, tf.contrib.legacy_seq2seq, clipping tf.gradients by global norm);
tf1clip runs it unchanged: `tf1clip run char_rnn_train.py`.
"""

import numpy as np
import tensorflow as tf


class Model(object):
  """A multi-layer LSTM over characters, unrolled for seq_length steps."""

  def __init__(self, args, training=True):
    self.args = args
    if not training:
      # Sampling feeds one character at a time.
      args.batch_size = 1
      args.seq_length = 1

    cells = []
    for _ in range(args.num_layers):
      cell = tf.contrib.rnn.BasicLSTMCell(args.rnn_size)
      if training and args.output_keep_prob < 1.0:
        cell = tf.contrib.rnn.DropoutWrapper(cell, output_keep_prob=args.output_keep_prob)
      cells.append(cell)
    self.cell = cell = tf.contrib.rnn.MultiRNNCell(cells, state_is_tuple=True)

    self.input_data = tf.placeholder(tf.int32, [args.batch_size, args.seq_length], name="input_data")
    self.targets = tf.placeholder(tf.int32, [args.batch_size, args.seq_length], name="targets")
    self.initial_state = cell.zero_state(args.batch_size, tf.float32)

    with tf.variable_scope("rnnlm"):
      softmax_w = tf.get_variable("softmax_w", [args.rnn_size, args.vocab_size])
      softmax_b = tf.get_variable("softmax_b", [args.vocab_size])

    embedding = tf.get_variable("embedding", [args.vocab_size, args.rnn_size])
    inputs = tf.nn.embedding_lookup(embedding, self.input_data)
    inputs = tf.split(inputs, args.seq_length, 1)
    inputs = [tf.squeeze(input_, [1]) for input_ in inputs]

    outputs, last_state = tf.contrib.legacy_seq2seq.rnn_decoder(
        inputs, self.initial_state, cell, scope="rnnlm")
    output = tf.reshape(tf.concat(outputs, 1), [-1, args.rnn_size])

    self.logits = tf.matmul(output, softmax_w) + softmax_b
    self.probs = tf.nn.softmax(self.logits)
    loss = tf.contrib.legacy_seq2seq.sequence_loss_by_example(
        [self.logits],
        [tf.reshape(self.targets, [-1])],
        [tf.ones([args.batch_size * args.seq_length])])
    with tf.name_scope("cost"):
      self.cost = tf.reduce_sum(loss) / args.batch_size / args.seq_length
    self.final_state = last_state
    self.lr = tf.Variable(0.0, trainable=False)
    self.global_step = tf.Variable(0, trainable=False, name="global_step")

    tvars = tf.trainable_variables()
    grads, self.grad_norm = tf.clip_by_global_norm(tf.gradients(self.cost, tvars), args.grad_clip)
    with tf.name_scope("optimizer"):
      optimizer = tf.train.AdamOptimizer(self.lr)
    self.train_op = optimizer.apply_gradients(zip(grads, tvars), global_step=self.global_step)

    tf.summary.histogram("logits", self.logits)
    tf.summary.histogram("loss", loss)
    tf.summary.scalar("train_loss", self.cost)
    tf.summary.scalar("gradient_norm", self.grad_norm)

  def sample(self, sess, chars, vocab, num=200, prime="The ", sampling_type=1):
    """Generates `num` characters after `prime` (sampling_type 0: argmax, 1: sample)."""
    state = sess.run(self.cell.zero_state(1, tf.float32))
    for char in prime[:-1]:
      x = np.zeros((1, 1))
      x[0, 0] = vocab[char]
      feed = {self.input_data: x, self.initial_state: state}
      [state] = sess.run([self.final_state], feed)

    def weighted_pick(weights):
      t = np.cumsum(weights)
      s = np.sum(weights)
      return int(np.searchsorted(t, np.random.rand() * s))

    ret = prime
    char = prime[-1]
    for _ in range(num):
      x = np.zeros((1, 1))
      x[0, 0] = vocab[char]
      feed = {self.input_data: x, self.initial_state: state}
      [probs, state] = sess.run([self.probs, self.final_state], feed)
      p = probs[0]
      sample = np.argmax(p) if sampling_type == 0 else weighted_pick(p)
      pred = chars[sample]
      ret += pred
      char = pred
    return ret

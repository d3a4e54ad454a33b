"""Generate text from a checkpoint written by char_rnn_train.py (TensorFlow 1.x style, 2018).

  tf1clip run examples/legacy/char_rnn_sample.py --save_dir /tmp/char_rnn -n 300 --prime "The "
"""

from __future__ import print_function

import argparse
import os
import pickle

import numpy as np
import tensorflow as tf

from char_rnn_model import Model

tf.flags.DEFINE_string("save_dir", "save", "model directory to load the checkpoint from")
tf.flags.DEFINE_integer("n", 400, "number of characters to sample")
tf.flags.DEFINE_string("prime", "The ", "prime text")
tf.flags.DEFINE_integer("sample", 1, "0 to use max at each timestep, 1 to sample at each timestep")
tf.flags.DEFINE_integer("seed", 7, "random seed for sampling")
FLAGS = tf.flags.FLAGS


def main(_):
  np.random.seed(FLAGS.seed)
  with open(os.path.join(FLAGS.save_dir, "config.pkl"), "rb") as f:
    saved_args = argparse.Namespace(**pickle.load(f))
  with open(os.path.join(FLAGS.save_dir, "chars_vocab.pkl"), "rb") as f:
    chars, vocab = pickle.load(f)
  model = Model(saved_args, training=False)
  with tf.Session() as sess:
    tf.global_variables_initializer().run()
    saver = tf.train.Saver(tf.global_variables())
    ckpt = tf.train.get_checkpoint_state(FLAGS.save_dir)
    if not (ckpt and ckpt.model_checkpoint_path):
      raise SystemExit("no checkpoint in %s: run char_rnn_train.py first" % FLAGS.save_dir)
    saver.restore(sess, ckpt.model_checkpoint_path)
    tf.logging.info("restored %s", ckpt.model_checkpoint_path)
    print(model.sample(sess, chars, vocab, FLAGS.n, FLAGS.prime, FLAGS.sample))


if __name__ == "__main__":
  tf.app.run()

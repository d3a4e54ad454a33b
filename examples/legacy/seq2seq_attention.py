"""A small seq2seq translator with attention and beam search (TensorFlow 1.x style, 2018).

The task is generated on the fly: translate a random sequence of symbols into its reverse (or a
copy, --task copy). An LSTM encoder reads the source; an LSTM decoder with Luong (or Bahdanau)
attention is trained with teacher forcing (TrainingHelper + sequence_loss), then decodes held-out
sequences with BeamSearchDecoder. Run it unchanged on TensorFlow 2.21 with tf1clip:

  tf1clip run examples/legacy/seq2seq_attention.py
  tf1clip run examples/legacy/seq2seq_attention.py --task copy --attention bahdanau --beam_width 3
"""

from __future__ import print_function

import time

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("task", "reverse", "reverse or copy")
flags.DEFINE_string("attention", "luong", "luong or bahdanau")
flags.DEFINE_integer("num_symbols", 20, "number of distinct symbols in a sequence")
flags.DEFINE_integer("min_length", 3, "shortest source sequence")
flags.DEFINE_integer("max_length", 10, "longest source sequence")
flags.DEFINE_integer("num_units", 64, "LSTM size")
flags.DEFINE_integer("embedding_size", 32, "symbol embedding size")
flags.DEFINE_integer("batch_size", 64, "minibatch size")
flags.DEFINE_integer("train_steps", 1000, "training steps")
flags.DEFINE_integer("print_every", 100, "print the loss every this many steps")
flags.DEFINE_float("learning_rate", 0.01, "Adam learning rate")
flags.DEFINE_float("max_gradient_norm", 5.0, "clip gradients at this global norm")
flags.DEFINE_integer("beam_width", 4, "beam width at decoding time")
flags.DEFINE_float("length_penalty_weight", 0.0, "GNMT length penalty alpha")
flags.DEFINE_integer("eval_size", 200, "held-out sequences to decode")
flags.DEFINE_integer("seed", 42, "random seed")
FLAGS = flags.FLAGS

PAD, GO, EOS = 0, 1, 2
FIRST_SYMBOL = 3


def make_batch(rng, batch_size):
  """Random source sequences and their translations, padded, with lengths."""
  lengths = rng.randint(FLAGS.min_length, FLAGS.max_length + 1, size=batch_size)
  max_len = FLAGS.max_length
  source = np.full((batch_size, max_len), PAD, np.int32)
  target_in = np.full((batch_size, max_len + 1), PAD, np.int32)
  target_out = np.full((batch_size, max_len + 1), PAD, np.int32)
  for i, n in enumerate(lengths):
    seq = rng.randint(FIRST_SYMBOL, FIRST_SYMBOL + FLAGS.num_symbols, size=n)
    out = seq[::-1] if FLAGS.task == "reverse" else seq
    source[i, :n] = seq
    target_in[i, :n + 1] = np.concatenate([[GO], out])
    target_out[i, :n + 1] = np.concatenate([out, [EOS]])
  return source, lengths.astype(np.int32), target_in, target_out, (lengths + 1).astype(np.int32)


def main(_):
  tf.logging.set_verbosity(tf.logging.WARN)
  if FLAGS.task not in ("reverse", "copy"):
    raise ValueError("--task must be reverse or copy, got %r" % FLAGS.task)
  rng = np.random.RandomState(FLAGS.seed)
  tf.set_random_seed(FLAGS.seed)
  vocab_size = FIRST_SYMBOL + FLAGS.num_symbols

  source = tf.placeholder(tf.int32, [None, None], name="source")
  source_lengths = tf.placeholder(tf.int32, [None], name="source_lengths")
  target_in = tf.placeholder(tf.int32, [None, None], name="target_in")
  target_out = tf.placeholder(tf.int32, [None, None], name="target_out")
  target_lengths = tf.placeholder(tf.int32, [None], name="target_lengths")
  batch_size = tf.shape(source)[0]

  embedding = tf.get_variable("embedding", [vocab_size, FLAGS.embedding_size])
  with tf.variable_scope("encoder"):
    encoder_cell = tf.contrib.rnn.LSTMCell(FLAGS.num_units)
    encoder_outputs, encoder_state = tf.nn.dynamic_rnn(
        encoder_cell, tf.nn.embedding_lookup(embedding, source),
        sequence_length=source_lengths, dtype=tf.float32)

  def build_decoder_cell(memory, memory_lengths, initial_state, batch):
    if FLAGS.attention == "luong":
      mechanism = tf.contrib.seq2seq.LuongAttention(
          FLAGS.num_units, memory, memory_sequence_length=memory_lengths, scale=True)
    else:
      mechanism = tf.contrib.seq2seq.BahdanauAttention(
          FLAGS.num_units, memory, memory_sequence_length=memory_lengths, normalize=True)
    cell = tf.contrib.seq2seq.AttentionWrapper(
        tf.contrib.rnn.LSTMCell(FLAGS.num_units), mechanism,
        attention_layer_size=FLAGS.num_units, alignment_history=False)
    return cell, cell.zero_state(batch, tf.float32).clone(cell_state=initial_state)

  output_layer = tf.layers.Dense(vocab_size, use_bias=False, name="output_projection")

  # Training: teacher forcing.
  with tf.variable_scope("decoder_cell"):
    train_cell, train_initial = build_decoder_cell(encoder_outputs, source_lengths,
                                                   encoder_state, batch_size)
    helper = tf.contrib.seq2seq.TrainingHelper(
        tf.nn.embedding_lookup(embedding, target_in), target_lengths)
    train_decoder = tf.contrib.seq2seq.BasicDecoder(train_cell, helper, train_initial,
                                                    output_layer=output_layer)
    train_outputs, _, _ = tf.contrib.seq2seq.dynamic_decode(train_decoder, impute_finished=True)
  logits = train_outputs.rnn_output
  weights = tf.sequence_mask(target_lengths, tf.shape(logits)[1], dtype=tf.float32)
  loss = tf.contrib.seq2seq.sequence_loss(logits, target_out[:, :tf.shape(logits)[1]], weights)

  params = tf.trainable_variables()
  gradients = tf.gradients(loss, params)
  clipped, _ = tf.clip_by_global_norm(gradients, FLAGS.max_gradient_norm)
  global_step = tf.train.get_or_create_global_step()
  train_op = tf.train.AdamOptimizer(FLAGS.learning_rate).apply_gradients(
      zip(clipped, params), global_step=global_step)

  # Inference: beam search over the same variables, on a memory tiled beam_width times.
  with tf.variable_scope("decoder_cell", reuse=True):
    tiled = tf.contrib.seq2seq.tile_batch(
        (encoder_outputs, source_lengths, encoder_state), multiplier=FLAGS.beam_width)
    beam_cell, beam_initial = build_decoder_cell(tiled[0], tiled[1], tiled[2],
                                                 batch_size * FLAGS.beam_width)
    beam_decoder = tf.contrib.seq2seq.BeamSearchDecoder(
        beam_cell, embedding, start_tokens=tf.fill([batch_size], GO), end_token=EOS,
        initial_state=beam_initial, beam_width=FLAGS.beam_width, output_layer=output_layer,
        length_penalty_weight=FLAGS.length_penalty_weight)
    beam_outputs, _, _ = tf.contrib.seq2seq.dynamic_decode(
        beam_decoder, maximum_iterations=2 * FLAGS.max_length)
  best = beam_outputs.predicted_ids[:, :, 0]

  print("variables:", " ".join(v.op.name for v in tf.trainable_variables()))
  with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    start, first_loss = time.time(), None
    window = []
    for step in range(1, FLAGS.train_steps + 1):
      src, src_len, tin, tout, tlen = make_batch(rng, FLAGS.batch_size)
      _, batch_loss = sess.run([train_op, loss], {
          source: src, source_lengths: src_len, target_in: tin, target_out: tout,
          target_lengths: tlen})
      window.append(batch_loss)
      if step % FLAGS.print_every == 0 or step == FLAGS.train_steps:
        mean = float(np.mean(window))
        first_loss = mean if first_loss is None else first_loss
        print("step %5d  loss %.4f  (%.1fs)" % (step, mean, time.time() - start))
        window = []

    eval_rng = np.random.RandomState(FLAGS.seed + 1)
    src, src_len, _, tout, tlen = make_batch(eval_rng, FLAGS.eval_size)
    decoded = sess.run(best, {source: src, source_lengths: src_len})
    correct = 0
    for i in range(FLAGS.eval_size):
      want = list(tout[i, :tlen[i]])
      got = list(decoded[i, :tlen[i]])
      correct += int(got == want)
    for i in range(3):
      n = src_len[i]
      print("source %s -> beam search %s" % (src[i, :n].tolist(), decoded[i, :n + 1].tolist()))
    print("loss fell from %.4f to %.4f" % (first_loss, mean))
    print("beam search exact-match accuracy %.3f on %d held-out sequences"
          % (correct / float(FLAGS.eval_size), FLAGS.eval_size))


if __name__ == "__main__":
  tf.app.run()

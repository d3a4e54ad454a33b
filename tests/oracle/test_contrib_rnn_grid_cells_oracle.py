"""contrib.rnn's TimeFreqLSTMCell, GridLSTMCell and BidirectionalGridLSTMCell against TF 1.15: variable names and
shapes (sharded, peephole, shared and coupled variants, frequency blocks), outputs, final states and gradients
from the same weights in dynamic_rnn, the state tuple fields, and the errors of a bad block configuration."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.rnn." + n for n in (
    "TimeFreqLSTMCell", "GridLSTMCell", "BidirectionalGridLSTMCell"))

SNIPPET = r'''
import numpy as np
import tensorflow as tf
rnn = tf.contrib.rnn
rng = np.random.RandomState(0)
x = tf.constant(rng.randn(2, 3, 8).astype(np.float32))      # [batch, time, frequency bins]
runs = {}
# TimeFreqLSTMCell declares output_size num_units and state_size 2 * num_units however many frequency patches
# it makes (in TF 1.15 too), so dynamic_rnn refuses it with several patches: it is stepped by hand here, with a
# state of 2 * num_units per patch.
for name, make, patches in (
        ("timefreq", lambda: rnn.TimeFreqLSTMCell(3, feature_size=4, frequency_skip=2), 3),
        ("timefreq_peep", lambda: rnn.TimeFreqLSTMCell(2, use_peepholes=True, cell_clip=0.5, feature_size=4,
                                                       frequency_skip=4, num_unit_shards=2, forget_bias=0.5), 2)):
    with tf.variable_scope(name):
        cell = make()
        state = tf.zeros([2, 2 * cell.output_size * patches])
        outs = []
        for t in range(3):
            with tf.variable_scope("step", reuse=t > 0):
                out, state = cell(x[:, t], state)
            outs.append(out)
        runs[name] = (outs, [state], tf.gradients(tf.reduce_sum(outs) + tf.reduce_sum(state),
                                                  tf.trainable_variables(name)))
        report("sizes_" + name, [cell.output_size, cell.state_size, None])
for name, make in (
        ("grid", lambda: rnn.GridLSTMCell(3, feature_size=4, frequency_skip=2, num_frequency_blocks=[3])),
        ("grid_peep_shared", lambda: rnn.GridLSTMCell(2, use_peepholes=True, share_time_frequency_weights=True,
                                                      feature_size=4, frequency_skip=4, num_frequency_blocks=[2],
                                                      cell_clip=1.0)),
        ("grid_coupled_blocks", lambda: rnn.GridLSTMCell(2, use_peepholes=True, couple_input_forget_gates=True,
                                                         feature_size=2, frequency_skip=2,
                                                         num_frequency_blocks=[2, 1], start_freqindex_list=[0, 4],
                                                         end_freqindex_list=[4, 6], num_unit_shards=2)),
        ("grid_concat", lambda: rnn.GridLSTMCell(2, feature_size=4, frequency_skip=4, num_frequency_blocks=[2],
                                                 state_is_tuple=False)),
        ("bidi", lambda: rnn.BidirectionalGridLSTMCell(2, feature_size=4, frequency_skip=2,
                                                       num_frequency_blocks=[3], backward_slice_offset=1)),
        ("bidi_peep", lambda: rnn.BidirectionalGridLSTMCell(2, use_peepholes=True, feature_size=4, frequency_skip=4,
                                                            num_frequency_blocks=[2]))):
    with tf.variable_scope(name):
        cell = make()
        out, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
        flat = tf.nest.flatten(state)
        runs[name] = (out, flat, tf.gradients(tf.reduce_sum(out) + tf.reduce_sum(flat[0]),
                                              tf.trainable_variables(name)))
        fields = list(getattr(cell, "state_tuple_type", None)._fields) if getattr(
            cell, "state_tuple_type", None) else None
        report("sizes_" + name, [cell.output_size, tf.nest.flatten(cell.state_size), fields])
report_variables()
report_errors("errors", (
    ("no_blocks", lambda: rnn.GridLSTMCell(2, feature_size=4, frequency_skip=2)),
    ("wrong_block_count", lambda: tf.nn.dynamic_rnn(rnn.GridLSTMCell(2, feature_size=4, frequency_skip=2,
                                                                     num_frequency_blocks=[5]),
                                                    x, dtype=tf.float32)),
    ("too_many_shards", lambda: tf.nn.dynamic_rnn(rnn.TimeFreqLSTMCell(2, feature_size=4, frequency_skip=4,
                                                                       num_unit_shards=100), x, dtype=tf.float32))))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    init_from_numpy(sess, seed=6, scale=0.5)
    report("values", sess.run(runs))
'''


@requires_tf115
def test_grid_cells_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert set(tf115["errors"].values()) == {"ValueError"}, tf115["errors"]
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)

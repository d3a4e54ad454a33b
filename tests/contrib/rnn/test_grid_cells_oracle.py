"""contrib.rnn's TimeFreqLSTMCell, GridLSTMCell and BidirectionalGridLSTMCell, and contrib.grid_rnn's cells, against
TF 1.15: variable names and shapes (sharded, peephole, shared and coupled variants, frequency blocks; tied,
non-recurrent, priority and input/output dimensions, concatenated states), outputs, final states and gradients
from the same weights in dynamic_rnn, the state tuple fields, and the errors of a bad configuration.

One deliberate difference (docs/contrib.md): a grid_rnn non-recurrent dimension outside a variable scope with an
initializer raised AttributeError in TF 1.15 (it read `layers.initializers`, which contrib.layers did not
export); tf1clip gives it the Glorot initializer that line meant."""

from harness import assert_same, requires_tf115, run_both

GRID_RNN = ("GridRNNCell", "Grid1BasicRNNCell", "Grid2BasicRNNCell", "Grid1BasicLSTMCell", "Grid2BasicLSTMCell",
            "Grid1LSTMCell", "Grid2LSTMCell", "Grid3LSTMCell", "Grid2GRUCell", "layers", "rnn", "namedtuple")
ORACLE_TESTED = tuple("tf.contrib.rnn." + n for n in (
    "TimeFreqLSTMCell", "GridLSTMCell", "BidirectionalGridLSTMCell")) + tuple(
        "tf.contrib.grid_rnn." + n for n in GRID_RNN)

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
grid = tf.contrib.grid_rnn
report("grid_rnn_leaked", [grid.layers is tf.contrib.layers, grid.rnn is tf.contrib.rnn,
                           grid.namedtuple("T", "a b")(1, 2)._asdict()])
glorot = tf.glorot_uniform_initializer(seed=3)
for name, make in (
        ("g1rnn", lambda: grid.Grid1BasicRNNCell(3)),
        ("g1basic", lambda: grid.Grid1BasicLSTMCell(2, forget_bias=0.5)),
        ("g1lstm_concat", lambda: grid.Grid1LSTMCell(2, use_peepholes=True, state_is_tuple=False,
                                                     output_is_tuple=False)),
        ("g2rnn_nonrec", lambda: grid.Grid2BasicRNNCell(2, non_recurrent_fn=tf.nn.tanh)),
        ("g2basic_tied", lambda: grid.Grid2BasicLSTMCell(2, tied=True)),
        ("g2lstm", lambda: grid.Grid2LSTMCell(3, use_peepholes=True)),
        ("g2lstm_nonrec", lambda: grid.Grid2LSTMCell(2, non_recurrent_fn=tf.nn.sigmoid)),
        ("g3lstm_concat", lambda: grid.Grid3LSTMCell(2, state_is_tuple=False, output_is_tuple=False)),
        ("g2gru_nonrec", lambda: grid.Grid2GRUCell(2, non_recurrent_fn=tf.nn.relu)),
        ("g2gru_tied", lambda: grid.Grid2GRUCell(2, tied=True)),
        ("grid_custom", lambda: grid.GridRNNCell(2, num_dims=3, input_dims=[0, 1], output_dims=[1, 2],
                                                 priority_dims=2, non_recurrent_dims=[1],
                                                 cell_fn=lambda n: rnn.GRUCell(n))),
        ("grid_custom_lstm", lambda: grid.GridRNNCell(3, num_dims=2, input_dims=1, output_dims=[0, 1],
                                                      priority_dims=[0]))):
    with tf.variable_scope(name, initializer=glorot):
        cell = make()
        out, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
        flat_out, flat = tf.nest.flatten(out), tf.nest.flatten(state)
        grads = tf.gradients(tf.reduce_sum([tf.reduce_sum(t) for t in flat_out + flat]),
                             tf.trainable_variables(name + "/"))
        # an unread variable (project_c of a non-recurrent input dimension) has no gradient: 0 stands for None
        runs[name] = (flat_out, flat, [tf.zeros([]) if g is None else g for g in grads])
        report("sizes_" + name, [cell.output_size, cell.state_size])
with tf.variable_scope("g_no_initializer"):
    # TF 1.15: AttributeError (layers.initializers); tf1clip: Glorot (the difference this file's docstring states)
    report_errors("grid_rnn_no_initializer", (("nonrec", lambda: tf.nn.dynamic_rnn(
        grid.Grid2LSTMCell(2, non_recurrent_fn=tf.nn.relu), x, dtype=tf.float32)),))
report_variables()
report_errors("grid_rnn_errors", (
    # tied with a non-recurrent dimension: the priority dimension 0 reuses variables its first step never made
    ("tied_nonrec", lambda: tf.nn.dynamic_rnn(grid.Grid2GRUCell(2, tied=True, non_recurrent_fn=tf.nn.relu), x,
                                              dtype=tf.float32, scope=tf.VariableScope(False, "tied_nonrec",
                                                                                       initializer=glorot))),
    ("no_dims", lambda: grid.GridRNNCell(2, num_dims=0)),
    ("dim_out_of_range", lambda: grid.GridRNNCell(2, num_dims=2, input_dims=[2])),
    ("negative_dim", lambda: grid.GridRNNCell(2, num_dims=2, priority_dims=-1)),
    ("not_a_cell", lambda: grid.GridRNNCell(2, num_dims=2, cell_fn=lambda n: n)),
    ("wrong_state", lambda: grid.Grid2LSTMCell(2)(x[:, 0], (tf.zeros([2, 2]),))),
    ("wrong_input_tuple", lambda: grid.GridRNNCell(2, num_dims=2, input_dims=[0, 1])(
        (x[:, 0],), grid.GridRNNCell(2, num_dims=2).zero_state(2, tf.float32)))))
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
  assert tf115["grid_rnn_errors"]["not_a_cell"] == "TypeError", tf115["grid_rnn_errors"]
  # the stated difference: TF 1.15 could not build a non-recurrent dimension without a scope initializer
  assert tf115.pop("grid_rnn_no_initializer") == {"nonrec": "AttributeError"}
  assert ours.pop("grid_rnn_no_initializer") == {"nonrec": "no error"}
  tf115["variables"] = [v for v in tf115["variables"] if not v[0].startswith("g_no_initializer/")]
  ours["variables"] = [v for v in ours["variables"] if not v[0].startswith("g_no_initializer/")]
  assert_same(tf115, ours, rtol=1e-5, atol=5e-6)  # float32 roundoff of the grids' 3-step gradients: up to 2e-6

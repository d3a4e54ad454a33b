"""contrib.rnn's IndRNNCell, IndyGRUCell, SRUCell, IntersectionRNNCell, PhasedLSTMCell, GLSTMCell and CompiledWrapper against
TF 1.15: variable names and shapes, outputs, final states and gradients from the same weights in dynamic_rnn,
the initializers TF 1.15 gave (IndyGRU's gate bias of ones, zero biases), and the errors of bad sizes."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.rnn." + n for n in (
    "IndRNNCell", "IndyGRUCell", "SRUCell", "IntersectionRNNCell", "PhasedLSTMCell", "GLSTMCell",
    "CompiledWrapper"))

SNIPPET = r'''
import numpy as np
import tensorflow as tf
rnn = tf.contrib.rnn
rng = np.random.RandomState(0)
x = tf.constant(rng.randn(3, 5, 4).astype(np.float32))      # [batch, time, depth]
times = tf.constant(np.cumsum(rng.uniform(0.5, 3.0, size=(3, 5, 1)), axis=1).astype(np.float32))
runs = {}
for name, make, inputs in (
        ("ind", lambda: rnn.IndRNNCell(6), x),
        ("ind_relu", lambda: rnn.IndRNNCell(4, activation=tf.nn.relu), x),
        ("indy_gru", lambda: rnn.IndyGRUCell(5), x),
        ("sru", lambda: rnn.SRUCell(4), x),
        ("intersection_same", lambda: rnn.IntersectionRNNCell(4, forget_bias=0.5), x),
        ("intersection_proj", lambda: rnn.IntersectionRNNCell(6, num_in_proj=6), x),
        ("phased", lambda: rnn.PhasedLSTMCell(5, ratio_on=0.3), (times, x)),
        ("phased_peep", lambda: rnn.PhasedLSTMCell(3, use_peepholes=True, leak=0.01, ratio_on=0.4,
                                                   trainable_ratio_on=False), (times, x)),
        ("glstm", lambda: rnn.GLSTMCell(6, number_of_groups=2), x),
        ("glstm_proj", lambda: rnn.GLSTMCell(8, num_proj=4, number_of_groups=2, forget_bias=0.0), x)):
    with tf.variable_scope(name):
        cell = make()
        out, state = tf.nn.dynamic_rnn(cell, inputs, dtype=tf.float32)
        runs[name] = (out, state, tf.gradients(tf.reduce_sum(out) + tf.reduce_sum(tf.nest.flatten(state)[0]),
                                               tf.trainable_variables(name)))
        report("sizes_" + name, [cell.output_size, list(tf.nest.flatten(cell.state_size))])
report("trainable", sorted(v.name for v in tf.trainable_variables()))
report_variables()
report_errors("errors", (
    ("intersection_width", lambda: tf.nn.dynamic_rnn(rnn.IntersectionRNNCell(3), x, dtype=tf.float32)),
    ("glstm_units", lambda: rnn.GLSTMCell(5, number_of_groups=2)),
    ("glstm_proj", lambda: rnn.GLSTMCell(4, num_proj=3, number_of_groups=2)),
    ("glstm_input", lambda: tf.nn.dynamic_rnn(rnn.GLSTMCell(6, number_of_groups=3), x, dtype=tf.float32)),
    ("ind_unknown_depth", lambda: tf.nn.dynamic_rnn(rnn.IndRNNCell(2), tf.placeholder(tf.float32, [2, 3, None]),
                                                    dtype=tf.float32))))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    report("initial_biases", sess.run({v.op.name: v for v in tf.global_variables()
                                       if "bias" in v.op.name and "phased" not in v.op.name}))
    report("ratio_on", sess.run([v for v in tf.global_variables() if v.op.name.endswith("ratio_on")]))
    init_from_numpy(sess, seed=2, scale=0.5)
    # PhasedLSTM's period and phase: positive, and periods of a few time units, so the gates open and close
    for v in tf.global_variables():
        if v.op.name.endswith("period"):
            v.load(np.linspace(2.0, 7.0, v.shape[0]).astype(np.float32), sess)
        if v.op.name.endswith("phase"):
            v.load(np.linspace(0.1, 1.5, v.shape[0]).astype(np.float32), sess)
    report("values", sess.run(runs))
'''


@requires_tf115
def test_independent_cells_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["errors"] == {"intersection_width": "ValueError", "glstm_units": "ValueError",
                             "glstm_proj": "ValueError", "glstm_input": "ValueError",
                             "ind_unknown_depth": "ValueError"}, tf115["errors"]
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)

COMPILED_SNIPPET = r'''
import numpy as np
import tensorflow as tf
rnn = tf.contrib.rnn
rng = np.random.RandomState(5)
x = tf.constant(rng.randn(2, 4, 3).astype(np.float32))
runs = {}
for name, stateful in (("plain", None), ("compiled", False), ("compiled_stateful", True)):
    with tf.variable_scope(name):
        cell = rnn.LSTMCell(4)
        if stateful is not None:
            cell = rnn.CompiledWrapper(cell, compile_stateful=stateful)
        runs[name] = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
        report("sizes_" + name, [cell.output_size, list(cell.state_size)])
marked = {}
for op in tf.get_default_graph().get_operations():
    if op.name.startswith("compiled") and "/while/" in op.name:
        try:
            flag = op.get_attr("_XlaCompile")
        except ValueError:
            flag = None
        scope = op.name.split("/")[0]
        marked.setdefault(scope, set()).add(flag)
report("xla_marks", {k: sorted(str(f) for f in v) for k, v in marked.items()})
report_variables()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    init_from_numpy(sess, seed=1, scale=0.5)
    report("values", sess.run(runs))
'''


@requires_tf115
def test_compiled_wrapper_matches_tf115():
  tf115, ours = run_both(COMPILED_SNIPPET)
  assert "True" in tf115["xla_marks"]["compiled"]
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5)

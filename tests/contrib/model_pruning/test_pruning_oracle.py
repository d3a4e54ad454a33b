"""tf.contrib.model_pruning against TF 1.15: a small pruned model (masked_conv2d, masked_fully_connected, apply_mask,
MaskedBasicLSTMCell, MaskedLSTMCell under an arg_scope) trained and pruned for a few steps by
Pruning.conditional_mask_update_op (a weight_sparsity_map entry, threshold_decay): variable names, the pruning
collections, masks, thresholds, weight sparsities, the sparsity schedule and the layers' outputs at each step; block
pruning (AVG, MAX, the TPU path's factorized pooling, block_dims_map); `train` (slim's loop plus the mask update,
and TF 1.15's TypeError at its end); TF 1.15's checkpoint of the pruned model restored (and pruned on) under
tf1clip, and frozen by graph_def_from_checkpoint + strip_pruning_vars_fn; the errors of bad hyperparameters and
inputs.

One run_both: both sides run at once and the tf1clip side waits for the TF 1.15 side's checkpoint in ORACLE_SHARED
(both sides then restore that same checkpoint, so their reports after the restore must agree)."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.model_pruning." + name for name in (
    "Pruning", "get_pruning_hparams", "apply_mask", "get_masked_weights", "get_masks", "get_thresholds",
    "get_weights", "get_weight_sparsity", "masked_conv2d", "masked_convolution", "masked_fully_connected",
    "MaskedBasicLSTMCell", "MaskedLSTMCell", "graph_def_from_checkpoint", "strip_pruning_vars_fn", "train"))

SNIPPET = r'''
import os
import time
import numpy as np
import tensorflow as tf
mp = tf.contrib.model_pruning
side = "tf115" if tf.__version__.startswith("1.") else "tf1clip"
rng = np.random.RandomState(0)
images = tf.constant(rng.randn(2, 5, 5, 2).astype(np.float32))
seq = tf.constant(rng.randn(2, 3).astype(np.float32))

def names(items):
    return [t.op.name for t in items]

# ---- the model: every masked layer and cell, pruned by one Pruning
gs = tf.train.get_or_create_global_step()
with tf.contrib.framework.arg_scope([mp.masked_conv2d, mp.masked_fully_connected], activation_fn=tf.nn.tanh):
    conv = mp.masked_conv2d(images, 3, [3, 3], scope="conv1")
    conv2 = mp.masked_convolution(conv, 2, 1, padding="VALID", biases_initializer=None, scope="conv2")
    fc = mp.masked_fully_connected(tf.reshape(conv2, [2, -1]), 4, scope="fc1")
w = tf.get_variable("free/w", [4, 3])
out = tf.identity(tf.matmul(fc, mp.apply_mask(w, "free")), name="out")
basic = mp.MaskedBasicLSTMCell(3)
h1, state1 = basic(seq, basic.zero_state(2, tf.float32))
h2, _ = basic(seq, state1)
full = mp.MaskedLSTMCell(3, use_peepholes=True, cell_clip=0.5, num_proj=3, proj_clip=0.3)
m1, _ = full(seq, full.zero_state(2, tf.float32), scope="full")
report_variables()
report("model_variables", names(tf.model_variables()))
report("trainable", names(tf.trainable_variables()))
report("collections", [names(mp.get_masks()), names(mp.get_thresholds()), names(mp.get_weights()),
                       [t.name for t in mp.get_masked_weights()]])
hparams = mp.get_pruning_hparams()
report("default_hparams", hparams.values())
hparams.parse("target_sparsity=0.8,pruning_frequency=2,sparsity_function_end_step=6,threshold_decay=0.25,"
              "weight_sparsity_map=[fc1/weights:0.4],begin_pruning_step=1")
pruning = mp.Pruning(hparams)
update = pruning.conditional_mask_update_op()
pruning.add_pruning_summaries()
report("summaries", sorted(s.op.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES)))
loss = (tf.reduce_sum(tf.square(out - 0.1)) + tf.reduce_sum(tf.square(h2 - 0.2)) +
        tf.reduce_sum(tf.square(m1 - 0.3)))
train_op = tf.train.GradientDescentOptimizer(0.05).minimize(loss, global_step=gs)
watched = {"masks": mp.get_masks(), "thresholds": mp.get_thresholds(), "sparsity": mp.get_weight_sparsity(),
           "schedule": pruning._sparsity, "last": pruning._last_update_step, "step": gs}
outputs = {"out": out, "h2": h2, "m1": m1, "conv": conv}
saver = tf.train.Saver()
mine = os.path.join(os.getcwd(), "ckpt")
theirs = os.path.join(ORACLE_SHARED, "tf115")
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    init_from_numpy(sess, var_list=tf.trainable_variables())
    steps = []
    for _ in range(6):
        sess.run(train_op)
        sess.run(update)
        steps.append(sess.run(watched))
    report("steps", steps)
    report("outputs", sess.run(outputs))
    saver.save(sess, os.path.join(theirs if side == "tf115" else mine, "model.ckpt"), global_step=gs)
    if side == "tf115":
        open(os.path.join(theirs, "done"), "w").close()
    else:  # the TF 1.15 side's checkpoint: written while this side built its graph
        deadline = time.time() + 120
        while not os.path.exists(os.path.join(theirs, "done")) and time.time() < deadline:
            time.sleep(0.2)
    saver.restore(sess, tf.train.latest_checkpoint(theirs))
    after = []
    for _ in range(2):
        sess.run(train_op)
        sess.run(update)
        after.append(sess.run(watched))
    report("restored_and_pruned_on", after)

# ---- freezing TF 1.15's checkpoint, then stripping the masks
with tf.Graph().as_default():
    frozen = mp.graph_def_from_checkpoint(theirs, ["out"])
    stripped = mp.strip_pruning_vars_fn(frozen, ["out"])
    kinds = lambda graph_def: sorted(set(n.op for n in graph_def.node))
    report("stripped", {"masked_consts": sorted(n.name for n in stripped.node if "masked_weight" in n.name
                                                and n.op == "Const"),
                        "masks_left": sorted(n.name for n in stripped.node if n.name.endswith("/mask")),
                        "frozen_has_masks": any(n.name.endswith("/mask") for n in frozen.node),
                        "ops": kinds(stripped)})
    with tf.Graph().as_default():
        tf.import_graph_def(stripped, name="")
        with tf.Session() as sess:
            report("stripped_out", sess.run("out:0"))
    report_errors("checkpoint_errors", [("empty_dir", lambda: mp.graph_def_from_checkpoint(os.getcwd(), ["out"]))])

# ---- block pruning: AVG with a block_dims_map entry, MAX, and the TPU path (factorized pooling); a masked cell in
# dynamic_rnn (its kernel block-pruned too)
def block_run(spec, fetch_loop=False):
    with tf.Graph().as_default():
        step = tf.train.get_or_create_global_step()
        a = mp.apply_mask(tf.get_variable("a", [6, 5]), "a")
        b = mp.apply_mask(tf.get_variable("b", [1, 4, 6]), "b")
        rnn_out, _ = tf.nn.dynamic_rnn(mp.MaskedBasicLSTMCell(2), tf.reshape(tf.range(6.0) / 6, [2, 3, 1]),
                                       dtype=tf.float32)
        pruning = mp.Pruning(mp.get_pruning_hparams().parse(spec))
        update = pruning.conditional_mask_update_op()
        inc = tf.assign_add(step, 1)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            init_from_numpy(sess, var_list=tf.trainable_variables())
            for _ in range(3):
                sess.run(inc)
                sess.run(update)
            if fetch_loop:  # the cell's masked kernel is built inside dynamic_rnn's while loop, as in TF 1.15
                with case("fetch_loop_masked_weight"):
                    sess.run(mp.get_masked_weights()[-1])
            return sess.run([mp.get_masks(), mp.get_thresholds(), rnn_out])

base = "pruning_frequency=1,sparsity_function_end_step=2,target_sparsity=0.6,initial_sparsity=0.1,"
report("block_avg", block_run(base + "block_height=2,block_width=2,block_dims_map=[b:1x3]", True))
report("block_max", block_run(base + "block_height=3,block_width=-1,block_pooling_function=MAX"))
report("block_tpu", block_run(base + "block_height=2,block_width=3,use_tpu=true,end_pruning_step=2"))

# ---- train: slim's loop with the mask update after each step
with tf.Graph().as_default():
    step = tf.train.get_or_create_global_step()
    x = mp.masked_fully_connected(tf.constant(rng.randn(3, 4).astype(np.float32)), 5, scope="t",
                                  weights_initializer=tf.constant_initializer(np.arange(20.0).reshape(4, 5) / 10))
    total = tf.reduce_mean(tf.square(x))
    op = tf.contrib.slim.learning.create_train_op(total, tf.train.GradientDescentOptimizer(0.01))
    pruning = mp.Pruning(mp.get_pruning_hparams().parse("pruning_frequency=1,sparsity_function_end_step=2"))
    logdir = os.path.join(os.getcwd(), "train")
    with case("train"):
        mp.train(op, logdir, pruning.conditional_mask_update_op(), number_of_steps=3, summary_op=None,
                 save_summaries_secs=10000, save_interval_secs=10000)
    reader = tf.train.load_checkpoint(logdir)
    report("trained", {k: reader.get_tensor(k) for k in ("global_step", "t/mask", "t/threshold",
                                                         "model_pruning/last_mask_update_step")})

# ---- errors
def pruning_with(spec):
    with tf.Graph().as_default():
        tf.train.get_or_create_global_step()
        mp.Pruning(mp.get_pruning_hparams().parse(spec))

def update_with(spec):
    with tf.Graph().as_default():
        tf.train.get_or_create_global_step()
        mp.apply_mask(tf.get_variable("v", [4, 4]), "v")
        mp.Pruning(mp.get_pruning_hparams().parse(spec)).mask_update_op()

def in_graph(fn):
    with tf.Graph().as_default():
        fn()

report_errors("errors", [
    ("begin_negative", lambda: pruning_with("begin_pruning_step=-1")),
    ("end_before_begin", lambda: pruning_with("begin_pruning_step=5,end_pruning_step=3")),
    ("function_steps", lambda: pruning_with("sparsity_function_begin_step=100")),
    ("decay", lambda: pruning_with("threshold_decay=1.0")),
    ("target", lambda: pruning_with("target_sparsity=1.0")),
    ("initial", lambda: pruning_with("initial_sparsity=-0.1")),
    ("map_sparsity", lambda: pruning_with("weight_sparsity_map=[v:1.0]")),
    ("block_dims", lambda: pruning_with("block_dims_map=[v:2x2x2]")),
    ("pooling", lambda: update_with("block_height=2,block_pooling_function=MIN")),
    ("two_map_matches", lambda: update_with("weight_sparsity_map=[v:0.1,^v:0.2]")),
    ("two_block_matches", lambda: update_with("block_dims_map=[v:2x2,^v:1x2]")),
    ("no_global_step", lambda: in_graph(lambda: mp.Pruning())),
    ("fc_float_units", lambda: in_graph(lambda: mp.masked_fully_connected(tf.ones([2, 3]), 2.0))),
    ("conv_rank3", lambda: in_graph(lambda: mp.masked_conv2d(tf.ones([2, 3, 3]), 2, 3))),
    ("conv_ncw", lambda: in_graph(lambda: mp.masked_conv2d(tf.ones([2, 3, 3, 1]), 2, 3, data_format="NCW"))),
    ("conv_bad_format", lambda: in_graph(lambda: mp.masked_conv2d(tf.ones([2, 3, 3, 1]), 2, 3, data_format="x"))),
    ("lstm_proj", lambda: in_graph(lambda: mp.MaskedLSTMCell(3, num_proj=2)(
        tf.ones([2, 4]), mp.MaskedLSTMCell(3, num_proj=2).zero_state(2, tf.float32)))),
])
finish()
'''


@requires_tf115
def test_model_pruning_matches_tf115():
  tf115, ours = run_both(SNIPPET, timeout=240)
  assert tf115["train:error"] == "TypeError"  # TF 1.15's train unpacks slim's loss as a pair, after training
  assert len(ours["steps"]) == 6 and ours["stripped"]["masked_consts"], ours["stripped"]
  assert_same(tf115, ours, rtol=2e-5, atol=1e-6)

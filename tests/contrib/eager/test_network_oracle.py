"""tfe.Network / tfe.Sequential and save_network_checkpoint / restore_network_checkpoint against TF 1.15, eagerly
(the snippet starts with tfe.enable_remote_eager_execution(), TF 1.15's enable_eager_execution with an optional
server_def) and then in a graph: variable names (nested Networks, anonymous and explicit names, a variable_scope
around a Network, per-Network layer numbering, a name that avoids an existing scope), trainable variables,
regularization losses and batch-norm updates, outputs after seeded values, the `training` argument of Sequential,
the checkpoint file names and keys save_network_checkpoint writes (directory naming, the global step suffix, a
map_func), restore of TF 1.15's checkpoints into built Networks and into unbuilt ones (the deferred restoration
when the variables are created, eagerly and through the default session), and the errors (Network rules,
object-based checkpointing, tfe.set_server_def(None), bad enable_remote_eager_execution arguments).

TF 1.15 runs first and writes its checkpoints into the shared folder; the same snippet under tf1clip writes its own
(reporting their keys) and restores TF 1.15's: two processes as for one run_both, run one after the other."""

import tempfile

from harness import assert_same, requires_tf115, run_tf115, run_tf1clip

ORACLE_TESTED = tuple("tf.contrib.eager." + n for n in (
    "Network", "Sequential", "save_network_checkpoint", "restore_network_checkpoint", "set_server_def",
    "enable_remote_eager_execution"))

SNIPPET = r'''
import os
import zlib
import numpy as np
import tensorflow as tf
tfe = tf.contrib.eager
# TF 1.15's enable_remote_eager_execution without a server_def is enable_eager_execution (at program start).
tfe.enable_remote_eager_execution()
report("eager", tf.executing_eagerly())
ON_TF115 = tf.__version__.startswith("1.")
OUT = ORACLE_SHARED if ON_TF115 else os.getcwd()  # TF 1.15 writes the checkpoints both sides restore


class Two(tfe.Network):
    def __init__(self, name=None):
        super(Two, self).__init__(name=name)
        self.a = self.track_layer(tf.layers.Dense(3, activation=tf.nn.relu,
                                                  kernel_regularizer=tf.contrib.layers.l2_regularizer(0.5)))
        self.b = self.track_layer(tf.layers.Dense(2, name="out"))

    def call(self, x):
        return self.b(self.a(x))


class Outer(tfe.Network):
    def __init__(self, name=None):
        super(Outer, self).__init__(name=name)
        self.inner = self.track_layer(Two())
        self.seq = self.track_layer(tfe.Sequential([tf.layers.Dense(2), tf.nn.tanh, tf.layers.Dropout(0.0),
                                                    tf.layers.BatchNormalization()]))

    def call(self, x, training=False):
        return self.seq(self.inner(x), training=training)


x = np.arange(8, dtype=np.float32).reshape(2, 4) / 8.0


def seeded(name, shape, seed=0):
    rng = np.random.RandomState((seed + zlib.crc32(name.encode())) % (2 ** 31))
    return (rng.standard_normal(shape) * 0.3).astype(np.float32)


def names(net):
    return [v.name for v in net.variables]


# ---- eagerly
net = Outer()
net(tf.constant(x))
report("eager.names", names(net))
report("eager.trainable", [v.name for v in net.trainable_variables])
report("eager.net_names", [net.name, net.inner.name, net.seq.name, net.scope_name, net.inner.scope_name])
for v in net.variables:
    v.assign(seeded(v.name.split(":")[0], v.shape.as_list()))
report("eager.out", net(tf.constant(x)).numpy())
report("eager.train_out", net(tf.constant(x), training=True).numpy().shape)
report("eager.losses", [l.numpy() for l in net.losses])
path = tfe.save_network_checkpoint(net, OUT)
report("eager.path", os.path.basename(path))
report("eager.keys", sorted(n for n, _ in tf.train.list_variables(path)))
net2 = Outer()
tfe.restore_network_checkpoint(net2, os.path.join(ORACLE_SHARED, "outer"))  # deferred: net2 has no variables
report("eager.deferred", net2(tf.constant(x)).numpy())
report("eager.net2_names", names(net2))
for v in net2.variables:
    v.assign(tf.zeros_like(v))
tfe.restore_network_checkpoint(net2, os.path.join(ORACLE_SHARED, "outer"))  # existing variables
report("eager.restored", net2(tf.constant(x)).numpy())
report_errors("eager.errors", [
    ("save_unbuilt", lambda: tfe.save_network_checkpoint(Two(), OUT)),
    ("slash_name", lambda: Two(name="a/b")),
    ("track_non_layer", lambda: Two().track_layer(lambda t: t)),
    ("not_trainable", lambda: setattr(net, "trainable", False)),
    ("add_variable", lambda: net.add_variable("v", [1])),
    ("get_layer_both", lambda: net.get_layer("two", 0)),
    ("get_layer_missing", lambda: net.get_layer("nope")),
    ("unnamed_yet", lambda: Two().name),
    ("object_checkpoint", lambda: tfe.Checkpoint(net=net).save(os.path.join(OUT, "obj"))),
    ("set_server_def_none", lambda: tfe.set_server_def(None)),
    ("remote_bad_policy", lambda: tfe.enable_remote_eager_execution(device_policy="bad")),
    ("remote_bad_config", lambda: tfe.enable_remote_eager_execution(config="bad")),
])
report("eager.get_layer", [net.get_layer("two").name, net.get_layer(index=1).name, len(net.layers)])

# ---- in a graph
with tf.Graph().as_default():
    report("graph.eager", tf.executing_eagerly())
    step = tf.train.get_or_create_global_step()
    inputs = tf.constant(x)
    first = Outer()
    with tf.variable_scope("block"):
        second = Outer(name="second")
        seq = tfe.Sequential([tf.layers.Dense(3, name="d"), tf.layers.Dense(1)])
    y1 = first(inputs)
    y2 = second(inputs, training=True)
    y3 = seq(inputs)
    with tf.variable_scope("two"):
        pass
    avoid = Two()  # anonymous: avoids the scope "two" that exists
    avoid(inputs)
    report("graph.avoid", [avoid.name, names(avoid)])
    late = Outer()  # built after restore: deferred restoration through the default session
    report("graph.net_names", [first.name, second.name, seq.name, second.scope_name, seq.scope_name])
    report("graph.names", [names(first), names(second), names(seq)])
    report("graph.updates", len(second.updates))
    report("graph.losses", len(first.losses))
    report_variables("graph.variables")
    with tf.Session() as sess:
        init_from_numpy(sess)
        report("graph.out", sess.run([y1, y2, y3]))
        path = tfe.save_network_checkpoint(second, OUT)
        report("graph.path", os.path.basename(path))
        report("graph.keys", sorted(n for n, _ in tf.train.list_variables(path)))
        path = tfe.save_network_checkpoint(seq, os.path.join(OUT, "seq"), global_step=7,
                                           map_func=lambda n: "x/" + n)
        report("graph.seq_path", os.path.basename(path))
        report("graph.seq_keys", sorted(n for n, _ in tf.train.list_variables(path)))
        init_from_numpy(sess, seed=1)
        tfe.restore_network_checkpoint(second, os.path.join(ORACLE_SHARED, "block_second-0"))
        tfe.restore_network_checkpoint(first, os.path.join(ORACLE_SHARED, "block_second-0"))
        tfe.restore_network_checkpoint(seq, os.path.join(ORACLE_SHARED, "seq-7"), map_func=lambda n: "x/" + n)
        tfe.restore_network_checkpoint(late, os.path.join(ORACLE_SHARED, "block_second-0"))
        y4 = late(inputs)
        report("graph.late_names", names(late))
        report("graph.restored", sess.run([y1, y2, y3, y4]))
        report_errors("graph.errors", [
            ("duplicate_name", lambda: Outer(name="outer")(inputs)),
            ("explicit_scope", lambda: Two()(inputs, scope="s")),
        ])
'''


@requires_tf115
def test_network_sequential_and_network_checkpoints_match_tf115():
  with tempfile.TemporaryDirectory() as shared:
    theirs = run_tf115(SNIPPET, shared=shared)
    ours = run_tf1clip(SNIPPET, shared=shared)
  assert theirs["eager"] is True and theirs["graph.keys"], theirs
  assert_same(theirs, ours, rtol=1e-5, atol=1e-6)

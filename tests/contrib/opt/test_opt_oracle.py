"""contrib.opt's optimizers (tf1clip's ports) against TF 1.15: weights and slots after several steps of dense
and sparse (embedding, with a repeated row) gradients, on ref and resource variables, variable and checkpoint
names, decay_var_list, sign_decay_fn, MovingAverageOptimizer's averages and swapping saver, bad arguments."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.opt." + n for n in (
    "AdamWOptimizer", "MomentumWOptimizer", "DecoupledWeightDecayExtension", "extend_with_decoupled_weight_decay",
    "NadamOptimizer", "AdaMaxOptimizer", "AddSignOptimizer", "PowerSignOptimizer", "VariableClippingOptimizer",
    "MovingAverageOptimizer", "ScipyOptimizerInterface", "ExternalOptimizerInterface", "LARSOptimizer",
    "RegAdagradOptimizer", "DropStaleGradientOptimizer", "AdamGSOptimizer", "LazyAdamGSOptimizer"))

SNIPPET = r'''
import numpy as np
import tensorflow as tf
opt_lib = tf.contrib.opt
rng = np.random.RandomState(0)
xs = rng.randn(6, 3).astype(np.float32)
ys = rng.randn(6, 1).astype(np.float32)
ids = np.array([1, 3, 1, 4], np.int32)  # row 1 twice: the base Optimizer sums duplicates first

def model(scope, resource, sparse=True, linear=False):
    with tf.variable_scope(scope, use_resource=resource):
        w = tf.get_variable("w", [3, 1])
        b = tf.get_variable("b", [1])
        emb = tf.get_variable("emb", [6, 1])
        rows = tf.nn.embedding_lookup(emb, ids) if sparse else tf.matmul(tf.one_hot(ids, 6), emb)
        pred = tf.matmul(tf.constant(xs), w) + b + tf.reduce_sum(rows)
        if linear:
            # Decoupled weight decay writes the variable while the gradient may still be reading it (no
            # dependency orders them, in TF 1.15 as here): a loss linear in the weights makes the gradient
            # independent of that race.
            return tf.reduce_sum(pred * tf.constant(ys)), (w, b, emb)
        return tf.reduce_mean(tf.square(pred - tf.constant(ys))), (w, b, emb)

def decay(step):
    return 0.5 + 0.5 / (1.0 + tf.cast(step, tf.float32))

class AdagradW(opt_lib.DecoupledWeightDecayExtension, tf.train.AdagradOptimizer):
    pass

makers = {
    "adagradw": lambda: AdagradW(0.02, learning_rate=0.1),
    "adamw": lambda: opt_lib.AdamWOptimizer(0.01, learning_rate=0.05),
    "momentumw": lambda: opt_lib.MomentumWOptimizer(0.02, 0.1, 0.9, use_nesterov=True),
    "sgdw": lambda: opt_lib.extend_with_decoupled_weight_decay(tf.train.GradientDescentOptimizer)(
        0.03, learning_rate=0.1),
    "nadam": lambda: opt_lib.NadamOptimizer(0.05),
    "adamax": lambda: opt_lib.AdaMaxOptimizer(0.05),
    "addsign": lambda: opt_lib.AddSignOptimizer(0.05, alpha=1.0, beta=0.8),
    "addsign_decay": lambda: opt_lib.AddSignOptimizer(0.05, sign_decay_fn=decay),
    "powersign": lambda: opt_lib.PowerSignOptimizer(0.05, base=2.0, beta=0.8),
    "lars": lambda: opt_lib.LARSOptimizer(0.5, momentum=0.8, weight_decay=0.01, eeta=0.1, skip_list=["/b"]),
    "lars_nesterov": lambda: opt_lib.LARSOptimizer(0.5, use_nesterov=True, epsilon=1e-3),
    "regadagrad": lambda: opt_lib.RegAdagradOptimizer(0.1),
    "adamgs": lambda: opt_lib.AdamGSOptimizer(global_step=tf.constant(3, tf.int64), learning_rate=0.05),
    "lazyadamgs": lambda: opt_lib.LazyAdamGSOptimizer(learning_rate=0.05),
}
gs = tf.train.get_or_create_global_step()
trains = []
for name, make in sorted(makers.items()):
    for resource in (False, True):
        scope = "%s_%s" % (name, "res" if resource else "ref")
        # TF 1.15's sign optimizers have no sparse update for resource variables (NotImplementedError; see
        # sign_resource_sparse below): their resource runs take dense gradients.
        loss, (w, b, emb) = model(scope, resource, sparse=not (resource and "sign" in name),
                                  linear=name.endswith("w"))
        opt = make()
        if name == "adamw":  # decay only w and emb
            trains.append(opt.minimize(loss, var_list=[w, b, emb], decay_var_list=[w, emb]))
        elif name == "addsign_decay":
            trains.append(opt.minimize(loss, global_step=gs, var_list=[w, b, emb]))
        else:
            trains.append(opt.minimize(loss, var_list=[w, b, emb]))
        report("slots_" + scope, sorted(opt.get_slot_names()))

# RegAdagrad: a second update built inside avoid_updating_slots() steps without growing the accumulator
loss_r, (wr, br, embr) = model("regfrozen", False)
reg = opt_lib.RegAdagradOptimizer(0.1)
train_r = reg.minimize(loss_r, var_list=[wr, br, embr])
trains.append(train_r)
with reg.avoid_updating_slots():  # run on its own after the data step (two updates of one variable would race)
    train_frozen = reg.minimize(tf.reduce_sum(tf.square(wr)) + tf.reduce_sum(tf.square(tf.nn.embedding_lookup(
        embr, [0, 2]))), var_list=[wr, embr])

# DropStaleGradientOptimizer: run on its own (the global step it measures is not moved meanwhile), staleness 0
# always applies; with staleness -1 every update is dropped and counted
loss_d, (wd, bd, embd) = model("stale", False)
with tf.variable_scope("stale"):
    train_d = opt_lib.DropStaleGradientOptimizer(tf.train.GradientDescentOptimizer(0.2), 0).minimize(
        loss_d, global_step=gs, var_list=[wd, bd, embd])
loss_x, (wx, bx, embx) = model("dropped", False)
with tf.variable_scope("dropped"):
    train_x = opt_lib.DropStaleGradientOptimizer(tf.train.GradientDescentOptimizer(0.2), -1).minimize(
        loss_x, global_step=gs, var_list=[wx, bx, embx])

# VariableClippingOptimizer: rows of emb clipped to norm 0.3 after each step (sparse), w clipped as a whole
loss_c, (wc, bc, embc) = model("clip", False)
clipper = opt_lib.VariableClippingOptimizer(tf.train.GradientDescentOptimizer(0.5), {embc: [1], wc: [0]}, 0.3)
trains.append(clipper.minimize(loss_c, var_list=[wc, bc, embc]))

# MovingAverageOptimizer: the averages, and the swapping saver's checkpoint keys and values
loss_m, (wm, bm, embm) = model("avg", False)
mavg = opt_lib.MovingAverageOptimizer(tf.train.GradientDescentOptimizer(0.3), average_decay=0.5)
train_m = mavg.minimize(loss_m, var_list=[wm, bm, embm])
swapping = mavg.swapping_saver(var_list=[v for v in tf.global_variables() if v.op.name.startswith("avg")])

report_errors("errors", [
    ("clip_not_optimizer", lambda: opt_lib.VariableClippingOptimizer("sgd", {}, 1.0)),
    ("swapping_before_apply", lambda: opt_lib.MovingAverageOptimizer(
        tf.train.GradientDescentOptimizer(0.1)).swapping_saver()),
    ("sign_resource_sparse", lambda: opt_lib.PowerSignOptimizer(0.1).minimize(
        model("sign_sparse", True)[0], var_list=tf.trainable_variables("sign_sparse")))])
report_variables()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    # the weights and the averages (which start from the weights' own random initializers) from numpy; the
    # slots start as the optimizers make them
    init_from_numpy(sess, seed=3, var_list=tf.trainable_variables() + [
        v for v in tf.global_variables() if v.op.name.endswith("ExponentialMovingAverage")])
    counters = []
    for _ in range(4):
        sess.run(trains + [train_m])
        sess.run(train_frozen)
        counters.append([float(sess.run(train_d)), float(sess.run(train_x))])
    report("stale_counters", counters)
    report("values", sess.run({v.op.name: v for v in tf.global_variables()}))
    path = swapping.save(sess, ORACLE_SHARED + "/swapped")
    reader = tf.train.load_checkpoint(path)
    report("swapped", {k: reader.get_tensor(k) for k in sorted(reader.get_variable_to_shape_map())})
'''


@requires_tf115
def test_contrib_opt_optimizers_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["errors"] == {"clip_not_optimizer": "no error", "swapping_before_apply": "RuntimeError",
                             "sign_resource_sparse": "NotImplementedError"}
  # Deliberate differences: tf1clip's VariableClippingOptimizer refuses a non-optimizer at once with a
  # TypeError naming the argument (TF 1.15 accepted it and failed only when it was used); AddSign and
  # PowerSign take a sparse gradient on a resource variable (TF 1.15 had no such update), with the same
  # update as on a ref variable (tests/contrib/opt/test_opt.py).
  assert ours["errors"] == {"clip_not_optimizer": "TypeError", "swapping_before_apply": "RuntimeError",
                            "sign_resource_sparse": "no error"}
  assert_same(tf115, ours, rtol=2e-5, atol=1e-6, keys=[k for k in tf115 if k != "errors"])
  # the swapped checkpoint holds the averages under the variables' names
  assert ours["swapped"]["avg/w"].tolist() == ours["values"]["avg/w/ExponentialMovingAverage"].tolist()


SCIPY_SNIPPET = r'''
import numpy as np
import tensorflow as tf
opt_lib = tf.contrib.opt
target = tf.placeholder(tf.float32, [3])
x = tf.Variable([1.0, 2.0, 3.0], name="x")
y = tf.Variable([[0.5, -0.5]], name="y")
unused = tf.Variable(7.0, name="unused")  # in var_list, not reached by the loss: zero gradient, unchanged
loss = tf.reduce_sum(tf.square(x - target)) + tf.reduce_sum(tf.square(y - 2.0)) + tf.reduce_sum(x * y[0, 0])
bounded = opt_lib.ScipyOptimizerInterface(loss, var_list=[x, y, unused],
                                          var_to_bounds={x: (-1.0, [0.5, 10.0, 10.0])}, options={"maxiter": 50})
constrained = opt_lib.ScipyOptimizerInterface(loss, var_list=[x, y], method="SLSQP",
                                              equalities=[tf.reduce_sum(x) - 1.0], inequalities=[y[0, 1] - 2.5])
base = opt_lib.ExternalOptimizerInterface(loss, var_list=[x])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    errors = {}
    feed = {target: [3.0, -1.0, 0.25]}
    for key, kwargs in (("bounds_kwarg", {"bounds": [(0, 1)]}), ("jac_kwarg", {"jac": False})):
        try:
            opt_lib.ScipyOptimizerInterface(loss, var_list=[x], **kwargs).minimize(sess, feed_dict=feed)
            errors[key] = "no error"
        except Exception as e:
            errors[key] = "%s: %s" % (type(e).__name__, e)
    try:
        base.minimize(sess, feed_dict=feed)
    except Exception as e:
        errors["external_base"] = type(e).__name__
    report("errors", errors)
    losses, steps = [], []
    bounded.minimize(sess, feed_dict={target: [3.0, -1.0, 0.25]}, fetches=[loss],
                     loss_callback=lambda l: losses.append(float(l)), step_callback=lambda xk: steps.append(1))
    report("bounded", sess.run([x, y, unused]))
    report("bounded_calls", [len(losses) > 3, len(steps) > 1, losses[-1] <= losses[0]])
    sess.run(tf.global_variables_initializer())
    constrained.minimize(sess, feed_dict={target: [3.0, -1.0, 0.25]})
    report("constrained", sess.run([x, y]))
'''


@requires_tf115
def test_scipy_optimizer_interface_matches_tf115():
  tf115, ours = run_both(SCIPY_SNIPPET)
  assert tf115["errors"]["external_base"] == "NotImplementedError"
  assert "Bounds must be set using the var_to_bounds argument" in tf115["errors"]["bounds_kwarg"]
  assert "'jac' is set automatically" in tf115["errors"]["jac_kwarg"]
  assert tf115["bounded_calls"] == [True, True, True]
  # different SciPy releases (1.1 under TF 1.15, the pinned one here): the same minimizer, to the solvers'
  # tolerance
  assert_same(tf115, ours, rtol=1e-4, atol=1e-4)

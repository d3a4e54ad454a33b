"""tf.contrib.constrained_optimization against TF 1.15: the three regret optimizers on a tiny two-constraint problem
(the model, the Lagrange multipliers / stochastic matrices, the objective and constraints after 1 and 4 steps;
variable and slot names; a separate constraint_optimizer, proxy constraints, a multiplier radius, pre_train_ops,
minimize's switch from unconstrained steps, minimize_unconstrained), the candidate selection functions on fixed
inputs (a feasible and a bisected infeasible problem, ranks with and without the objective), and the errors."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.constrained_optimization." + n for n in (
    "ConstrainedMinimizationProblem", "ConstrainedOptimizer", "AdditiveExternalRegretOptimizer",
    "AdditiveSwapRegretOptimizer", "MultiplicativeSwapRegretOptimizer", "find_best_candidate_distribution",
    "find_best_candidate_index"))

SNIPPET = r'''
import numpy as np
import tensorflow as tf
co = tf.contrib.constrained_optimization


class Problem(co.ConstrainedMinimizationProblem):
    """minimize |w - (1, 2)|^2 s.t. w0 + w1 <= 1, w0 <= 0.2 (both violated at the unconstrained optimum)."""

    def __init__(self, w, proxy=False, pre=None, matrix=False):
        self.w, self.proxy, self.pre, self.matrix = w, proxy, pre, matrix

    @property
    def objective(self):
        return tf.reduce_sum(tf.square(self.w - tf.constant([1.0, 2.0])))

    @property
    def constraints(self):
        g = tf.stack([self.w[0] + self.w[1] - 1.0, self.w[0] - 0.2])
        return tf.reshape(g, [2, 1]) if self.matrix else g

    @property
    def proxy_constraints(self):
        if not self.proxy:
            return None
        g = tf.stack([2.0 * (self.w[0] + self.w[1] - 1.0), tf.nn.softplus(self.w[0] - 0.2)])
        return tf.reshape(g, [2, 1]) if self.matrix else g

    @property
    def pre_train_ops(self):
        return self.pre


def sgd(rate):
    return tf.train.GradientDescentOptimizer(rate)


def weights(name):
    return tf.Variable([0.5, 0.25], name=name)


def step(name):
    return tf.Variable(0, dtype=tf.int64, trainable=False, name=name)


problems, train = {}, {}
# An AdditiveExternalRegretOptimizer without a constraint_optimizer races on TF 1.15 itself: the model's gradient
# reads the multipliers through the Ref variable's buffer, which the same apply_gradients updates in place, so a
# step uses the old or the new multipliers from run to run (seen on TF 1.15 and, with the same graph, under
# tf1clip). Its graph is compared (variables, kinds), its values are not; every other external-regret case has a
# constraint_optimizer, whose control dependencies make TF 1.15's numbers deterministic.
before = set(tf.global_variables())
w = weights("w_shared")
shared = co.AdditiveExternalRegretOptimizer(sgd(0.1))
train["shared"] = shared.minimize(Problem(w), global_step=step("step_shared"))  # default var_list: every w
racy = set(tf.global_variables()) - before
report("properties", [isinstance(shared, co.ConstrainedOptimizer), shared.constraint_optimizer is None,
                      type(shared.optimizer).__name__])
w = weights("w_ext")
problems["ext"] = Problem(w)
train["ext"] = co.AdditiveExternalRegretOptimizer(sgd(0.1), constraint_optimizer=sgd(0.1)).minimize(
    problems["ext"], global_step=step("step_ext"), var_list=[w])
w = weights("w_radius")
problems["radius"] = Problem(w, proxy=True, matrix=True)
train["radius"] = co.AdditiveExternalRegretOptimizer(
    sgd(0.1), constraint_optimizer=sgd(1.0), maximum_multiplier_radius=0.3).minimize_constrained(
        problems["radius"], var_list=[w], name="radius_train")
w = weights("w_add_swap")
problems["add_swap"] = Problem(w)
train["add_swap"] = co.AdditiveSwapRegretOptimizer(sgd(0.2)).minimize(problems["add_swap"], var_list=[w])
w = weights("w_mult_swap")
problems["mult_swap"] = Problem(w, proxy=True)
mult = co.MultiplicativeSwapRegretOptimizer(sgd(0.1), constraint_optimizer=tf.train.AdagradOptimizer(0.5),
                                            minimum_multiplier_radius=0.01, initial_multiplier_radius=0.1)
train["mult_swap"] = mult.minimize(problems["mult_swap"], var_list=[w], global_step=step("step_mult"))
w = weights("w_mult_default")
problems["mult_default"] = Problem(w)
train["mult_default"] = co.MultiplicativeSwapRegretOptimizer(sgd(0.3)).minimize(problems["mult_default"],
                                                                                var_list=[w])
w = weights("w_switch")
problems["switch"] = Problem(w)
switch_step = step("step_switch")
with case("switch"):
    train["switch"] = co.AdditiveExternalRegretOptimizer(sgd(0.1), constraint_optimizer=sgd(0.2)).minimize(
        problems["switch"], unconstrained_steps=2, global_step=switch_step, var_list=[w])
    report("switch_kind", [isinstance(train["switch"], tf.Tensor), isinstance(train["switch"], tf.Operation),
                           getattr(train["switch"], "dtype", None) and train["switch"].dtype.name])
w = weights("w_unconstrained")
problems["unconstrained"] = Problem(w)
train["unconstrained"] = co.AdditiveSwapRegretOptimizer(sgd(0.1)).minimize_unconstrained(
    problems["unconstrained"], var_list=[w])
counter = tf.Variable(0.0, trainable=False, name="pre_counter")
w = weights("w_pre")
problems["pre"] = Problem(w, pre=[tf.assign_add(counter, 1.0)])
train["pre"] = co.AdditiveExternalRegretOptimizer(sgd(0.1), constraint_optimizer=tf.train.AdagradOptimizer(
    0.3)).minimize(problems["pre"], var_list=[w])
report("train_kinds", {k: isinstance(v, tf.Operation) for k, v in sorted(train.items())})
report("num_constraints", {k: p.num_constraints for k, p in sorted(problems.items())})
report_variables()
values = {"variables": {v.op.name: v for v in tf.global_variables() if v not in racy},
          "objective": {k: p.objective for k, p in problems.items()},
          "constraints": {k: p.constraints for k, p in problems.items()}}
train_all = [train[k] for k in sorted(train)]


class Abstract(co.ConstrainedMinimizationProblem):
    pass


class Mixed(Problem):
    @property
    def objective(self):
        return tf.constant(1.0, tf.float64)


def problem_with(constraints, proxy=None):
    cls = type("P", (Problem,), {"constraints": property(lambda self: constraints),
                                 "proxy_constraints": property(lambda self: proxy)})
    return cls(tf.constant([0.0, 0.0]))


def build(fn):
    with tf.Graph().as_default():
        fn()


report_errors("errors", (
    ("abstract_problem", lambda: Abstract()),
    ("abstract_optimizer", lambda: co.ConstrainedOptimizer(sgd(0.1))),
    ("radius_nonpositive", lambda: co.AdditiveExternalRegretOptimizer(sgd(0.1), maximum_multiplier_radius=-1.0)),
    ("radius_zero", lambda: co.AdditiveExternalRegretOptimizer(sgd(0.1), maximum_multiplier_radius=0.0)),
    ("minimum_radius_zero", lambda: co.MultiplicativeSwapRegretOptimizer(sgd(0.1), minimum_multiplier_radius=0.0)),
    ("minimum_radius_one", lambda: co.MultiplicativeSwapRegretOptimizer(sgd(0.1), minimum_multiplier_radius=1.0)),
    ("initial_below_minimum", lambda: co.MultiplicativeSwapRegretOptimizer(
        sgd(0.1), minimum_multiplier_radius=0.1, initial_multiplier_radius=0.01)),
    ("initial_above_one", lambda: co.MultiplicativeSwapRegretOptimizer(
        sgd(0.1), minimum_multiplier_radius=0.1, initial_multiplier_radius=2.0)),
    ("steps_without_global_step", lambda: build(lambda: co.AdditiveExternalRegretOptimizer(sgd(0.1)).minimize(
        Problem(tf.Variable([0.0, 0.0])), unconstrained_steps=3))),
    ("mixed_dtypes_external", lambda: build(lambda: co.AdditiveExternalRegretOptimizer(sgd(0.1)).minimize(
        Mixed(tf.Variable([0.0, 0.0]))))),
    ("mixed_dtypes_swap", lambda: build(lambda: co.AdditiveSwapRegretOptimizer(sgd(0.1)).minimize(
        Mixed(tf.Variable([0.0, 0.0]))))),
    ("unknown_shape", lambda: build(lambda: problem_with(tf.placeholder(tf.float32, [None])).num_constraints)),
    ("unknown_rank", lambda: build(lambda: problem_with(tf.placeholder(tf.float32)).num_constraints)),
    ("proxy_shape", lambda: build(lambda: problem_with(tf.zeros([2]), tf.zeros([3])).num_constraints)),
    ("proxy_unknown", lambda: build(lambda: problem_with(tf.zeros([2]), tf.placeholder(tf.float32, [None, 2]))
                                    .num_constraints)),
    ("distribution_epsilon", lambda: co.find_best_candidate_distribution(np.ones(2), np.ones((1, 2)), epsilon=-1.0)),
    ("distribution_shapes", lambda: co.find_best_candidate_distribution(np.ones(3), np.ones((1, 2)))),
    ("index_shapes", lambda: co.find_best_candidate_index(np.ones(3), np.ones((2, 2)))),
    ("index_vector", lambda: co.find_best_candidate_index(np.ones(3), np.ones(3))),
))
with tf.Graph().as_default():
    report("num_constraints_shapes", [problem_with(tf.zeros([2, 3])).num_constraints,
                                      problem_with(tf.zeros([])).num_constraints,
                                      problem_with(tf.zeros([4, 1]), tf.zeros([4, 1])).num_constraints])

# candidates: a feasible problem (unique optimum 0.5 / 0.5), an infeasible one (bisection to the smallest
# violation, 0.25 at 0.5 / 0.5 / 0), and the rank heuristic
report("distribution_feasible", co.find_best_candidate_distribution(
    np.array([1.0, 2.0, 3.0]), np.array([[1.0, -1.0, -2.0]])))
report("distribution_bisected", co.find_best_candidate_distribution(
    np.array([3.0, 1.0, 2.0]), np.array([[1.0, -0.5, 0.6], [-0.5, 1.0, 0.6]]), epsilon=1e-3))
report("distribution_single", co.find_best_candidate_distribution(
    np.array([3.0, 1.0, 2.0]), np.array([[1.0, 2.0, 0.5], [0.2, 0.1, 0.3]]), epsilon=1e-2))
objectives = np.array([3.0, 1.0, 2.0, 1.0, 0.5])
constraints = np.array([[0.5, 0.2, -1.0, 0.2, 0.9], [-1.0, 0.3, -2.0, 0.3, -0.1]])
report("index", [co.find_best_candidate_index(objectives, constraints),
                 co.find_best_candidate_index(objectives, constraints, rank_objectives=True),
                 co.find_best_candidate_index(objectives, np.zeros((0, 5))),
                 co.find_best_candidate_index(objectives, -np.ones((2, 5)), rank_objectives=True)])

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    report("initial", sess.run(values))
    sess.run(train_all)
    report("step1", sess.run(values))
    for _ in range(3):
        sess.run(train_all)
    report("step4", sess.run(values))
'''


@requires_tf115
def test_constrained_optimization_matches_tf115():
  tf115, ours = run_both(SNIPPET, timeout=120)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)

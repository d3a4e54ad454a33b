"""`tf.contrib.opt.ExternalOptimizerInterface` and `ScipyOptimizerInterface`: minimize a graph's loss with an
optimizer that runs outside TensorFlow (scipy.optimize), evaluating the loss and its gradient by `session.run`.

Semantics (TF 1.15): the variables of `var_list` (default: the trainable ones) are packed into one float vector;
each evaluation feeds a candidate vector to the variables (`feed_dict={var: value}`) and fetches the loss and
the packed gradient (a variable the loss does not reach gets a zero gradient); equality and inequality
constraints (tensors that must be == 0 / >= 0) and per-variable bounds (`var_to_bounds={var: (low, high)}`,
broadcast to the variable's shape) reach scipy as its constraints and bounds; at the end the result is
assigned to the variables once. `minimize(session, feed_dict, fetches, step_callback, loss_callback)`:
`loss_callback(*fetches)` after each evaluation, `step_callback(x)` after each iteration. The default method
is L-BFGS-B; `method=` and scipy's other options pass through, but `jac`, `callback`, `constraints` and
`bounds` are set here (a ValueError says so). The result is logged at INFO as TF 1.15 did.
"""

import numpy as np
import tensorflow as tf


def _shape(var):
  return tuple(var.get_shape().as_list())


def _flat(tensors):
  if not tensors:
    return None
  if len(tensors) == 1:
    return tf.reshape(tensors[0], [-1])
  return tf.concat([tf.reshape(t, [-1]) for t in tensors], 0)


def _gradients(tensor, var_list):
  grads = tf.compat.v1.gradients(tensor, var_list)
  return [tf.zeros_like(v) if g is None else g for v, g in zip(var_list, grads)]


class ExternalOptimizerInterface(object):
  """Base class: packs the variables, builds the evaluation functions; subclasses implement `_minimize`."""

  def __init__(self, loss, var_list=None, equalities=None, inequalities=None, var_to_bounds=None,
               **optimizer_kwargs):
    self._loss = loss
    self._equalities = list(equalities or [])
    self._inequalities = list(inequalities or [])
    self._vars = list(tf.compat.v1.trainable_variables() if var_list is None else var_list)
    if not self._vars:
      raise ValueError("%s: var_list is empty (no trainable variables)" % type(self).__name__)
    self._packed_bounds = None
    if var_to_bounds is not None:
      bounds_by_ref = {v.ref(): b for v, b in var_to_bounds.items()}
      lows, highs = [], []
      for var in self._vars:
        low, high = bounds_by_ref.get(var.ref(), (-np.inf, np.inf))
        lows.extend(np.broadcast_to(low, _shape(var)).flat)
        highs.extend(np.broadcast_to(high, _shape(var)).flat)
      self._packed_bounds = list(zip(lows, highs))
    self._update_placeholders = [tf.compat.v1.placeholder(v.dtype) for v in self._vars]
    self._var_updates = [v.assign(tf.reshape(p, _shape(v)))
                         for v, p in zip(self._vars, self._update_placeholders)]
    self.optimizer_kwargs = optimizer_kwargs
    self._packed_var = _flat(self._vars)
    self._packed_loss_grad = _flat(_gradients(loss, self._vars))
    self._packed_equality_grads = [_flat(_gradients(e, self._vars)) for e in self._equalities]
    self._packed_inequality_grads = [_flat(_gradients(i, self._vars)) for i in self._inequalities]
    ends = np.cumsum([0] + [int(np.prod(_shape(v))) for v in self._vars])
    self._packing_slices = [slice(int(a), int(b)) for a, b in zip(ends[:-1], ends[1:])]

  def minimize(self, session=None, feed_dict=None, fetches=None, step_callback=None, loss_callback=None,
               **run_kwargs):
    """Runs the external optimizer from the variables' current values and assigns its result to them."""
    session = session or tf.compat.v1.get_default_session()
    if session is None:
      raise ValueError("%s.minimize: no session given and no default session" % type(self).__name__)
    feed_dict = feed_dict or {}
    fetches = list(fetches or [])
    loss_callback = loss_callback or (lambda *values: None)
    step_callback = step_callback or (lambda xk: None)
    make = lambda tensors, callback=None: self._make_eval_func(tensors, session, feed_dict, fetches, callback)
    result = self._minimize(
        initial_val=session.run(self._packed_var),
        loss_grad_func=make([self._loss, self._packed_loss_grad], loss_callback),
        equality_funcs=[make(t) for t in self._equalities],
        equality_grad_funcs=[make(t) for t in self._packed_equality_grads],
        inequality_funcs=[make(t) for t in self._inequalities],
        inequality_grad_funcs=[make(t) for t in self._packed_inequality_grads],
        packed_bounds=self._packed_bounds, step_callback=step_callback,
        optimizer_kwargs=self.optimizer_kwargs)
    values = [result[s] for s in self._packing_slices]
    session.run(self._var_updates, feed_dict=dict(zip(self._update_placeholders, values)), **run_kwargs)

  def _minimize(self, initial_val, loss_grad_func, equality_funcs, equality_grad_funcs, inequality_funcs,
                inequality_grad_funcs, packed_bounds, step_callback, optimizer_kwargs):
    """Returns the packed minimizer; each *_func maps a packed vector to [values...]."""
    raise NotImplementedError("To use ExternalOptimizerInterface, subclass from it and implement the "
                              "_minimize() method.")

  @classmethod
  def _pack(cls, tensors):
    return _flat(tensors)

  def _make_eval_func(self, tensors, session, feed_dict, fetches, callback=None):
    tensors = tensors if isinstance(tensors, list) else [tensors]
    count = len(tensors)

    def eval_func(x):
      feeds = {v: x[s].reshape(_shape(v)) for v, s in zip(self._vars, self._packing_slices)}
      feeds.update(feed_dict)
      values = session.run(tensors + fetches, feed_dict=feeds)
      if callable(callback):
        callback(*values[count:])
      return values[:count]

    return eval_func


class ScipyOptimizerInterface(ExternalOptimizerInterface):
  """`scipy.optimize.minimize` on the graph's loss (default method L-BFGS-B)."""

  _DEFAULT_METHOD = "L-BFGS-B"

  def _minimize(self, initial_val, loss_grad_func, equality_funcs, equality_grad_funcs, inequality_funcs,
                inequality_grad_funcs, packed_bounds, step_callback, optimizer_kwargs):
    import scipy.optimize  # pylint: disable=g-import-not-at-top

    def loss_and_gradient(x):
      loss, gradient = loss_grad_func(x)
      return np.float64(loss), gradient.astype("float64")

    def float64(func):
      # SciPy 1.1 (TF 1.15's) took float32 values; current SciPy's SLSQP requires float64.
      return lambda x: np.asarray(func(x), np.float64)

    options = dict(optimizer_kwargs)
    method = options.pop("method", self._DEFAULT_METHOD)
    constraints = ([{"type": "eq", "fun": float64(f), "jac": float64(g)}
                    for f, g in zip(equality_funcs, equality_grad_funcs)]
                   + [{"type": "ineq", "fun": float64(f), "jac": float64(g)}
                      for f, g in zip(inequality_funcs, inequality_grad_funcs)])
    fixed = {"jac": True, "callback": step_callback, "method": method, "constraints": constraints,
             "bounds": packed_bounds}
    for key in fixed:
      if key in options:
        if key == "bounds":
          raise ValueError("Bounds must be set using the var_to_bounds argument")
        raise ValueError("Optimizer keyword arg '{}' is set automatically and cannot be injected "
                         "manually".format(key))
    fixed.update(options)
    result = scipy.optimize.minimize(loss_and_gradient, np.asarray(initial_val, np.float64), **fixed)
    lines = ["Optimization terminated with:", "  Message: %s", "  Objective function value: %f"]
    args = [result.message, result.fun]
    for attribute, line in (("nit", "  Number of iterations: %d"),
                            ("nfev", "  Number of functions evaluations: %d")):
      if hasattr(result, attribute):
        lines.append(line)
        args.append(getattr(result, attribute))
    tf.compat.v1.logging.info("\n".join(lines), *args)
    return result["x"]

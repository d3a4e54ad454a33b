"""`tf.contrib.integrate`: `odeint` (adaptive Dormand-Prince) and `odeint_fixed` (midpoint / rk4), TF 1.15's code.

Mirrors TF 1.15's `tensorflow/contrib/integrate/python/ops/odes.py`.

`odeint(func, y0, t, ...)` solves dy/dt = func(y, t), y(t[0]) = y0 with 5th-order Runge-Kutta steps
(Dormand-Prince, Shampine 1986) under adaptive step size control and 4th-order dense output at the times `t`,
exactly as TF 1.15 does it (the same tableau, error ratio, step-size rule and `full_output` info dict:
`num_func_evals`, `integrate_points`, `error_ratio`). `odeint_fixed(func, y0, t, dt=None, method='rk4')` takes
a whole number of equal steps on each interval of `t`, with the 'midpoint' or 'rk4' scheme; it is
differentiable by TensorFlow's autodiff of its while loops. Built from tf.compat.v1 ops (graph-mode control flow
and TensorArrays), as TF 1.15 builds them.

References:
  Shampine, "Some Practical Runge-Kutta Formulas", Mathematics of Computation 46 (173): 135-150, 1986.
"""

import abc
import collections

import tensorflow as tf

_v1 = tf.compat.v1

_ButcherTableau = collections.namedtuple("_ButcherTableau", "alpha beta c_sol c_mid c_error")

# Parameters from Shampine (1986), section 4.
_DORMAND_PRINCE_TABLEAU = _ButcherTableau(
    alpha=[1 / 5, 3 / 10, 4 / 5, 8 / 9, 1., 1.],
    beta=[
        [1 / 5],
        [3 / 40, 9 / 40],
        [44 / 45, -56 / 15, 32 / 9],
        [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729],
        [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656],
        [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84],
    ],
    c_sol=[35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0],
    c_mid=[
        6025192743 / 30085553152 / 2, 0, 51252292925 / 65400821598 / 2,
        -2691868925 / 45128329728 / 2, 187940372067 / 1594534317056 / 2,
        -1776094331 / 19743644256 / 2, 11237099 / 235043384 / 2
    ],
    c_error=[
        1951 / 21600 - 35 / 384,
        0,
        22642 / 50085 - 500 / 1113,
        451 / 720 - 125 / 192,
        -12231 / 42400 - -2187 / 6784,
        649 / 6300 - 11 / 84,
        1 / 60,
    ],)

def _possibly_nonzero(x):
  return isinstance(x, tf.Tensor) or x != 0

def _scaled_dot_product(scale, xs, ys, name=None):
  """A scaled inner product of two lists of Tensors (the tableau's zeros skipped)."""
  with _v1.name_scope(name, "scaled_dot_product", [scale, xs, ys]) as scope:
    return tf.add_n([(scale * x) * y for x, y in zip(xs, ys) if _possibly_nonzero(x) and _possibly_nonzero(y)],
                    name=scope)

def _dot_product(xs, ys, name=None):
  """The inner product of two lists of Tensors."""
  with _v1.name_scope(name, "dot_product", [xs, ys]) as scope:
    return tf.add_n([x * y for x, y in zip(xs, ys)], name=scope)

def _runge_kutta_step(func, y0, f0, t0, dt, tableau=_DORMAND_PRINCE_TABLEAU, name=None):
  """One Runge-Kutta step from t0 to t0 + dt: `(y1, f1, y1_error, k)`."""
  with _v1.name_scope(name, "runge_kutta_step", [y0, f0, t0, dt]) as scope:
    y0 = _v1.convert_to_tensor(y0, name="y0")
    f0 = _v1.convert_to_tensor(f0, name="f0")
    t0 = _v1.convert_to_tensor(t0, name="t0")
    dt = _v1.convert_to_tensor(dt, name="dt")
    dt_cast = tf.cast(dt, y0.dtype)

    k = [f0]
    for alpha_i, beta_i in zip(tableau.alpha, tableau.beta):
      ti = t0 + alpha_i * dt
      yi = y0 + _scaled_dot_product(dt_cast, beta_i, k)
      k.append(func(yi, ti))

    if not (tableau.c_sol[-1] == 0 and tableau.c_sol[:-1] == tableau.beta[-1]):
      # This property (true for Dormand-Prince) lets us save a few FLOPs.
      yi = y0 + _scaled_dot_product(dt_cast, tableau.c_sol, k)

    y1 = tf.identity(yi, name="%s/y1" % scope)
    f1 = tf.identity(k[-1], name="%s/f1" % scope)
    y1_error = _scaled_dot_product(dt_cast, tableau.c_error, k, name="%s/y1_error" % scope)
    return (y1, f1, y1_error, k)

def _interp_fit(y0, y1, y_mid, f0, f1, dt):
  """Coefficients [a, b, c, d, e] of the quartic through y0, y_mid, y1 with slopes f0, f1 (x in [0, 1])."""
  a = _dot_product([-2 * dt, 2 * dt, -8, -8, 16], [f0, f1, y0, y1, y_mid])
  b = _dot_product([5 * dt, -3 * dt, 18, 14, -32], [f0, f1, y0, y1, y_mid])
  c = _dot_product([-4 * dt, dt, -11, -5, 16], [f0, f1, y0, y1, y_mid])
  d = dt * f0
  e = y0
  return [a, b, c, d, e]

def _interp_fit_rk(y0, y1, k, dt, tableau=_DORMAND_PRINCE_TABLEAU):
  """Fits an interpolating polynomial to the results of a Runge-Kutta step."""
  with _v1.name_scope("interp_fit_rk"):
    dt = tf.cast(dt, y0.dtype)
    y_mid = y0 + _scaled_dot_product(dt, tableau.c_mid, k)
    f0 = k[0]
    f1 = k[-1]
    return _interp_fit(y0, y1, y_mid, f0, f1, dt)

def _interp_evaluate(coefficients, t0, t1, t):
  """The interpolating polynomial of `coefficients` on [t0, t1] at time t."""
  with _v1.name_scope("interp_evaluate"):
    t0 = _v1.convert_to_tensor(t0)
    t1 = _v1.convert_to_tensor(t1)
    t = _v1.convert_to_tensor(t)

    dtype = coefficients[0].dtype

    assert_op = _v1.Assert((t0 <= t) & (t <= t1), ["invalid interpolation, fails `t0 <= t <= t1`:", t0, t, t1])
    with _v1.control_dependencies([assert_op]):
      x = tf.cast((t - t0) / (t1 - t0), dtype)

    xs = [tf.constant(1, dtype), x]
    for _ in range(2, len(coefficients)):
      xs.append(xs[-1] * x)

    return _dot_product(coefficients, reversed(xs))

def _optimal_step_size(last_step, error_ratio, safety=0.9, ifactor=10.0, dfactor=0.2, order=5, name=None):
  """The size of the next Runge-Kutta step."""
  with _v1.name_scope(name, "optimal_step_size", [last_step, error_ratio]) as scope:
    error_ratio = tf.cast(error_ratio, last_step.dtype)
    exponent = tf.cast(1 / order, last_step.dtype)
    # Keeps error_ratio in the numerator so that nothing divides by zero.
    factor = tf.maximum(1 / ifactor, tf.minimum(error_ratio**exponent / safety, 1 / dfactor))
    return _v1.div(last_step, factor, name=scope)

def _abs_square(x):
  if x.dtype.is_complex:
    return tf.square(tf.math.real(x)) + tf.square(tf.math.imag(x))
  return tf.square(x)

def _ta_append(tensor_array, value):
  """Appends a value to the end of a tf.TensorArray."""
  return tensor_array.write(tensor_array.size(), value)

class _RungeKuttaState(collections.namedtuple("_RungeKuttaState", "y1, f1, t0, t1, dt, interp_coeff")):
  """The solver's state: y and its derivative at t1, the last step [t0, t1], the next step size, interpolant."""

class _History(collections.namedtuple("_History", "integrate_points, error_ratio")):
  """TensorArrays of each step's end time and error ratio (for `full_output`)."""

def _assert_increasing(t):
  assert_increasing = _v1.Assert(tf.reduce_all(t[1:] > t[:-1]), ["`t` must be monotonic increasing"])
  return _v1.control_dependencies([assert_increasing])

def _check_input_types(y0, t, dt=None):
  if not (y0.dtype.is_floating or y0.dtype.is_complex):
    raise TypeError("`y0` must have a floating point or complex floating point dtype")
  if not t.dtype.is_floating:
    raise TypeError("`t` must have a floating point dtype")

  if dt is not None and not dt.dtype.is_floating:
    raise TypeError("`dt` must have a floating point dtype")

def _check_input_sizes(t, dt):
  if len(t.get_shape().as_list()) > 1:
    raise ValueError("t must be a 1D tensor")

  if len(dt.get_shape().as_list()) > 1:
    raise ValueError("t must be a 1D tensor")

  t_size = tf.compat.dimension_value(t.get_shape()[0])
  dt_size = tf.compat.dimension_value(dt.get_shape()[0])
  if t_size is not None and dt_size is not None and t_size != dt_size + 1:
    raise ValueError("t and dt have incompatible lengths, must be N and N-1")

def _dopri5(func, y0, t, rtol, atol, full_output=False, first_step=None, safety=0.9, ifactor=10.0, dfactor=0.2,
            max_num_steps=1000, name=None):
  """Solves an ODE for `odeint` with method='dopri5'."""
  if first_step is None:
    first_step = 1.0

  with _v1.name_scope(name, "dopri5", [y0, t, rtol, atol, safety, ifactor, dfactor, max_num_steps]) as scope:
    first_step = _v1.convert_to_tensor(first_step, dtype=t.dtype, name="first_step")
    safety = _v1.convert_to_tensor(safety, dtype=t.dtype, name="safety")
    ifactor = _v1.convert_to_tensor(ifactor, dtype=t.dtype, name="ifactor")
    dfactor = _v1.convert_to_tensor(dfactor, dtype=t.dtype, name="dfactor")
    max_num_steps = _v1.convert_to_tensor(max_num_steps, dtype=tf.int32, name="max_num_steps")

    def adaptive_runge_kutta_step(rk_state, history, n_steps):
      """Takes an adaptive Runge-Kutta step."""
      y0, f0, _, t0, dt, interp_coeff = rk_state
      with _v1.name_scope("assertions"):
        check_underflow = _v1.Assert(t0 + dt > t0, ["underflow in dt", dt])
        check_max_num_steps = _v1.Assert(n_steps < max_num_steps, ["max_num_steps exceeded"])
        check_numerics = _v1.Assert(tf.reduce_all(tf.math.is_finite(abs(y0))),
                                    ["non-finite values in state `y`", y0])
      with _v1.control_dependencies([check_underflow, check_max_num_steps, check_numerics]):
        y1, f1, y1_error, k = _runge_kutta_step(func, y0, f0, t0, dt)

      with _v1.name_scope("error_ratio"):
        # The same approach as the dopri5 Fortran code.
        error_tol = atol + rtol * tf.maximum(abs(y0), abs(y1))
        tensor_error_ratio = _abs_square(y1_error) / _abs_square(error_tol)
        error_ratio = tf.sqrt(tf.reduce_mean(tensor_error_ratio))
        accept_step = error_ratio <= 1

      with _v1.name_scope("update/rk_state"):
        # A rejected step leaves a state covering an empty interval; another step always follows it.
        y_next = _v1.cond(accept_step, lambda: y1, lambda: y0)
        f_next = _v1.cond(accept_step, lambda: f1, lambda: f0)
        t_next = _v1.cond(accept_step, lambda: t0 + dt, lambda: t0)
        interp_coeff = _v1.cond(accept_step, lambda: _interp_fit_rk(y0, y1, k, dt), lambda: interp_coeff)
        dt_next = _optimal_step_size(dt, error_ratio, safety, ifactor, dfactor)
        rk_state = _RungeKuttaState(y_next, f_next, t0, t_next, dt_next, interp_coeff)

      with _v1.name_scope("update/history"):
        history = _History(_ta_append(history.integrate_points, t0 + dt),
                           _ta_append(history.error_ratio, error_ratio))
      return rk_state, history, n_steps + 1

    def interpolate(solution, history, rk_state, i):
      """Interpolates through the next time point, integrating as necessary."""
      with _v1.name_scope("interpolate"):
        rk_state, history, _ = _v1.while_loop(lambda rk_state, *_: t[i] > rk_state.t1, adaptive_runge_kutta_step,
                                              (rk_state, history, 0), name="integrate_loop")
        y = _interp_evaluate(rk_state.interp_coeff, rk_state.t0, rk_state.t1, t[i])
        solution = solution.write(i, y)
        return solution, history, rk_state, i + 1

    with _assert_increasing(t):
      num_times = tf.size(t)

    solution = _v1.TensorArray(y0.dtype, size=num_times).write(0, y0)
    history = _History(integrate_points=_v1.TensorArray(t.dtype, size=0, dynamic_size=True),
                       error_ratio=_v1.TensorArray(rtol.dtype, size=0, dynamic_size=True))
    rk_state = _RungeKuttaState(y0, func(y0, t[0]), t[0], t[0], first_step, interp_coeff=[y0] * 5)

    solution, history, _, _ = _v1.while_loop(lambda _, __, ___, i: i < num_times, interpolate,
                                             (solution, history, rk_state, 1), name="interpolate_loop")

    y = solution.stack(name=scope)
    y.set_shape(t.get_shape().concatenate(y0.get_shape()))
    if not full_output:
      return y
    integrate_points = history.integrate_points.stack()
    info_dict = {
        "num_func_evals": 6 * tf.size(integrate_points) + 1,
        "integrate_points": integrate_points,
        "error_ratio": history.error_ratio.stack()
    }
    return (y, info_dict)

def odeint(func, y0, t, rtol=1e-6, atol=1e-12, method=None, options=None, full_output=False, name=None):
  """Integrates dy/dt = func(y, t), y(t[0]) = y0 at the times `t` (adaptive Dormand-Prince, 'dopri5').

  Args:
    func: maps the state Tensor `y` and a scalar Tensor `t` to dy/dt.
    y0: N-D Tensor, the state at t[0]; a floating point or complex dtype.
    t: 1-D increasing Tensor of times (float64 if not a Tensor).
    rtol: relative error bound per element of y.
    atol: absolute error bound per element of y.
    method: None or 'dopri5'.
    options: dict for 'dopri5' (first_step, safety, ifactor, dfactor, max_num_steps); needs `method`.
    full_output: if True, also returns a dict with num_func_evals, integrate_points and error_ratio.
    name: name scope (default "odeint").

  Returns:
    y [len(t), *y0.shape], or (y, info_dict) if full_output.

  Raises:
    ValueError: an unknown `method`, or `options` without `method`.
    TypeError: a non-floating `y0` or `t`.
  """
  if method is not None and method != "dopri5":
    raise ValueError("invalid method: %r" % method)

  if options is None:
    options = {}
  elif method is None:
    raise ValueError("cannot supply `options` without specifying `method`")

  with _v1.name_scope(name, "odeint", [y0, t, rtol, atol]) as scope:
    y0 = _v1.convert_to_tensor(y0, name="y0")
    t = _v1.convert_to_tensor(t, preferred_dtype=tf.float64, name="t")
    _check_input_types(y0, t)

    error_dtype = abs(y0).dtype
    rtol = _v1.convert_to_tensor(rtol, dtype=error_dtype, name="rtol")
    atol = _v1.convert_to_tensor(atol, dtype=error_dtype, name="atol")

    return _dopri5(func, y0, t, rtol=rtol, atol=atol, full_output=full_output, name=scope, **options)

class _FixedGridIntegrator(metaclass=abc.ABCMeta):
  """Base class for fixed-grid ODE integrators."""

  def integrate(self, evol_func, y0, time_grid, dt_grid, steps_on_intervals):
    """The solution at `time_grid`, with steps_on_intervals[i] steps of dt_grid[i] on interval i."""
    iteration_func = self._make_iteration_func(evol_func, dt_grid)
    integrate_interval = self._make_interval_integrator(iteration_func, steps_on_intervals)

    num_times = tf.size(time_grid)
    current_time = time_grid[0]
    solution_array = _v1.TensorArray(y0.dtype, num_times)
    solution_array = solution_array.write(0, y0)

    solution_array, _, _, _ = _v1.while_loop(lambda _, __, ___, i: i < num_times, integrate_interval,
                                             (solution_array, y0, current_time, 1))
    solution_array = solution_array.stack()
    solution_array.set_shape(time_grid.get_shape().concatenate(y0.get_shape()))
    return solution_array

  def _make_iteration_func(self, evol_func, dt_grid):
    """A function that builds one time step."""

    def iteration_func(y, t, dt_step, interval_step):
      dt = dt_grid[interval_step - 1]
      dy = self._step_func(evol_func, t, dt, y)
      dy = tf.cast(dy, dtype=y.dtype)
      return y + dy, t + dt, dt_step + 1, interval_step

    return iteration_func

  def _make_interval_integrator(self, iteration_func, interval_sizes):
    """A function that builds the integration over one interval."""

    def integrate_interval(solution_array, y, t, interval_num):
      y, t, _, _ = _v1.while_loop(lambda _, __, j, interval_num: j < interval_sizes[interval_num - 1],
                                  iteration_func, (y, t, 0, interval_num))
      return solution_array.write(interval_num, y), y, t, interval_num + 1

    return integrate_interval

  @abc.abstractmethod
  def _step_func(self, evol_func, t, dt, y):
    pass

class _MidpointFixedGridIntegrator(_FixedGridIntegrator):
  """The midpoint scheme."""

  def _step_func(self, evol_func, t, dt, y):
    dt_cast = tf.cast(dt, y.dtype)
    # yn1 = yn + h * f(tn + h/2, yn + f(tn, yn) * h/2)
    return dt_cast * evol_func(y + evol_func(y, t) * dt_cast / 2, t + dt / 2)

class _RK4FixedGridIntegrator(_FixedGridIntegrator):
  """The classical 4th-order Runge-Kutta scheme."""

  def _step_func(self, evol_func, t, dt, y):
    k1 = evol_func(y, t)
    half_step = t + dt / 2
    dt_cast = tf.cast(dt, y.dtype)

    k2 = evol_func(y + dt_cast * k1 / 2, half_step)
    k3 = evol_func(y + dt_cast * k2 / 2, half_step)
    k4 = evol_func(y + dt_cast * k3, t + dt)
    return tf.add_n([k1, 2 * k2, 2 * k3, k4]) * (dt_cast / 6)

def odeint_fixed(func, y0, t, dt=None, method="rk4", name=None):
  """Integrates dy/dt = func(y, t) on a fixed grid: ceil(interval / dt) equal steps on each interval of `t`.

  Args:
    func: maps the state Tensor `y` and a scalar Tensor `t` to dy/dt.
    y0: N-D Tensor, the state at t[0].
    t: 1-D increasing Tensor of times (float64 if not a Tensor).
    dt: None (one step per interval), a scalar step suggestion, or one per interval (len(t) - 1).
    method: 'midpoint' or 'rk4'.
    name: name scope (default "odeint_fixed").

  Returns:
    y [len(t), *y0.shape].

  Raises:
    ValueError: an unknown `method`, or `t` / `dt` of the wrong rank or length.
    TypeError: a non-floating `y0`, `t` or `dt`.
  """
  with _v1.name_scope(name, "odeint_fixed", [y0, t, dt]):
    t = _v1.convert_to_tensor(t, preferred_dtype=tf.float64, name="t")
    y0 = _v1.convert_to_tensor(y0, name="y0")

    intervals = t[1:] - t[:-1]
    if dt is None:
      dt = intervals
    dt = _v1.convert_to_tensor(dt, preferred_dtype=tf.float64, name="dt")

    steps_on_intervals = tf.math.ceil(intervals / dt)
    dt = intervals / steps_on_intervals
    steps_on_intervals = tf.cast(steps_on_intervals, dtype=tf.int32)

    _check_input_types(y0, t, dt)
    _check_input_sizes(t, dt)

    with _assert_increasing(t):
      with _v1.name_scope(method):
        if method == "midpoint":
          return _MidpointFixedGridIntegrator().integrate(func, y0, t, dt, steps_on_intervals)
        elif method == "rk4":
          return _RK4FixedGridIntegrator().integrate(func, y0, t, dt, steps_on_intervals)
        else:
          raise ValueError("method not supported: {!s}".format(method))


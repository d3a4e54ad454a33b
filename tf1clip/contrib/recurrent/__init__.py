"""`tf.contrib.recurrent`: TF 1.15's functional recurrent loop (`Recurrent`) and the RNNs built on it.

`Recurrent(theta, state0, inputs, cell_fn)` runs `state = cell_fn(theta, state, inputs[t])` over the time
(first) axis of `inputs` and returns every step's state stacked on a new first axis (zeros at the steps not run)
and the last state. `functional_rnn` / `bidirectional_functional_rnn` are `dynamic_rnn` /
`bidirectional_dynamic_rnn` on that loop, with TF 1.15's variable scopes ("rnn", "bidirectional_rnn/fw|bw"),
outputs zeroed past each sequence's length, and the final state taken at each sequence's last step.

TF 1.15 wrapped the loop in `Defun`s with a hand-written backward loop; here the loop is a `tf.while_loop`, so
TensorFlow differentiates it (the same gradient as TF 1.15's default `cell_grad`). A user's own `cell_grad` is
honoured through `tf.custom_gradient`: the backward loop calls it step by step from the last step to the first.
A stated difference: TF 1.15's backward loop fed the first step of an end-aligned loop (`aligned_end=True` with
`max_input_length` shorter than the inputs) a zero state instead of `state0`, so its gradient there was wrong;
tf1clip differentiates with `state0`.
"""

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog

nest = tf.nest


def _index(struct, t):
  return nest.map_structure(lambda x: tf.gather(x, t), struct)


def _zeros_or(xs, dxs):
  """`dxs` with each None replaced by zeros like the matching `xs` (TF 1.15's _ConvertNoneGradientToZeros)."""
  return [tf.zeros_like(x) if dx is None else dx for x, dx in zip(xs, dxs)]


def _is_single_step(inputs, max_input_length):
  """TF 1.15's test: a Python length of 1, or a Tensor length with every input's static time axis 1."""
  if not isinstance(max_input_length, tf.Tensor):
    return max_input_length == 1
  return all(x.shape.rank is not None and x.shape[0] == 1 for x in nest.flatten(inputs))


def _scatter(acc, t, value):
  return tf.tensor_scatter_nd_update(acc, tf.reshape(tf.cast(t, tf.int32), [1, 1]), tf.expand_dims(value, 0))


def _forward(theta, state0, inputs, cell_fn, start, limit, extras):
  """The loop from `start` to `limit`: (acc_state, last_state, acc_extras) as flat lists."""
  slen = tf.shape(nest.flatten(inputs)[0])[0]

  def empty(x):
    return tf.zeros(tf.concat([[slen], tf.shape(x)], 0), x.dtype)

  flat_state = nest.flatten(state0)
  acc_state = [empty(x) for x in flat_state]
  acc_extras = [empty(x) for x in nest.flatten(extras)]

  def body(t, state, acc, acc_x):
    state1, extras_t = cell_fn(theta, nest.pack_sequence_as(state0, state), _index(inputs, t))
    state1 = nest.flatten(state1)
    acc = [_scatter(a, t, x) for a, x in zip(acc, state1)]
    acc_x = [_scatter(a, t, x) for a, x in zip(acc_x, nest.flatten(extras_t))]
    return t + 1, state1, acc, acc_x

  _, last, acc_state, acc_extras = tf.while_loop(
      lambda t, *_: t < limit, body, [tf.cast(start, tf.int32), flat_state, acc_state, acc_extras])
  return acc_state, last, acc_extras


def _with_cell_grad(theta, state0, inputs, cell_fn, cell_grad, start, limit, extras):
  """The loop with the user's `cell_grad` as its gradient (TF 1.15's _Recurrent.Grad)."""
  n_theta, n_state, n_inputs = (len(nest.flatten(s)) for s in (theta, state0, inputs))

  @tf.custom_gradient
  def loop(*flat):
    theta_, state0_, inputs_ = (nest.pack_sequence_as(s, v) for s, v in zip(
        (theta, state0, inputs), (flat[:n_theta], flat[n_theta:n_theta + n_state], flat[n_theta + n_state:])))
    acc_state, last, acc_extras = _forward(theta_, state0_, inputs_, cell_fn, start, limit, extras)

    def grad(*dys):
      d_acc, d_last = list(dys[:n_state]), list(dys[n_state:2 * n_state])
      d_acc = _zeros_or(acc_state, d_acc)
      d_last = _zeros_or(last, d_last)
      flat_theta, flat_inputs = nest.flatten(theta_), nest.flatten(inputs_)

      def body(t, d_theta, d_state1, d_inputs):
        state_prev = [tf.cond(t > start, lambda a=a: tf.gather(a, tf.maximum(t - 1, 0)), lambda s=s: s)
                      for a, s in zip(acc_state, nest.flatten(state0_))]
        d_state1 = [d + tf.gather(a, t) for d, a in zip(d_state1, d_acc)]
        d_theta_t, d_state0, d_inputs_t = cell_grad(
            theta_, nest.pack_sequence_as(state0, state_prev), _index(inputs_, t),
            nest.pack_sequence_as(extras, [tf.gather(a, t) for a in acc_extras]),
            nest.pack_sequence_as(state0, d_state1))
        d_theta = [a + b for a, b in zip(d_theta, _zeros_or(flat_theta, nest.flatten(d_theta_t)))]
        d_inputs = [_scatter(a, t, b) for a, b in zip(d_inputs, _zeros_or(
            [tf.gather(x, t) for x in flat_inputs], nest.flatten(d_inputs_t)))]
        return t - 1, d_theta, _zeros_or(state_prev, nest.flatten(d_state0)), d_inputs

      _, d_theta, d_state0, d_inputs = tf.while_loop(
          lambda t, *_: t >= start, body,
          [tf.cast(limit, tf.int32) - 1, [tf.zeros_like(x) for x in flat_theta], d_last,
           [tf.zeros_like(x) for x in flat_inputs]])
      return d_theta + d_state0 + d_inputs

    return acc_state + last, grad

  out = loop(*(nest.flatten(theta) + nest.flatten(state0) + nest.flatten(inputs)))
  return out[:n_state], out[n_state:]


def Recurrent(theta, state0, inputs, cell_fn, cell_grad=None, extras=None, max_input_length=None,  # pylint: disable=invalid-name
              use_tpu=False, aligned_end=False):
  """Runs `state1, extras = cell_fn(theta, state0, inputs[t])` over time: (accumulated states, final state).

  Args:
    theta: the weights, a structure of tensors passed to every step.
    state0: the initial state, a structure of tensors.
    inputs: a structure of tensors whose first axis is time.
    cell_fn: `(theta, state0, inputs_t) -> (state1, extras)`, one step.
    cell_grad: optional `(theta, state0, inputs_t, extras, dstate1) -> (dtheta, dstate0, dinputs_t)`; the
      default differentiates `cell_fn`.
    extras: optional structure like the `extras` cell_fn returns.
    max_input_length: how many steps to run (a scalar); default: the whole time axis.
    use_tpu: accepted for TF 1.15's signature (the loop is the same on every device).
    aligned_end: run the last `max_input_length` steps instead of the first.

  Returns:
    (accumulated state: each state tensor with a leading time axis, zeros where no step ran; final state).
  """
  del use_tpu
  if cell_grad is None and _is_single_step(inputs, max_input_length):
    state1, _ = cell_fn(theta, state0, nest.map_structure(lambda x: tf.squeeze(x, axis=0), inputs))
    return nest.map_structure(lambda x: tf.expand_dims(x, axis=0), state1), state1
  # TF 1.15 ran the cell once outside the loop to learn the structure of its extras.
  _, actual_extras = cell_fn(theta, state0, _index(inputs, 0))
  if extras is None:
    extras = nest.map_structure(tf.zeros_like, actual_extras)
  slen = tf.shape(nest.flatten(inputs)[0])[0]
  if max_input_length is None:
    max_input_length = slen
  max_input_length = tf.cast(max_input_length, tf.int32)
  start = slen - max_input_length if aligned_end else 0
  limit = slen if aligned_end else max_input_length
  if cell_grad is None:
    acc_state, last, _ = _forward(theta, state0, inputs, cell_fn, start, limit, extras)
  else:
    acc_state, last = _with_cell_grad(theta, state0, inputs, cell_fn, cell_grad, start, limit, extras)
  for acc, template in zip(acc_state, nest.flatten(state0)):
    acc.set_shape(tf.TensorShape([None]).concatenate(template.shape))
  for x, template in zip(last, nest.flatten(state0)):
    x.set_shape(template.shape)
  return nest.pack_sequence_as(state0, acc_state), nest.pack_sequence_as(state0, last)


def _mask_past_lengths(sequence_length, output):
  """Zeros a [batch, time, depth] output past each sequence's length."""
  keep = tf.sequence_mask(sequence_length, tf.shape(output)[1], dtype=output.dtype)
  return output * tf.expand_dims(keep, -1)


def _state_at_lengths(acc_state, sequence_length):
  """Each sequence's state at its last step (zeros for an empty one) from [time, batch, ...] histories."""
  def pick(history):
    last = tf.one_hot(sequence_length - 1, tf.shape(history)[0], dtype=history.dtype, axis=0)  # [time, batch]
    last = tf.reshape(last, tf.concat([tf.shape(last), tf.ones([tf.rank(history) - 2], tf.int32)], 0))
    return tf.reduce_sum(last * history, 0)
  return nest.map_structure(pick, acc_state)


def functional_rnn(cell, inputs, sequence_length=None, initial_state=None, dtype=None, time_major=False,
                   scope=None, use_tpu=False, reverse=False):
  """`dynamic_rnn` on `Recurrent`: (outputs [batch, time, output_size] or time-major, final state)."""
  with tf.compat.v1.variable_scope(scope or "rnn"):
    if not time_major:
      inputs = nest.map_structure(lambda t: tf.transpose(t, [1, 0, 2]), inputs)
    inputs_flat = nest.flatten(inputs)
    batch_size = tf.shape(inputs_flat[0])[1]
    if initial_state is None:
      initial_state = cell.zero_state(batch_size, dtype)
    # The first call creates the cell's variables under this scope (TF 1.15 traced its step function here).
    first_output, _ = cell(_index(inputs, 0), initial_state)
  output_shape = first_output.shape

  def cell_fn(theta, extended_state, inputs_t):
    del theta
    output, state1 = cell(inputs_t, extended_state[1])
    return (output, state1), []

  max_length = None if sequence_length is None else tf.reduce_max(sequence_length)
  if reverse:
    inputs = tf.reverse(inputs, [0])
  extended_state0 = (tf.zeros(tf.shape(first_output), first_output.dtype), initial_state)
  (acc_output, acc_state), (_, final_state) = Recurrent(
      theta=[], state0=extended_state0, inputs=inputs, cell_fn=cell_fn, max_input_length=max_length,
      use_tpu=use_tpu, aligned_end=reverse)
  if sequence_length is not None and not reverse:
    final_state = _state_at_lengths(acc_state, sequence_length)
  if reverse:
    acc_output = tf.reverse(acc_output, [0])
  output = tf.transpose(acc_output, [1, 0, 2])
  output.set_shape([output_shape[0], inputs_flat[0].shape[0], output_shape[1]])
  if sequence_length is not None:
    output = _mask_past_lengths(sequence_length, output)
  for x, template in zip(nest.flatten(final_state), nest.flatten(initial_state)):
    x.set_shape(template.shape)
  if time_major:
    output = tf.transpose(output, [1, 0, 2])
  return output, final_state


def bidirectional_functional_rnn(cell_fw, cell_bw, inputs, initial_state_fw=None, initial_state_bw=None,
                                 dtype=None, sequence_length=None, time_major=False, use_tpu=False,
                                 fast_reverse=False, scope=None):
  """`bidirectional_dynamic_rnn` on `functional_rnn`: ((output_fw, output_bw), (state_fw, state_bw))."""
  time_dim, batch_dim = (0, 1) if time_major else (1, 0)

  def _reverse(x):
    if sequence_length is not None:
      return tf.reverse_sequence(x, sequence_length, seq_axis=time_dim, batch_axis=batch_dim)
    assert not use_tpu, "Bidirectional with variable sequence lengths unsupported on TPU"
    return tf.reverse(x, axis=[time_dim])

  with tf.compat.v1.variable_scope(scope or "bidirectional_rnn"):
    with tf.compat.v1.variable_scope("fw") as fw_scope:
      output_fw, state_fw = functional_rnn(cell_fw, inputs, sequence_length=sequence_length,
                                           initial_state=initial_state_fw, dtype=dtype, time_major=time_major,
                                           scope=fw_scope, use_tpu=use_tpu)
    with tf.compat.v1.variable_scope("bw") as bw_scope:
      if not fast_reverse:
        inputs = _reverse(inputs)
      output_bw, state_bw = functional_rnn(cell_bw, inputs, sequence_length=sequence_length,
                                           initial_state=initial_state_bw, dtype=dtype, time_major=time_major,
                                           scope=bw_scope, use_tpu=use_tpu, reverse=fast_reverse)
  if not fast_reverse:
    output_bw = _reverse(output_bw)
  return (output_fw, output_bw), (state_fw, state_bw)


__getattr__ = _catalog.module_getattr(__name__)

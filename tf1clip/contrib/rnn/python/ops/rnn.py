"""`tf.contrib.rnn.stack_bidirectional_rnn` / `stack_bidirectional_dynamic_rnn`: layers of bidirectional RNNs.

Layer i runs in scope `stack_bidirectional_rnn/cell_<i>` (TF 1.15's), so variables are named
`stack_bidirectional_rnn/cell_0/bidirectional_rnn/fw/lstm_cell/kernel` (dynamic) and
`stack_bidirectional_rnn/cell_0/fw/lstm_cell/kernel` (static); each layer's input is the previous layer's forward
and backward outputs concatenated.
"""

import tensorflow as tf

V1 = tf.compat.v1


def _check_cells(cells_fw, cells_bw, initial_states_fw, initial_states_bw):
  if not cells_fw or not cells_bw:
    raise ValueError("stack_bidirectional_rnn needs at least one forward and one backward cell; got "
                     "cells_fw=%r, cells_bw=%r" % (cells_fw, cells_bw))
  for name, cells in (("cells_fw", cells_fw), ("cells_bw", cells_bw)):
    if not isinstance(cells, list):
      raise ValueError("%s must be a list of RNNCells (one per layer); got %r" % (name, cells))
  if len(cells_fw) != len(cells_bw):
    raise ValueError("cells_fw and cells_bw must have the same depth; got %d and %d"
                     % (len(cells_fw), len(cells_bw)))
  for name, states in (("initial_states_fw", initial_states_fw),
                       ("initial_states_bw", initial_states_bw)):
    if states is not None and (not isinstance(states, list) or len(states) != len(cells_fw)):
      raise ValueError("%s must be a list of initial states, one per layer (%d); got %r"
                       % (name, len(cells_fw), states))


def stack_bidirectional_rnn(cells_fw, cells_bw, inputs, initial_states_fw=None,
                            initial_states_bw=None, dtype=None, sequence_length=None, scope=None):
  """Stacks static bidirectional RNN layers.

  Args:
    cells_fw, cells_bw: lists of RNNCells, one per layer, for each direction.
    inputs: a length-T list of [batch, depth] Tensors.
    initial_states_fw, initial_states_bw: optional lists of initial states, one per layer.
    dtype: the initial states' dtype when they are not given.
    sequence_length: optional [batch] int32/int64 lengths.
    scope: variable scope (default "stack_bidirectional_rnn").

  Returns:
    (outputs, states_fw, states_bw): a length-T list of [batch, fw + bw] outputs of the last layer,
    and tuples of each layer's final forward / backward state.

  Raises:
    ValueError: empty, non-list or unequal cell lists, or initial states not one per layer.

  References:
    Graves, Mohamed, Hinton, "Speech Recognition with Deep Recurrent Neural Networks", 2013
    (arXiv:1303.5778).
  """
  _check_cells(cells_fw, cells_bw, initial_states_fw, initial_states_bw)
  states_fw, states_bw = [], []
  prev_layer = inputs
  with V1.variable_scope(scope or "stack_bidirectional_rnn"):
    for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw)):
      with V1.variable_scope("cell_%d" % i) as cell_scope:
        prev_layer, state_fw, state_bw = V1.nn.static_bidirectional_rnn(
            cell_fw, cell_bw, prev_layer,
            initial_state_fw=initial_states_fw[i] if initial_states_fw else None,
            initial_state_bw=initial_states_bw[i] if initial_states_bw else None,
            sequence_length=sequence_length, dtype=dtype, scope=cell_scope)
      states_fw.append(state_fw)
      states_bw.append(state_bw)
  return prev_layer, tuple(states_fw), tuple(states_bw)


def stack_bidirectional_dynamic_rnn(cells_fw, cells_bw, inputs, initial_states_fw=None,
                                    initial_states_bw=None, dtype=None, sequence_length=None,
                                    parallel_iterations=None, time_major=False, scope=None,
                                    swap_memory=False):
  """Stacks dynamic bidirectional RNN layers.

  Args:
    cells_fw, cells_bw: lists of RNNCells, one per layer, for each direction.
    inputs: a [batch, time, depth] Tensor ([time, batch, depth] with time_major).
    initial_states_fw, initial_states_bw: optional lists of initial states, one per layer.
    dtype: the initial states' dtype when they are not given.
    sequence_length: optional [batch] int32/int64 lengths.
    parallel_iterations: passed to bidirectional_dynamic_rnn (default 32).
    time_major: inputs and outputs are time-major.
    scope: variable scope (default "stack_bidirectional_rnn").
    swap_memory: passed to bidirectional_dynamic_rnn.

  Returns:
    (outputs, states_fw, states_bw): the last layer's [batch, time, fw + bw] outputs and tuples of
    each layer's final forward / backward state.

  Raises:
    ValueError: empty, non-list or unequal cell lists, or initial states not one per layer.
  """
  _check_cells(cells_fw, cells_bw, initial_states_fw, initial_states_bw)
  states_fw, states_bw = [], []
  prev_layer = inputs
  with V1.variable_scope(scope or "stack_bidirectional_rnn"):
    for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw)):
      with V1.variable_scope("cell_%d" % i):
        outputs, (state_fw, state_bw) = V1.nn.bidirectional_dynamic_rnn(
            cell_fw, cell_bw, prev_layer,
            initial_state_fw=initial_states_fw[i] if initial_states_fw else None,
            initial_state_bw=initial_states_bw[i] if initial_states_bw else None,
            sequence_length=sequence_length, parallel_iterations=parallel_iterations, dtype=dtype,
            swap_memory=swap_memory, time_major=time_major)
        prev_layer = tf.concat(outputs, 2)
      states_fw.append(state_fw)
      states_bw.append(state_bw)
  return prev_layer, tuple(states_fw), tuple(states_bw)

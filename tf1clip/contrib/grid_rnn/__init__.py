"""`tf.contrib.grid_rnn`: Grid LSTMs (Kalchbrenner, Danihelka, Graves, 2015), TF 1.15's cells and variables.

A GridRNNCell runs one inner cell per dimension of an N-dimensional grid. In a step, every dimension's cell reads
the outputs of the other dimensions (concatenated) as its input and its own previous output as its state;
"priority" dimensions are computed after the others and see their new outputs; "non-recurrent" dimensions are a
fully connected layer instead of a cell; "input" dimensions get the step's input projected into their previous
c and m; "output" dimensions make the cell's output. TF 1.15's variables, so its checkpoints restore:

  <cell class name>/project_m_<d>, project_c_<d>       the input projections (input dimensions)
  <cell class name>/recurrent/cell_<d>/<inner cell's>  each dimension's cell ("recurrent/..." when tied)
  <cell class name>/non_recurrent/cell_<d>/fully_connected/{weights,biases}

The variable scope is the cell's class name (`Grid2LSTMCell`), not a layer name, as in TF 1.15: the cell's
`__call__` opens it itself. The module also exposes the `layers`, `rnn` and `namedtuple` names TF 1.15's leaked
from its imports; they are the same objects as tf.contrib.layers, tf.contrib.rnn and collections.namedtuple.
"""

import collections
import functools
from collections import namedtuple  # TF 1.15's module leaked this name; served as the same object

import tensorflow as tf
from absl import logging
from tf_keras.src.layers.rnn import legacy_cells

import tf1clip.contrib.layers as layers  # leaked by TF 1.15's module too (tf.contrib.grid_rnn.layers)
import tf1clip.contrib.rnn as rnn  # likewise (tf.contrib.grid_rnn.rnn)
from tf1clip.contrib import catalog as _catalog

V1 = tf.compat.v1

__all__ = ["GridRNNCell", "Grid1BasicRNNCell", "Grid2BasicRNNCell", "Grid1BasicLSTMCell", "Grid2BasicLSTMCell",
           "Grid1LSTMCell", "Grid2LSTMCell", "Grid3LSTMCell", "Grid2GRUCell"]

_Dimension = collections.namedtuple("_GridRNNDimension",
                                    ["idx", "is_input", "is_output", "is_priority", "non_recurrent_fn"])
_Config = collections.namedtuple("_GridRNNConfig", ["num_dims", "dims", "inputs", "outputs", "recurrents",
                                                    "priority", "non_priority", "tied", "num_units"])


def _dim_list(value, num_dims, argument):
  """A sorted, de-duplicated list of dimension indices (None -> [], an int -> [it])."""
  if value is None:
    value = []
  if not isinstance(value, (list, tuple)):
    value = [value]
  value = sorted(set(value))
  if any(d < 0 or d >= num_dims for d in value):
    # TF 1.15's wording ("Invalid dims: [3]. Must be in [0, 2)"), with the argument named.
    raise ValueError("Invalid dims: {}. Must be in [0, {}) ({})".format(value, num_dims, argument))
  return value


def _config(num_dims, input_dims, output_dims, priority_dims, non_recurrent_dims, non_recurrent_fn, tied,
            num_units):
  inputs = _dim_list(input_dims, num_dims, "input_dims")
  outputs = _dim_list(output_dims, num_dims, "output_dims")
  priority = _dim_list(priority_dims, num_dims, "priority_dims")
  non_recurrent = _dim_list(non_recurrent_dims, num_dims, "non_recurrent_dims")
  dims = [_Dimension(idx=i, is_input=i in inputs, is_output=i in outputs, is_priority=i in priority,
                     non_recurrent_fn=non_recurrent_fn if i in non_recurrent else None)
          for i in range(num_dims)]
  return _Config(num_dims=num_dims, dims=dims, inputs=inputs, outputs=outputs,
                 recurrents=[i for i in range(num_dims) if i not in non_recurrent], priority=priority,
                 non_priority=[i for i in range(num_dims) if i not in priority], tied=tied, num_units=num_units)


class GridRNNCell(legacy_cells.RNNCell):
  """An N-dimensional grid of cells stepped together (Grid LSTM, arXiv:1507.01526).

  Args:
    num_units: the size of every dimension's cell.
    num_dims: the number of grid dimensions (>= 1).
    input_dims, output_dims, priority_dims, non_recurrent_dims: dimension indices (an int or a list).
    tied: one cell (and one set of variables) for every dimension.
    cell_fn: `num_units -> RNNCell`; default an LSTMCell.
    non_recurrent_fn: the activation of the non-recurrent dimensions' layer (default relu).
    state_is_tuple, output_is_tuple: a tuple per dimension, or one concatenated tensor.
  """

  def __init__(self, num_units, num_dims=1, input_dims=None, output_dims=None, priority_dims=None,
               non_recurrent_dims=None, tied=False, cell_fn=None, non_recurrent_fn=None, state_is_tuple=True,
               output_is_tuple=True):
    super().__init__()
    if not state_is_tuple:
      logging.warning("%s: Using a concatenated state is slower and will soon be deprecated.  Use "
                      "state_is_tuple=True.", self)
    if not output_is_tuple:
      logging.warning("%s: Using a concatenated output is slower and will soon be deprecated.  Use "
                      "output_is_tuple=True.", self)
    if num_dims < 1:
      raise ValueError("dims must be >= 1: {} (num_dims)".format(num_dims))
    self._config = _config(num_dims, input_dims, output_dims, priority_dims, non_recurrent_dims,
                           non_recurrent_fn or tf.nn.relu, tied, num_units)
    self._state_is_tuple = state_is_tuple
    self._output_is_tuple = output_is_tuple
    if cell_fn is None:
      make_cell = functools.partial(rnn.LSTMCell, num_units=num_units, state_is_tuple=state_is_tuple)
    else:
      make_cell = lambda: cell_fn(num_units)
    cells = [make_cell()] * num_dims if tied else [make_cell() for _ in range(num_dims)]
    if not isinstance(cells[0], legacy_cells.RNNCell):
      raise TypeError("cell_fn must return an RNNCell instance, saw: %s" % type(cells[0]))
    # a plain list attribute would be wrapped (and its cells tracked twice) by Keras' attribute tracking
    self._grid_cells = tuple(cells)
    unit = cells[0]
    if output_is_tuple:
      self._output_size = tuple(unit.output_size for _ in self._config.outputs)
    else:
      self._output_size = unit.output_size * len(self._config.outputs)
    if state_is_tuple:
      self._state_size = tuple(unit.state_size for _ in self._config.recurrents)
    else:
      self._state_size = self._cell_state_size() * len(self._config.recurrents)

  @property
  def output_size(self):
    return self._output_size

  @property
  def state_size(self):
    return self._state_size

  def __call__(self, inputs, state, scope=None):
    """One grid step: (output, new state), in the variable scope `scope` or the cell's class name."""
    conf = self._config
    dtype = inputs.dtype
    c_prev, m_prev, cell_output_size = self._split_state(state)
    new_output = [None] * conf.num_dims
    new_state = [None] * conf.num_dims
    with V1.variable_scope(scope or type(self).__name__):
      self._project_input(inputs, c_prev, m_prev, cell_output_size > 0)
      self._propagate(conf.non_priority, c_prev, m_prev, new_output, new_state, True)
      self._propagate(conf.priority, c_prev, m_prev, new_output, new_state, False)
      outputs = [new_output[i] for i in conf.outputs]
      if self._output_is_tuple:
        output = tuple(outputs)
      else:
        output = tf.concat(outputs, 1) if outputs else tf.zeros([0, 0], dtype)
      if self._state_is_tuple:
        states = tuple(new_state[i] for i in conf.recurrents)
      else:
        flat = [part for i in conf.recurrents for part in new_state[i]]
        states = tf.concat(flat, 1) if flat else tf.zeros([0, 0], dtype)
    return output, states

  def _cell_state_size(self):
    size = self._grid_cells[0].state_size
    return sum(size) if isinstance(size, tuple) else size

  def _split_state(self, state):
    """Each recurrent dimension's previous (c, m) from the state (c is None for cells without one)."""
    conf = self._config
    c_prev = [None] * conf.num_dims
    m_prev = [None] * conf.num_dims
    total = self._cell_state_size()
    cell_output_size = total - conf.num_units
    if self._state_is_tuple:
      if len(conf.recurrents) != len(state):
        raise ValueError("Expected state as a tuple of {} element".format(len(conf.recurrents)))
      for dim, dim_state in zip(conf.recurrents, state):
        if cell_output_size > 0:
          c_prev[dim], m_prev[dim] = dim_state
        else:
          m_prev[dim] = dim_state
    else:
      for dim, start in zip(conf.recurrents, range(0, self.state_size, total)):
        if cell_output_size > 0:
          c_prev[dim] = tf.slice(state, [0, start], [-1, conf.num_units])
          m_prev[dim] = tf.slice(state, [0, start + conf.num_units], [-1, cell_output_size])
        else:
          m_prev[dim] = tf.slice(state, [0, start], [-1, conf.num_units])
    return c_prev, m_prev, cell_output_size

  def _project_input(self, inputs, c_prev, m_prev, with_c):
    """Input dimensions start from the step's input (split evenly between them), projected to num_units."""
    conf = self._config
    if (inputs is None or not conf.inputs
        or not tf.compat.dimension_value(inputs.shape.with_rank(2)[1]) > 0):
      return
    if isinstance(inputs, tuple):
      if len(conf.inputs) != len(inputs):
        raise ValueError("Expect inputs as a tuple of {} tensors".format(len(conf.inputs)))
      splits = inputs
    else:
      splits = tf.split(value=inputs, num_or_size_splits=len(conf.inputs), axis=1)
    input_size = tf.compat.dimension_value(splits[0].shape.with_rank(2)[1])
    for i, dim in enumerate(conf.inputs):
      project_m = V1.get_variable("project_m_{}".format(dim), [input_size, conf.num_units], dtype=inputs.dtype)
      m_prev[dim] = tf.matmul(splits[i], project_m)
      if with_c:
        project_c = V1.get_variable("project_c_{}".format(dim), [input_size, conf.num_units],
                                    dtype=inputs.dtype)
        c_prev[dim] = tf.matmul(splits[i], project_c)

  def _propagate(self, dim_indices, c_prev, m_prev, new_output, new_state, first_call):
    """Steps the dimensions `dim_indices`; each reads the others' newest outputs (else their previous m)."""
    conf = self._config
    if not dim_indices:
      return
    if conf.num_dims > 1:
      cell_inputs = tf.concat([m_prev[d.idx] if new_output[d.idx] is None else new_output[d.idx]
                               for d in conf.dims[:-1]], 1)
    else:
      cell_inputs = tf.zeros([m_prev[0].get_shape().as_list()[0], 0], m_prev[0].dtype)
    last_dim_output = new_output[-1] if new_output[-1] is not None else m_prev[-1]
    for i in dim_indices:
      dim = conf.dims[i]
      reuse = conf.tied and not (first_call and i == dim_indices[0])
      if dim.non_recurrent_fn:
        args = tf.concat([cell_inputs, last_dim_output], 1) if conf.num_dims > 1 else last_dim_output
        with V1.variable_scope("non_recurrent" if conf.tied else "non_recurrent/cell_{}".format(i)):
          if reuse:
            V1.get_variable_scope().reuse_variables()
          scope = V1.get_variable_scope()
          # Without a scope initializer TF 1.15 read `layers.initializers.xavier_initializer`, which its
          # contrib.layers did not export (AttributeError): the layer only worked under an initializer.
          # Here it gets the Glorot initializer that line meant (a deliberate difference, docs/contrib.md).
          new_output[dim.idx] = layers.fully_connected(
              args, num_outputs=conf.num_units, activation_fn=dim.non_recurrent_fn,
              weights_initializer=scope.initializer or layers.xavier_initializer(),
              weights_regularizer=scope.regularizer)
      else:
        cell_state = (c_prev[i], last_dim_output) if c_prev[i] is not None else last_dim_output
        with V1.variable_scope("recurrent" if conf.tied else "recurrent/cell_{}".format(i)):
          if reuse:
            V1.get_variable_scope().reuse_variables()
          new_output[dim.idx], new_state[dim.idx] = self._grid_cells[i](cell_inputs, cell_state)


class _StandardGrid(GridRNNCell):
  """TF 1.15's ready-made grids: dimension 0 takes the input and gives the output and has priority; with a
  non_recurrent_fn (N >= 2) it is non-recurrent. Subclasses give the dimensions and the inner cell."""

  _NUM_DIMS = None

  def _grid_init(self, num_units, cell_fn, tied=False, non_recurrent_fn=None, state_is_tuple=True,
                 output_is_tuple=True):
    GridRNNCell.__init__(self, num_units=num_units, num_dims=self._NUM_DIMS, input_dims=0, output_dims=0,
                         priority_dims=0, tied=tied,
                         non_recurrent_dims=None if non_recurrent_fn is None else 0, cell_fn=cell_fn,
                         non_recurrent_fn=non_recurrent_fn, state_is_tuple=state_is_tuple,
                         output_is_tuple=output_is_tuple)


class Grid1BasicRNNCell(_StandardGrid):
  """A one-dimensional grid of BasicRNNCells."""
  _NUM_DIMS = 1

  def __init__(self, num_units, state_is_tuple=True, output_is_tuple=True):  # pylint: disable=super-init-not-called
    self._grid_init(num_units, lambda n: rnn.BasicRNNCell(num_units=n), state_is_tuple=state_is_tuple,
                    output_is_tuple=output_is_tuple)


class Grid2BasicRNNCell(_StandardGrid):
  """A two-dimensional grid of BasicRNNCells."""
  _NUM_DIMS = 2

  def __init__(self, num_units, tied=False, non_recurrent_fn=None, state_is_tuple=True,  # pylint: disable=super-init-not-called
               output_is_tuple=True):
    self._grid_init(num_units, lambda n: rnn.BasicRNNCell(num_units=n), tied, non_recurrent_fn, state_is_tuple,
                    output_is_tuple)


class Grid1BasicLSTMCell(_StandardGrid):
  """A one-dimensional grid of BasicLSTMCells."""
  _NUM_DIMS = 1

  def __init__(self, num_units, forget_bias=1, state_is_tuple=True, output_is_tuple=True):  # pylint: disable=super-init-not-called
    self._grid_init(num_units, lambda n: rnn.BasicLSTMCell(num_units=n, forget_bias=forget_bias),
                    state_is_tuple=state_is_tuple, output_is_tuple=output_is_tuple)


class Grid2BasicLSTMCell(_StandardGrid):
  """A two-dimensional grid of BasicLSTMCells."""
  _NUM_DIMS = 2

  def __init__(self, num_units, tied=False, non_recurrent_fn=None, forget_bias=1, state_is_tuple=True,  # pylint: disable=super-init-not-called
               output_is_tuple=True):
    self._grid_init(num_units, lambda n: rnn.BasicLSTMCell(num_units=n, forget_bias=forget_bias), tied,
                    non_recurrent_fn, state_is_tuple, output_is_tuple)


class Grid1LSTMCell(_StandardGrid):
  """A one-dimensional grid of LSTMCells (optionally with peepholes)."""
  _NUM_DIMS = 1

  def __init__(self, num_units, use_peepholes=False, forget_bias=1.0, state_is_tuple=True,  # pylint: disable=super-init-not-called
               output_is_tuple=True):
    self._grid_init(num_units, lambda n: rnn.LSTMCell(num_units=n, forget_bias=forget_bias,
                                                      use_peepholes=use_peepholes),
                    state_is_tuple=state_is_tuple, output_is_tuple=output_is_tuple)


class _GridNLSTMCell(_StandardGrid):
  """An N-dimensional grid of LSTMCells (optionally with peepholes)."""

  def __init__(self, num_units, tied=False, non_recurrent_fn=None, use_peepholes=False, forget_bias=1.0,  # pylint: disable=super-init-not-called
               state_is_tuple=True, output_is_tuple=True):
    self._grid_init(num_units, lambda n: rnn.LSTMCell(num_units=n, forget_bias=forget_bias,
                                                      use_peepholes=use_peepholes),
                    tied, non_recurrent_fn, state_is_tuple, output_is_tuple)


class Grid2LSTMCell(_GridNLSTMCell):
  """A two-dimensional grid of LSTMCells."""
  _NUM_DIMS = 2


class Grid3LSTMCell(_GridNLSTMCell):
  """A three-dimensional grid of LSTMCells."""
  _NUM_DIMS = 3


class Grid2GRUCell(_StandardGrid):
  """A two-dimensional grid of GRUCells."""
  _NUM_DIMS = 2

  def __init__(self, num_units, tied=False, non_recurrent_fn=None, state_is_tuple=True, output_is_tuple=True):  # pylint: disable=super-init-not-called
    self._grid_init(num_units, lambda n: rnn.GRUCell(num_units=n), tied, non_recurrent_fn, state_is_tuple,
                    output_is_tuple)


__getattr__ = _catalog.module_getattr(__name__)

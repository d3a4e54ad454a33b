"""TF 1.15's time-frequency LSTMs for spectrogram input: TimeFreqLSTMCell, GridLSTMCell, BidirectionalGridLSTMCell.

Each input frame is cut into frequency patches (`feature_size` wide, every `frequency_skip`); an LSTM runs along
time (the cell's state) and along frequency (within the step). TF 1.15's code step for step, with its variables in
the calling scope, so TF 1.15 checkpoints restore:

  TimeFreqLSTMCell           W_0..W_{n-1} [patch + 2 units, 4 units] (num_unit_shards), B, W_{F,I,O}_diag
  GridLSTMCell               W_f_<block>_<shard>, B_f_<block> (frequency LSTM), W_t_*, B_t_* (time LSTM,
                             unless share_time_frequency_weights), W_{F,I,O}_diag_{freq,time}{f,t}_<block>
  BidirectionalGridLSTMCell  the same under fwd/ and bwd/ (bwd reads the patches in reverse order)

The state is a namedtuple of c and m per patch and block (`state_f00_b00_c`, ...; TF 1.15's
GridLSTMStateTuple), or one concatenated tensor with state_is_tuple=False. As in TF 1.15, TimeFreqLSTMCell
declares output_size num_units and state_size 2 * num_units whatever the number of patches, so with several
patches it is stepped with a state of 2 * num_units per patch (dynamic_rnn refuses it, in TF 1.15 too).
"""

import collections

import tensorflow as tf
from absl import logging
from tf_keras.src.layers.rnn import legacy_cells

from tf1clip.contrib.rnn.python.ops._linear import concat_sharded_variable

V1 = tf.compat.v1


def _input_size(input_feat):
  size = tf.compat.dimension_value(input_feat.shape.with_rank(2)[-1])
  if size is None:
    raise ValueError("Cannot infer input_size from static shape inference.")
  return size


class TimeFreqLSTMCell(legacy_cells.RNNCell):
  """An LSTM over time whose step is itself an LSTM over frequency patches of the frame.

  References:
    Li, Mohamed, Zweig, Gong, "LSTM time and frequency recurrence for automatic speech recognition",
    ASRU 2015.
  """

  def __init__(self, num_units, use_peepholes=False, cell_clip=None, initializer=None,
               num_unit_shards=1, forget_bias=1.0, feature_size=None, frequency_skip=1, reuse=None):
    super().__init__(_reuse=reuse)
    self._num_units = num_units
    self._use_peepholes = use_peepholes
    self._cell_clip = cell_clip
    self._initializer = initializer
    self._num_unit_shards = num_unit_shards
    self._forget_bias = forget_bias
    self._feature_size = feature_size
    self._frequency_skip = frequency_skip
    self._state_size = 2 * num_units
    self._output_size = num_units

  @property
  def output_size(self):
    return self._output_size

  @property
  def state_size(self):
    return self._state_size

  def call(self, inputs, state):
    """One time step over all frequency patches: returns (m of every patch, their c and m)."""
    freq_inputs = self._make_tf_features(inputs)
    dtype = inputs.dtype
    actual_input_size = freq_inputs[0].shape.as_list()[1]
    units = self._num_units
    concat_w = concat_sharded_variable("W", [actual_input_size + 2 * units, 4 * units], dtype,
                                       self._num_unit_shards)
    b = V1.get_variable("B", shape=[4 * units], initializer=V1.zeros_initializer(), dtype=dtype)
    if self._use_peepholes:
      w_f_diag = V1.get_variable("W_F_diag", shape=[units], dtype=dtype)
      w_i_diag = V1.get_variable("W_I_diag", shape=[units], dtype=dtype)
      w_o_diag = V1.get_variable("W_O_diag", shape=[units], dtype=dtype)
    m_prev_freq = tf.zeros([tf.compat.dimension_value(inputs.shape[0]) or tf.shape(inputs)[0], units],
                           dtype)
    for fq, freq_input in enumerate(freq_inputs):
      c_prev = tf.slice(state, [0, 2 * fq * units], [-1, units])
      m_prev = tf.slice(state, [0, (2 * fq + 1) * units], [-1, units])
      cell_inputs = tf.concat([freq_input, m_prev, m_prev_freq], 1)
      i, j, f, o = tf.split(tf.nn.bias_add(tf.matmul(cell_inputs, concat_w), b), 4, axis=1)
      if self._use_peepholes:
        c = (tf.sigmoid(f + self._forget_bias + w_f_diag * c_prev) * c_prev
             + tf.sigmoid(i + w_i_diag * c_prev) * tf.tanh(j))
      else:
        c = tf.sigmoid(f + self._forget_bias) * c_prev + tf.sigmoid(i) * tf.tanh(j)
      if self._cell_clip is not None:
        c = tf.clip_by_value(c, -self._cell_clip, self._cell_clip)
      if self._use_peepholes:
        m = tf.sigmoid(o + w_o_diag * c) * tf.tanh(c)
      else:
        m = tf.sigmoid(o) * tf.tanh(c)
      m_prev_freq = m
      if fq == 0:
        state_out, m_out = tf.concat([c, m], 1), m
      else:
        state_out = tf.concat([state_out, c, m], 1)
        m_out = tf.concat([m_out, m], 1)
    return m_out, state_out

  def _make_tf_features(self, input_feat):
    input_size = _input_size(input_feat)
    num_feats = int((input_size - self._feature_size) / self._frequency_skip) + 1
    return [tf.slice(input_feat, [0, f * self._frequency_skip], [-1, self._feature_size])
            for f in range(num_feats)]


class GridLSTMCell(legacy_cells.RNNCell):
  """A 2-D grid LSTM: LSTMs along time and along frequency patches, per block of patches.

  References:
    Kalchbrenner, Danihelka, Graves, "Grid Long Short-Term Memory", 2015 (arXiv:1507.01526);
    Li, Mohamed, Zweig, Gong, "Exploring multidimensional LSTMs for large vocabulary ASR", ICASSP 2016.
  """

  def __init__(self, num_units, use_peepholes=False, share_time_frequency_weights=False,
               cell_clip=None, initializer=None, num_unit_shards=1, forget_bias=1.0,
               feature_size=None, frequency_skip=None, num_frequency_blocks=None,
               start_freqindex_list=None, end_freqindex_list=None, couple_input_forget_gates=False,
               state_is_tuple=True, reuse=None):
    super().__init__(_reuse=reuse)
    if not state_is_tuple:
      logging.warning("%s: Using a concatenated state is slower and will soon be deprecated.  "
                      "Use state_is_tuple=True.", self)
    self._num_units = num_units
    self._use_peepholes = use_peepholes
    self._share_time_frequency_weights = share_time_frequency_weights
    self._couple_input_forget_gates = couple_input_forget_gates
    self._state_is_tuple = state_is_tuple
    self._cell_clip = cell_clip
    self._initializer = initializer
    self._num_unit_shards = num_unit_shards
    self._forget_bias = forget_bias
    self._feature_size = feature_size
    self._frequency_skip = frequency_skip
    self._start_freqindex_list = start_freqindex_list
    self._end_freqindex_list = end_freqindex_list
    self._num_frequency_blocks = num_frequency_blocks
    if self._num_frequency_blocks is None:
      raise ValueError("Must specify num_frequency_blocks")
    self._total_blocks = sum(int(n) for n in self._num_frequency_blocks)
    if state_is_tuple:
      names = ["state_f%02d_b%02d_%s" % (freq, block, part)
               for block in range(len(self._num_frequency_blocks))
               for freq in range(self._num_frequency_blocks[block]) for part in "cm"]
      self._state_tuple_type = collections.namedtuple("GridLSTMStateTuple", names)
      self._state_size = self._state_tuple_type(*[num_units, num_units] * self._total_blocks)
    else:
      self._state_tuple_type = None
      self._state_size = num_units * self._total_blocks * 2
    self._output_size = num_units * self._total_blocks * 2

  @property
  def output_size(self):
    return self._output_size

  @property
  def state_size(self):
    return self._state_size

  @property
  def state_tuple_type(self):
    return self._state_tuple_type

  def call(self, inputs, state):
    """One time step: returns (m of time and frequency per patch, the new state)."""
    batch_size = tf.compat.dimension_value(inputs.shape[0]) or tf.shape(inputs)[0]
    m_out_lst, state_out_lst = [], []
    for block, block_inputs in enumerate(self._make_tf_features(inputs)):
      m_current, state_current = self._compute(block_inputs, block, state, batch_size,
                                               state_is_tuple=self._state_is_tuple)
      m_out_lst.extend(m_current)
      state_out_lst.extend(state_current)
    if self._state_is_tuple:
      state_out = self._state_tuple_type(*state_out_lst)
    else:
      state_out = tf.concat(state_out_lst, 1)
    return tf.concat(m_out_lst, 1), state_out

  def _variables(self, block, dtype, actual_input_size):
    """The block's weights: {name: variable}, created in TF 1.15's order."""
    units = self._num_units
    num_gates = 3 if self._couple_input_forget_gates else 4
    shape = [actual_input_size + 2 * units, num_gates * units]
    v = {"w_f": concat_sharded_variable("W_f_%d" % block, shape, dtype, self._num_unit_shards),
         "b_f": V1.get_variable("B_f_%d" % block, shape=[num_gates * units],
                                initializer=V1.zeros_initializer(), dtype=dtype)}
    if not self._share_time_frequency_weights:
      v["w_t"] = concat_sharded_variable("W_t_%d" % block, shape, dtype, self._num_unit_shards)
      v["b_t"] = V1.get_variable("B_t_%d" % block, shape=[num_gates * units],
                                 initializer=V1.zeros_initializer(), dtype=dtype)
    if self._use_peepholes:
      names = ([] if self._couple_input_forget_gates else ["W_F_diag_freqf", "W_F_diag_freqt"])
      names += ["W_I_diag_freqf", "W_I_diag_freqt", "W_O_diag_freqf", "W_O_diag_freqt"]
      if not self._share_time_frequency_weights:
        names += ([] if self._couple_input_forget_gates else ["W_F_diag_timef", "W_F_diag_timet"])
        names += ["W_I_diag_timef", "W_I_diag_timet", "W_O_diag_timef", "W_O_diag_timet"]
      for name in names:
        v[name] = V1.get_variable("%s_%d" % (name, block), shape=[units], dtype=dtype)
      if self._share_time_frequency_weights:  # the time gates peep through the frequency weights
        for gate in "FIO":
          for side in "ft":
            if "W_%s_diag_freq%s" % (gate, side) in v:
              v["W_%s_diag_time%s" % (gate, side)] = v["W_%s_diag_freq%s" % (gate, side)]
    return v

  def _compute(self, freq_inputs, block, state, batch_size, state_prefix="state",
               state_is_tuple=True):
    """The frequency LSTM over one block's patches, each patch also stepping its time LSTM."""
    sigmoid, tanh = tf.sigmoid, tf.tanh
    units = self._num_units
    num_gates = 3 if self._couple_input_forget_gates else 4
    dtype = freq_inputs[0].dtype
    v = self._variables(block, dtype, freq_inputs[0].shape.as_list()[1])
    peep = self._use_peepholes
    m_prev_freq = tf.zeros([batch_size, units], dtype)
    c_prev_freq = tf.zeros([batch_size, units], dtype)
    for freq_index, freq_input in enumerate(freq_inputs):
      if state_is_tuple:
        prefix = "%s_f%02d_b%02d" % (state_prefix, freq_index, block)
        c_prev_time = getattr(state, prefix + "_c")
        m_prev_time = getattr(state, prefix + "_m")
      else:
        c_prev_time = tf.slice(state, [0, 2 * freq_index * units], [-1, units])
        m_prev_time = tf.slice(state, [0, (2 * freq_index + 1) * units], [-1, units])
      cell_inputs = tf.concat([freq_input, m_prev_time, m_prev_freq], 1)
      gates_freq = tf.split(tf.nn.bias_add(tf.matmul(cell_inputs, v["w_f"]), v["b_f"]), num_gates,
                            axis=1)
      if self._share_time_frequency_weights:
        gates_time = gates_freq
      else:
        gates_time = tf.split(tf.nn.bias_add(tf.matmul(cell_inputs, v["w_t"]), v["b_t"]), num_gates,
                              axis=1)
      if self._couple_input_forget_gates:
        (i_freq, j_freq, o_freq), f_freq = gates_freq, None
        (i_time, j_time, o_time), f_time = gates_time, None
      else:
        i_freq, j_freq, f_freq, o_freq = gates_freq
        i_time, j_time, f_time, o_time = gates_time

      def peephole(gate, kind, c_freq_side, c_time_side):
        return v["W_%s_diag_%sf" % (gate, kind)] * c_freq_side + v["W_%s_diag_%st" % (gate, kind)] * c_time_side

      def new_cell(kind, i, j, f, c_prev):
        """One LSTM's cell update (kind "freq" or "time"), peeking at both previous cells."""
        i_g = sigmoid(i + peephole("I", kind, c_prev_freq, c_prev_time) if peep else i)
        if self._couple_input_forget_gates:
          f_g = 1.0 - i_g
        elif peep:
          f_g = sigmoid(f + self._forget_bias + peephole("F", kind, c_prev_freq, c_prev_time))
        else:
          f_g = sigmoid(f + self._forget_bias)
        c = f_g * c_prev + i_g * tanh(j)
        if self._cell_clip is not None:
          c = tf.clip_by_value(c, -self._cell_clip, self._cell_clip)
        return c

      c_freq = new_cell("freq", i_freq, j_freq, f_freq, c_prev_freq)
      c_time = new_cell("time", i_time, j_time, f_time, c_prev_time)
      if peep:
        m_freq = sigmoid(o_freq + peephole("O", "freq", c_freq, c_time)) * tanh(c_freq)
        m_time = sigmoid(o_time + peephole("O", "time", c_freq, c_time)) * tanh(c_time)
      else:
        m_freq = sigmoid(o_freq) * tanh(c_freq)
        m_time = sigmoid(o_time) * tanh(c_time)
      m_prev_freq, c_prev_freq = m_freq, c_freq
      if freq_index == 0:
        state_out_lst, m_out_lst = [c_time, m_time], [m_time, m_freq]
      else:
        state_out_lst.extend([c_time, m_time])
        m_out_lst.extend([m_time, m_freq])
    return m_out_lst, state_out_lst

  def _make_tf_features(self, input_feat, slice_offset=0):
    """The patches of each block: [[patch, ...] per block], after padding by slice_offset."""
    input_size = _input_size(input_feat)
    if slice_offset > 0:
      inputs = tf.pad(input_feat, tf.constant([0, 0, 0, slice_offset], shape=[2, 2], dtype=tf.int32),
                      "CONSTANT")
    elif slice_offset < 0:
      inputs = tf.pad(input_feat, tf.constant([0, 0, -slice_offset, 0], shape=[2, 2], dtype=tf.int32),
                      "CONSTANT")
      slice_offset = 0
    else:
      inputs = input_feat
    freq_inputs = []
    if not self._start_freqindex_list:
      if len(self._num_frequency_blocks) != 1:
        raise ValueError("Length of num_frequency_blocks is not 1, but instead is %d"
                         % len(self._num_frequency_blocks))
      num_feats = int((input_size - self._feature_size) / self._frequency_skip) + 1
      if num_feats != self._num_frequency_blocks[0]:
        raise ValueError("Invalid num_frequency_blocks, requires %d but gets %d, please check the "
                         "input size and filter config are correct."
                         % (self._num_frequency_blocks[0], num_feats))
      freq_inputs.append([tf.slice(inputs, [0, slice_offset + f * self._frequency_skip],
                                   [-1, self._feature_size]) for f in range(num_feats)])
    else:
      if len(self._start_freqindex_list) != len(self._end_freqindex_list):
        raise ValueError("Length of start and end freqindex_list does not match %d %d"
                         % (len(self._start_freqindex_list), len(self._end_freqindex_list)))
      if len(self._num_frequency_blocks) != len(self._start_freqindex_list):
        raise ValueError("Length of num_frequency_blocks is not equal to start_freqindex_list %d %d"
                         % (len(self._num_frequency_blocks), len(self._start_freqindex_list)))
      for b, (start_index, end_index) in enumerate(zip(self._start_freqindex_list,
                                                       self._end_freqindex_list)):
        block_feats = int((end_index - start_index - self._feature_size) / self._frequency_skip) + 1
        if block_feats != self._num_frequency_blocks[b]:
          raise ValueError("Invalid num_frequency_blocks, requires %d but gets %d, please check the "
                           "input size and filter config are correct."
                           % (self._num_frequency_blocks[b], block_feats))
        freq_inputs.append([tf.slice(inputs, [0, start_index + slice_offset + f * self._frequency_skip],
                                     [-1, self._feature_size]) for f in range(block_feats)])
    return freq_inputs


class BidirectionalGridLSTMCell(GridLSTMCell):
  """A grid LSTM run forward and backward over the frequency patches (fwd/ and bwd/ weights)."""

  def __init__(self, num_units, use_peepholes=False, share_time_frequency_weights=False,
               cell_clip=None, initializer=None, num_unit_shards=1, forget_bias=1.0,
               feature_size=None, frequency_skip=None, num_frequency_blocks=None,
               start_freqindex_list=None, end_freqindex_list=None, couple_input_forget_gates=False,
               backward_slice_offset=0, reuse=None):
    super().__init__(num_units, use_peepholes, share_time_frequency_weights, cell_clip, initializer,
                     num_unit_shards, forget_bias, feature_size, frequency_skip,
                     num_frequency_blocks, start_freqindex_list, end_freqindex_list,
                     couple_input_forget_gates, True, reuse)
    self._backward_slice_offset = int(backward_slice_offset)
    names = ["%s_state_f%02d_b%02d_%s" % (direction, freq, block, part)
             for direction in ("fwd", "bwd") for block in range(len(self._num_frequency_blocks))
             for freq in range(self._num_frequency_blocks[block]) for part in "cm"]
    self._state_tuple_type = collections.namedtuple("BidirectionalGridLSTMStateTuple", names)
    self._state_size = self._state_tuple_type(*[num_units, num_units] * self._total_blocks * 2)
    self._output_size = 2 * num_units * self._total_blocks * 2

  def call(self, inputs, state):
    """One time step in both frequency directions: returns (fwd then bwd outputs, the new state)."""
    batch_size = tf.compat.dimension_value(inputs.shape[0]) or tf.shape(inputs)[0]
    fwd_inputs = self._make_tf_features(inputs)
    bwd_inputs = (self._make_tf_features(inputs, self._backward_slice_offset)
                  if self._backward_slice_offset else fwd_inputs)
    outputs = {}
    for direction, blocks in (("fwd", fwd_inputs), ("bwd", bwd_inputs)):
      m_lst, state_lst = [], []
      with V1.variable_scope(direction):
        for block, block_inputs in enumerate(blocks):
          if direction == "bwd":
            block_inputs = block_inputs[::-1]
          m_current, state_current = self._compute(block_inputs, block, state, batch_size,
                                                   state_prefix=direction + "_state",
                                                   state_is_tuple=True)
          m_lst.extend(m_current)
          state_lst.extend(state_current)
      outputs[direction] = (m_lst, state_lst)
    state_out = self._state_tuple_type(*outputs["fwd"][1] + outputs["bwd"][1])
    return tf.concat(outputs["fwd"][0] + outputs["bwd"][0], 1), state_out

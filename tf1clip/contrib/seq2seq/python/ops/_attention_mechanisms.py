"""The attention mechanisms of `tf.contrib.seq2seq` (TF 1.15): Bahdanau, Luong and their monotonic forms.

Place in the data flow (DESIGN.md): memory (encoder outputs) -> **attention mechanism** (keys,
scores, alignments) -> AttentionWrapper (attention_wrapper) -> BasicDecoder / BeamSearchDecoder.
Layers are tf-keras' legacy `tf.compat.v1.layers.Dense`, so the variables carry TF 1.15's names:
`memory_layer/kernel` (created where the mechanism is constructed), and, created on the first call
inside the wrapper's scope, `.../bahdanau_attention/query_layer/kernel`, `.../attention_v`,
`attention_g`, `attention_b` (normalize), `.../luong_attention/attention_g` (scale),
`.../*_monotonic_attention/attention_score_bias`.
"""

import functools
import math

import numpy as np
import tensorflow as tf
from tf_keras.src.legacy_tf_layers import core as legacy_layers

from tf1clip.contrib.seq2seq.python.ops._monotonic import monotonic_attention

_V1 = tf.compat.v1


def zero_state_tensors(size, batch_size, dtype):
  """Zeros `[batch_size] + size` for every size in the (nested) `size`, with static shapes."""
  def _zeros(s):
    if isinstance(s, tf.Tensor):  # a memory length known only at run time
      dims, shape = tf.reshape(tf.cast(s, tf.int32), [1]), tf.TensorShape(
          [tf.get_static_value(s)])
    else:
      shape = tf.TensorShape([s] if isinstance(s, int) else s)
      dims = tf.constant(shape.as_list(), tf.int32, shape=[shape.ndims])
    zeros = tf.zeros(tf.concat([[batch_size], dims], 0), dtype=dtype)
    static_batch = tf.get_static_value(tf.convert_to_tensor(batch_size))
    zeros.set_shape(tf.TensorShape([static_batch]).concatenate(shape))
    return zeros
  return tf.nest.map_structure(_zeros, size)


def hardmax(logits, name=None):
  """One-hot of the argmax along the last axis (a probability_fn for hard attention).

  Args:
    logits: float Tensor [..., depth].
    name: name scope; default "Hardmax".

  Returns:
    A Tensor like `logits`, 1 at each row's argmax and 0 elsewhere.
  """
  with _V1.name_scope(name, "Hardmax", [logits]):
    logits = tf.convert_to_tensor(logits, name="logits")
    depth = tf.compat.dimension_value(logits.shape[-1])
    if depth is None:
      depth = tf.shape(logits)[-1]
    return tf.one_hot(tf.argmax(logits, -1), depth, dtype=logits.dtype)


class AttentionMechanism:
  """The base class `AttentionWrapper` accepts: it has `alignments_size` and `state_size`."""

  @property
  def alignments_size(self):
    raise NotImplementedError

  @property
  def state_size(self):
    raise NotImplementedError


def _check_layer(argument, layer):
  if layer is not None and not (callable(layer) and hasattr(layer, "compute_output_shape")):
    raise TypeError("%s is not a Layer: %s" % (argument, type(layer).__name__))


def _prepare_memory(memory, memory_sequence_length, check_inner_dims_defined):
  """Zeros the memory past each entry's length (TF 1.15's _prepare_memory)."""
  memory = tf.nest.map_structure(lambda m: tf.convert_to_tensor(m, name="memory"), memory)
  if memory_sequence_length is not None:
    memory_sequence_length = tf.convert_to_tensor(memory_sequence_length,
                                                  name="memory_sequence_length")
  if check_inner_dims_defined:
    for m in tf.nest.flatten(memory):
      if not m.shape[2:].is_fully_defined():
        raise ValueError("Expected memory %s to have fully defined inner dims, but saw shape: %s"
                         % (m.name, m.shape))
  if memory_sequence_length is None:
    return memory
  first = tf.nest.flatten(memory)[0]
  seq_len_mask = tf.sequence_mask(memory_sequence_length, maxlen=tf.shape(first)[1],
                                  dtype=first.dtype)
  seq_len_batch_size = (tf.compat.dimension_value(memory_sequence_length.shape[0])
                        or tf.shape(memory_sequence_length)[0])

  def _mask(m):
    rank = m.shape.ndims if m.shape.ndims is not None else tf.rank(m)
    extra_ones = tf.ones(rank - 2, dtype=tf.int32)
    m_batch_size = tf.compat.dimension_value(m.shape[0]) or tf.shape(m)[0]
    check = tf.debugging.assert_equal(
        seq_len_batch_size, m_batch_size,
        message="memory_sequence_length and memory tensor batch sizes do not match.")
    with tf.control_dependencies([check]):
      mask = tf.reshape(seq_len_mask, tf.concat((tf.shape(seq_len_mask), extra_ones), 0))
      return m * mask

  return tf.nest.map_structure(_mask, memory)


def _mask_score(score, memory_sequence_length, score_mask_value):
  if memory_sequence_length is None:
    return score
  check = tf.debugging.assert_positive(
      memory_sequence_length, message="All values in memory_sequence_length must greater than zero.")
  with tf.control_dependencies([check]):
    score_mask = tf.sequence_mask(memory_sequence_length, maxlen=tf.shape(score)[1])
    return _V1.where(score_mask, score, score_mask_value * tf.ones_like(score))


class _BaseAttentionMechanism(AttentionMechanism):
  """Keys (memory through `memory_layer`), values (masked memory) and the masked probability_fn."""

  def __init__(self, query_layer, memory, probability_fn, memory_sequence_length=None,
               memory_layer=None, check_inner_dims_defined=True, score_mask_value=None,
               custom_key_value_fn=None, name=None):
    _check_layer("query_layer", query_layer)
    _check_layer("memory_layer", memory_layer)
    if not callable(probability_fn):
      raise TypeError("probability_fn must be callable, saw type: %s"
                      % type(probability_fn).__name__)
    self._query_layer = query_layer
    self._memory_layer = memory_layer
    self.dtype = memory_layer.dtype
    if score_mask_value is None:
      score_mask_value = tf.as_dtype(self._memory_layer.dtype).as_numpy_dtype(-np.inf)
    self._probability_fn = lambda score, prev: probability_fn(
        _mask_score(score, memory_sequence_length, score_mask_value), prev)
    with _V1.name_scope(name, "BaseAttentionMechanismInit", tf.nest.flatten(memory)):
      self._values = _prepare_memory(memory, memory_sequence_length,
                                     check_inner_dims_defined=check_inner_dims_defined)
      self._keys = self.memory_layer(self._values) if self.memory_layer else self._values
      if custom_key_value_fn is not None:
        self._keys, self._values = custom_key_value_fn(self._keys, self._values)
      self._batch_size = (tf.compat.dimension_value(self._keys.shape[0])
                          or tf.shape(self._keys)[0])
      self._alignments_size = (tf.compat.dimension_value(self._keys.shape[1])
                               or tf.shape(self._keys)[1])

  @property
  def memory_layer(self):
    return self._memory_layer

  @property
  def query_layer(self):
    return self._query_layer

  @property
  def values(self):
    return self._values

  @property
  def keys(self):
    return self._keys

  @property
  def batch_size(self):
    return self._batch_size

  @property
  def alignments_size(self):
    return self._alignments_size

  @property
  def state_size(self):
    return self._alignments_size

  def initial_alignments(self, batch_size, dtype):
    """All-zero alignments `[batch_size, memory_length]` (the previous alignment at step 0)."""
    return zero_state_tensors(self._alignments_size, batch_size, dtype)

  def initial_state(self, batch_size, dtype):
    """The mechanism's state before the first step (the initial alignments)."""
    return self.initial_alignments(batch_size, dtype)


def _dense(num_units, name, dtype):
  return legacy_layers.Dense(num_units, name=name, use_bias=False, dtype=dtype)


def _luong_score(query, keys, scale):
  depth = query.shape[-1]
  key_units = keys.shape[-1]
  if depth != key_units:
    raise ValueError(
        "Incompatible or unknown inner dimensions between query and keys.  Query (%s) has units: "
        "%s.  Keys (%s) have units: %s.  Perhaps you need to set num_units to the keys' "
        "dimension (%s)?" % (query, depth, keys, key_units, key_units))
  score = tf.squeeze(tf.matmul(tf.expand_dims(query, 1), keys, transpose_b=True), [1])
  if scale:
    g = _V1.get_variable("attention_g", dtype=query.dtype,
                         initializer=_V1.ones_initializer(), shape=())
    score = g * score
  return score


def _bahdanau_score(processed_query, keys, normalize):
  dtype = processed_query.dtype
  num_units = tf.compat.dimension_value(keys.shape[2]) or tf.shape(keys)[2]
  processed_query = tf.expand_dims(processed_query, 1)
  v = _V1.get_variable("attention_v", [num_units], dtype=dtype)
  if normalize:
    g = _V1.get_variable("attention_g", dtype=dtype, shape=(),
                         initializer=_V1.constant_initializer(math.sqrt(1. / num_units)))
    b = _V1.get_variable("attention_b", [num_units], dtype=dtype,
                         initializer=_V1.zeros_initializer())
    # Weight normalisation: v is used as g * v / |v|.
    normed_v = g * v * tf.math.rsqrt(tf.reduce_sum(tf.square(v)))
    return tf.reduce_sum(normed_v * tf.tanh(keys + processed_query + b), [2])
  return tf.reduce_sum(v * tf.tanh(keys + processed_query), [2])


class LuongAttention(_BaseAttentionMechanism):
  """Multiplicative attention: score = query . keys (times a learned scalar g when `scale`).

  References:
    Luong, Pham, Manning, "Effective Approaches to Attention-based Neural Machine Translation",
    EMNLP 2015 (arXiv:1508.04025).
  """

  def __init__(self, num_units, memory, memory_sequence_length=None, scale=False,
               probability_fn=None, score_mask_value=None, dtype=None, custom_key_value_fn=None,
               name="LuongAttention"):
    """Creates the mechanism; builds `memory_layer/kernel` [memory depth, num_units] now.

    Args:
      num_units: the keys' depth (must equal the query depth, i.e. the cell's output size).
      memory: the memory to query, `[batch_size, max_time, ...]` (usually the encoder outputs).
      memory_sequence_length: optional `[batch_size]` lengths; memory past them is masked.
      scale: multiply the score by a learned scalar `attention_g` (initialised to 1).
      probability_fn: scores -> probabilities; default `tf.nn.softmax` (e.g. `hardmax`).
      score_mask_value: the score of masked entries; default -inf.
      dtype: the layers' dtype; default float32.
      custom_key_value_fn: optional `(keys, values) -> (keys, values)`.
      name: name scope of the construction.
    """
    probability_fn = probability_fn or tf.nn.softmax
    dtype = dtype or tf.float32
    super().__init__(query_layer=None, memory_layer=_dense(num_units, "memory_layer", dtype),
                     memory=memory, probability_fn=lambda score, _: probability_fn(score),
                     memory_sequence_length=memory_sequence_length,
                     score_mask_value=score_mask_value, custom_key_value_fn=custom_key_value_fn,
                     name=name)
    self._num_units = num_units
    self._scale = scale
    self._name = name

  def __call__(self, query, state):
    """Returns `(alignments, next_state)` for `query` [batch_size, num_units]."""
    with _V1.variable_scope(None, "luong_attention", [query]):
      score = _luong_score(query, self._keys, self._scale)
    alignments = self._probability_fn(score, state)
    return alignments, alignments


class BahdanauAttention(_BaseAttentionMechanism):
  """Additive attention: score = v . tanh(keys + query_layer(query)) (weight-normalised v, plus a
  bias, when `normalize`).

  References:
    Bahdanau, Cho, Bengio, "Neural Machine Translation by Jointly Learning to Align and
    Translate", ICLR 2015 (arXiv:1409.0473). Salimans, Kingma, "Weight Normalization",
    NIPS 2016 (arXiv:1602.07868).
  """

  def __init__(self, num_units, memory, memory_sequence_length=None, normalize=False,
               probability_fn=None, score_mask_value=None, dtype=None, custom_key_value_fn=None,
               name="BahdanauAttention"):
    """Creates the mechanism; builds `memory_layer/kernel` [memory depth, num_units] now.

    Args:
      num_units: depth of the query and key projections.
      memory, memory_sequence_length, probability_fn, score_mask_value, dtype,
        custom_key_value_fn, name: as LuongAttention.
      normalize: use the weight-normalised score (variables `attention_g`, `attention_b`).
    """
    probability_fn = probability_fn or tf.nn.softmax
    dtype = dtype or tf.float32
    super().__init__(query_layer=_dense(num_units, "query_layer", dtype),
                     memory_layer=_dense(num_units, "memory_layer", dtype),
                     memory=memory, probability_fn=lambda score, _: probability_fn(score),
                     memory_sequence_length=memory_sequence_length,
                     score_mask_value=score_mask_value, custom_key_value_fn=custom_key_value_fn,
                     name=name)
    self._num_units = num_units
    self._normalize = normalize
    self._name = name

  def __call__(self, query, state):
    """Returns `(alignments, next_state)` for `query` [batch_size, query depth]."""
    with _V1.variable_scope(None, "bahdanau_attention", [query]):
      processed_query = self.query_layer(query) if self.query_layer else query
      score = _bahdanau_score(processed_query, self._keys, self._normalize)
    alignments = self._probability_fn(score, state)
    return alignments, alignments


def _monotonic_probability_fn(score, previous_alignments, sigmoid_noise, mode, seed=None):
  if sigmoid_noise > 0:
    score += sigmoid_noise * tf.random.normal(tf.shape(score), dtype=score.dtype, seed=seed)
  if mode == "hard":
    p_choose_i = tf.cast(score > 0, score.dtype)
  else:
    p_choose_i = tf.sigmoid(score)
  return monotonic_attention(p_choose_i, previous_alignments, mode)


class _BaseMonotonicAttentionMechanism(_BaseAttentionMechanism):
  """Monotonic mechanisms start attending at memory index 0."""

  def initial_alignments(self, batch_size, dtype):
    """A one-hot on index 0, `[batch_size, memory_length]`."""
    return tf.one_hot(tf.zeros((batch_size,), dtype=tf.int32), self._alignments_size,
                      dtype=dtype)


def _check_mode(mode):
  if mode not in ("recursive", "parallel", "hard"):
    raise ValueError("mode must be 'recursive', 'parallel', or 'hard'; got %r." % (mode,))


class BahdanauMonotonicAttention(_BaseMonotonicAttentionMechanism):
  """Bahdanau scores (plus a learned scalar bias) as stopping probabilities of monotonic attention.

  References:
    Raffel, Luong, Liu, Weiss, Eck, "Online and Linear-Time Attention by Enforcing Monotonic
    Alignments", ICML 2017 (arXiv:1704.00784).
  """

  def __init__(self, num_units, memory, memory_sequence_length=None, normalize=False,
               score_mask_value=None, sigmoid_noise=0., sigmoid_noise_seed=None,
               score_bias_init=0., mode="parallel", dtype=None,
               name="BahdanauMonotonicAttention"):
    """Creates the mechanism.

    Args:
      num_units, memory, memory_sequence_length, normalize, score_mask_value, dtype, name: as
        BahdanauAttention.
      sigmoid_noise: std of the Gaussian noise added to the scores before the sigmoid (training).
      sigmoid_noise_seed: its seed.
      score_bias_init: initial value of `attention_score_bias` (e.g. -4 to start attending late).
      mode: "parallel", "recursive" or "hard" (see `monotonic_attention`).

    Raises:
      ValueError: for an unknown mode.
    """
    _check_mode(mode)
    dtype = dtype or tf.float32
    super().__init__(
        query_layer=_dense(num_units, "query_layer", dtype),
        memory_layer=_dense(num_units, "memory_layer", dtype), memory=memory,
        probability_fn=functools.partial(_monotonic_probability_fn, sigmoid_noise=sigmoid_noise,
                                         mode=mode, seed=sigmoid_noise_seed),
        memory_sequence_length=memory_sequence_length, score_mask_value=score_mask_value,
        name=name)
    self._num_units = num_units
    self._normalize = normalize
    self._name = name
    self._score_bias_init = score_bias_init

  def __call__(self, query, state):
    """Returns `(alignments, next_state)`; `state` is the previous alignment."""
    with _V1.variable_scope(None, "bahdanau_monotonic_attention", [query]):
      processed_query = self.query_layer(query) if self.query_layer else query
      score = _bahdanau_score(processed_query, self._keys, self._normalize)
      score += _V1.get_variable("attention_score_bias", dtype=processed_query.dtype,
                                initializer=self._score_bias_init)
    alignments = self._probability_fn(score, state)
    return alignments, alignments


class LuongMonotonicAttention(_BaseMonotonicAttentionMechanism):
  """Luong scores (plus a learned scalar bias) as stopping probabilities of monotonic attention.

  References:
    Raffel, Luong, Liu, Weiss, Eck, "Online and Linear-Time Attention by Enforcing Monotonic
    Alignments", ICML 2017 (arXiv:1704.00784).
  """

  def __init__(self, num_units, memory, memory_sequence_length=None, scale=False,
               score_mask_value=None, sigmoid_noise=0., sigmoid_noise_seed=None,
               score_bias_init=0., mode="parallel", dtype=None, name="LuongMonotonicAttention"):
    """Creates the mechanism.

    Args:
      num_units, memory, memory_sequence_length, scale, score_mask_value, dtype, name: as
        LuongAttention.
      sigmoid_noise, sigmoid_noise_seed, score_bias_init, mode: as BahdanauMonotonicAttention.

    Raises:
      ValueError: for an unknown mode.
    """
    _check_mode(mode)
    dtype = dtype or tf.float32
    super().__init__(
        query_layer=None, memory_layer=_dense(num_units, "memory_layer", dtype), memory=memory,
        probability_fn=functools.partial(_monotonic_probability_fn, sigmoid_noise=sigmoid_noise,
                                         mode=mode, seed=sigmoid_noise_seed),
        memory_sequence_length=memory_sequence_length, score_mask_value=score_mask_value,
        name=name)
    self._num_units = num_units
    self._scale = scale
    self._score_bias_init = score_bias_init
    self._name = name

  def __call__(self, query, state):
    """Returns `(alignments, next_state)`; `state` is the previous alignment."""
    with _V1.variable_scope(None, "luong_monotonic_attention", [query]):
      score = _luong_score(query, self._keys, self._scale)
      score += _V1.get_variable("attention_score_bias", dtype=query.dtype,
                                initializer=self._score_bias_init)
    alignments = self._probability_fn(score, state)
    return alignments, alignments

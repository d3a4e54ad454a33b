"""Small models written once, as a loss of (parameters, batch), for TF1/TF2 parity checks.

A `ParityModel` is plain numpy plus one loss function made of TF ops, so the very same math
builds in a TF1 graph (parameters are ``tf.compat.v1.get_variable``\\ s, the batch comes from
placeholders) and runs eagerly or in ``tf.function`` (parameters are ``tf.Variable``\\ s, the
batch is a tensor). Initial values and batches come from seeded numpy generators, so both
worlds see identical numbers (`tf1clip.v2.parity` trains them side by side).

- "mlp": two dense layers, dense gradients.
- "embedding": a bag of embeddings, whose gradient is sparse (``tf.IndexedSlices``).
- "lstm": the LSTM classifier of ``graphs/lstm_classifier`` (one gate kernel i, j, f, o,
  forget bias 1.0, statically unrolled).

A user's own model plugs in through the same protocol (`load`, ``tf1clip parity --model
my_models.py``): a module with a function ``parity_model(seed=0)`` (or any function named
after a colon, ``my_models.py:small_lstm``) returning a `ParityModel`, or any object with its
five attributes.

Place in the data flow (DESIGN.md): a fixture of **v2**.parity; no other module uses it.
"""

import dataclasses
import importlib
import importlib.util
import os
from typing import Callable

import numpy as np
import tensorflow as tf


@dataclasses.dataclass(frozen=True, eq=False)
class ParityModel:
  """A model both worlds can build.

  Attributes:
    name: short name ("mlp", "embedding", "lstm").
    initial_values: dict name -> np.ndarray (float32), in variable order.
    batch_spec: dict name -> (tf.DType, shape with None for the batch dimension).
    loss_fn: (params: dict name -> variable, batch: dict name -> Tensor) -> scalar loss
      (mean over the batch).
    make_batch: (seed, batch_size) -> dict name -> np.ndarray.
  """
  name: str
  initial_values: dict
  batch_spec: dict
  loss_fn: Callable
  make_batch: Callable


def _rng(seed, *stream):
  return np.random.default_rng([int(seed), *stream])


def _xent(logits, labels):
  return tf.reduce_mean(
      tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))


def mlp(seed=0, input_size=8, hidden_size=16, num_classes=3):
  """Two dense layers (tanh), softmax cross-entropy; dense gradients."""
  rng = _rng(seed, 0)
  init = {
      "w1": rng.normal(0, input_size ** -0.5, (input_size, hidden_size)),
      "b1": rng.normal(0, 0.1, (hidden_size,)),
      "w2": rng.normal(0, hidden_size ** -0.5, (hidden_size, num_classes)),
      "b2": rng.normal(0, 0.1, (num_classes,)),
  }
  teacher = _rng(seed, 1).standard_normal((input_size, num_classes))

  def loss_fn(p, batch):
    h = tf.tanh(tf.matmul(batch["x"], p["w1"]) + p["b1"])
    return _xent(tf.matmul(h, p["w2"]) + p["b2"], batch["y"])

  def make_batch(batch_seed, batch_size):
    rng = _rng(seed, 2, batch_seed)
    x = rng.standard_normal((batch_size, input_size))
    return {"x": x.astype(np.float32), "y": np.argmax(x @ teacher, 1).astype(np.int32)}

  return ParityModel("mlp", _float32(init),
                     {"x": (tf.float32, [None, input_size]), "y": (tf.int32, [None])},
                     loss_fn, make_batch)


def embedding(seed=0, vocab_size=24, dim=8, length=4, num_classes=3):
  """Mean of token embeddings, then a dense layer; the embedding's gradient is sparse.

  A batch touches only some rows of the embedding, which is where TF1's lazy sparse
  updates (Momentum, RMSProp, Ftrl, Adadelta) and Keras' dense ones part ways.
  """
  rng = _rng(seed, 0)
  init = {
      "embedding": rng.normal(0, 0.5, (vocab_size, dim)),
      "w": rng.normal(0, dim ** -0.5, (dim, num_classes)),
      "b": rng.normal(0, 0.1, (num_classes,)),
  }
  teacher = _rng(seed, 1).standard_normal((vocab_size, num_classes))

  def loss_fn(p, batch):
    vectors = tf.reduce_mean(tf.gather(p["embedding"], batch["ids"]), axis=1)
    return _xent(tf.matmul(vectors, p["w"]) + p["b"], batch["y"])

  def make_batch(batch_seed, batch_size):
    rng = _rng(seed, 2, batch_seed)
    # Tokens from the first half of the vocabulary only in even batches: rows go untouched.
    high = vocab_size if batch_seed % 2 else vocab_size // 2
    ids = rng.integers(0, high, (batch_size, length))
    y = np.argmax(teacher[ids].sum(axis=1), 1)
    return {"ids": ids.astype(np.int32), "y": y.astype(np.int32)}

  return ParityModel("embedding", _float32(init),
                     {"ids": (tf.int32, [None, length]), "y": (tf.int32, [None])},
                     loss_fn, make_batch)


def lstm(seed=0, num_steps=5, input_size=4, hidden_size=8, num_classes=3, init_scale=0.3,
         forget_bias=1.0):
  """The LSTM classifier of ``graphs/lstm_classifier``: same variables, same math."""
  rng = _rng(seed, 0)
  init = {
      "kernel": rng.uniform(-init_scale, init_scale,
                            (input_size + hidden_size, 4 * hidden_size)),
      "bias": np.zeros(4 * hidden_size),
      "softmax_w": rng.uniform(-init_scale, init_scale, (hidden_size, num_classes)),
      "softmax_b": np.zeros(num_classes),
  }
  teacher = _rng(seed, 1).standard_normal((input_size, num_classes))

  def loss_fn(p, batch):
    return _xent(lstm_logits(p, batch["inputs"], num_steps, forget_bias), batch["labels"])

  def make_batch(batch_seed, batch_size):
    rng = _rng(seed, 2, batch_seed)
    x = rng.standard_normal((batch_size, num_steps, input_size))
    y = np.argmax(x.mean(axis=1) @ teacher, axis=1)
    return {"inputs": x.astype(np.float32), "labels": y.astype(np.int32)}

  return ParityModel(
      "lstm", _float32(init),
      {"inputs": (tf.float32, [None, num_steps, input_size]), "labels": (tf.int32, [None])},
      loss_fn, make_batch)


def lstm_logits(p, inputs, num_steps, forget_bias=1.0):
  """Logits of the LSTM classifier (BasicLSTMCell's math, unrolled `num_steps` times)."""
  hidden_size = p["softmax_w"].shape[0]
  zeros = tf.zeros(tf.stack([tf.shape(inputs)[0], hidden_size]))
  c, h = zeros, zeros
  for x in tf.unstack(inputs, num=num_steps, axis=1):
    gates = tf.matmul(tf.concat([x, h], axis=1), p["kernel"]) + p["bias"]
    i, j, f, o = tf.split(gates, 4, axis=1)
    c = c * tf.sigmoid(f + forget_bias) + tf.sigmoid(i) * tf.tanh(j)
    h = tf.tanh(c) * tf.sigmoid(o)
  return tf.matmul(h, p["softmax_w"]) + p["softmax_b"]


def _float32(values):
  return {k: np.asarray(v, np.float32) for k, v in values.items()}


MODELS = {"mlp": mlp, "embedding": embedding, "lstm": lstm}


def get(name, seed=0):
  """The model called `name` ("mlp", "embedding", "lstm"), seeded with `seed`.

  Raises:
    ValueError: unknown name.
  """
  if name not in MODELS:
    raise ValueError("model must be one of %s; got %r" % (sorted(MODELS), name))
  return MODELS[name](seed=seed)


DEFAULT_FACTORY = "parity_model"


def _import_module(spec):
  if spec.endswith(".py") or os.sep in spec or "/" in spec:
    if not os.path.isfile(spec):
      raise ValueError("model: no such file %r" % spec)
    name = "tf1clip_parity_user_" + os.path.splitext(os.path.basename(spec))[0]
    module_spec = importlib.util.spec_from_file_location(name, spec)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module
  try:
    return importlib.import_module(spec)
  except ImportError as e:
    raise ValueError("model: cannot import module %r (%s); give one of %s, a .py file or an "
                     "importable module" % (spec, e, sorted(MODELS))) from None


def as_parity_model(obj, where="model"):
  """Checks a user's model against the protocol and returns it as a `ParityModel`.

  Args:
    obj: a `ParityModel` or any object with ``name``, ``initial_values`` (dict name ->
      array), ``batch_spec`` (dict name -> (dtype, shape)), ``loss_fn`` and ``make_batch``.
    where: how to name `obj` in error messages.

  Returns:
    A `ParityModel` (initial values as float32 arrays).

  Raises:
    ValueError: an attribute is missing or of the wrong kind (named).
  """
  if isinstance(obj, ParityModel):
    return dataclasses.replace(obj, initial_values=_float32(obj.initial_values))
  missing = [a for a in ("name", "initial_values", "batch_spec", "loss_fn", "make_batch")
             if not hasattr(obj, a)]
  if missing:
    raise ValueError("%s must be a ParityModel or have name, initial_values, batch_spec, "
                     "loss_fn and make_batch; %r lacks %s" % (where, obj, ", ".join(missing)))
  if not isinstance(obj.initial_values, dict) or not obj.initial_values:
    raise ValueError("%s.initial_values must be a non-empty dict name -> array; got %r"
                     % (where, type(obj.initial_values).__name__))
  if not isinstance(obj.batch_spec, dict):
    raise ValueError("%s.batch_spec must be a dict name -> (dtype, shape); got %r"
                     % (where, type(obj.batch_spec).__name__))
  for attr in ("loss_fn", "make_batch"):
    if not callable(getattr(obj, attr)):
      raise ValueError("%s.%s must be callable" % (where, attr))
  return ParityModel(str(obj.name), _float32(obj.initial_values), dict(obj.batch_spec),
                     obj.loss_fn, obj.make_batch)


def load(spec, seed=0):
  """A built-in model by name, or a user's model from a module: ``tf1clip parity --model``.

  Args:
    spec: "mlp", "embedding", "lstm"; or ``path/to/file.py`` or ``package.module``,
      optionally followed by ``:factory``. The factory (default ``parity_model``) is called
      as ``factory(seed=seed)`` and returns a `ParityModel` (or an object with its
      attributes, see `as_parity_model`).
    seed: passed to the factory.

  Returns:
    A `ParityModel`.

  Raises:
    ValueError: unknown name, unimportable module, missing factory, or a result that does
      not follow the protocol.
  """
  if not isinstance(spec, str):
    return as_parity_model(spec)
  if spec in MODELS:
    return MODELS[spec](seed=seed)
  module_spec, _, factory_name = spec.partition(":")
  if not (module_spec.endswith(".py") or "." in module_spec or "/" in module_spec
          or factory_name):
    raise ValueError("model must be one of %s or a user module (file.py or package.module, "
                     "optionally :factory); got %r" % (sorted(MODELS), spec))
  module = _import_module(module_spec)
  factory_name = factory_name or DEFAULT_FACTORY
  factory = getattr(module, factory_name, None)
  if not callable(factory):
    raise ValueError("model: module %r has no function %r (the model-builder protocol: "
                     "def %s(seed=0) -> tf1clip.v2.parity_models.ParityModel)"
                     % (module_spec, factory_name, DEFAULT_FACTORY))
  return as_parity_model(factory(seed=seed), where="%s:%s(seed=%d)" % (module_spec,
                                                                       factory_name, seed))

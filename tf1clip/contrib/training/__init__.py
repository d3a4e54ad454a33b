"""`tf.contrib.training.HParams`: named, typed hyperparameters parsed from a flag string, as in TF 1.15.

Place in the data flow (DESIGN.md): **contrib.training** <- compat <- cli (no TensorFlow needed).

    hparams = HParams(learning_rate=0.1, num_layers=2, cells=["lstm", "gru"], use_gpu=False)
    hparams.parse("learning_rate=0.3,cells=[gru,gru],use_gpu=true")

A hyperparameter's type is fixed by its first value (int, float, bool, str, or a list of one of
them); `parse`, `set_hparam`, `override_from_dict` and `parse_json` cast compatible values (an int
to a float) and reject the rest with a ValueError naming the hyperparameter. The protocol-buffer
methods (`to_proto`, `HParams(hparam_def=...)`) are not provided; use `to_json`/`parse_json`.

TF 1.15's training loop and evaluation helpers (`create_train_op`, `train`, `evaluate_repeatedly`,
`checkpoints_iterator`, ...) are tf-slim's, imported by this package.
"""

import json
import numbers
import re

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tensorflow_estimator.python.estimator.inputs.queues.feeding_queue_runner import (
    _FeedingQueueRunner as FeedingQueueRunner)
from tf1clip.contrib.training.python.training.bucket_ops import bucket, bucket_by_sequence_length
from tf1clip.contrib.training.python.training.device_setter import (
    byte_size_load_fn, GreedyLoadBalancingStrategy, RandomStrategy)
from tf1clip.contrib.training.python.training.resample import resample_at_rate, weighted_resample
from tf1clip.contrib.training.python.training.sampling_ops import rejection_sample, stratified_sample
from tf1clip.contrib.training.python.training.sequence_queueing_state_saver import (
    batch_sequences_with_states, NextQueuedSequenceBatch, SequenceQueueingStateSaver)
from tf_slim import training as _training
from tf_slim.training.evaluation import (
    checkpoints_iterator, evaluate_once, evaluate_repeatedly, get_or_create_eval_step, StopAfterNEvalsHook,
    SummaryAtEndHook, wait_for_new_checkpoint)
add_gradients_summaries = _training.add_gradients_summaries
clip_gradient_norms = _training.clip_gradient_norms
clip_gradient_norms_fn = _training.clip_gradient_norms_fn
create_train_op = _training.create_train_op
multiply_gradients = _training.multiply_gradients
train = _training.train

PARAM_RE = re.compile(r"""
  (?P<name>[a-zA-Z][\w\.]*)      # variable name: "var" or "x"
  (\[\s*(?P<index>\d+)\s*\])?    # (optional) index: "1" or None
  \s*=\s*
  ((?P<val>[^,\[]*)              # single value: "a" or None
   |
   \[(?P<vals>[^\]]*)\])         # list of values: None or "1,2,3"
  ($|,\s*)""", re.VERBOSE)


def _parse_fail(name, var_type, value, values):
  raise ValueError("Could not parse hparam '%s' of type '%s' with value '%s' in %s"
                   % (name, var_type.__name__, value, values))


def _reuse_fail(name, values):
  raise ValueError("Multiple assignments to variable '%s' in %s" % (name, values))


def _process_scalar_value(name, parse_fn, var_type, m_dict, values, results):
  """Records `name=value` or `name[i]=value` in `results` (mutated)."""
  try:
    parsed_value = parse_fn(m_dict["val"])
  except ValueError:
    _parse_fail(name, var_type, m_dict["val"], values)
  if not m_dict["index"]:
    if name in results:
      _reuse_fail(name, values)
    results[name] = parsed_value
    return
  if name in results and not isinstance(results[name], dict):
    _reuse_fail(name, values)
  indexed = results.setdefault(name, {})
  index = int(m_dict["index"])
  if index in indexed:
    _reuse_fail("{}[{}]".format(name, index), values)
  indexed[index] = parsed_value


def _process_list_value(name, parse_fn, var_type, m_dict, values, results):
  """Records `name=[v1,v2,...]` in `results` (mutated)."""
  if m_dict["index"] is not None:
    raise ValueError("Assignment of a list to a list index.")
  elements = [e for e in re.split("[ ,]", m_dict["vals"]) if e]
  if name in results:
    _reuse_fail(name, values)
  try:
    results[name] = [parse_fn(e) for e in elements]
  except ValueError:
    _parse_fail(name, var_type, m_dict["vals"], values)


def _cast_to_type_if_compatible(name, param_type, value):
  """Casts `value` to `param_type`, refusing str<->number, bool<->other and float->int."""
  fail_msg = "Could not cast hparam '%s' of type '%s' from value %r" % (name, param_type, value)
  if type(value) == param_type:  # pylint: disable=unidiomatic-typecheck
    return value
  if issubclass(param_type, type(None)):  # a None-valued hparam takes anything
    return value
  if issubclass(param_type, (str, bytes)) and not isinstance(value, (str, bytes)):
    raise ValueError(fail_msg)
  if issubclass(param_type, bool) != isinstance(value, bool):
    raise ValueError(fail_msg)
  if issubclass(param_type, numbers.Integral) and not isinstance(value, numbers.Integral):
    raise ValueError(fail_msg)
  if issubclass(param_type, numbers.Number) and not isinstance(value, numbers.Number):
    raise ValueError(fail_msg)
  return param_type(value)


def parse_values(values, type_map, ignore_unknown=False):
  """Parses "name=value,name=[v1,v2],name[i]=value" into a dict, typed by `type_map`.

  Args:
    values: the string (e.g. a --hparams flag).
    type_map: name -> type (the element type for lists).
    ignore_unknown: skip names missing from `type_map` instead of raising.

  Returns:
    A dict name -> value, list of values, or {index: value} for index assignments.

  Raises:
    ValueError: on malformed input, unknown names, unparsable values, or a name assigned twice.
  """
  results = {}
  pos = 0
  while pos < len(values):
    m = PARAM_RE.match(values, pos)
    if not m:
      raise ValueError("Malformed hyperparameter value: %s" % values[pos:])
    pos = m.end()
    m_dict = m.groupdict()
    name = m_dict["name"]
    if name not in type_map:
      if ignore_unknown:
        continue
      raise ValueError("Unknown hyperparameter type for %s" % name)
    type_ = type_map[name]
    if type_ == bool:
      def parse(value, name=name, type_=type_):
        if value in ("true", "True"):
          return True
        if value in ("false", "False"):
          return False
        try:
          return bool(int(value))
        except ValueError:
          _parse_fail(name, type_, value, values)
    else:
      parse = type_
    if m_dict["val"] is not None:
      _process_scalar_value(name, parse, type_, m_dict, values, results)
    elif m_dict["vals"] is not None:
      _process_list_value(name, parse, type_, m_dict, values, results)
    else:
      _parse_fail(name, type_, "", values)
  return results


class HParams:
  """A set of hyperparameters as typed attributes, overridable from a string, dict or JSON."""

  _HAS_DYNAMIC_ATTRIBUTES = True

  def __init__(self, hparam_def=None, model_structure=None, **kwargs):
    """Creates the hyperparameters `kwargs` (name=value), typed by their values.

    Args:
      hparam_def: not supported (an HParamDef protocol buffer in TF1).
      model_structure: an arbitrary object kept for `get_model_structure`.
      **kwargs: the hyperparameters.

    Raises:
      NotImplementedError: if `hparam_def` is given.
      ValueError: if a name is reserved (an HParams attribute) or a list is empty.
    """
    self._hparam_types = {}
    self._model_structure = model_structure
    if hparam_def is not None:
      raise NotImplementedError(
          "HParams(hparam_def=...) reads a TF1 HParamDef protocol buffer, which tf1clip does not "
          "provide; serialize with to_json() and read back with parse_json()")
    for name, value in kwargs.items():
      self.add_hparam(name, value)

  def add_hparam(self, name, value):
    """Adds a hyperparameter; its type is that of `value` (of its first element for lists).

    Raises:
      ValueError: if `name` is already an attribute, or `value` is an empty list.
    """
    if getattr(self, name, None) is not None:
      raise ValueError("Hyperparameter name is reserved: %s" % name)
    if isinstance(value, (list, tuple)):
      if not value:
        raise ValueError("Multi-valued hyperparameters cannot be empty: %s" % name)
      self._hparam_types[name] = (type(value[0]), True)
    else:
      self._hparam_types[name] = (type(value), False)
    setattr(self, name, value)

  def set_hparam(self, name, value):
    """Sets an existing hyperparameter, casting `value` to its type when compatible.

    Raises:
      KeyError: if the hyperparameter does not exist.
      ValueError: on a list/scalar mismatch or an incompatible type.
    """
    param_type, is_list = self._hparam_types[name]
    if isinstance(value, list):
      if not is_list:
        raise ValueError("Must not pass a list for single-valued parameter: %s" % name)
      setattr(self, name, [_cast_to_type_if_compatible(name, param_type, v) for v in value])
    else:
      if is_list:
        raise ValueError("Must pass a list for multi-valued parameter: %s." % name)
      setattr(self, name, _cast_to_type_if_compatible(name, param_type, value))

  def del_hparam(self, name):
    """Removes a hyperparameter (nothing happens if it does not exist)."""
    if hasattr(self, name):
      delattr(self, name)
      del self._hparam_types[name]

  def parse(self, values):
    """Overrides hyperparameters from "name=value,..." (see `parse_values`); returns self."""
    type_map = {name: param_type for name, (param_type, _) in self._hparam_types.items()}
    return self.override_from_dict(parse_values(values, type_map))

  def override_from_dict(self, values_dict):
    """Overrides hyperparameters from a dict name -> value; returns self."""
    for name, value in values_dict.items():
      self.set_hparam(name, value)
    return self

  def set_model_structure(self, model_structure):
    self._model_structure = model_structure

  def get_model_structure(self):
    return self._model_structure

  def to_json(self, indent=None, separators=None, sort_keys=False):
    """The hyperparameters as a JSON object string (arguments as for `json.dumps`)."""
    return json.dumps(self.values(), indent=indent, separators=separators, sort_keys=sort_keys)

  def parse_json(self, values_json):
    """Overrides hyperparameters from a JSON object string; returns self."""
    return self.override_from_dict(json.loads(values_json))

  def values(self):
    """The hyperparameters as a dict name -> value."""
    return {n: getattr(self, n) for n in self._hparam_types}

  def get(self, key, default=None):
    """The value of `key` if it exists (checking `default` is type-compatible), else `default`."""
    if key in self._hparam_types:
      if default is not None:
        param_type, is_param_list = self._hparam_types[key]
        type_str = "list<%s>" % param_type if is_param_list else str(param_type)
        fail_msg = ("Hparam '%s' of type '%s' is incompatible with default=%s"
                    % (key, type_str, default))
        is_default_list = isinstance(default, list)
        if is_param_list != is_default_list:
          raise ValueError(fail_msg)
        try:
          for value in (default if is_default_list else [default]):
            _cast_to_type_if_compatible(key, param_type, value)
        except ValueError as e:
          raise ValueError("%s. %s" % (fail_msg, e)) from None
      return getattr(self, key)
    return default

  def __contains__(self, key):
    return key in self._hparam_types

  def __str__(self):
    return str(sorted(self.values().items()))

  def __repr__(self):
    return "%s(%s)" % (type(self).__name__, str(self))


__getattr__ = _catalog.module_getattr(__name__)

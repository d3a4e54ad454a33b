"""tf.contrib.framework: the global step and choosing variables by collection, scope and suffix."""

import pytest
import tensorflow as tf

from tf1clip.contrib import framework
from tf1clip.contrib import layers

V1 = tf.compat.v1


def _names(variables):
  return [v.op.name for v in variables]


def _model():
  x = tf.ones([2, 3])
  with V1.variable_scope("encoder"):
    h = layers.fully_connected(x, 4, scope="fc1")
  layers.fully_connected(h, 2, scope="logits")
  V1.get_variable("counter", [], trainable=False)
  framework.variable("aux", [], collections=[V1.GraphKeys.LOCAL_VARIABLES])


def test_global_step_helpers_are_tf_ones(graph):
  step = framework.get_or_create_global_step()
  assert step is framework.get_or_create_global_step() is framework.get_global_step()
  assert step.op.name == "global_step"


def test_get_variables_filters_by_scope_suffix_and_collection(graph):
  _model()
  assert _names(framework.get_variables("encoder")) == ["encoder/fc1/weights", "encoder/fc1/biases"]
  assert _names(framework.get_variables(suffix="biases")) == ["encoder/fc1/biases", "logits/biases"]
  assert _names(framework.get_variables_by_name("weights")) == ["encoder/fc1/weights",
                                                               "logits/weights"]
  with V1.variable_scope("logits", reuse=True) as scope:
    assert _names(framework.get_variables(scope)) == ["logits/weights", "logits/biases"]
  assert _names(framework.get_model_variables()) == [
      "encoder/fc1/weights", "encoder/fc1/biases", "logits/weights", "logits/biases"]
  assert "counter" not in _names(framework.get_trainable_variables())
  assert _names(framework.get_local_variables()) == ["aux"]


def test_get_variables_to_restore_includes_and_excludes_scopes(graph):
  _model()
  assert _names(framework.get_variables_to_restore(exclude=["logits"])) == [
      "encoder/fc1/weights", "encoder/fc1/biases", "counter"]
  assert _names(framework.get_variables_to_restore(include=["logits", "counter"],
                                                   exclude=["logits/biases"])) == [
      "logits/weights", "counter"]
  with pytest.raises(TypeError, match="exclude must be a list or tuple of scope names; got a str"):
    framework.get_variables_to_restore(exclude="logits")
  with pytest.raises(TypeError, match="include must be a list or tuple"):
    framework.get_variables_to_restore(include="logits")


def test_model_variable_joins_model_and_extra_collections_once(graph):
  var = framework.model_variable("w", [2], collections=["extra"])
  assert framework.get_model_variables() == [var]
  assert V1.get_collection("extra") == [var]
  framework.add_model_variable(var)
  other = V1.get_variable("plain", [1])
  framework.add_model_variable(other)
  assert framework.get_model_variables() == [var, other]
  placed = []
  framework.variable("placed", [1], device=lambda op: placed.append(op.name) or "")
  assert placed  # a device function, as TF1's device argument allowed

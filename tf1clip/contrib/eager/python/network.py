"""`tfe.Network`, `tfe.Sequential` and `tfe.save_network_checkpoint` / `tfe.restore_network_checkpoint`.

Mirrors TF 1.15's `tensorflow/contrib/eager/python/network.py`.

TF 1.15's contrib/eager/python/network.py on TensorFlow 2.21: a `Network` is a tf.layers `Layer` (tf-keras'
legacy `Layer`, the class `tf.layers` serves under tf1clip) that holds the layers given to `track_layer`; its
variables are named from its own variable scope ("net/dense/kernel", "net/dense_1/kernel", a sub-Network's
"net/sub/dense/kernel"), with TF 1.15's rules for anonymous and duplicate names. `save_network_checkpoint` writes
the Network's variables with tf.compat.v1.train.Saver under their names less the Network's prefix ("dense/kernel");
`restore_network_checkpoint` assigns existing variables at once and those not created yet when the layer creates
them (a custom getter on the layer's variable scope). Both work in a graph (default session) and eagerly.
"""

import collections
import functools
import inspect
import os
import weakref

import tensorflow as tf
from tensorflow.python.ops import variable_scope as _variable_scope  # variable_scopes_count: no public API
from tf_keras.api._v1.keras.__internal__.legacy import layers as _tf_layers

V1 = tf.compat.v1
_BaseLayer = _tf_layers.Layer

# pylint: disable=protected-access
# As in TF 1.15: Network reaches into its sub-layers' (and its parent's) naming and scope state.

# What TF 1.15 told a Network's user to move to (its deprecation warning and its object-checkpoint error).
_NETWORK_DEPRECATION_MESSAGE = (
    "Subclass `tf.keras.Model` instead (see its documentation): it replaces `tfe.Network` in most code. "
    "`track_layer` is neither needed nor supported there, since a Model tracks the `Layer`s assigned to its "
    "attributes, so porting is mostly deleting the `track_layer` calls (their result is usually assigned to an "
    "attribute already).\n\n`tf.keras.Model` takes every TensorFlow `Layer`, `tf.layers` ones included; moving to "
    "the `tf.keras.layers` versions together with `tf.keras.Model` keeps the variable names.")

def _network_name_scope_naming(current_variable_scope):
  """Op naming matching variable naming (kept for code that reads it; TF 1.15's Layer no longer calls it)."""
  return current_variable_scope.name + "/"

def _shared_name(variable):
  """The variable's name without ":0" (TF's `Variable._shared_name`)."""
  name = variable.name
  return name[:name.index(":")] if ":" in name else name

def _fn_args(fn):
  """The positional argument names of `fn` (TF 1.15's function_utils.fn_args: partials, callable objects)."""
  if isinstance(fn, functools.partial):
    args = _fn_args(fn.func)
    return tuple(a for a in args[len(fn.args):] if a not in (fn.keywords or {}))
  if not inspect.isroutine(fn) and not inspect.isclass(fn) and hasattr(fn, "__call__"):
    fn = fn.__call__
  args = inspect.getfullargspec(fn).args
  if inspect.ismethod(fn) and args:
    args.pop(0)
  return tuple(args)

class Network(_BaseLayer):
  """Represents the composition of a set of Layers (TF 1.15's `tfe.Network`; deprecated there for tf.keras.Model).

  Layers (and other Networks) are added with `track_layer` and used in an overridden `call`; after the first call
  `Network.variables` lists their variables, named under the Network's scope ("net/dense/kernel:0").
  """

  def __init__(self, name=None):
    """Configures the Network.

    Args:
      name: the name (unique where the Network is first added to another Network or first called); None names it
        from the class ("MyNetwork" -> "my_network", "my_network_1", ...).

    Raises:
      ValueError: `name` is a VariableScope or contains "/".
    """
    if tf.executing_eagerly():
      V1.logging.warning("** tfe.Network is deprecated and will be removed in a future version.\n\n%s",
                         _NETWORK_DEPRECATION_MESSAGE)
    if isinstance(name, V1.VariableScope):
      raise ValueError("VariableScopes are not valid Network names.")
    if name is not None and "/" in name:
      raise ValueError("Forward slashes ('/') are not allowed in Network names.")
    super().__init__(name=name)
    self._layers = []
    self._sub_layer_name_uids = collections.defaultdict(int)
    # None at first; False for a Network first built as top-level, else a weak reference to its first parent.
    self._first_parent = None
    self._non_network_sublayers = []
    self._owned_layers = {}
    # The scope to use if we end up without a parent.
    self._default_parent_variable_scope = V1.get_variable_scope()
    # The variable scope store's counts (the live dict, as TF 1.15 holds it): a scope with the name we want created
    # in the parent scope (even one closed before build) is a collision.
    self._variable_scope_counts_on_init = _variable_scope.get_variable_scope_store().variable_scopes_count

  def _gather_saveables_for_checkpoint(self):
    raise NotImplementedError("tfe.Network does not support object-based checkpointing.\n\n%s" %
                              _NETWORK_DEPRECATION_MESSAGE)

  def _name_scope_name(self, current_variable_scope):
    """Overrides Layer op naming to match variable naming."""
    return _network_name_scope_naming(current_variable_scope=current_variable_scope)

  def _init_set_name(self, name):
    # Anonymous Networks (name=None) get their final name when added to another Network or first built/called.
    # An explicit name is always the final name (an error if it turns out not to be unique).
    self._name = name
    self._base_name = None

  def _scope_names_at_init(self):
    """The names (relative to the scope this Network was made in) of the scopes that existed then, which an
    anonymous top-level Network's name must avoid ("" entries, other scopes' names: None)."""
    outer = self._default_parent_variable_scope.name
    prefix = outer + "/" if outer else ""
    return {name[len(prefix):] if name.startswith(prefix) else None
            for name in self._variable_scope_counts_on_init if name}

  def _finalize_name(self, parent_network):
    if not self._name:
      # anonymous: numbered among the parent's sub-layers, or (top-level) in the graph's name-uid map
      if parent_network:
        uids, avoid = parent_network._sub_layer_name_uids, parent_network._owned_layers
      else:
        uids, avoid = None, self._scope_names_at_init()
      self._name, self._base_name = self._make_unique_name(
          name_uid_map=uids, avoid_names=avoid, namespace=self._default_parent_variable_scope.name, zero_based=True)
    if self._parent() is None:
      # the first parent is remembered (False: none, a top-level Network) to check the scope name against later
      self._first_parent = weakref.ref(parent_network) if parent_network else parent_network

  def _parent(self):
    """The first parent Network; None when not yet added to one, or gone; False for a top-level Network."""
    if not self._first_parent:
      return self._first_parent
    return self._first_parent()

  def _name_taken(self):
    return ValueError("A Network named '%s' already exists (or a variable_scope was created with this name). Names "
                      "must be unique." % (self._name,))

  def _set_scope(self, scope=None):
    if self._scope is not None:
      return
    parent = self._parent()
    if parent is None:
      # never added to a Network (or its parent is gone): top-level from now on, even if added to one later
      self._finalize_name(parent_network=False)
    if scope is not None:
      raise ValueError("Networks may not be created with explicit scopes.")
    if parent:
      parent._set_scope()
    with V1.variable_scope(parent._scope if parent else self._default_parent_variable_scope) as outer:
      if outer.name + "/" + self._name in self._variable_scope_counts_on_init:
        raise self._name_taken()
      # default_name makes the scope unique; a suffix added to it means the name was taken
      with V1.variable_scope(None, use_resource=True, default_name=self._name) as scope:
        self._scope = scope
        prefix, _, own = scope.name.rpartition("/")
        if own != self._name:
          raise self._name_taken()
        if parent and prefix != parent.scope_name:
          raise ValueError(
              "Network variable names must match a nesting of sub-Network names. Expected prefix '%s' from parent "
              "network, but got '%s' when attempting to create a variable_scope for Network '%s'. Likely an "
              "explicit variable_scope was inserted into the nesting." % (parent.scope_name, prefix, self._name))
        if not parent and prefix:
          # inside a variable_scope but no Network: the name takes the scope's full prefix
          self._name = scope.name
    for sublayer in self._non_network_sublayers:
      self._set_scope_for_nonnetwork_sublayer(sublayer)

  def _set_scope_for_nonnetwork_sublayer(self, sublayer):
    if sublayer._scope is None:
      owner = None if sublayer._first_parent is None else sublayer._first_parent()
      if owner:
        owner._set_scope()
        parent_scope = owner._scope
      else:
        self._finalize_name(False)
        raise ValueError(("The parent of a Layer added to Network %s was garbage collected before the Layer was "
                          "built. If this limitation bothers you please file a feature request.") % (self.name,))
      with V1.variable_scope(parent_scope):
        # Variable names of direct sub-layers follow the Network convention (the layer's name under the Network).
        with V1.variable_scope(None, use_resource=True, default_name=sublayer.name) as sub_scope:
          sublayer._scope = sub_scope
          sublayer._name_scope_name = _network_name_scope_naming

  @property
  def name(self):
    if self._name is None:
      raise ValueError("The network does not yet have a final name, but a name was requested for it. Networks get "
                       "a name when they are added to another Network via track_layer, or when they are first "
                       "called/built.")
    return self._name

  def track_layer(self, layer):
    """Tracks `layer` (a tf.layers Layer or Network) in this Network; returns it.

    Raises:
      RuntimeError: Network.__init__ was not called.
      TypeError: `layer` is not a tf.layers Layer.
      ValueError: another Layer of the same name was added to this Network.
    """
    if not hasattr(self, "_layers"):
      raise RuntimeError("Need to call Network.__init__ before adding layers")
    if not isinstance(layer, _BaseLayer):
      raise TypeError("Network.track_layer() passed type %s, not a tf.layers.Layer" % (type(layer),))
    # Always use `ResourceVariable` with legacy layers.
    layer._use_resource_variables = True
    if isinstance(layer, Network):
      layer._finalize_name(parent_network=self)
    else:
      # A non-Network layer is renamed to the Network's conventions (anonymous layers are numbered per Network),
      # isolating Network variable naming from layers built outside it.
      unowned = not hasattr(layer, "_first_parent") or layer._first_parent() is None
      if not layer.built and unowned:
        if layer._name != layer._base_name:
          # an anonymous layer (its name differs from its base name): numbered among this Network's layers
          layer._name, layer._base_name = layer._make_unique_name(
              name_uid_map=self._sub_layer_name_uids, avoid_names=self._owned_layers, zero_based=True)
        layer._first_parent = weakref.ref(self)
      if not layer.built:
        self._non_network_sublayers.append(layer)
    if not layer.built and layer._first_parent and self is layer._first_parent():
      if layer.name in self._owned_layers:
        if self._owned_layers[layer.name] is layer:
          return layer
        raise ValueError("Attempt to add two Layers with the name '%s' to the same Network." % (layer.name))
      self._owned_layers[layer.name] = layer
    self._layers.append(layer)
    return layer

  def get_layer(self, name=None, index=None):
    """A tracked layer by name (the first of that name) or index.

    Raises:
      ValueError: neither or both of `name` and `index` given, or no such layer.
    """
    if index is None:
      if not name:
        raise ValueError("Provide either a layer name or layer index.")
      named = [layer for layer in self._layers if layer.name == name]
      if not named:
        raise ValueError("No such layer: " + name)
      return named[0]
    if name is not None:
      raise ValueError("Exactly one of 'index' or 'name' must be provided")
    if index >= len(self._layers):
      raise ValueError("Was asked to retrieve layer at index %s but model only has %d layers." %
                       (index, len(self._layers)))
    return self._layers[index]

  # The Layer interface.

  def _of_layers(self, attribute):
    """The concatenation of `attribute` (a list) over the tracked layers, in order."""
    return [item for layer in self._layers for item in getattr(layer, attribute)]

  weights = property(lambda self: self._of_layers("weights"))
  trainable_weights = property(lambda self: self._of_layers("trainable_weights"))
  non_trainable_weights = property(lambda self: self._of_layers("non_trainable_weights"))

  @property
  def trainable(self):
    return True

  @trainable.setter
  def trainable(self, value):
    if not value:
      # Which layers train is decided at the trainer level (a layer can be shared between networks).
      raise AttributeError("cannot mark Network as not trainable")

  @property
  def layers(self):
    return self._layers

  @property
  def updates(self):
    """This Network's updates and its layers' (TF 1.15's Layer gathered children's updates)."""
    return list(super().updates) + self._of_layers("updates")

  def add_variable(self, name, shape, dtype=None, initializer=None, regularizer=None, trainable=True,
                   constraint=None):
    raise RuntimeError("add_variable not supported in Network class yet. Please file an issue at "
                       "https://github.com/tensorflow/tensorflow/issues/new if this is important to you")

  def add_loss(self, losses, inputs=None):
    raise RuntimeError("add_loss is not supported in Network class yet. Please file an issue at "
                       "https://github.com/tensorflow/tensorflow/issues/new if this is important to you")

  @property
  def losses(self):
    """The losses of the Network's layers (eagerly, regularizers are evaluated here)."""
    return self._of_layers("losses")

class Sequential(Network):
  """A linear sequence of Layers or functions: each one's output is the next one's input.

  Args:
    layers_funcs: optional sequence of tf.layers Layers or callables.
    name: optional name of this Network.
  """

  def __init__(self, layers_funcs=None, name=None):
    super().__init__(name=name)
    self._layers_funcs = []  # (takes `training`?, layer or function), in order
    for layer_func in layers_funcs or ():
      self.add(layer_func)

  def add(self, layer_func):
    if isinstance(layer_func, _BaseLayer):
      args = _fn_args(layer_func.call)
      self.track_layer(layer_func)
    elif callable(layer_func):
      args = _fn_args(layer_func)
    else:
      raise TypeError("Sequential.add() takes only tf.layers.Layer objects or callables; not '%s' of type '%s'." %
                      (layer_func, type(layer_func)))
    self._layers_funcs.append((("training" in args), layer_func))

  def call(self, inputs, training=None):
    """Calls each Layer in the order they were added (passing `training` to those that take it, if given)."""
    for takes_training, layer_func in self._layers_funcs:
      inputs = layer_func(inputs, training) if takes_training and training is not None else layer_func(inputs)
    return inputs

_DeferredRestoration = collections.namedtuple("_DeferredRestoration", [
    "map_func",  # the map_func to use (the user's or the default)
    "map_func_is_user",  # True if the user gave map_func (for error messages)
    "checkpointed_variables_to_restore",  # checkpoint name -> value for variables not created yet (None: done)
    "restored_variables",  # checkpoint name -> the variable restored from it (error checking)
    "session",  # the session to restore with (graph mode)
    "network_name",  # for error messages
    "network_scope_name",
])

def _default_naming_conflict_error_message(mapped_name, first_variable, second_variable, network_name,
                                           network_scope_name):
  return (("The default checkpoint variable name mapping strategy for Network '%s' resulted in a naming "
           "conflict. We attempted to strip off the variable prefix for the Network ('%s'), but this resulted in "
           "two variables named '%s' (originally '%s' and '%s'). This should only happen when using variable "
           "sharing (i.e. the Network contains Networks or Layers which were first added to another Network, and "
           "therefore have that Network's variable prefix). One solution is to pass `map_func=lambda n: n` to "
           "save and restore to use fully qualified variable names in the checkpoint, although this will require "
           "that the variable prefix of the Network being restored into is also '%s'. You may alternatively write "
           "an arbitrary mapping.") %
          (network_name, network_scope_name, mapped_name, _shared_name(first_variable),
           _shared_name(second_variable), network_scope_name))

def _restore_custom_map_func_error_message(mapped_name, first_variable, second_variable, network_name,
                                           network_scope_name):
  return (("The map_func passed to restore_network_checkpoint for the Network '%s' resulted in two variables "
           "named '%s' (originally '%s' and '%s'). Since this is also an error when saving, this Network was "
           "probably not saved with this map_func. Note that map_func always maps from full variable names to "
           "checkpoint names; there is no need to specify an inverse mapping.\n\nTry stripping less from the "
           "variable names, or renaming parts of the Network. For reference, variables created by sub-Layers of "
           "this Network are prefixed with '%s', but if they are re-used after being added to another Network "
           "they will have that Network's full variable prefix instead.") %
          (network_name, mapped_name, _shared_name(first_variable), _shared_name(second_variable),
           network_scope_name))

def _make_custom_getter_for_deferred_restorations():
  """(custom getter, its list of _DeferredRestoration): the getter gives new variables their checkpointed value.

  Later restorations (appended last) take priority over older ones.
  """
  deferred_restorations = []

  # pylint: disable-next=keyword-arg-before-vararg
  def _custom_getter(getter, name, shape=None, dtype=None, initializer=None, *args, **kwargs):
    delayed_restoration = None
    found_value = False
    value_to_restore = None
    checkpoint_name = None
    for delayed_restoration in reversed(deferred_restorations):
      checkpoint_name = delayed_restoration.map_func(name)
      if checkpoint_name in delayed_restoration.checkpointed_variables_to_restore:
        found_value = True
        value_to_restore = delayed_restoration.checkpointed_variables_to_restore[checkpoint_name]
      if found_value:
        break
    # None: the value was already used by another variable; no initializer then.
    if found_value and value_to_restore is not None:
      initializer = value_to_restore
      shape = None
    variable = getter(name, shape=shape, dtype=dtype, initializer=initializer, *args, **kwargs)
    if found_value and value_to_restore is not None:
      # Mark as already restored from this checkpoint.
      delayed_restoration.checkpointed_variables_to_restore[checkpoint_name] = None
      if not tf.executing_eagerly():
        delayed_restoration.session.run(variable.initializer)
    if found_value:
      # Error checking runs even if the value was restored before.
      if delayed_restoration.restored_variables.setdefault(checkpoint_name, variable) is not variable:
        message = (_restore_custom_map_func_error_message if delayed_restoration.map_func_is_user else
                   _default_naming_conflict_error_message)
        raise ValueError(message(mapped_name=checkpoint_name,
                                 first_variable=delayed_restoration.restored_variables[checkpoint_name],
                                 second_variable=variable, network_name=delayed_restoration.network_name,
                                 network_scope_name=delayed_restoration.network_scope_name))
    return variable

  return _custom_getter, deferred_restorations

def _make_prefix_stripping_map_fn(scope_name):
  """The default map_func: strips `scope_name + "/"` off variable names (others stay fully qualified)."""

  def _strip_variable_prefix(original_variable_name):
    scope_name_with_slash = scope_name + "/"
    if original_variable_name.startswith(scope_name_with_slash):
      return original_variable_name[len(scope_name_with_slash):]
    return original_variable_name

  return _strip_variable_prefix

def _default_session():
  return None if tf.executing_eagerly() else V1.get_default_session()

def save_network_checkpoint(network, save_path, global_step=None, map_func=None):
  """Saves the Network's variables to a checkpoint; returns the checkpoint prefix.

  Args:
    network: a Network that was called.
    save_path: a checkpoint prefix, or a directory (the checkpoint is then named after the Network).
    global_step: the step suffix of the name; None uses the default global step if there is one.
    map_func: variable name ("my_network_1/dense_1/kernel") -> checkpoint name; by default the Network's prefix
      (`scope_name + "/"`) is stripped.

  Raises:
    ValueError: the Network was not called yet, or two variables map to the same name.
  """
  if not network.built:
    raise ValueError("Attempt to save the Network before it was first called. This means variables have not yet "
                     "been created, so there is nothing to save.")
  network._set_scope()  # scope_name should be available to map_funcs
  if global_step is None:
    global_step = V1.train.get_global_step()
  if os.path.isdir(save_path):
    # A directory: name the checkpoint after the Network.
    save_path = os.path.join(save_path, network.name.replace("/", "_"))
  user_map_func = map_func
  if map_func is None:
    map_func = _make_prefix_stripping_map_fn(network.scope_name)
  variable_map = {}
  for variable in network.variables:
    mapped_name = map_func(_shared_name(variable))
    if variable_map.setdefault(mapped_name, variable) is not variable:
      if user_map_func is None:
        raise ValueError(_default_naming_conflict_error_message(
            mapped_name=mapped_name, first_variable=variable_map[mapped_name], second_variable=variable,
            network_name=network.name, network_scope_name=network.scope_name))
      raise ValueError(
          ("The map_func passed to save_network_checkpoint for the Network '%s' resulted in two variables named "
           "'%s' ('%s' and '%s'). Try stripping less from the variable names, or renaming parts of the Network. "
           "For reference, variables created by sub-Layers of this Network are prefixed with '%s', but if they "
           "are re-used after being added to another Network, they will have that Network's full variable prefix "
           "instead.") % (network.name, mapped_name, _shared_name(variable_map[mapped_name]),
                          _shared_name(variable), network.scope_name))
  return V1.train.Saver(variable_map).save(sess=_default_session(), save_path=save_path, write_meta_graph=False,
                                           global_step=global_step)

def _add_deferred_restoration(layer, deferred_restoration):
  """Adds `deferred_restoration` to `layer` and all its children (the newest request wins for a variable)."""
  if isinstance(layer, Network):
    layer._set_scope()
  # A deferred restoration queue and custom getter per Layer, set on its own scope (no recursion up the tree).
  if not hasattr(layer, "_custom_getter"):
    assert not hasattr(layer, "_deferred_restorations")
    layer._custom_getter, layer._deferred_restorations = _make_custom_getter_for_deferred_restorations()
  layer._scope.set_custom_getter(layer._custom_getter)
  layer._deferred_restorations.append(deferred_restoration)
  if isinstance(layer, Network):
    for sublayer in layer.layers:
      if not isinstance(sublayer, Network):
        layer._set_scope_for_nonnetwork_sublayer(sublayer)
      _add_deferred_restoration(sublayer, deferred_restoration)

def _restore_existing_variables(network, save_path, map_func, user_map_func):
  """Restores the Network's existing variables with a Saver; returns {checkpoint name: variable} of them.

  Raises:
    ValueError: two variables map to one name.
  """
  existing_variables_by_checkpoint_name = {}
  for variable in network.variables:
    checkpoint_name = map_func(_shared_name(variable))
    if existing_variables_by_checkpoint_name.setdefault(checkpoint_name, variable) is not variable:
      message = (_default_naming_conflict_error_message if user_map_func is None else
                 _restore_custom_map_func_error_message)
      raise ValueError(message(mapped_name=checkpoint_name,
                               first_variable=existing_variables_by_checkpoint_name[checkpoint_name],
                               second_variable=variable, network_name=network.name,
                               network_scope_name=network.scope_name))
  if existing_variables_by_checkpoint_name:
    V1.train.Saver(var_list=existing_variables_by_checkpoint_name).restore(sess=_default_session(),
                                                                          save_path=save_path)
  return existing_variables_by_checkpoint_name

def _set_restore_on_create(network, save_path, map_func, user_map_func, existing_variables_by_checkpoint_name):
  """Requests deferred restorations of the checkpoint's entries that no existing variable took."""
  checkpoint_reader = tf.train.load_checkpoint(save_path)
  checkpointed_variables_to_restore = {}
  for checkpoint_name, _ in tf.train.list_variables(save_path):
    if checkpoint_name in existing_variables_by_checkpoint_name:
      continue  # already created and restored
    checkpointed_variables_to_restore[checkpoint_name] = checkpoint_reader.get_tensor(checkpoint_name)
  # Only when some entries are left (so restoring a built Network in a loop does not grow memory).
  if checkpointed_variables_to_restore:
    # A name for error messages: if not added to another Network yet, we're top-level.
    network._finalize_name(False)
    network._set_scope()
    deferred_restoration = _DeferredRestoration(
        map_func=map_func, map_func_is_user=(user_map_func is not None),
        checkpointed_variables_to_restore=checkpointed_variables_to_restore, restored_variables={},
        session=_default_session(), network_name=network.name, network_scope_name=network.scope_name)
    _add_deferred_restoration(network, deferred_restoration)

def restore_network_checkpoint(network, save_path, map_func=None):
  """Restores the Network from a checkpoint.

  Existing variables are assigned at once (in a graph with the default session); checkpoint entries without a
  variable yet give their value to the variable when it is created. Later restorations take priority.

  Args:
    network: a Network.
    save_path: what save_network_checkpoint returned, or a directory (the checkpoint named after the Network).
    map_func: the same map_func as for save_network_checkpoint (variable name -> checkpoint name).
  """
  network._finalize_name(parent_network=False)
  network._set_scope()  # scope_name should be available to map_funcs
  if os.path.isdir(save_path):
    save_path = os.path.join(save_path, network.name.replace("/", "_"))
  user_map_func = map_func
  if map_func is None:
    map_func = _make_prefix_stripping_map_fn(network.scope_name)
  existing_variables_by_checkpoint_name = _restore_existing_variables(
      network=network, save_path=save_path, map_func=map_func, user_map_func=user_map_func)
  _set_restore_on_create(network=network, save_path=save_path, map_func=map_func, user_map_func=user_map_func,
                         existing_variables_by_checkpoint_name=existing_variables_by_checkpoint_name)

"""`tf.contrib.predictor`: call an exported model (or an estimator's latest checkpoint) like a function (TF 1.15's code).

`from_saved_model(export_dir, signature_def_key=None, ...)` loads the SavedModel's MetaGraph (tags "serve" by
default) into its own graph and session; `from_estimator(estimator, serving_input_receiver_fn, output_key)`
builds the estimator's PREDICT graph for the receiver and restores its latest checkpoint. Either way the
predictor maps a dict of inputs (the signature's input keys) to a dict of numpy outputs, through
`feed_tensors` / `fetch_tensors`. `from_contrib_estimator(estimator, prediction_input_fn, ...)` does the same
for a contrib.learn Estimator (tf1clip.contrib.learn's, custom model_fn) and an `InputFnOps` input function:
the feeds are the InputFnOps' default inputs, the fetches the ModelFnOps' output alternative (or predictions).
One deliberate difference: a `signature_def_key` the SavedModel lacks is a ValueError naming the signatures
there (TF 1.15 indexed the protobuf map, which made an empty signature and a predictor with nothing to feed).
"""

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog

V1 = tf.compat.v1
DEFAULT_TAGS = "serve"
_DEFAULT_INPUT_ALTERNATIVE_FORMAT = "default_input_alternative:{}"


class Predictor(object):
  """A graph, a session, and the feed / fetch tensors of one signature."""

  graph = property(lambda self: self._graph)
  session = property(lambda self: self._session)
  feed_tensors = property(lambda self: self._feed_tensors)
  fetch_tensors = property(lambda self: self._fetch_tensors)

  def __repr__(self):
    return "{} with feed tensors {} and fetch_tensors {}".format(
        type(self).__name__, self._feed_tensors, self._fetch_tensors)

  def __call__(self, input_dict):
    """{output key: numpy value} for `input_dict` {input key: value} (missing keys are not fed)."""
    unexpected = set(input_dict) - set(self.feed_tensors)
    if unexpected:
      raise ValueError("Got unexpected keys in input_dict: {}\nexpected: {}".format(
          unexpected, set(self.feed_tensors)))
    feed_dict = {self.feed_tensors[key]: input_dict[key] for key in self.feed_tensors
                 if input_dict.get(key) is not None}
    return self._session.run(fetches=self.fetch_tensors, feed_dict=feed_dict)


def _meta_graph_def(export_dir, tags):
  from tensorflow.python.saved_model import loader_impl  # pylint: disable=import-outside-toplevel
  wanted = {tag.strip() for tag in tags.split(",")}
  for meta_graph_def in loader_impl.parse_saved_model(export_dir).meta_graphs:
    if set(meta_graph_def.meta_info_def.tags) == wanted:
      return meta_graph_def
  raise ValueError("Could not find MetaGraphDef with tags {}".format(tags))


def _signature_def(signature_def_key, export_dir, tags):
  key = signature_def_key or tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY
  signatures = _meta_graph_def(export_dir, tags).signature_def
  if key in signatures:
    return signatures[key]
  alternative = _DEFAULT_INPUT_ALTERNATIVE_FORMAT.format(key)
  if alternative in signatures:
    return signatures[alternative]
  raise ValueError('Got signature_def_key "{}". Available signatures are {}.'.format(
      key, list(signatures)))


class SavedModelPredictor(Predictor):
  """A Predictor of a SavedModel's signature (TF 1.15's)."""

  def __init__(self, export_dir, signature_def_key=None, signature_def=None, input_names=None,
               output_names=None, tags=None, graph=None, config=None):
    if (input_names is None) != (output_names is None):
      raise ValueError("input_names and output_names must both be specified or both be unspecified.")
    if ((signature_def_key is not None) + (signature_def is not None) + (input_names is not None)) > 1:
      raise ValueError("You must specify at most one of signature_def_key OR signature_def OR"
                       "(input_names AND output_names).")
    tags = tags or DEFAULT_TAGS
    self._graph = graph or tf.Graph()
    with self._graph.as_default():
      self._session = V1.Session(config=config)
      V1.saved_model.loader.load(self._session, tags.split(","), export_dir)
    if input_names is None:
      if signature_def is None:
        signature_def = _signature_def(signature_def_key, export_dir, tags)
      input_names = {k: v.name for k, v in signature_def.inputs.items()}
      output_names = {k: v.name for k, v in signature_def.outputs.items()}
    self._feed_tensors = {k: self._graph.get_tensor_by_name(v) for k, v in input_names.items()}
    self._fetch_tensors = {k: self._graph.get_tensor_by_name(v) for k, v in output_names.items()}


class CoreEstimatorPredictor(Predictor):
  """A Predictor of a tf.estimator's PREDICT graph for a serving receiver, from its latest checkpoint."""

  def __init__(self, estimator, serving_input_receiver_fn, output_key=None, graph=None, config=None):
    self._graph = graph or tf.Graph()
    with self._graph.as_default():
      receiver = serving_input_receiver_fn()
      key = output_key or tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY
      spec = estimator.model_fn(receiver.features, None, "infer", estimator.config)
      export_output = (spec.export_outputs or {}).get(key)
      if export_output is None:
        raise KeyError("output_key must be one of {}; got {}".format(
            (spec.export_outputs or {}).keys(), output_key))
      signature_def = export_output.as_signature_def(receiver.receiver_tensors)
      self._session = V1.train.MonitoredSession(session_creator=V1.train.ChiefSessionCreator(
          config=config, checkpoint_dir=estimator.model_dir))
    self._feed_tensors = {k: self._graph.get_tensor_by_name(v.name)
                          for k, v in signature_def.inputs.items()}
    self._fetch_tensors = {k: self._graph.get_tensor_by_name(v.name)
                           for k, v in signature_def.outputs.items()}


class ContribEstimatorPredictor(Predictor):
  """A Predictor of a contrib.learn Estimator's INFER graph for an InputFnOps, from its latest checkpoint."""

  def __init__(self, estimator, prediction_input_fn, input_alternative_key=None, output_alternative_key=None,
               graph=None, config=None):
    # pylint: disable-next=import-outside-toplevel
    import tf1clip.contrib.learn.utils.saved_model_export_utils as export_utils
    self._graph = graph or tf.Graph()
    with self._graph.as_default():
      input_fn_ops = prediction_input_fn()
      model_fn_ops = _contrib_predict_ops(estimator, input_fn_ops.features)
      checkpoint_path = tf.train.latest_checkpoint(estimator.model_dir)
      self._session = V1.train.MonitoredSession(session_creator=V1.train.ChiefSessionCreator(
          config=config, checkpoint_filename_with_path=checkpoint_path))
    input_alternative_key = input_alternative_key or export_utils.DEFAULT_INPUT_ALTERNATIVE_KEY
    input_alternatives, _ = export_utils.get_input_alternatives(input_fn_ops)
    self._feed_tensors = input_alternatives[input_alternative_key]
    output_alternatives, output_alternative_key = export_utils.get_output_alternatives(
        model_fn_ops, output_alternative_key)
    _, self._fetch_tensors = output_alternatives[output_alternative_key]


def _contrib_predict_ops(estimator, features):
  """TF 1.15's `Estimator._get_predict_ops(features)`: the model_fn's INFER ModelFnOps (label placeholders)."""
  import tf1clip.contrib.learn.estimator as learn_estimator  # pylint: disable=import-outside-toplevel
  if not isinstance(estimator, learn_estimator.Estimator):
    raise TypeError("tf1clip's from_contrib_estimator serves a tf.contrib.learn.Estimator built on a model_fn; "
                    "got %s. Export it with export_savedmodel and use from_saved_model (or from_estimator for a "
                    "tf.estimator.Estimator)." % type(estimator).__name__)
  labels = learn_estimator._placeholders(estimator._labels_info)  # pylint: disable=protected-access
  return estimator._call_model_fn(features, labels, learn_estimator.ModeKeys.INFER)  # pylint: disable=protected-access


def from_saved_model(export_dir, signature_def_key=None, signature_def=None, input_names=None,
                     output_names=None, tags=None, graph=None, config=None):
  """A Predictor of the SavedModel at `export_dir`."""
  return SavedModelPredictor(export_dir, signature_def_key=signature_def_key,
                             signature_def=signature_def, input_names=input_names,
                             output_names=output_names, tags=tags, graph=graph, config=config)


def from_estimator(estimator, serving_input_receiver_fn, output_key=None, graph=None, config=None):
  """A Predictor of a tf.estimator.Estimator (its latest checkpoint) for a serving receiver."""
  return CoreEstimatorPredictor(estimator, serving_input_receiver_fn, output_key=output_key,
                                graph=graph, config=config)


def from_contrib_estimator(estimator, prediction_input_fn, input_alternative_key=None, output_alternative_key=None,
                           graph=None, config=None):
  """A Predictor of a tf.contrib.learn.Estimator (its latest checkpoint) for an InputFnOps input function."""
  if hasattr(estimator, "model_fn") and not hasattr(estimator, "_call_model_fn") and hasattr(
      estimator, "export_saved_model") and not hasattr(estimator, "_core_estimator"):
    raise TypeError("Expected estimator to be of type tf.contrib.learn.Estimator, but got type "
                    "tf.python.estimator.Estimator. You likely want to call from_estimator.")
  return ContribEstimatorPredictor(estimator, prediction_input_fn, input_alternative_key=input_alternative_key,
                                   output_alternative_key=output_alternative_key, graph=graph, config=config)


# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = 'tf.saved_model.load (tf1clip serves from_saved_model, from_estimator and from_contrib_estimator)'

__getattr__ = _catalog.module_getattr(__name__)

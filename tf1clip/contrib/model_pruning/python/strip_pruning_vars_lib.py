"""`tf.contrib.model_pruning`'s strip_pruning_vars_lib: freeze a pruned model without its mask variables.

Mirrors TF 1.15's `tensorflow/contrib/model_pruning/python/strip_pruning_vars_lib.py`.

TF 1.15's code: `graph_def_from_checkpoint(dir, outputs)` restores the latest checkpoint of `dir` from its
meta graph and freezes the variables into constants; `strip_pruning_vars_fn(graph_def, outputs)` evaluates every
node whose name contains `masked_weight` (mask * weight) into a Const of the same name and keeps only what the
outputs need, so the masks and unmasked weights drop out.
"""

import numpy as np
import tensorflow as tf

def _node_name(tensor_name):
  """Remove the trailing ':0' from the variable name."""
  if ":" not in tensor_name:
    return tensor_name

  return tensor_name.split(":")[0]

def _tensor_name(node_name):
  """Appends the :0 in the op name to get the canonical tensor name."""
  if ":" in node_name:
    return node_name

  return node_name + ":0"

def _get_masked_weights(input_graph_def):
  """Extracts masked_weights from the graph as a dict of {var_name:ndarray}."""
  input_graph = tf.Graph()
  with input_graph.as_default():
    tf.compat.v1.import_graph_def(input_graph_def, name="")

    with tf.compat.v1.Session(graph=input_graph) as sess:
      masked_weights_dict = {}
      for node in input_graph_def.node:
        if "masked_weight" in node.name:
          masked_weight_val = sess.run(sess.graph.get_tensor_by_name(_tensor_name(node.name)))
          tf.compat.v1.logging.info(
              "%s has %d values, %1.2f%% zeros \n", node.name, np.size(masked_weight_val),
              100 - float(100 * np.count_nonzero(masked_weight_val)) / np.size(masked_weight_val))
          masked_weights_dict.update({node.name: masked_weight_val})
  return masked_weights_dict

def strip_pruning_vars_fn(input_graph_def, output_node_names):
  """Replaces each `masked_weight` node by a Const of its value and drops what the outputs no longer need.

  Args:
    input_graph_def: a GraphDef whose variables are constants (e.g. from
      tf.graph_util.convert_variables_to_constants or graph_def_from_checkpoint).
    output_node_names: the names of the graph's result nodes.

  Returns:
    A GraphDef without the pruning masks.
  """
  masked_weights_dict = _get_masked_weights(input_graph_def)
  pruned_graph_def = tf.compat.v1.GraphDef()

  # Replace masked_weight with a const op containing the
  # result of tf.multiply(mask,weight)
  for node in input_graph_def.node:
    output_node = tf.compat.v1.NodeDef()
    if "masked_weight" in node.name:
      output_node.op = "Const"
      output_node.name = node.name
      dtype = node.attr["T"]
      data = masked_weights_dict[node.name]
      output_node.attr["dtype"].CopyFrom(dtype)
      output_node.attr["value"].CopyFrom(tf.compat.v1.AttrValue(tensor=tf.compat.v1.make_tensor_proto(data)))

    else:
      output_node.CopyFrom(node)
    pruned_graph_def.node.extend([output_node])

  # Remove stranded nodes: mask and weights
  return tf.compat.v1.graph_util.extract_sub_graph(pruned_graph_def, output_node_names)

def graph_def_from_checkpoint(checkpoint_dir, output_node_names):
  """The GraphDef of the latest checkpoint in `checkpoint_dir`, its variables frozen into constants.

  Args:
    checkpoint_dir: the checkpoints' directory (with the .meta graph next to the latest one).
    output_node_names: the names of the graph's result nodes.

  Returns:
    The frozen GraphDef.

  Raises:
    ValueError: if no checkpoint is found.
  """
  checkpoint_path = tf.compat.v1.train.latest_checkpoint(checkpoint_dir)
  if checkpoint_path is None:
    raise ValueError("Could not find a checkpoint at: {0}.".format(checkpoint_dir))

  saver_for_restore = tf.compat.v1.train.import_meta_graph(checkpoint_path + ".meta", clear_devices=True)
  with tf.compat.v1.Session() as sess:
    saver_for_restore.restore(sess, checkpoint_path)
    graph_def = tf.compat.v1.get_default_graph().as_graph_def()
    output_graph_def = tf.compat.v1.graph_util.convert_variables_to_constants(sess, graph_def, output_node_names)

  return output_graph_def

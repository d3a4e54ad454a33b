"""tf.contrib.saved_model against TF 1.15, both ways: save_keras_model writes the same SavedModel (files,
object-based checkpoint keys, meta graphs with their tags, collections, Saver and signatures) as TF 1.15's, and
each side's load_keras_model / tf.saved_model.loader.load reads the directory the other side wrote, with the
same predictions, and the train graph trains.

Two runs of both sides: the first saves (each side into its own folder of ORACLE_SHARED), the second loads the
other side's folders, so TF 1.15 reads what tf1clip wrote and tf1clip reads what TF 1.15 wrote.

Models (the same weights on both sides, init_from_numpy): "func", a functional model compiled with
tf.train.AdamOptimizer and a metric and trained one step (optimizer slots in the checkpoint; train, eval and
serve graphs); "seq", a Sequential model compiled with a Keras optimizer ("sgd": the same three graphs); "plain",
an uncompiled Sequential model (the serve graph only); "serving", the same saved with serving_only=True (a TF 2
SavedModel of the traced call).
"""

import numpy as np

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.saved_model.save_keras_model", "tf.contrib.saved_model.load_keras_model")

COMMON = r'''
import os
import numpy as np
import tensorflow as tf
keras = tf.keras
SIDE = os.path.basename(os.getcwd())  # the harness runs each side in a folder named after it
OTHER = {"tf115": "tf1clip", "tf1clip": "tf115"}[SIDE]
X = (np.arange(12, dtype=np.float32).reshape(4, 3) - 5) / 4
Y = {"func": np.linspace(-1, 1, 8).astype(np.float32).reshape(4, 2),
     "seq": np.linspace(-1, 1, 12).astype(np.float32).reshape(4, 3)}
'''

SAVE = COMMON + r'''
import re
from google.protobuf import text_format
from tensorflow.core.protobuf import saved_model_pb2

def layout(path):
  files = []
  for root, _, names in os.walk(path):
    for name in names:
      # TF 1.15 split the weights over two data shards, TensorFlow 2.21 writes one.
      files.append(re.sub(r"data-\d+-of-\d+$", "data", os.path.relpath(os.path.join(root, name), path)))
  return sorted(set(files))

def tensor(info):
  return [info.dtype, [d.size for d in info.tensor_shape.dim] if not info.tensor_shape.unknown_rank else None]

def meta_graphs(path):
  saved = saved_model_pb2.SavedModel()
  if os.path.exists(os.path.join(path, "saved_model.pbtxt")):
    with open(os.path.join(path, "saved_model.pbtxt")) as f:
      text_format.Parse(f.read(), saved)
  else:
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
      saved.ParseFromString(f.read())
  found = {}
  for mg in saved.meta_graphs:
    signatures = {}
    for key, sig in mg.signature_def.items():
      signatures[key] = {"method": sig.method_name,
                         "inputs": {k: [v.name] + tensor(v) for k, v in sig.inputs.items()},
                         # output tensor names: ops of the graph (Identity_N counters differ), not compared
                         "outputs": {k: tensor(v) for k, v in sig.outputs.items()}}
    found[",".join(mg.meta_info_def.tags)] = {
        "signatures": signatures, "collections": sorted(mg.collection_def.keys()),
        "saver": [mg.saver_def.filename_tensor_name, mg.saver_def.restore_op_name, mg.saver_def.version]}
  return found

def check(name, model, **kwargs):
  path = os.path.join(ORACLE_SHARED, SIDE, name)
  tf.contrib.saved_model.save_keras_model(model, path, **kwargs)
  report(name + "/layout", layout(path))
  ckpt = os.path.join(path, "variables", "variables")
  report(name + "/checkpoint", sorted([k, s] for k, s in tf.train.list_variables(ckpt)))
  report(name + "/weights", {k: tf.train.load_variable(ckpt, k) for k, _ in tf.train.list_variables(ckpt)
                             if k != "_CHECKPOINTABLE_OBJECT_GRAPH"})
  if not kwargs.get("serving_only"):
    report(name + "/meta_graphs", meta_graphs(path))
  report(name + "/predict", model.predict(X))

sess = keras.backend.get_session()
inp = keras.layers.Input(shape=(3,), name="x")
func = keras.Model(inp, keras.layers.Dense(2, name="out")(keras.layers.Dense(4, activation="tanh", name="h")(inp)))
# tf-keras' Sequential counts its InputLayer among its checkpoint's layer-N (TF 1.15's did not): s1 and s2,
# of one shape, show each side restores each layer's own weights from the other's checkpoint.
seq = keras.Sequential([keras.layers.Reshape((3, 1), input_shape=(3,), name="r"),
                        keras.layers.Conv1D(2, 2, name="conv"), keras.layers.BatchNormalization(name="bn"),
                        keras.layers.Flatten(name="flat"), keras.layers.Dense(3, activation="tanh", name="s1"),
                        keras.layers.Dense(3, name="s2")])
plain = keras.Sequential([keras.layers.Dense(2, input_shape=(3,), name="p")])
init_from_numpy(sess, seed=3)
keras.backend.set_value(seq.get_layer("bn").moving_variance, [0.5, 2.0])
func.compile(optimizer=tf.train.AdamOptimizer(0.1), loss="mse", metrics=["mae"])
func.fit(X, Y["func"], batch_size=4, epochs=1, shuffle=False, verbose=0)
seq.compile(optimizer="sgd", loss="mse")
check("func", func)
check("seq", seq)
check("plain", plain)
check("serving", plain, serving_only=True)
check("text", plain, as_text=True, input_signature=[tf.TensorSpec((None, 3), tf.float32, name="inp")])

class Sub(keras.Model):
  def call(self, x):
    return x * 2

full = os.path.join(ORACLE_SHARED, SIDE, "plain")
unbuilt = keras.Sequential([keras.layers.Dense(2)])
report_errors("errors", [
    ("subclassed", lambda: tf.contrib.saved_model.save_keras_model(Sub(), os.path.join(SIDE + "_sub"))),
    ("unbuilt_sequential", lambda: tf.contrib.saved_model.save_keras_model(unbuilt, SIDE + "_unbuilt")),
    ("existing_directory", lambda: tf.contrib.saved_model.save_keras_model(plain, full)),
    ("load_missing", lambda: tf.contrib.saved_model.load_keras_model(SIDE + "_missing")),
])
'''

LOAD = COMMON + r'''
def serve(path, input_key, output_key):
  with tf.Graph().as_default(), tf.Session() as sess:
    sig = tf.saved_model.loader.load(sess, ["serve"], path).signature_def["serving_default"]
    return sess.run(sig.outputs[output_key].name, {sig.inputs[input_key].name: X})

def train(name, path, input_key, target_key):
  with tf.Graph().as_default(), tf.Session() as sess:
    mg = tf.saved_model.loader.load(sess, ["train"], path)
    sig = mg.signature_def["train"]
    train_op = mg.signature_def["__saved_model_train_op"].outputs["__saved_model_train_op"].name
    feed = {sig.inputs[input_key].name: X, sig.inputs[target_key].name: Y[name]}
    before = sess.run(sig.outputs["loss"].name, feed)
    sess.run(train_op, feed)
    return [before, sess.run(sig.outputs["loss"].name, feed), sess.run(tf.train.get_global_step())]

def evaluate(name, path, input_key, target_key):
  with tf.Graph().as_default(), tf.Session() as sess:
    sig = tf.saved_model.loader.load(sess, ["eval"], path).signature_def["eval"]
    feed = {sig.inputs[input_key].name: X, sig.inputs[target_key].name: Y[name]}
    # the metrics' update ops first: a metric's value read in the same run races with its update
    found = sess.run({k: v.name for k, v in sig.outputs.items() if k.endswith("/update_op")}, feed)
    found.update(sess.run({k: v.name for k, v in sig.outputs.items() if not k.endswith("/update_op")}, feed))
    return found

theirs = os.path.join(ORACLE_SHARED, OTHER)
for name, (input_key, output_key) in [("func", ("x", "out")), ("seq", ("r_input", "s2")),
                                      ("plain", ("p_input", "p")), ("serving", ("p_input", "p")),
                                      ("text", ("input_wrapper_for_inp:0", "p"))]:
  path = os.path.join(theirs, name)
  with case(name + "/load_keras_model"):
    with tf.Graph().as_default():
      model = tf.contrib.saved_model.load_keras_model(path)
      report(name + "/load_keras_model", model.predict(X))
      report(name + "/layers", [[type(l).__name__, l.name] for l in model.layers
                                if type(l).__name__ != "InputLayer"])
  if name != "serving":
    with case(name + "/serve"):
      report(name + "/serve", serve(path, input_key, output_key))
  if name in ("func", "seq"):
    with case(name + "/train"):
      report(name + "/train", train(name, path, input_key, output_key + "_target"))
    with case(name + "/eval"):
      report(name + "/eval", evaluate(name, path, input_key, output_key + "_target"))
'''


@requires_tf115
def test_save_keras_model_writes_tf115s_savedmodel_and_each_side_loads_the_others():
  import tempfile  # pylint: disable=g-import-not-at-top
  with tempfile.TemporaryDirectory() as shared:
    saved_tf115, saved_ours = run_both(SAVE, shared=shared)
    loaded_tf115, loaded_ours = run_both(LOAD, shared=shared)
  assert_same(saved_tf115, saved_ours, rtol=1e-5, atol=1e-6)
  # The loaded models give the saved models' predictions (the same on both sides, compared above) ...
  for name in ("func", "seq", "plain", "serving", "text"):
    np.testing.assert_allclose(loaded_tf115[name + "/load_keras_model"], saved_ours[name + "/predict"], atol=1e-6)
    np.testing.assert_allclose(loaded_ours[name + "/load_keras_model"], saved_tf115[name + "/predict"], atol=1e-6)
  # ... and TF 1.15 reading tf1clip's directories agrees with tf1clip reading TF 1.15's, key by key.
  assert_same(loaded_tf115, loaded_ours, rtol=1e-5, atol=1e-6)

"""`import tf1clip.compat.v1 as tf`: the TF1 API for a script run with plain `python`.

The facade switches its process to graph mode, so each case runs in a subprocess.
"""

import json
import os
import subprocess
import sys
import textwrap

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _python(code, env_overrides=None, drop=()):
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", **(env_overrides or {}))
  for name in drop:
    env.pop(name, None)
  proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=REPO, capture_output=True,
                        text=True, env=env, timeout=600)
  assert proc.returncode == 0, proc.stderr
  lines = [l for l in proc.stdout.splitlines() if l.startswith("RESULT ")]
  return json.loads(lines[-1][len("RESULT "):])


def test_facade_gives_the_tf1_api_in_graph_mode():
  result = _python("""
      import json
      import tf1clip.compat.v1 as tf
      import tensorflow

      x = tf.placeholder(tf.float32, [None, 3])
      y = tf.layers.dense(x, 2, name="dense")
      cell = tf.contrib.rnn.MultiRNNCell([tf.nn.rnn_cell.LSTMCell(4), tf.contrib.rnn.GRUCell(4)])
      out, _ = tf.nn.static_rnn(cell, [y, y], dtype=tf.float32)
      loss = tf.reduce_mean(tf.square(out[-1]))
      grads = tf.gradients(loss, tf.trainable_variables())
      clipped, norm = tf.clip_by_global_norm(grads, 1.0)
      with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        value = sess.run(norm, {x: [[1.0, 2.0, 3.0]]})
      estimator = tf.estimator.Estimator.__module__  # tensorflow-estimator 2.15, shimmed on first use
      print("RESULT " + json.dumps({
          "eager": tf.executing_eagerly(),
          "norm_positive": bool(value > 0),
          "compat_v1_is_facade": tf.compat.v1 is tf,
          "compat_v2_is_real": tf.compat.v2 is tensorflow.compat.v2,
          "relu_is_tf": tf.nn.relu is tensorflow.compat.v1.nn.relu,
          "keras": tf.keras.__name__,
          "contrib": tf.contrib.__name__,
          "flags_and_app": [hasattr(tf.flags, "DEFINE_integer"), hasattr(tf.app, "run")],
          "logging": [tf.logging.INFO, callable(tf.logging.set_verbosity)],
          "gfile": [hasattr(tf.gfile, n) for n in ("Exists", "MakeDirs", "GFile", "Open", "Glob")],
          "version": tf.__version__,
          "in_dir": [n in dir(tf) for n in ("contrib", "placeholder", "layers")],
          "has_nonsense": hasattr(tf, "no_such_name"),
          "estimator": estimator,
      }))
      """)
  assert result["eager"] is False and result["norm_positive"]
  assert result["compat_v1_is_facade"] and result["compat_v2_is_real"] and result["relu_is_tf"]
  assert (result["keras"], result["contrib"]) == ("tf_keras.api._v1.keras", "tf1clip.contrib")
  assert result["flags_and_app"] == [True, True] and result["logging"] == [20, True]
  assert result["gfile"] == [True] * 5
  assert result["version"] == "2.21.0"
  assert result["in_dir"] == [True, True, True] and result["has_nonsense"] is False
  assert result["estimator"] == "tensorflow_estimator.python.estimator.estimator"


def test_facade_layers_work_after_tensorflow_was_imported_with_keras_3():
  result = _python("""
      import json
      import tensorflow
      keras3 = tensorflow.keras.layers.Dense.__module__   # TF picked Keras 3 for its own tf.keras
      import tf1clip.compat.v1 as tf

      x = tf.placeholder(tf.float32, [None, 3])
      y = tf.layers.dense(x, 2)
      cell = tf.nn.rnn_cell.BasicLSTMCell(2)
      out, _ = tf.nn.dynamic_rnn(cell, tf.expand_dims(y, 1), dtype=tf.float32)
      with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        shape = sess.run(out, {x: [[1.0, 2.0, 3.0]]}).shape
      print("RESULT " + json.dumps({"tf_keras_of_tf": keras3, "shape": list(shape)}))
      """, drop=("TF_USE_LEGACY_KERAS",))
  assert result["tf_keras_of_tf"].startswith("keras.")
  assert result["shape"] == [1, 1, 2]


def test_autograph_leaves_contrib_code_unconverted_once_a_script_touches_tf_contrib():
  # TF 1.15 never converted contrib (part of the tensorflow package); tf1clip.contrib and tf-slim are not, so the
  # facade adds DoNotConvert rules for them (shims.contrib_autograph) when tf.contrib is first used.
  result = _python("""
      import json
      from tensorflow.python.autograph.impl import conversion
      import tf1clip.compat.v1 as tf
      from tf1clip.contrib.seq2seq.python.ops import attention_wrapper
      before = conversion.is_allowlisted(attention_wrapper.AttentionWrapper.call)
      tf.contrib.seq2seq  # the first touch of tf.contrib applies the shim
      from tf_slim.layers import rev_block_lib
      import tf1clip.transforms
      after = [conversion.is_allowlisted(attention_wrapper.AttentionWrapper.call),
               conversion.is_allowlisted(rev_block_lib.RevBlock.call),
               conversion.is_allowlisted(tf1clip.transforms.clip_by_global_norm)]  # not contrib: converted
      print("RESULT " + json.dumps([before, after]))
  """)
  assert result == [False, [True, True, False]]

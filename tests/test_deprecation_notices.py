"""compat.deprecation_notices: which deprecation notices a legacy run prints (TF 1.15's, once each).

The end-to-end comparison with TF 1.15's own output is tests/oracle/test_deprecation_notices_oracle.py; here the
parsing of each notice form and the once-per-symbol rule, on messages as TensorFlow 2.21 and tf-keras word them.
"""

import pytest

from tf1clip import tf115
from tf1clip.compat import deprecation_notices as notices

DECORATOR = ("From /x/legacy_cells.py:788: calling Zeros.__init__ (from tensorflow.python.ops.init_ops) with dtype "
             "is deprecated and will be removed in a future version.\nInstructions for updating:\nCall ...")
ESTIMATOR = ("From train.py:99: RunConfig.__init__ (from tensorflow_estimator.python.estimator.run_config) is "
             "deprecated and will be removed in a future version.\nInstructions for updating:\nUse tf.keras instead.")
TF_KERAS = "`tf.layers.dense` is deprecated and will be removed in a future version. Please use `tf.keras...`"


@pytest.fixture(autouse=True)
def fresh_state(monkeypatch):
  monkeypatch.setitem(notices._state, "printed", set())


def test_each_form_is_read_as_what_it_names():
  assert notices.notice_key(DECORATOR) == ("arguments", "Zeros.__init__", "tensorflow.python.ops.init_ops", "dtype")
  assert notices.notice_key(ESTIMATOR) == (
      "function", "RunConfig.__init__", "tensorflow_estimator.python.estimator.run_config")
  assert notices.notice_key("From f.py:3: calling f (from m.n) with mode=2 is deprecated") == (
      "argument-values", "f", "m.n", "mode")
  assert notices.notice_key(TF_KERAS) == ("api", "tf.layers.dense")
  assert notices.notice_key("From f.py:1: The name tf.foo is deprecated. Please use tf.bar instead.\n")[0] == "alias"
  assert notices.notice_key("Restoring parameters from model.ckpt-350") is None
  assert notices.notice_key("the learning rate is deprecated in my own script") is None


def test_the_table_is_what_tf115_warned_about():
  table = tf115.deprecations()
  assert ("Zeros.__init__", "tensorflow.python.ops.init_ops", "dtype") in table.arguments
  assert ("BasicLSTMCell.__init__", "tensorflow.python.ops.rnn_cell_impl") in table.functions
  assert "tf.layers.dense" in table.api and "tf.nn.rnn_cell.MultiRNNCell" in table.api
  # TF 1.15's estimator was not deprecated (TF 2.x's "Use tf.keras instead" is new); contrib.learn's was.
  assert not any(module.startswith("tensorflow_estimator.python.estimator.run_config")
                 for _, module in table.functions)
  assert "tf.estimator.RunConfig" not in table.api and "tf.contrib.learn.RunConfig" in table.api


def test_a_notice_is_kept_once_when_tf115_printed_it_and_dropped_otherwise():
  assert notices.keep(DECORATOR) and not notices.keep(DECORATOR)
  assert notices.keep(TF_KERAS) and not notices.keep(TF_KERAS.replace("future", "later"))  # same symbol
  assert not notices.keep(ESTIMATOR)
  assert not notices.keep("From f.py:1: The name tf.foo is deprecated. Please use tf.compat.v1.foo instead.\n")
  for other in ("Restoring parameters from model.ckpt-350", "my script's own warning", ""):
    assert notices.keep(other) and notices.keep(other)  # everything else, every time

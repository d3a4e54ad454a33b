"""contrib.training.HParams against TF 1.15: parse, values, add_hparam, to_json and parse errors."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.training.HParams",)

SNIPPET = r'''
import numpy as np
import tensorflow as tf
# HParams
hp = tf.contrib.training.HParams(learning_rate=0.1, layers=[3, 4], name="net", use_bn=False)
hp.parse("learning_rate=0.5,layers=[5,6,7],use_bn=true")
report("hparams_values", hp.values())
with case("hparams_bad_type"):
    hp.parse("learning_rate=abc")
with case("hparams_unknown"):
    hp.parse("momentum=0.9")
hp.add_hparam("dropout", 0.25)
report("hparams_json", hp.to_json(sort_keys=True))
'''


@requires_tf115
def test_hparams_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5)

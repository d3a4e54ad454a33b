"""contrib.quantization against TF 1.15: quantize_v2 / dequantize / quantized_concat (values and ranges,
MIN_COMBINED and SCALED) with the module's leaked names.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.quantization." + n for n in (
    "quantize_v2", "dequantize", "quantized_concat", "quantized_array_ops", "tf_export", "deprecated_endpoints"))

SNIPPET = r'''
import tensorflow as tf
# -- quantization ------------------------------------------------------------------------------------------
q = tf.contrib.quantization
x = tf.constant([[-1.0, 0.0, 0.5, 2.0]])
qo = q.quantize_v2(x, -1.0, 2.0, tf.quint8)
dq = q.dequantize(qo.output, qo.output_min, qo.output_max)
qc = q.quantized_concat(0, [qo.output, qo.output], [qo.output_min, -2.0], [qo.output_max, 2.0])
qs = q.quantize_v2(x, -1.0, 2.0, tf.qint8, mode="SCALED", round_mode="HALF_TO_EVEN")
dqs = q.dequantize(qs.output, qs.output_min, qs.output_max, mode="SCALED")
def undecorated():
    pass
report("quantization_names", [type(qo).__name__, list(qo._fields), type(qc).__name__,
                              q.quantized_array_ops.quantize_v2 is q.quantize_v2,
                              list(q.deprecated_endpoints("a.b", "c")(undecorated)._tf_deprecated_api_names),
                              callable(q.tf_export("tf1clip_oracle_unused_name"))])
with tf.Session() as sess:
    report("quantized", sess.run({"q": qo, "dq": dq, "qc": qc, "qs": qs, "dqs": dqs}))
'''


@requires_tf115
def test_contrib_quantization_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours)

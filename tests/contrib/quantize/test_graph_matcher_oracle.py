"""contrib.quantize's graph_matcher (tensorflow.contrib.quantize.python.graph_matcher) and the index of
input_to_ops, against TF 1.15.

Patterns matched over one small graph: op-type alternatives and '*', ordered and unordered inputs, OneofPattern,
named patterns, the tensor of a multi-output op a parent reads (split's second output), match_op / match_ops /
match_graph, and the errors (too many inputs, a lookup by a number). InputToOps' readers of a few ops, with the
gradient ops left out.
"""

from harness import assert_same, requires_tf115, run_both

SNIPPET = r'''
import tensorflow as tf
from tensorflow.contrib.quantize.python import graph_matcher as gm
from tensorflow.contrib.quantize.python import input_to_ops

g = tf.Graph()
with g.as_default():
  x = tf.placeholder(tf.float32, [4, 6], name="x")
  w = tf.Variable(tf.ones([6, 6]), name="w")
  h = tf.nn.relu(tf.matmul(x, w) + 1.0, name="h")
  a, b = tf.split(h, 2, axis=1, name="split")
  s = tf.add(tf.constant(2.0, name="two"), b, name="s")
  m = tf.multiply(a, s, name="m")
  out = tf.nn.relu6(tf.nn.bias_add(m, tf.zeros([3]), name="bias"), name="out")
  tf.gradients(out, [w])

def names(results, pattern_names):
  return [[r.get_op(n).name if r.get_op(n) is not None else None for n in pattern_names] for r in results]

layer = gm.OpTypePattern("MatMul|Conv2D", name="layer", inputs=["*", gm.OpTypePattern("Identity", name="weights")])
bias = gm.OpTypePattern("Add|AddV2|BiasAdd", name="bias", inputs=[layer, "*"], ordered_inputs=False)
act = gm.OpTypePattern("Relu|Relu6", name="act", inputs=[gm.OneofPattern([bias, layer])])
report("layer", names(gm.GraphMatcher(act).match_graph(g), ["act", "bias", "layer", "weights"]))
report("weights_tensor", [r.get_tensor("weights").name for r in gm.GraphMatcher(layer).match_graph(g)])

splitp = gm.OpTypePattern("Split", name="split")
ordered = gm.OpTypePattern("Add|AddV2", name="add", inputs=[splitp, "Const"])
unordered = gm.OpTypePattern("Add|AddV2", name="add", inputs=[splitp, "Const"], ordered_inputs=False)
report("ordered", names(gm.GraphMatcher(ordered).match_graph(g), ["add", "split"]))
found = list(gm.GraphMatcher(unordered).match_graph(g))
report("unordered", names(found, ["add", "split"]))
report("split_tensor", [r.get_tensor(splitp).name for r in found] + [r.get_tensor("split").name for r in found])
report("missing_name", [r.get_op("nothing") for r in found])

mul = gm.OpTypePattern("Mul", inputs=[gm.OpTypePattern("*", name="left"), gm.OneofPattern(
    [gm.OpTypePattern("Sub"), gm.OpTypePattern("Add|AddV2", name="right", inputs=["*", "*"])])])
report("oneof", names(gm.GraphMatcher(mul).match_graph(g), ["left", "right"]))
report("match_op", [gm.GraphMatcher(mul).match_op(g.get_operation_by_name("m")) is not None,
                    gm.GraphMatcher(mul).match_op(g.get_operation_by_name("s")) is None])
report("match_ops", names(gm.GraphMatcher(gm.OpTypePattern("Relu|Relu6", name="r")).match_ops(
    [g.get_operation_by_name(n) for n in ("out", "s", "h")]), ["r"]))
report("any_inputs", len(list(gm.GraphMatcher(gm.OpTypePattern("*")).match_graph(g))) == len(g.get_operations()))

index = input_to_ops.InputToOps(g)
report("readers", {n: sorted(op.name for op in index.ConsumerOperations(g.get_operation_by_name(n)))
                   for n in ("x", "h", "split", "w/read", "out")})

report_errors("errors", [
    ("nine_inputs", lambda: gm.OpTypePattern("*", inputs=["*"] * 9)),
    ("lookup_by_number", lambda: found[0].get_op(3)),
])
'''


@requires_tf115
def test_graph_matcher_patterns_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours)

"""tf.contrib.graph_editor: selection, views, rerouting, copying, and recompute-style gradients."""

import numpy as np
import pytest
import tensorflow as tf

from tf1clip import shims
from tf1clip.contrib import graph_editor as ge

V1 = tf.compat.v1


def _chain():
  """a, b placeholders; c = a + b; d = c * 2; e = tanh(d); f = d - a (named ops)."""
  a = V1.placeholder(tf.float32, [2], name="a")
  b = V1.placeholder(tf.float32, [2], name="b")
  c = tf.add(a, b, name="c")
  d = tf.multiply(c, 2.0, name="d")
  e = tf.tanh(d, name="e")
  f = tf.subtract(d, a, name="f")
  return a, b, c, d, e, f


FEED = {"a:0": [1.0, 2.0], "b:0": [0.5, -1.0]}


def _names(items):
  return sorted(x.name for x in items)


def test_filter_ts_lists_inputs_then_outputs_each_once(graph):
  a, b, c, d, _, _ = _chain()
  ts = ge.filter_ts([c.op, d.op], True)
  assert ts[:2] == [a, b] and d in ts and c in ts and len(ts) == len(set(ts))
  assert ge.filter_ts([c.op, d.op], lambda t: t.op.type == "Placeholder") == [a, b]
  assert _names(ge.filter_ts_from_regex(graph, "^[cd]:")) == ["c:0", "d:0"]


def test_filter_ops_and_regex(graph):
  _chain()
  assert _names(ge.filter_ops(graph, lambda op: op.type == "Placeholder")) == ["a", "b"]
  assert _names(ge.filter_ops_from_regex(graph, "^[ef]$")) == ["e", "f"]
  with pytest.raises(ValueError, match="regex"):  # TF 1.15 raised ValueError (oracle: ge_make_regex_bad)
    ge.filter_ops_from_regex(graph, 3)


def test_select_ops_and_ts_take_ops_tensors_and_regexes(graph):
  a, _, c, d, _, _ = _chain()
  assert ge.select_ops("^[cd]$", graph=graph) == [c.op, d.op]
  assert ge.select_ops([c.op, d], c.op) == [c.op]  # tensors ignored, duplicates dropped
  assert ge.select_ts("^a:", [d], graph=graph) == [a, d]
  assert ge.select_ts("(?#ops)^a", graph=graph) == []
  with pytest.raises(ValueError, match="graph"):
    ge.select_ops("^c$")
  with pytest.raises(ValueError, match="keyword"):
    ge.select_ts([a], grph=graph)


def test_backward_and_forward_walks(graph):
  a, b, c, d, e, f = _chain()
  assert set(ge.get_backward_walk_ops(e.op)) == {e.op, d.op, c.op, a.op, b.op,
                                                  d.op.inputs[1].op}
  assert e.op not in ge.get_backward_walk_ops(e.op, inclusive=False)
  # stop_at_ts: do not walk through c.
  assert set(ge.get_backward_walk_ops([e], stop_at_ts=[c])) == {e.op, d.op, d.op.inputs[1].op}
  assert set(ge.get_forward_walk_ops(a.op)) == {a.op, c.op, d.op, e.op, f.op}
  # Tensor seeds start from their consumers.
  assert set(ge.get_forward_walk_ops([c])) == {d.op, e.op, f.op}
  assert set(ge.get_forward_walk_ops(b.op, within_ops=[b.op, c.op, d.op])) == {b.op, c.op, d.op}
  assert set(ge.get_forward_walk_ops(b.op, within_ops_fn=lambda op: op.name != "d")) == {b.op, c.op}
  assert set(ge.get_walks_intersection_ops([b.op], [e.op])) == {b.op, c.op, d.op, e.op}
  assert set(ge.get_walks_union_ops([e.op], [b.op])) == {e.op, b.op}


def test_walks_follow_control_edges_only_when_asked(graph):
  a, _, c, _, e, _ = _chain()
  with tf.control_dependencies([e.op]):
    g = tf.identity(a, name="g")
  assert e.op not in ge.get_backward_walk_ops(g.op)
  assert e.op in ge.get_backward_walk_ops(g.op, control_inputs=True)
  assert g.op in ge.get_forward_walk_ops(c.op, control_outputs=ge.ControlOutputs(graph))


def test_consuming_and_generating_ops(graph):
  a, _, c, d, _, f = _chain()
  assert ge.get_consuming_ops(a) == [c.op, f.op]
  assert set(ge.get_consuming_ops([a, d])) == {c.op, f.op, graph.get_operation_by_name("e")}
  assert ge.get_generating_ops([c, d]) == [c.op, d.op]
  with pytest.raises(TypeError):
    ge.get_consuming_ops([c.op])


def test_subgraph_view_inputs_outputs_and_remap(graph):
  a, b, c, d, e, f = _chain()
  view = ge.sgv(c.op, d.op)
  assert list(view.inputs) == [a, b, d.op.inputs[1]]
  assert list(view.outputs) == [c, d] or list(view.outputs) == [d]
  assert list(view.outputs) == [d]  # c is consumed inside only
  assert set(view.consumers()) == {e.op, f.op}
  remapped = view.remap_inputs([1, 0])
  assert list(remapped.inputs)[:2] == [b, a] and list(view.inputs)[0] is a
  assert remapped.input_index(b) == 0
  with pytest.raises(ValueError, match="repetition"):
    view.remap_inputs([0, 0])
  assert list(view.remap_outputs([0, 0]).outputs) == [d, d]
  assert list(view.remap_outputs_to_consumers().outputs) == [d, d]
  assert ge.sgv(view) is view
  assert list(ge.sgv_scope("d", graph).ops) == [d.op.inputs[1].op, d.op]  # d/y and d
  empty = ge.sgv()
  assert not empty and list(empty.inputs) == []
  passthrough = ge.sgv([a])
  assert list(passthrough.inputs) == [a] and list(passthrough.outputs) == [a] and passthrough.is_passthrough(a)


def test_reroute_ts_moves_consumers(sess):
  a, b, c, d, e, f = _chain()
  assert ge.reroute_ts([b], [a]) == 2  # c and f now read b instead of a
  assert list(c.op.inputs) == [b, b] and list(f.op.inputs) == [d, b]
  # f = 2 (b + b) - b
  np.testing.assert_allclose(sess.run(f, FEED), 3 * np.array(FEED["b:0"]))


def test_reroute_ts_can_modify_and_cannot_modify(sess):
  a, b, c, d, e, f = _chain()
  assert ge.reroute_ts(b, a, can_modify=[f.op]) == 1
  assert f.op.inputs[1] is b and c.op.inputs[0] is a
  assert ge.reroute_ts(b, a, cannot_modify=[c.op]) == 0


def test_swap_ts_exchanges_consumers(sess):
  a, b, c, d, e, f = _chain()
  e_before, f_before = sess.run([e, f], FEED)
  ge.swap_ts([a], [b])
  assert list(c.op.inputs) == [b, a] and f.op.inputs[1] is b
  with V1.Session(graph=sess.graph) as fresh:  # a Session keeps running the graph it first saw
    e_after, f_after = fresh.run([e, f], FEED)
  np.testing.assert_allclose(e_after, e_before)  # a + b is symmetric
  np.testing.assert_allclose(f_after, sess.run(d, FEED) - FEED["b:0"])


def test_reroute_rejects_incompatible_tensors(graph):
  a, _, _, _, _, _ = _chain()
  i = V1.placeholder(tf.int32, [2])
  s = V1.placeholder(tf.float32, [3])
  with pytest.raises(ValueError, match="Dtypes"):
    ge.reroute_ts([i], [a])
  with pytest.raises(ValueError, match="Shapes"):
    ge.reroute_ts([s], [a])
  with pytest.raises(ValueError, match="different sizes"):
    ge.reroute_ts([a, a], [a])


def test_add_and_remove_control_inputs(graph):
  a, b, c, d, e, f = _chain()
  ge.add_control_inputs(f.op, [e.op, c.op])
  assert list(f.op.control_inputs) == [e.op, c.op]
  with pytest.raises(ValueError, match="already"):
    ge.add_control_inputs(f.op, e.op)
  ge.remove_control_inputs(f.op, e.op)
  assert list(f.op.control_inputs) == [c.op]
  with pytest.raises(ValueError, match="not a control_input"):
    ge.remove_control_inputs(f.op, e.op)
  with pytest.raises(TypeError, match="tf.Operation"):
    ge.add_control_inputs(f, c.op)


def test_copy_makes_placeholders_for_inputs_and_keeps_attrs(sess):
  a, b, c, d, e, f = _chain()
  view_, info = ge.copy(ge.sgv("^(c|d|d/y|e)$", graph=sess.graph))
  e_ = info.transformed(e)
  assert e_ is not e and e_.op.type == "Tanh" and e_.op.name == "e_1"
  assert info.original(e_) is e and info.transformed("e") is e_.op
  assert list(view_.inputs) == []  # as in TF 1.15: the copy's inputs are placeholders the view does not list
  inputs_ = [sess.graph.get_tensor_by_name(name) for name in ("geph__a_0:0", "geph__b_0:0")]
  assert [t.op.type for t in inputs_] == ["Placeholder", "Placeholder"]
  assert e_.op.node_def.attr["T"] == e.op.node_def.attr["T"]
  # The original is untouched and the copy computes the same function.
  np.testing.assert_allclose(sess.run(e_, {inputs_[0]: FEED["a:0"], inputs_[1]: FEED["b:0"]}),
                             sess.run(e, FEED))


def test_copy_with_input_replacements_and_gradient_override(sess):
  a, b, _, _, _, _ = _chain()
  with sess.graph.gradient_override_map({"Square": "Identity"}):  # d(x^2)/dx := upstream gradient
    s = tf.square(a, name="s")
  y = tf.reduce_sum(s * b, name="y")
  two = tf.constant([2.0, 2.0])
  _, info = ge.copy_with_input_replacements(ge.sgv(s.op, y.op.inputs[0].op, y.op), {a: two})
  y_ = info.transformed(y)
  assert y_.op.inputs[0].op.inputs[1] is b  # inputs not replaced are kept (same graph)
  assert sess.run(y_, FEED) == pytest.approx(4 * (0.5 - 1.0))
  # The copy keeps the gradient override (_gradient_op_type attr): dy/db = s, dy/dtwo = b (Identity).
  g_two, = tf.gradients(y_, [two])
  np.testing.assert_allclose(sess.run(g_two, FEED), FEED["b:0"])
  with pytest.raises(TypeError, match="dict"):
    ge.copy_with_input_replacements(ge.sgv(s.op), [two])


def test_copy_to_another_graph_under_a_scope(graph):
  _, _, _, _, e, _ = _chain()
  other = tf.Graph()
  _, info = ge.copy(ge.sgv("^(c|d|d/y|e)$", graph=graph), dst_graph=other, dst_scope="copied")
  e_ = info.transformed(e)
  assert e_.graph is other and e_.op.name == "copied/e"
  with V1.Session(graph=other) as s:
    feed = {other.get_tensor_by_name("copied/geph__a_0:0"): FEED["a:0"],
            other.get_tensor_by_name("copied/geph__b_0:0"): FEED["b:0"]}
    np.testing.assert_allclose(s.run(e_, feed), np.tanh(2 * (np.array(FEED["a:0"]) + FEED["b:0"])),
                               rtol=1e-6)


def test_copy_keeps_control_inputs_inside_and_outside(graph):
  a, b, c, d, e, f = _chain()
  ge.add_control_inputs(e.op, [c.op, f.op])
  _, info = ge.copy(ge.sgv(c.op, d.op, e.op))
  assert list(info.transformed(e.op).control_inputs) == [info.transformed(c.op), f.op]


def test_graph_replace_recomputes_targets(sess):
  a, b, c, d, e, f = _chain()
  three = tf.constant([3.0, 3.0])
  e_, f_ = ge.graph_replace([e, f], {b: three})
  assert e_ is not e and f_ is not f
  np.testing.assert_allclose(sess.run([e_, f_], FEED)[1],
                             2 * (np.array(FEED["a:0"]) + 3.0) - FEED["a:0"], rtol=1e-6)
  np.testing.assert_allclose(sess.run(e, FEED), np.tanh(2 * (np.array(FEED["a:0"]) + FEED["b:0"])),
                             rtol=1e-6)
  with pytest.raises(ValueError, match="not connected"):
    ge.graph_replace(e, {V1.placeholder(tf.float32, [2]): three})


@pytest.fixture
def v1_control_flow():
  """v1 while loops (Enter/Merge/NextIteration cycles), as under `tf1clip run`; restored afterwards."""
  was_v2 = V1.control_flow_v2_enabled()
  V1.disable_control_flow_v2()
  yield
  if was_v2:
    V1.enable_control_flow_v2()


def test_copy_of_a_while_loop_runs(sess, v1_control_flow):  # pylint: disable=unused-argument,redefined-outer-name
  """A v1 while loop is a cycle (Merge <- NextIteration): copied with temporary inputs, then rewired."""
  n = V1.placeholder(tf.int32, [], name="n")
  _, total = tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + i), [0, 0])
  assert any(op.type == "NextIteration" for op in sess.graph.get_operations())
  enters = [op for op in sess.graph.get_operations() if op.type == "Enter"]
  loop_ops = ge.get_walks_intersection_ops(enters, [total.op], control_ios=ge.ControlOutputs(sess.graph))
  _, info = ge.copy_with_input_replacements(loop_ops, {})
  total_ = info.transformed(total)
  assert total_ is not total and total_.op.type == "Exit"
  merges_ = [info.transformed(op) for op in loop_ops if op.type == "Merge"]
  assert all(m.inputs[1].op.type == "NextIteration" for m in merges_)
  assert sess.run([total, total_], {n: 5}) == [10, 10]


def test_detach_inputs_and_bypass(sess):
  a, b, c, d, e, f = _chain()
  view, placeholders = ge.detach_inputs(ge.sgv(e.op))
  assert e.op.inputs[0] is placeholders[0] and placeholders[0].op.type == "Placeholder"
  np.testing.assert_allclose(sess.run(e, {placeholders[0]: [0.0, 1.0]}), np.tanh([0.0, 1.0]))
  # bypass d: its consumers read c directly.
  ge.bypass(ge.sgv(d.op).remap_inputs([0]))
  assert f.op.inputs[0] is c


# Recompute-style memory-saving gradients, written the way gradient-checkpointing code
# (openai/gradient-checkpointing's memory_saving_gradients) uses the graph editor.


def _fast_backward_ops(within_ops, seed_ops, stop_at_ts):
  bwd_ops = set(ge.get_backward_walk_ops(seed_ops, stop_at_ts=stop_at_ts))
  return list(bwd_ops.intersection(within_ops).difference([t.op for t in stop_at_ts]))


def _recompute_gradients(ys, xs, checkpoints):
  """d(sum ys)/d xs keeping only `checkpoints` (in forward order) of the forward activations."""
  bwd_ops = ge.get_backward_walk_ops([y.op for y in ys], inclusive=True)
  fwd_ops = ge.get_forward_walk_ops([x.op for x in xs], inclusive=True, within_ops=bwd_ops)
  fwd_ops = [op for op in fwd_ops if op._inputs]  # pylint: disable=protected-access
  xs_ops = [x.op for x in xs]
  fwd_ops = [op for op in fwd_ops if op not in xs_ops]
  assert set(ge.filter_ts(fwd_ops, True)) >= set(checkpoints)
  disconnected = {x: tf.stop_gradient(x, name=x.op.name + "_sg") for x in checkpoints}

  ops_to_copy = _fast_backward_ops(fwd_ops, [y.op for y in ys], checkpoints)
  _, info = ge.copy_with_input_replacements(ge.sgv(ops_to_copy), {})
  for origin_op, op in info._transformed_ops.items():  # pylint: disable=protected-access
    op._set_device(origin_op.node_def.device)  # pylint: disable=protected-access
  copied_ops = info._transformed_ops.values()  # pylint: disable=protected-access
  ge.reroute_ts(list(disconnected.values()), list(disconnected.keys()), can_modify=copied_ops)
  copied_ys = [info._transformed_ops[y.op]._outputs[0] for y in ys]  # pylint: disable=protected-access
  dv = tf.gradients(copied_ys, list(disconnected.values()) + xs)
  d_checkpoints = dict(zip(checkpoints, dv[:len(checkpoints)]))
  d_xs = dv[len(checkpoints):]

  for r in checkpoints[::-1]:
    others = [c for c in checkpoints if c is not r]
    others_disconnected = [disconnected[c] for c in others]
    ops_to_copy = _fast_backward_ops(fwd_ops, [r.op], others)
    _, info = ge.copy_with_input_replacements(ge.sgv(ops_to_copy), {})
    copied_ops = info._transformed_ops.values()  # pylint: disable=protected-access
    ge.reroute_ts(others_disconnected, others, can_modify=copied_ops)
    boundary = [info._transformed_ops[r.op]._outputs[0]]  # pylint: disable=protected-access
    dv = tf.gradients(boundary, others_disconnected + xs, grad_ys=[d_checkpoints[r]])
    for c, dc in zip(others, dv[:len(others)]):
      if dc is not None:
        d_checkpoints[c] = dc if d_checkpoints[c] is None else d_checkpoints[c] + dc
    for j, dx in enumerate(dv[len(others):]):
      if dx is not None:
        d_xs[j] = dx if d_xs[j] is None else d_xs[j] + dx
  return d_xs


def _mlp(depth=6, width=5, batch=3):
  rng = np.random.RandomState(0)
  x = V1.placeholder(tf.float32, [batch, width], name="x")
  weights, activations, h = [], [], x
  for i in range(depth):
    w = V1.get_variable("w%d" % i, initializer=tf.constant(rng.randn(width, width).astype(np.float32) / 2))
    b = V1.get_variable("b%d" % i, initializer=tf.constant(rng.randn(width).astype(np.float32) / 4))
    h = tf.tanh(tf.matmul(h, w) + b, name="h%d" % i)
    weights += [w, b]
    activations.append(h)
  loss = tf.reduce_sum(tf.square(h), name="loss")
  feed = {x: rng.randn(batch, width).astype(np.float32)}
  return x, weights, activations, loss, feed


def _forward_tensors_read_by_new_ops(graph, forward_ops, known_ops):
  """Original forward tensors consumed by ops created after `known_ops` (what backprop keeps alive)."""
  known = set(known_ops)
  read = set()
  for op in graph.get_operations():
    if op in known:
      continue
    read.update(t for t in op.inputs if t.op in forward_ops)
  return read


@pytest.mark.parametrize("use_resource", [True, False])
def test_recompute_gradients_equal_tf_gradients(sess, use_resource):
  shims.apply("graph_editor")  # as the TF1 facade does: the script reads op._outputs / op._inputs
  V1.get_variable_scope().set_use_resource(use_resource)
  x, weights, activations, loss, feed = _mlp()
  checkpoints = [activations[1], activations[3]]
  forward_ops = set(ge.get_backward_walk_ops(loss.op))
  intermediates = {h for h in activations[:-1] if h not in checkpoints}

  before = list(sess.graph.get_operations())
  expected = tf.gradients(loss, weights + [x])
  kept_by_tf = _forward_tensors_read_by_new_ops(sess.graph, forward_ops, before)
  assert intermediates <= kept_by_tf  # plain backprop reads every activation

  before = list(sess.graph.get_operations())
  got = _recompute_gradients([loss], weights + [x], checkpoints)
  kept = _forward_tensors_read_by_new_ops(sess.graph, forward_ops, before)
  assert not intermediates & kept  # the recomputed backprop reads only the checkpoints of them
  assert set(checkpoints) <= kept

  sess.run(V1.global_variables_initializer())
  for g_expected, g_got in zip(sess.run(expected, feed), sess.run(got, feed)):
    np.testing.assert_allclose(g_got, g_expected, rtol=1e-5, atol=1e-6)


def test_boundaries_and_within_boundary_ops(graph):
  a, b, c, d, e, f = _chain()
  inputs, outputs, inside = ge.compute_boundary_ts([c.op, d.op, e.op])
  assert inputs == [a, b, d.op.inputs[1]] and outputs == [d, e] and inside == [c, d]
  # From c in both directions without going through d: a, b, and a's other consumer f.
  assert set(ge.get_within_boundary_ops(graph, c.op, boundary_ops=[d.op])) == {
      a.op, b.op, c.op, d.op, f.op}
  assert d.op not in ge.get_within_boundary_ops(graph, c.op, boundary_ops=[d.op], inclusive=False)
  with pytest.raises(ValueError, match="intersecting"):
    ge.get_within_boundary_ops(graph, c.op, boundary_ops=[c.op])


def test_placeholders_trees_and_corresponding_elements(graph):
  a, _, _, _, e, _ = _chain()
  p = ge.ph(tf.int32, [3], scope="s")
  assert p.op.name == "s/geph" and p.dtype == tf.int32 and p.shape.as_list() == [3]
  q = ge.make_placeholder_from_tensor(e)
  assert q.op.name == "geph__e_0" and q.shape == e.shape
  assert ge.placeholder_name(e, scope="x") == "x/geph__e_0"
  assert ge.flatten_tree({"k": [a, (e,)], "j": a}) == [a, e, a]
  assert ge.transform_tree({"k": [1, (2,)]}, lambda x: x * 10) == {"k": [10, (20,)]}
  other = tf.Graph()
  with other.as_default():
    with tf.name_scope("copy"):
      e2 = tf.tanh(tf.constant(1.0), name="e")
  assert ge.find_corresponding(e, other, dst_scope="copy") is e2
  assert ge.find_corresponding([e.op], other, dst_scope="copy") == [e2.op]


def test_connect_and_swap_outputs(sess):
  a, b, c, d, e, f = _chain()
  g = tf.negative(V1.placeholder(tf.float32, [2], name="p"), name="g")
  ge.connect(ge.sgv(c.op), ge.sgv(g.op))  # g now reads c
  assert g.op.inputs[0] is c
  ge.swap_outputs(ge.sgv(e.op), ge.sgv(g.op))  # nobody consumes e or g: nothing to swap
  ge.reroute_outputs(ge.sgv(g.op), ge.sgv(d.op))  # d's consumers (e, f) read g instead
  assert e.op.inputs[0] is g and f.op.inputs[0] is g
  np.testing.assert_allclose(sess.run(f, FEED), -(np.array(FEED["a:0"]) + FEED["b:0"]) - FEED["a:0"],
                             rtol=1e-6)


def test_backward_walk_only_differentiable_stops_at_ops_without_gradient(graph):
  a = V1.placeholder(tf.float32, None, name="a")  # unknown shape: tf.shape is not folded
  i = tf.cast(a, tf.int32)
  shape = tf.shape(tf.cast(i, tf.float32), name="shape")  # Shape has no gradient (NotDifferentiable)
  assert set(ge.get_backward_walk_ops(shape.op)) >= {a.op, i.op}
  assert ge.get_backward_walk_ops(shape.op, only_differentiable=True) == [shape.op]

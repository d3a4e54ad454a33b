"""tf.contrib.graph_editor's selection, subgraph views, rerouting, edits and transforms against TF 1.15.

Small graphs edited the way TF1 scripts do (gradient checkpointing, graph surgery), then compared by their ops
(name, type, inputs, control inputs), by the views the functions return (ops, inputs, outputs, passthroughs) and
by the values the edited graphs compute.

TensorFlow 2.21 builds `tf.add` as AddV2 (Add on TF 1.15): the snippet reports AddV2 as Add.

Edits on a small graph (EDITS_SNIPPET): selections, walks, sgv, graph_replace, copies, reroutes, the util
module, the regex helpers and the renamed-collections handler, compared by op names and values.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.graph_editor." + n for n in (
    "SubGraphView", "make_view_from_scope", "sgv_scope", "select_ops_and_ts", "filter_ops", "filter_ts",
    "filter_ts_from_regex", "get_name_scope_ops", "get_ops_ios", "compute_boundary_ts", "check_cios",
    "get_within_boundary_ops", "get_walks_union_ops",
    "swap_ts", "reroute_inputs", "swap_inputs", "reroute_outputs", "swap_outputs", "reroute_ios", "swap_ios",
    "add_control_inputs", "remove_control_inputs",
    "detach", "detach_outputs", "detach_control_inputs", "detach_control_outputs", "connect", "bypass",
    "Transformer", "TransformerInfo", "copy", "copy_op_handler", "keep_t_if_possible_handler",
    "replace_t_with_placeholder_handler", "transform_op_if_inside_handler"))

ORACLE_TESTED = ORACLE_TESTED + tuple("tf.contrib.graph_editor." + n for n in (
    "select_ops", "select_ts", "sgv", "get_backward_walk_ops", "get_forward_walk_ops",
    "copy_with_input_replacements", "reroute_ts", "graph_replace", "get_walks_intersection_ops",
    "detach_inputs", "make_list_of_op", "filter_ops_from_regex", "can_be_regex", "make_regex",
    "assign_renamed_collections_handler", "util", "util.ControlOutputs", "util.get_consuming_ops",
    "util.get_generating_ops", "util.get_tensors", "util.make_list_of_op", "util.make_list_of_t",
    "util.make_placeholder_from_dtype_and_shape", "util.make_placeholder_from_tensor",
    "util.placeholder_name"))

SNIPPET = r'''
import re
import numpy as np
import tensorflow as tf
ge = tf.contrib.graph_editor


def kind(op):
    return {"AddV2": "Add"}.get(op.type, op.type)


def describe(g):
    """Every op: name, type, inputs, control inputs."""
    return [[op.name, kind(op), [t.name for t in op.inputs], sorted(c.name for c in op.control_inputs)]
            for op in g.get_operations()]


def names(xs):
    return [x.name for x in xs]


def nm(x):
    """A name for an op / tensor, names for a structure of them, other values as they are (or their type)."""
    if hasattr(x, "name") and hasattr(x, "graph"):
        return x.name
    if isinstance(x, (list, tuple)):
        return [nm(y) for y in x]
    if x is None or isinstance(x, (str, int, float, bool)):
        return x
    return type(x).__name__


def snames(xs):
    return sorted(x.name for x in xs)


def view(v):
    return {"ops": names(v.ops), "inputs": names(v.inputs), "outputs": names(v.outputs),
            "passthroughs": names(v.passthroughs)}


def text(obj):
    return re.sub(r"graph\w*\[?[= ]?\d+\]?", "graph", str(obj))


# ---- selection and subgraph views ----
g = tf.Graph()
with g.as_default():
    x = tf.placeholder(tf.float32, [2], name="x")
    with tf.name_scope("blk"):
        a = tf.multiply(x, 2.0, name="a")
        b = tf.add(a, 1.0, name="b")
        c = tf.subtract(b, a, name="c")
    with tf.control_dependencies([a.op]):
        d = tf.identity(c, name="d")
    e = tf.negative(b, name="e")
    with tf.name_scope("blk2"):
        f = tf.square(e, name="f")
    w, r = tf.unstack(tf.stack([d, e]), name="split")
cos = ge.ControlOutputs(g)
report("filter_ops", [names(ge.filter_ops(g, lambda op: op.type == "Mul")), len(ge.filter_ops(g, True)),
                      names(ge.filter_ops([c.op, b.op, d.op], lambda op: op.name.startswith("blk")))])
report("filter_ts", [names(ge.filter_ts([b.op, c.op], True)),
                     names(ge.filter_ts(g, lambda t: t.op.type == "Identity")),
                     names(ge.filter_ts(c.op, lambda t: t.op.name == "blk/a"))])
report("filter_ts_from_regex", [names(ge.filter_ts_from_regex(g, "^blk/[ab]")),
                                names(ge.filter_ts_from_regex([w.op], re.compile(":1$")))])
report("name_scope_ops", [names(ge.get_name_scope_ops(g, "blk")), names(ge.get_name_scope_ops(g, "blk/")),
                          names(ge.get_name_scope_ops([a.op, e.op, f.op], "blk2"))])
report("from_scope", [view(ge.make_view_from_scope("blk", g)), view(ge.sgv_scope("blk2/", g)),
                      bool(ge.sgv_scope("nope", g))])
report("ops_ios", [snames(ge.get_ops_ios(b.op)), snames(ge.get_ops_ios([a.op], control_outputs=cos)),
                   snames(ge.get_ops_ios(d.op, control_inputs=True)), snames(ge.get_ops_ios(a.op, control_ios=cos))])
report("boundary", [[names(ts) for ts in ge.compute_boundary_ts([a.op, b.op])],
                    [names(ts) for ts in ge.compute_boundary_ts([b.op, c.op, d.op, e.op])],
                    [names(ts) for ts in ge.compute_boundary_ts(g)]])
checked = ge.check_cios(control_ios=cos)
report("check_cios", [list(ge.check_cios()), list(ge.check_cios(True)), checked[0], checked[1] is cos,
                      ge.check_cios(control_outputs=cos)[1] is cos, ge.check_cios(False, cos)[0]])
report_errors("check_cios_errors", (
    ("both", lambda: ge.check_cios(control_outputs=cos, control_ios=cos)),
    ("ios_type", lambda: ge.check_cios(control_ios=[a.op])),
    ("outputs_type", lambda: ge.check_cios(control_outputs=True)),
))
report("within_boundary", [
    names(ge.get_within_boundary_ops(g, [b.op], boundary_ops=[a.op, e.op])),
    names(ge.get_within_boundary_ops(g, [b.op], boundary_ops=[a.op, e.op], inclusive=False)),
    names(ge.get_within_boundary_ops(g, c.op, boundary_ops=[b.op], control_ios=cos)),
    names(ge.get_within_boundary_ops([b.op, c.op, d.op], d.op, control_inputs=True))])
report_errors("within_boundary_errors", (
    ("seed_in_boundary", lambda: ge.get_within_boundary_ops(g, [b.op], boundary_ops=[b.op])),))
report("walks_union", [
    snames(ge.get_walks_union_ops([e.op], [c.op])),
    snames(ge.get_walks_union_ops(b, d, forward_inclusive=False, backward_inclusive=False)),
    snames(ge.get_walks_union_ops([f.op], [d.op], control_inputs=True)),
    snames(ge.get_walks_union_ops([a.op], [x.op], control_ios=cos, within_ops=[a.op, b.op, d.op, x.op])),
    snames(ge.get_walks_union_ops([a.op], [e.op], within_ops_fn=lambda op: op.type != "Sub"))])
report("select_ops_and_ts", [
    [names(found) for found in ge.select_ops_and_ts("^blk/[ab]$", "(?#ts)^x:0$", graph=g)],
    [names(found) for found in ge.select_ops_and_ts([a.op, b, e.op], f, "^d$", graph=g)],
    [names(found) for found in ge.select_ops_and_ts("^blk", "(?#ts)^blk/", graph=g,
                                                    positive_filter=lambda x: "b" in x.name)],
    [names(found) for found in ge.select_ops_and_ts(re.compile("^e$"), c.op, graph=g)],
    names(ge.select_ops("^blk/a$", graph=g, restrict_ts_regex=True)),
    names(ge.select_ts("(?#ts)^x", graph=g, restrict_ops_regex=True))])
report_errors("select_errors", (
    ("regex_without_graph", lambda: ge.select_ops_and_ts("^a$")),
    ("bad_keyword", lambda: ge.select_ops_and_ts(a.op, grap=g)),
    ("graph_type", lambda: ge.select_ops_and_ts(a.op, graph=1)),
    ("not_op", lambda: ge.select_ops_and_ts(3)),
))

v = ge.SubGraphView([a.op, b.op, c.op])
report("view", view(v))
report("view_methods", [
    view(v.remap_inputs([1, 0])), view(v.remap_inputs([a.op.inputs[1]])), view(v.remap_outputs([1, 1, 0])),
    view(v.remap_outputs([b])), view(v.remap([0], [1])), view(v.remap(new_output_indices=[0])),
    view(v.remap([1, 0], [1, 0]).remap_default()), view(v.remap([1, 0], [1, 0]).remap_default(False, True)),
    view(v.remap_outputs([0, 0, 1]).remap_outputs_make_unique()), view(v.remap_outputs_to_consumers()),
    v.find_op_by_name("blk/b").name, v.input_index(a.op.inputs[1]), v.output_index(c), names(v.consumers()),
    v.op(1).name, len(v.ops), type(v.ops).__name__, v.is_passthrough(x), names(v.connected_inputs),
    names(v.connected_outputs), v.graph is g, view(v.copy()), text(v), text(v.remap_inputs([]))])
p = ge.SubGraphView([e.op], passthrough_ts=[x, b, d])
report("view_passthrough", [view(p), p.is_passthrough(x), names(p.connected_inputs), names(p.connected_outputs),
                            text(p)])
report("view_repeated_ops", [view(ge.SubGraphView([b.op, a.op, b.op])), view(ge.sgv(b.op, a.op, b.op))])
empty = ge.SubGraphView()
report("view_empty", [bool(empty), view(empty), empty.graph is None, text(empty)])
with ge.sgv(a.op, b.op, d.op) as with_view:
    report("view_unused", [view(with_view), view(with_view.remove_unused_ops()),
                           view(with_view.remove_unused_ops(control_inputs=False))])
report_errors("view_errors", (
    ("remap_repeated_input", lambda: v.remap_inputs([0, 0])),
    ("remap_input_range", lambda: v.remap_inputs([5])),
    ("remap_output_range", lambda: v.remap_outputs([-1])),
    ("remap_unknown_tensor", lambda: v.remap_inputs([e])),
    ("find_missing_op", lambda: v.find_op_by_name("e")),
    ("other_graph", lambda: ge.sgv(a.op, graph=tf.Graph())),
    ("not_ops", lambda: ge.SubGraphView(["a"])),
))

# ---- rerouting ----


def build(shared=False):
    """Two chains a0 -> a1 -> a2 -> oa and b0 -> b1 -> b2 -> ob stacked into out; with `shared`, both = a1 + b1
    reads one tensor of each chain."""
    graph = tf.Graph()
    with graph.as_default():
        a0 = tf.constant([1.0, 2.0], name="a0")
        b0 = tf.constant([3.0, 4.0], name="b0")
        a1 = tf.multiply(a0, 2.0, name="a1")
        b1 = tf.add(b0, 10.0, name="b1")
        a2 = tf.identity(a1, name="a2")
        b2 = tf.negative(b1, name="b2")
        outs = [tf.square(a2, name="oa"), tf.abs(b2, name="ob")]
        both = tf.add(a1, b1, name="both") if shared else None
        out = tf.stack(outs + ([both] if shared else []), name="out")
    return graph, a0, b0, a1, b1, a2, b2, both, out


def run(graph, fetch, feed=None):
    with tf.Session(graph=graph) as sess:
        return sess.run(fetch, feed)


def after(key, graph, result, fetch):
    report(key, [result, describe(graph), run(graph, fetch)])


G, A0, B0, A1, B1, A2, B2, BOTH, OUT = build(shared=True)
after("swap_ts", G, ge.swap_ts([A1], [B1], cannot_modify=[BOTH.op]), OUT)
G, A0, B0, A1, B1, A2, B2, BOTH, OUT = build()
after("swap_ts_can_modify", G, ge.swap_ts(A0, B0, can_modify=[A1.op]), OUT)
G, A0, B0, A1, B1, A2, B2, BOTH, OUT = build()
after("swap_inputs", G, [view(s) for s in ge.swap_inputs(A1.op, B1.op)], OUT)
G, A0, B0, A1, B1, A2, B2, BOTH, OUT = build()
va, vb = ge.sgv(A1.op), ge.sgv(B1.op)
returned = ge.reroute_inputs(va, vb)
after("reroute_inputs", G, [view(s) for s in returned] + [returned[0] is va, returned[1] is vb, view(vb)], OUT)
G, A0, B0, A1, B1, A2, B2, BOTH, OUT = build()
after("swap_outputs", G, [view(s) for s in ge.swap_outputs([A1.op], [B1.op])], OUT)
G, A0, B0, A1, B1, A2, B2, BOTH, OUT = build(shared=True)
after("swap_outputs_shared_consumer", G, [view(s) for s in ge.swap_outputs(A1.op, B1.op)], OUT)
G, A0, B0, A1, B1, A2, B2, BOTH, OUT = build()
after("reroute_outputs", G, [view(s) for s in ge.reroute_outputs(ge.sgv(B1.op), ge.sgv(A1.op))], OUT)
G, A0, B0, A1, B1, A2, B2, BOTH, OUT = build()
after("swap_ios", G, [view(s) for s in ge.swap_ios(ge.sgv(A1.op, A2.op), ge.sgv(B1.op, B2.op))], OUT)
G, A0, B0, A1, B1, A2, B2, BOTH, OUT = build()
returned = ge.reroute_ios(A2.op, B2.op)
after("reroute_ios", G, [type(returned).__name__, [type(s).__name__ for s in returned]], OUT)
G, A0, B0, A1, B1, A2, B2, BOTH, OUT = build()
with G.as_default():
    z = tf.constant(0.5, name="z")
passing = ge.SubGraphView([A1.op], passthrough_ts=[z]).remap_inputs([0, 2])
after("reroute_inputs_passthrough", G, [view(s) for s in ge.reroute_inputs(passing, ge.sgv(B1.op))]
      + [view(passing)], OUT)
G, A0, B0, A1, B1, A2, B2, BOTH, OUT = build()
with G.as_default():
    ints = tf.constant([1, 2], name="ints")
    scalar = tf.constant(1.0, name="scalar")
report_errors("reroute_check_errors", (
    ("dtypes", lambda: ge.swap_ts(A1, ints)),
    ("shapes", lambda: ge.reroute_ts(scalar, A1)),
    ("sizes", lambda: ge.reroute_ts([A1, B1], [A0])),
    ("other_graph", lambda: ge.swap_inputs(A1.op, build()[3].op)),
))

# control inputs
G, A0, B0, A1, B1, A2, B2, BOTH, OUT = build(shared=True)
ge.add_control_inputs(OUT.op, [A2.op, B2.op])
ge.add_control_inputs(BOTH.op, A0.op)
added = describe(G)
ge.remove_control_inputs(OUT.op, B2.op)
report("control_inputs", [added, describe(G), run(G, OUT)])
report_errors("control_input_errors", (
    ("add_again", lambda: ge.add_control_inputs(OUT.op, [A2.op])),
    ("remove_missing", lambda: ge.remove_control_inputs(OUT.op, [B2.op])),
    ("add_to_tensor", lambda: ge.add_control_inputs(OUT, [A2.op])),
    ("remove_from_tensor", lambda: ge.remove_control_inputs(OUT, [A2.op])),
    ("add_graph", lambda: ge.add_control_inputs(OUT.op, G)),
))

# ---- edits ----


def build_edit():
    graph = tf.Graph()
    with graph.as_default():
        p = tf.placeholder(tf.float32, [2], name="p")
        q = tf.constant([1.0, -1.0], name="q")
        three = tf.constant(3.0, name="three")
        with tf.control_dependencies([q.op]):
            m = tf.multiply(p, three, name="m")
        n = tf.add(m, q, name="n")
        with tf.control_dependencies([m.op]):
            o = tf.identity(n, name="o")
        s = tf.reduce_sum(o, name="s")
    return graph, p, q, m, n, o, s


FEED = np.array([1.0, 2.0], np.float32)
G, P, Q, M, N, O, S = build_edit()
returned = ge.detach(ge.sgv(M.op, N.op), control_ios=ge.ControlOutputs(G))
report("detach", [view(returned[0]), names(returned[1]), names(returned[2]), describe(G)])
with tf.Session(graph=G) as sess:
    report("detach_run", sess.run(S, {returned[2][0]: [5.0, 6.0]}))
G, P, Q, M, N, O, S = build_edit()
ops = [M.op, N.op]
returned = ge.detach(ops, control_inputs=True)
report("detach_plain", [returned[0] is ops, names(returned[1]), names(returned[2]), describe(G)])
G, P, Q, M, N, O, S = build_edit()
returned = ge.detach_outputs(N.op, control_outputs=ge.ControlOutputs(G))
report("detach_outputs", [view(returned[0]), names(returned[1]), [t.shape.as_list() for t in returned[1]],
                          describe(G)])
G, P, Q, M, N, O, S = build_edit()
returned = ge.detach_outputs(ge.sgv(M.op, N.op))
report("detach_outputs_plain", [view(returned[0]), names(returned[1]), describe(G)])
G, P, Q, M, N, O, S = build_edit()
ge.detach_control_inputs(ge.sgv(M.op, N.op, O.op))
report("detach_control_inputs", describe(G))
G, P, Q, M, N, O, S = build_edit()
ge.detach_control_outputs(M.op, ge.ControlOutputs(G))
report("detach_control_outputs", describe(G))
report_errors("detach_errors", (
    ("control_outputs_type", lambda: ge.detach_control_outputs(N.op, [O.op])),
    ("detach_cios", lambda: ge.detach(N.op, control_outputs=ge.ControlOutputs(G), control_ios=ge.ControlOutputs(G))),
))
G, P, Q, M, N, O, S = build_edit()
with G.as_default():
    alt = tf.constant([10.0, 20.0], name="alt")
    alt2 = tf.multiply(alt, 0.5, name="alt2")
returned = ge.connect(ge.sgv(alt2.op), ge.sgv(N.op).remap_inputs([1]))
report("connect", [type(returned).__name__, [view(s) for s in returned], describe(G), run(G, S, {P: FEED})])
G, P, Q, M, N, O, S = build_edit()
with G.as_default():
    alt = tf.constant([10.0, 20.0], name="alt")
    alt2 = tf.multiply(alt, 0.5, name="alt2")
    extra = tf.identity(alt2, name="extra")
returned = ge.connect(alt2.op, ge.sgv(M.op).remap_inputs([0]), disconnect_first=True)
report("connect_disconnect", [[view(s) for s in returned], describe(G), run(G, S)])
G, P, Q, M, N, O, S = build_edit()
returned = ge.bypass(ge.sgv(O.op))
report("bypass", [view(returned[0]), names(returned[1]), describe(G), run(G, S, {P: FEED})])
G, P, Q, M, N, O, S = build_edit()
returned = ge.bypass(ge.sgv(M.op).remap_inputs([0]))
report("bypass_mul", [view(returned[0]), names(returned[1]), describe(G),
                     run(G, S, {P: FEED, returned[1][0]: [7.0, 8.0]})])

# ---- transforms ----
G, P, Q, M, N, O, S = build_edit()
with G.as_default():
    tf.add_to_collection("mine", N)
    tf.add_to_collection("scope/things", O.op)
copied, info = ge.copy(ge.sgv(M.op, N.op, O.op), dst_scope="cp")
report("copy_same_graph", [view(copied), describe(G), sorted(t.name for t in G.get_collection("mine")),
                           text(info)])
report("transformer_info", [
    nm(info.transformed(M.op)), nm(info.transformed(N)), nm(info.transformed([M, O.op])),
    nm(info.transformed((M, [N, O.op]))), nm(info.transformed(P)),
    nm(info.transformed(P, missing_fn=lambda t: "missing")), nm(info.original(copied.outputs[0])),
    nm(info.original(info.transformed(M.op))), nm(info.original(Q)), type(info).__name__])
report("transformed_by_name", [nm(info.transformed("n:0")), nm(info.transformed(["m", "o:0"]))])
report_errors("transformer_info_errors", (
    ("number", lambda: info.transformed(3)),
    ("name", lambda: info.transformed("n:0")),
    ("original_name", lambda: info.original("cp/n")),
))
# an input read by two copied ops: TF 1.15 made a placeholder for each
copied, info = ge.copy(ge.sgv(b.op, c.op), dst_scope="twice")
report("copy_input_twice", [view(copied), describe(g)[-6:], info.transformed(a), text(info)])
G2 = tf.Graph()
copied, info = ge.copy(G, G2)
report("copy_graph", [len(copied.ops), describe(G2), text(info)])
with tf.Session(graph=G2) as sess:
    report("copy_graph_run", sess.run("s:0", {"p:0": FEED}))
G3 = tf.Graph()
copied, info = ge.copy(ge.sgv(M.op, N.op), G3, dst_scope="new", src_scope="", reuse_dst_scope=True)
copied2, info2 = ge.copy(ge.sgv(M.op, N.op), G3, dst_scope="new")
report("copy_scopes", [view(copied), view(copied2), describe(G3)])
report_errors("copy_errors", (
    ("dst_graph_type", lambda: ge.copy(ge.sgv(M.op), dst_graph="g")),
    ("src_scope", lambda: ge.copy(ge.sgv(M.op), tf.Graph(), src_scope="elsewhere")),
    ("copy_op_handler_bool", lambda: ge.copy_op_handler(None, M.op, True)),
))

G, P, Q, M, N, O, S = build_edit()
calls = []


def logging_handler(info, op, new_inputs):
    calls.append([op.name, names(new_inputs), info.scope_, info.graph_ is G])
    def renamed(node_def):
        node_def.name += "_x"
        return node_def

    return ge.copy_op_handler(info, op, new_inputs, copy_shape=True,
                              nodedef_fn=renamed if op.type == "Identity" else None)


def placeholder_handler(info, t):
    ph = ge.replace_t_with_placeholder_handler(info, t)
    calls.append(["input", t.name, ph.name, ph.shape.as_list(), ph.dtype.name])
    return ph


transformer = ge.Transformer()
transformer.transform_op_handler = logging_handler
transformer.transform_external_input_handler = placeholder_handler
transformer.transform_control_input_handler = lambda info, op: ge.transform_op_if_inside_handler(
    info, op, keep_if_possible=False)
copied, info = transformer(ge.sgv(M.op, N.op, O.op), G, "t1")
report("transformer_handlers", [calls, view(copied), describe(G)])
transformer = ge.Transformer()
transformer.transform_external_input_handler = ge.keep_t_if_possible_handler
copied, info = transformer(ge.sgv(N.op, O.op), G, "t2", reuse_dst_scope=True)
report("transformer_keep", [view(copied), describe(G), run(G, info.transformed(O), {P: FEED})])
G4 = tf.Graph()
transformer = ge.Transformer()
transformer.transform_external_input_handler = ge.keep_t_if_possible_handler
transformer.transform_external_hidden_input_handler = ge.replace_t_with_placeholder_handler
copied, info = transformer(ge.sgv(M.op, N.op, O.op).remap_inputs([0]), G4, "")
report("transformer_other_graph", [view(copied), describe(G4), text(info)])
transformer = ge.Transformer()
transformer.transform_op_handler = lambda info, op, new_inputs: (op, op.outputs)
report_errors("transformer_errors", (
    ("in_place", lambda: transformer(ge.sgv(M.op), G, "t3")),
    ("dst_graph", lambda: ge.Transformer()(ge.sgv(M.op), "g", "t3")),
))
'''


@requires_tf115
def test_graph_editor_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  # TF 1.15 swapped pair by pair, each pair's updates one after the other: an op reading both swapped
  # tensors (both = a1 + b1) was left reading one of them twice.
  assert tf115["swap_outputs_shared_consumer"][1][-2] == ["both", "Add", ["b1:0", "b1:0"], []]
  assert ours["swap_outputs_shared_consumer"][1][-2] == ["both", "Add", ["b1:0", "a1:0"], []]
  # TF 1.15's transform_tree rebuilt a string as '' (str.__new__, then an __init__ that ignores its argument).
  assert tf115["transformed_by_name"] == ["", ["", ""]]
  assert_same(tf115, ours, differences={
      "swap_outputs_shared_consumer": "tf1clip swaps the inputs of an op reading both tensors (docs/contrib.md); "
                                      "TF 1.15 left it reading one of them twice",
      "transformed_by_name": "TransformerInfo.transformed / original look names up (TF 1.15's _transformed_elem "
                             "had the code for it); TF 1.15 returned '' for any string"})


EDITS_SNIPPET = r'''
import numpy as np
import tensorflow as tf
ge = tf.contrib.graph_editor
# graph_editor: edits on a small graph, results compared by op names and values
g = tf.Graph()
with g.as_default():
    a = tf.constant(2.0, name="a")
    b = tf.constant(3.0, name="b")
    c = tf.add(a, b, name="c")
    d = tf.multiply(c, 2.0, name="d")
    e = tf.subtract(d, a, name="e")
    new_b = tf.constant(10.0, name="new_b")
    report("ge_select_ops", sorted(op.name for op in ge.select_ops("^[cd]$", graph=g)))
    report("ge_select_ts", sorted(t.name for t in ge.select_ts("^[ab]:0$", graph=g)))
    report("ge_backward", sorted(op.name for op in ge.get_backward_walk_ops([e.op])))
    report("ge_forward", sorted(op.name for op in ge.get_forward_walk_ops([a.op])))
    report("ge_intersection", sorted(op.name for op in ge.get_walks_intersection_ops([b.op], [e.op])))
    report("ge_regex", sorted(op.name for op in ge.filter_ops_from_regex(ge.make_list_of_op(g), "^[a-c]$")))
    view = ge.sgv(c.op, d.op)
    report("ge_sgv_inputs", sorted(t.name for t in view.inputs))
    report("ge_sgv_outputs", sorted(t.name for t in view.outputs))
    replaced = ge.graph_replace(e, {b: new_b})
    copied, info = ge.copy_with_input_replacements(ge.sgv(c.op), {b: new_b})
    with tf.Session(graph=g) as s:
        report("ge_graph_replace", s.run(replaced))
        report("ge_copy", s.run(info.transformed(c)))
        ge.reroute_ts([new_b], [b])
        report("ge_rerouted", s.run(e))
    report("ge_op_count", len(g.get_operations()))
    # TF 1.15's util module and the regex helpers
    u = ge.util
    report("ge_util", [sorted(op.name for op in u.get_consuming_ops([a, b])),
                       sorted(op.name for op in u.get_generating_ops([c, d])),
                       len(u.get_tensors(g)), [op.name for op in u.make_list_of_op([c.op, d.op])],
                       [t.name for t in u.make_list_of_t(ge.sgv(c.op).outputs)],
                       u.placeholder_name(c), u.make_placeholder_from_tensor(c).name,
                       u.make_placeholder_from_dtype_and_shape(tf.int32, [2, None]).shape.as_list(),
                       sorted(op.name for op in u.ControlOutputs(g).get(a.op))])
    report("ge_regex_helpers", [ge.can_be_regex("^a$"), ge.can_be_regex(3), ge.make_regex("^c").pattern])
    report_errors("ge_make_regex_bad", (("int", lambda: ge.make_regex(3)), ("list", lambda: ge.make_regex(["a"]))))
    with tf.control_dependencies([a.op]):
        f = tf.identity(d, name="f")
    tf.add_to_collection("mine", c)
    # the renamed-collections handler: copies keep their collections, under the new scope
    copy_graph = tf.Graph()
    transformer = ge.Transformer()
    transformer.assign_collections_handler = ge.assign_renamed_collections_handler
    transformer(ge.sgv(c.op, d.op, f.op), copy_graph, "copied", "")
    report("ge_renamed_collections", [t.name for t in copy_graph.get_collection("mine")])

'''


@requires_tf115
def test_graph_editor_edits_match_tf115():
  tf115, ours = run_both(EDITS_SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5)

"""`tf1clip upgrade --stage 3`: a TF1 Session program (as stage 2 leaves it) -> TF2 eager, no Session.

The program is first taken through stages 1 and 2 (tools.upgrade), then rewritten, keeping its model code:
  - `import tf1clip.compat.v1 as tf` -> `import tensorflow.compat.v1 as tf`: the TF1 names without TF1 mode,
    so the process stays eager (TF2 behaviour); `import tf1clip.v2` is added;
  - the statements that build the graph (placeholders, variables, layers, the loss: every statement before
    the Session that calls a `tf.` graph function or uses a name such a statement bound) move, as written,
    into `def _tf1_graph():` (their names declared `global`), built once by `tf1clip.v2.TF1Graph` -- a
    `tf.compat.v1.wrap_function` of the graph whose variables keep their TF1 names; ops the Session block
    builds at its top level (`pred = tf.nn.softmax(logits)`) move there too;
  - `opt = tf.train.XOptimizer(...)` -> `tf1clip.v2.migrate_optimizer(...)` (the Keras optimizer taking the
    same steps; a stage-2 `tf1clip.clip_gradients_by_norm(opt, c)` becomes its tf1clip.v2 counterpart);
    `train_op = opt.minimize(loss, var_list=, global_step=)` -> a `tf.function` step (GradientTape, the
    optimizer's apply_gradients, global_step += 1): `_train_step = _graph.train_step(...)`;
  - `sess.run(fetches, feed_dict={X: a, Y: b})` / `t.eval(feed_dict)` -> a function of the fed values,
    `_train_step(a, b)` when the train op is fetched, else `_compute_<fetch>(a, b)`;
    `sess.run(init)` goes (variables are initialized when the graph is built);
  - `saver = tf.train.Saver(...)` -> `_graph.checkpoint(...)` (a tf.train.Checkpoint keyed by TF1 names,
    restoring TF1 checkpoints by name: v2.tf1_checkpoint); `saver.save(sess, p, ...)` -> `saver.save(p, ...)`;
  - `with tf.Session() as sess:` goes; its body runs at module level.
Anything else -- a Session inside a function, `sess` used another way, ops built inside the training loop,
summaries, feeds that are not a dict literal, learning-rate variables -- is a TODO at its file:line; a file
with a TODO is not written (never a silently different program) and the command exits 1.

Data flow: tools.upgrade (stages 1-2) <- **tools.upgrade_stage3** <- tools.upgrade_cli <- cli; the programs
it writes run on tf1clip.v2.tf1_graph / tf1_checkpoint. Imports no TensorFlow.
"""

import collections
import difflib
import re

import libcst as cst
from libcst import metadata

from tf1clip.tools import upgrade

Todo = collections.namedtuple("Todo", "line what")
Todo.__doc__ = """A statement stage 3 could not convert: its line (in the original file) and why."""

FACADE = "tf1clip.compat.v1"
GRAPH_FUNCTION = "_tf1_graph"
GRAPH = "_graph"
# tf.<namespace> calls that do not build graph ops (they run the same in eager code).
_HOST_CALLS = ("flags.", "app.", "logging.", "gfile.", "io.gfile.", "train.latest_checkpoint",
               "train.get_checkpoint_state", "train.checkpoint_exists", "test.", "resource_loader.")
_INITIALIZERS = ("global_variables_initializer", "initialize_all_variables", "local_variables_initializer",
                 "initialize_local_variables", "tables_initializer")
_STAGE2_WRAPPERS = ("tf1clip.clip_gradients_by_norm", "tf1clip.WrappedOptimizer",
                    "tf1clip.GradientAccumulationOptimizer")


def _dotted(node):
  if isinstance(node, cst.Name):
    return node.value
  if isinstance(node, cst.Attribute):
    base = _dotted(node.value)
    return None if base is None else base + "." + node.attr.value
  return None


def _code(node):
  return cst.Module([]).code_for_node(node).strip()


class _Loads(cst.CSTVisitor):
  """The names an expression or statement reads (not attribute names, not keyword names)."""

  def __init__(self):
    super().__init__()
    self.names = set()

  def visit_Name(self, node):  # pylint: disable=invalid-name
    self.names.add(node.value)

  def visit_Attribute(self, node):  # pylint: disable=invalid-name
    node.value.visit(self)
    return False

  def visit_Arg(self, node):  # pylint: disable=invalid-name
    node.value.visit(self)
    return False


def _loads(node):
  visitor = _Loads()
  node.visit(visitor)
  return visitor.names


class _Bound(cst.CSTVisitor):
  """The names a statement binds (assignment and loop targets, `with ... as`, def / class names)."""

  def __init__(self):
    super().__init__()
    self.names = set()

  def _targets(self, target):
    if isinstance(target, cst.Name):
      self.names.add(target.value)
    elif isinstance(target, (cst.Tuple, cst.List)):
      for element in target.elements:
        self._targets(element.value)
    elif isinstance(target, cst.StarredElement):
      self._targets(target.value)

  def visit_AssignTarget(self, node):  # pylint: disable=invalid-name
    self._targets(node.target)

  def visit_AugAssign(self, node):  # pylint: disable=invalid-name
    self._targets(node.target)

  def visit_AnnAssign(self, node):  # pylint: disable=invalid-name
    self._targets(node.target)

  def visit_For(self, node):  # pylint: disable=invalid-name
    self._targets(node.target)

  def visit_AsName(self, node):  # pylint: disable=invalid-name
    self._targets(node.name)

  def visit_FunctionDef(self, node):  # pylint: disable=invalid-name
    self.names.add(node.name.value)
    return False

  def visit_ClassDef(self, node):  # pylint: disable=invalid-name
    self.names.add(node.name.value)
    return False

  def visit_Lambda(self, node):  # pylint: disable=invalid-name
    return False


def _bound(node):
  visitor = _Bound()
  node.visit(visitor)
  return visitor.names


class _Calls(cst.CSTVisitor):
  """The dotted names of the calls in a node."""

  def __init__(self):
    super().__init__()
    self.calls = []

  def visit_Call(self, node):  # pylint: disable=invalid-name
    dotted = _dotted(node.func)
    if dotted:
      self.calls.append(dotted)


def _calls(node):
  visitor = _Calls()
  node.visit(visitor)
  return visitor.calls


class _Program:
  """What one file holds and how stage 3 rewrites it (see `upgrade_source`)."""

  def __init__(self, module, positions, line_of):
    self.module = module
    self.positions = positions
    self.line_of = line_of
    self.tf = set()
    self.changes = []
    self.todos = []
    self.graph_names = set()
    self.train_ops = {}  # name -> (optimizer expression, loss, var_list, global_step) nodes
    self.optimizers = {}  # name -> its statement
    self.initializers = set()
    self.savers = {}  # name -> Saver call
    self.functions = collections.OrderedDict()  # generated name -> code of its definition
    self.function_keys = {}

  def line(self, node):
    position = self.positions.get(node)
    return self.line_of(position.start.line) if position else 0

  def todo(self, node, what):
    self.todos.append(Todo(self.line(node), what))

  def change(self, node, after, note=""):
    bare = node.with_changes(leading_lines=()) if hasattr(node, "leading_lines") else node
    self.changes.append(upgrade.Change(self.line(node), "stage3", _code(bare).split("\n")[0][:100], after,
                                       (note,) if note else ()))

  def tf_call(self, dotted):
    """The part after the TF alias of a dotted call name (`train.AdamOptimizer`), else None."""
    head, _, rest = dotted.partition(".")
    return rest if head in self.tf and rest else None

  def builds_graph(self, node):
    """True when a node calls TF graph code or reads a name graph code bound."""
    if _loads(node) & self.graph_names:
      return True
    for dotted in _calls(node):
      rest = self.tf_call(dotted)
      if rest is not None and not rest.startswith(_HOST_CALLS):
        return True
      if dotted.startswith("tf1clip."):
        return True
    return False


def _single(statement):
  """The one small statement of a simple line, else None."""
  if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
    return statement.body[0]
  return None


def _assign(statement):
  """(name, value) of `name = value`, else None."""
  small = _single(statement)
  if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
    return small.targets[0].target.value, small.value
  return None


def _arguments(call, names):
  """The call's arguments by name (positional ones take `names` in order); None for *args / **kwargs."""
  found = {}
  for i, arg in enumerate(call.args):
    if arg.star:
      return None
    if arg.keyword is None:
      if i >= len(names):
        return None
      found[names[i]] = arg.value
    else:
      found[arg.keyword.value] = arg.value
  return found


def _is_session(program, node):
  if isinstance(node, cst.Call):
    dotted = _dotted(node.func) or ""
    return program.tf_call(dotted) in ("Session", "compat.v1.Session")
  return False


def _session_with(program, statement):
  """The session's name when `statement` is `with tf.Session(...) as sess:`, else None."""
  if (isinstance(statement, cst.With) and len(statement.items) == 1 and _is_session(program, statement.items[0].item)
      and statement.items[0].asname is not None and isinstance(statement.items[0].asname.name, cst.Name)):
    return statement.items[0].asname.name.value
  return None


class _FindSessions(cst.CSTVisitor):
  def __init__(self, program):
    super().__init__()
    self.program = program
    self.found = []

  def visit_Call(self, node):  # pylint: disable=invalid-name
    dotted = _dotted(node.func) or ""
    rest = self.program.tf_call(dotted)
    if rest in ("Session", "compat.v1.Session", "InteractiveSession", "train.MonitoredTrainingSession",
                "train.MonitoredSession", "train.SingularMonitoredSession"):
      self.found.append(node)


def _classify_before(program, body):
  """Sorts the statements before the Session: host (kept), graph (moved), and the ones stage 3 replaces."""
  host, graph, after_build = [], [], []
  for statement in body:
    assigned = _assign(statement)
    value = assigned[1] if assigned else None
    dotted = _dotted(value.func) if isinstance(value, cst.Call) else None
    rest = program.tf_call(dotted) if dotted else None
    if isinstance(statement, (cst.FunctionDef, cst.ClassDef)) or (
        _single(statement) is not None and isinstance(_single(statement), (cst.Import, cst.ImportFrom))):
      host.append(statement)
    elif rest in _INITIALIZERS:
      program.initializers.add(assigned[0])
      program.change(statement, "(removed: variables are initialized when the graph is built)")
    elif rest and rest.startswith("train.") and rest.endswith("Optimizer"):
      if _loads(value) & program.graph_names:
        program.todo(statement, "the optimizer takes graph values (a learning-rate tensor or variable): stage 3 "
                     "converts optimizers built from Python numbers")
      program.optimizers[assigned[0]] = statement
      after_build.append(statement)
    elif assigned and isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and (
        value.func.attr.value == "minimize"):
      _train_op(program, statement, assigned[0], value, graph)
    elif rest == "train.Saver":
      program.savers[assigned[0]] = value
      after_build.append(statement)
    elif assigned is None and _single(statement) is None and not program.builds_graph(statement):
      host.append(statement)
    elif program.builds_graph(statement):
      for dotted_call in _calls(statement):
        part = program.tf_call(dotted_call) or ""
        if part.startswith("summary."):
          program.todo(statement, "tf.summary (%s): stage 3 does not convert summaries yet (tf.summary.scalar "
                       "under a tf.summary.create_file_writer in the step)" % part)
        if dotted_call.endswith((".compute_gradients", ".apply_gradients")) or part == "gradients":
          program.todo(statement, "hand-written gradient code stage 2 left as it is: stage 3 converts "
                       "`minimize` and stage 2's wrappers")
      graph.append(statement)
      program.graph_names |= _bound(statement)
    else:
      host.append(statement)
  for statement in host:
    late = _loads(statement) & program.graph_names
    if late and not isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
      program.todo(statement, "host code reads graph names (%s) before the Session" % ", ".join(sorted(late)))
  return host, graph, after_build


def _train_op(program, statement, name, call, graph):
  receiver = call.func.value
  args = _arguments(call, ["loss", "global_step", "var_list"])
  if args is None or set(args) - {"loss", "global_step", "var_list", "name"}:
    program.todo(statement, "minimize with arguments stage 3 does not convert (%s)" % _code(call)[:80])
    return
  dotted = _dotted(receiver)
  if dotted and dotted in program.optimizers:
    optimizer = receiver
  elif isinstance(receiver, cst.Call) and (_dotted(receiver.func) in _STAGE2_WRAPPERS or (
      (program.tf_call(_dotted(receiver.func) or "") or "").startswith("train."))):
    optimizer = receiver
  else:
    program.todo(statement, "minimize on %s: stage 3 converts tf.train optimizers and stage 2's tf1clip "
                 "wrappers" % _code(receiver)[:60])
    return
  loss = args["loss"]
  if not isinstance(loss, cst.Name):
    # the loss expression stays graph code, under a name the step can be given
    loss_name = "_%s_loss" % name
    graph.append(cst.parse_statement("%s = %s\n" % (loss_name, _code(loss))))
    program.graph_names.add(loss_name)
    loss = cst.Name(loss_name)
  var_list = args.get("var_list")
  if var_list is not None and not isinstance(var_list, cst.Name):
    list_name = "_%s_var_list" % name
    graph.append(cst.parse_statement("%s = %s\n" % (list_name, _code(var_list))))
    program.graph_names.add(list_name)
    var_list = cst.Name(list_name)
  program.train_ops[name] = (optimizer, loss, var_list, args.get("global_step"), statement)


class _SessionRewriter(cst.CSTTransformer):
  """The Session block's statements: sess.run / eval -> generated functions, saver calls without sess."""

  def __init__(self, program, session):
    super().__init__()
    self.p = program
    self.session = session
    self.converted = set()  # ids of the original calls replaced

  def _fetch_names_ok(self, node, allow_train):
    names = _loads(node)
    if _calls(node):
      return False
    allowed = self.p.graph_names | (set(self.p.train_ops) if allow_train else set())
    return bool(names) and names <= allowed

  def _convert_run(self, call, fetches, feed):
    """A generated function's call for `sess.run(fetches, feed)`, or None (a TODO is recorded)."""
    keys, values = [], []
    if feed is not None:
      if not isinstance(feed, cst.Dict):
        self.p.todo(call, "feed_dict is %s, not a dict literal: stage 3 turns the keys of a literal into "
                    "arguments" % _code(feed)[:40])
        return None
      for element in feed.elements:
        if not isinstance(element, cst.DictElement) or not self._fetch_names_ok(element.key, False):
          self.p.todo(call, "feed_dict key %s is not a graph tensor stage 3 can name" % _code(element)[:40])
          return None
        keys.append(_code(element.key))
        values.append(_code(element.value))
    train = [n for n in _loads(fetches) if n in self.p.train_ops]
    top = fetches.elements if isinstance(fetches, (cst.List, cst.Tuple)) else [None]
    if train and not all(isinstance(e.value, cst.Name) and e.value.value in self.p.train_ops or not (
        _loads(e.value) & set(self.p.train_ops)) for e in top if e is not None) and not isinstance(fetches, cst.Name):
      self.p.todo(call, "the train op is fetched inside a nested structure")
      return None
    if len(set(train)) > 1:
      self.p.todo(call, "two train ops in one sess.run")
      return None
    key = (_code(fetches), tuple(keys))
    if key not in self.p.function_keys:
      self.p.function_keys[key] = self._define(fetches, keys, train[0] if train else None)
    return cst.parse_expression("%s(%s)" % (self.p.function_keys[key], ", ".join(values)))

  def _define(self, fetches, keys, train_op):
    feeds = "[%s]" % ", ".join(keys)
    if train_op is None:
      simple = _dotted(fetches)
      base = "_compute_" + re.sub(r"\W+", "_", simple) if simple else "_compute"
      name = self._unique(base)
      self.p.functions[name] = "%s = %s.function(%s, %s)" % (name, GRAPH, feeds, _code(fetches))
      return name
    optimizer, loss, var_list, global_step, _ = self.p.train_ops[train_op]
    if isinstance(fetches, cst.Name):
      step_fetches = "None"
    else:
      parts = ["None" if isinstance(e.value, cst.Name) and e.value.value == train_op else _code(e.value)
               for e in fetches.elements]
      step_fetches = ("[%s]" if isinstance(fetches, cst.List) else "(%s,)" if len(parts) == 1 else "(%s)") % (
          ", ".join(parts))
    name = self._unique("_train_step")
    extra = "".join(", %s=%s" % (k, _code(v)) for k, v in (("var_list", var_list), ("global_step", global_step))
                    if v is not None)
    self.p.functions[name] = "%s = %s.train_step(%s, %s, %s, %s%s)" % (
        name, GRAPH, self.p.optimizer_for[train_op], _code(loss), feeds, step_fetches, extra)
    return name

  def _unique(self, base):
    name, i = base, 2
    while name in self.p.functions:
      name, i = "%s_%d" % (base, i), i + 1
    return name

  def leave_Call(self, original_node, updated_node):  # pylint: disable=invalid-name
    func = original_node.func
    if not isinstance(func, cst.Attribute):
      return updated_node
    receiver, method = func.value, func.attr.value
    is_session = isinstance(receiver, cst.Name) and receiver.value == self.session
    if is_session and method == "run":
      args = _arguments(original_node, ["fetches", "feed_dict"])
      if args is None or "fetches" not in args or set(args) - {"fetches", "feed_dict"}:
        self.p.todo(original_node, "sess.run with options / run_metadata: not converted")
        return updated_node
      fetches = args["fetches"]
      if not self._fetch_names_ok(fetches, True):
        strangers = sorted(_loads(fetches) - self.p.graph_names - set(self.p.train_ops))
        self.p.todo(original_node, "sess.run(%s): %s not bound by the graph code stage 3 moves (%s)" % (
            _code(fetches)[:50], ", ".join("`%s`" % n for n in strangers) or "the fetches are",
            "an object from another module that builds the graph?" if strangers else "an expression"))
        return updated_node
      return self._converted(original_node, fetches, args.get("feed_dict"), updated_node)
    if method == "eval" and self._fetch_names_ok(receiver, False):
      args = _arguments(original_node, ["feed_dict", "session"])
      if args is None or set(args) - {"feed_dict", "session"}:
        self.p.todo(original_node, "eval with arguments stage 3 does not convert")
        return updated_node
      return self._converted(original_node, receiver, args.get("feed_dict"), updated_node)
    if (isinstance(receiver, cst.Name) and receiver.value in self.p.savers and method in ("save", "restore")
        and original_node.args and _dotted(original_node.args[0].value) == self.session):
      rest = list(updated_node.args[1:])
      if method == "save":
        args = _arguments(original_node, ["sess", "save_path", "global_step"])
        if args is None or set(args) - {"sess", "save_path", "global_step"}:
          self.p.todo(original_node, "saver.save with arguments stage 3 does not convert")
          return updated_node
      self.converted.add(id(original_node))
      return updated_node.with_changes(args=rest)
    return updated_node

  def _converted(self, original_node, fetches, feed, updated_node):
    converted = self._convert_run(original_node, fetches, feed)
    if converted is None:
      return updated_node
    self.converted.add(id(original_node))
    return converted


class _Leftovers(cst.CSTVisitor):
  """Uses of the session and graph-building calls left in host code after the rewrite."""

  def __init__(self, program, session, converted):
    super().__init__()
    self.p = program
    self.session = session
    self.converted = converted

  def lines(self, node):
    return self.p.line(node)

  def visit_Name(self, node):  # pylint: disable=invalid-name
    if self.session and node.value == self.session and self.lines(node) not in {t.line for t in self.p.todos}:
      self.p.todos.append(Todo(self.lines(node), "`%s` (the Session) is used in a way stage 3 does not convert"
                               % self.session))

  def visit_Attribute(self, node):  # pylint: disable=invalid-name
    node.value.visit(self)
    return False

  def visit_Call(self, node):  # pylint: disable=invalid-name
    if id(node) in self.converted:
      return False
    dotted = _dotted(node.func) or ""
    rest = self.p.tf_call(dotted)
    if rest is not None and not rest.startswith(_HOST_CALLS) and self.lines(node) not in {
        t.line for t in self.p.todos}:
      self.p.todos.append(Todo(self.lines(node), "tf.%s builds graph ops inside the Session's loop or after "
                               "it: stage 3 moves only top-level `name = ...` statements into the graph" % rest))


def _hoist(program, body, session):
  """Top-level `name = <graph code>` statements of the Session block, moved into the graph function."""
  assigned_in_block = set()
  for statement in body:
    assigned_in_block |= _bound(statement)
  kept, hoisted = [], []
  for statement in body:
    assigned = _assign(statement)
    summary = [c for c in _calls(statement) if (program.tf_call(c) or "").startswith("summary.")]
    if summary:
      program.todo(statement, "tf.%s: stage 3 does not convert summaries yet (tf.summary.scalar under a "
                   "tf.summary.create_file_writer in the step)" % program.tf_call(summary[0]))
      kept.append(statement)
      continue
    if assigned and program.builds_graph(assigned[1]) and session not in _loads(statement) and not (
        _loads(assigned[1]) & (assigned_in_block - program.graph_names)) and not any(
            ".run" in c or ".eval" in c for c in _calls(assigned[1])):
      hoisted.append(statement)
      program.graph_names.add(assigned[0])
      program.change(statement, "moved into %s()" % GRAPH_FUNCTION)
    else:
      kept.append(statement)
  return kept, hoisted


def _rewrite_imports(program, body):
  """`import tf1clip.compat.v1 as tf` -> `import tensorflow.compat.v1 as tf` + `import tf1clip.v2`."""
  out, done = [], False
  for statement in body:
    small = _single(statement)
    if isinstance(small, cst.Import) and any(_dotted(a.name) == FACADE for a in small.names):
      if len(small.names) != 1 or small.names[0].asname is None:
        program.todo(statement, "import of the facade stage 3 does not rewrite: %s" % _code(statement))
        out.append(statement)
        continue
      alias = small.names[0].asname.name.value
      new = ["import tensorflow.compat.v1 as %s\n" % alias]
      if not done:
        new = ["import os\n", "os.environ.setdefault(\"TF_USE_LEGACY_KERAS\", \"1\")  # tf.compat.v1.layers from "
               "tf-keras, as in TF 1.x\n"] + new + ["import tf1clip.v2\n"]
        done = True
      program.change(statement, "; ".join(s.strip() for s in new))
      out.extend(cst.parse_statement(s) for s in new)
    elif isinstance(small, cst.ImportFrom) and _dotted(small.module) == FACADE:
      program.todo(statement, "`from tf1clip.compat.v1 import ...`: stage 3 rewrites `import ... as tf` only")
      out.append(statement)
    else:
      out.append(statement)
  return out


def _optimizers(program, after_build):
  """The Keras optimizers the train steps use: (train op -> its name, the statements that make them).

  `opt = tf.train.XOptimizer(...)` used as `opt.minimize` or inside stage 2's `tf1clip.clip_gradients_by_norm(opt,
  c)` / `tf1clip.WrappedOptimizer(opt, [...])` becomes `tf1clip.v2.migrate_optimizer(...)` where it stands and the
  wrapper its tf1clip.v2 namesake; any other receiver is migrated as a whole (the TF1 objects in it stay TF1).
  """
  optimizer_for, keras_names, generated = {}, set(), []
  for train_op, (receiver, _, _, _, statement) in program.train_ops.items():
    dotted = _dotted(receiver)
    if dotted in program.optimizers:
      optimizer_for[train_op] = dotted
      keras_names.add(dotted)
      continue
    name = "_%s_optimizer" % train_op
    wrapper = _dotted(receiver.func)
    first = _dotted(receiver.args[0].value) if receiver.args and receiver.args[0].keyword is None else None
    if wrapper in _STAGE2_WRAPPERS[:2] and first in program.optimizers and all(
        a.keyword is None or a.keyword.value in ("name", "summaries", "repeated_rows") for a in receiver.args):
      keras_names.add(first)
      code = "%s = tf1clip.v2.%s\n" % (name, _code(receiver)[len("tf1clip."):])
    else:
      code = "%s = tf1clip.v2.migrate_optimizer(%s)\n" % (name, _code(receiver))
    generated.append(cst.parse_statement(code))
    optimizer_for[train_op] = name
    program.change(statement, "%s.train_step(...): a tf.function step (GradientTape + apply_gradients)" % GRAPH)
  for train_op, (receiver, _, _, _, statement) in program.train_ops.items():
    if _dotted(receiver) in program.optimizers:
      program.change(statement, "%s.train_step(...): a tf.function step (GradientTape + apply_gradients)" % GRAPH)
    elif not isinstance(receiver, cst.Name) and _loads(receiver) & keras_names and not (
        _dotted(receiver.func) in _STAGE2_WRAPPERS[:2]):
      program.todo(statement, "an optimizer used both directly and inside %s" % _code(receiver)[:40])
  statements = []
  for statement in after_build:
    name, value = _assign(statement)
    if name in keras_names:
      migrated = cst.parse_statement("%s = tf1clip.v2.migrate_optimizer(%s)\n" % (name, _code(value)))
      program.change(statement, _code(migrated))
      statement = migrated
    if name in program.optimizers:
      statements.append(statement)
  return optimizer_for, statements + generated


def _indent(statements):
  return "".join("    " + line if line.strip() else line
                 for s in statements for line in cst.Module([s]).code.splitlines(True))


def _build(program, body, session_index, session):
  """The new module body (see the module docstring); records TODOs on the way."""
  before, session_statement, after = body[:session_index], body[session_index], body[session_index + 1:]
  host, graph, after_build = _classify_before(program, before)
  session_body = list(session_statement.body.body)
  # `sess.run(init)` / `sess.run(tf.global_variables_initializer())`: nothing to do any more
  kept = []
  for statement in session_body:
    small = _single(statement)
    if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) and _dotted(small.value.func) == (
        session + ".run") and small.value.args:
      fetched = small.value.args[0].value
      dotted = _dotted(fetched.func) if isinstance(fetched, cst.Call) else _dotted(fetched)
      if dotted in program.initializers or (program.tf_call(dotted or "") or "") in _INITIALIZERS:
        program.change(statement, "(removed: variables are initialized when the graph is built)")
        continue
    assigned = _assign(statement)
    if assigned and program.tf_call(_dotted(assigned[1].func) if isinstance(assigned[1], cst.Call) else "") == (
        "train.Saver"):
      program.savers[assigned[0]] = assigned[1]
      after_build.append(statement)
      continue
    kept.append(statement)
  kept, hoisted = _hoist(program, kept, session)
  graph += hoisted
  program.optimizer_for, migrated = _optimizers(program, after_build)
  for statement in after_build:
    name, value = _assign(statement)
    if name in program.savers:
      args = _arguments(value, ["var_list"])
      if args is None or set(args) - {"var_list", "max_to_keep"}:
        program.todo(statement, "Saver arguments stage 3 does not convert: %s" % _code(value)[:60])
        continue
      optimizers = sorted(set(program.optimizer_for.values()))
      parts = (["var_list=%s" % _code(args["var_list"])] if "var_list" in args else []) + (
          ["optimizer=%s" % optimizers[0]] if len(optimizers) == 1 else [])
      new = cst.parse_statement("%s = %s.checkpoint(%s)\n" % (name, GRAPH, ", ".join(parts)))
      note = "max_to_keep is not applied: every checkpoint is kept" if "max_to_keep" in args else ""
      program.change(statement, _code(new), note)
      migrated.append(new)
  rewriter = _SessionRewriter(program, session)
  rewritten = [s.visit(rewriter) for s in kept]
  rewritten_after = [s.visit(rewriter) for s in after]
  program.change(session_statement, "its body, at module level (no Session)")

  graph_code = "def %s():\n    \"\"\"The TF1 model code, as written; tf1clip.v2.TF1Graph builds it once.\"\"\"\n" % (
      GRAPH_FUNCTION)
  names = sorted(program.graph_names)
  if names:
    graph_code += "    global %s\n" % ", ".join(names)
  graph_code += _indent(graph) if graph else "    pass\n"
  blank = [cst.EmptyLine(), cst.EmptyLine()]
  generated = [cst.parse_statement(graph_code).with_changes(leading_lines=blank),
               cst.parse_statement("%s = tf1clip.v2.TF1Graph(%s)\n" % (GRAPH, GRAPH_FUNCTION))]
  generated += migrated
  generated += [cst.parse_statement(code + "\n") for code in program.functions.values()]
  leftovers = _Leftovers(program, session, rewriter.converted)
  for statement in kept + after:
    statement.visit(leftovers)
  return host + generated + rewritten + rewritten_after


def _function_with_session(program, body):
  """The module-level function whose body holds the `with tf.Session() as sess:` statement, else None."""
  for statement in body:
    if isinstance(statement, cst.FunctionDef) and isinstance(statement.body, cst.IndentedBlock) and any(
        _session_with(program, s) for s in statement.body.body):
      return statement
  return None


def _line_map(original, stage2):
  """Maps a line of the stage-2 text to the original's line (stage 2 adds an import line or a comment)."""
  a, b = original.splitlines(), stage2.splitlines()
  mapping = {}
  for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
    for k in range(j2 - j1):
      mapping[j1 + k + 1] = min(i1 + k, max(i2 - 1, i1)) + 1 if tag != "insert" else i1 + 1
  return lambda line: mapping.get(line, line)


def upgrade_source(source):
  """Rewrites one file to stage 3.

  Args:
    source: the file's text (a TF1 program, or its stage-1 / stage-2 copy).

  Returns:
    (new source, [upgrade.Change], [Todo]). With a TODO the new source must not be used as the program.

  Raises:
    libcst.ParserSyntaxError: the source does not parse.
  """
  stage2, changes = upgrade.upgrade_source(source, 2)
  module = cst.parse_module(stage2)
  wrapper = metadata.MetadataWrapper(module, unsafe_skip_copy=True)
  program = _Program(wrapper.module, wrapper.resolve(metadata.PositionProvider), _line_map(source, stage2))
  program.changes = list(changes)
  for statement in module.body:
    small = _single(statement)
    if isinstance(small, cst.Import):
      program.tf |= {a.asname.name.value for a in small.names if a.asname and _dotted(a.name) == FACADE}
  body = list(wrapper.module.body)
  finder = _FindSessions(program)
  wrapper.module.visit(finder)
  top = [i for i, s in enumerate(body) if _session_with(program, s)]
  if not finder.found:
    if any(program.builds_graph(s) for s in body if not isinstance(s, (cst.FunctionDef, cst.ClassDef))):
      program.todos.append(Todo(1, "graph code without a `with tf.Session() as sess:` stage 3 can follow"))
    new_body = _rewrite_imports(program, body)
    return _finish(program, module.with_changes(body=new_body), changes)
  for call in finder.found:
    if not top or len(finder.found) > 1 or call is not body[top[0]].items[0].item:
      program.todo(call, "%s: stage 3 converts one `with tf.Session() as sess:` at module level; this program "
                   "opens its Session %s" % (_code(call)[:40], "inside a function" if not top else "again"))
  if program.todos:
    inner = _function_with_session(program, body) if len(finder.found) == 1 else None
    if inner is not None:  # what else would stop it, were the function's body at module level
      _build(program, list(inner.body.body), next(i for i, s in enumerate(inner.body.body)
                                                   if _session_with(program, s)),
             _session_with(program, next(s for s in inner.body.body if _session_with(program, s))))
    return _finish(program, module, changes)
  session = _session_with(program, body[top[0]])
  new_body = _build(program, body, top[0], session)
  new_body = _rewrite_imports(program, new_body)
  return _finish(program, module.with_changes(body=new_body), changes)


def _finish(program, module, stage2_changes):
  del stage2_changes
  program.changes.sort(key=lambda c: c.line)
  todos = sorted(set(program.todos))
  return module.code, program.changes, todos

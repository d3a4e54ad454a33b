"""`tf1clip upgrade`: rewrite a legacy TF1 script so it runs under plain `python` (migration stages 1 and 2).

Stage 1 changes the import statements, the way `tf1clip run` answers them (compat.importer), and the NumPy /
SciPy names and calls that were removed where today's spelling is exact (LegacyNumericsRewriter):
`import tensorflow as tf` -> `import tf1clip.compat.v1 as tf`, `from tensorflow.contrib import rnn` ->
`from tf1clip.contrib import rnn`, `import tensorflow.contrib.slim as slim` -> `import
tf1clip.contrib.slim as slim`, ...; a module tf1clip holds as no file (`from tensorflow.keras import
layers`, `import tensorflow.contrib.tpu as tpu`) is bound by attribute from the facade, as the runner does.
Everything else -- formatting, comments, `tf.` uses -- stays byte for byte (libcst's concrete syntax tree),
so the rewritten script builds the same graph and ends with the same weights.

Stage 2 additionally, where the pattern is unambiguous:
  - hand-written gradient code -> tf1clip's pipeline:
      gv = opt.compute_gradients(loss[, var_list]); clipped = [(tf.clip_by_norm(g, c), v) for g, v in gv]
      train_op = opt.apply_gradients(clipped, ...)
        -> train_op = tf1clip.WrappedOptimizer(
               opt, [tf1clip.transforms.clip_by_norm(c, repeated_rows="as_listed")]).minimize(loss, ...)
      grads, _ = tf.clip_by_global_norm(tf.gradients(loss, tvars), c)   (or via compute_gradients + zip)
      train_op = opt.apply_gradients(zip(grads, tvars), ...)
        -> train_op = tf1clip.clip_gradients_by_norm(opt, c, repeated_rows="as_listed").minimize(
               loss, var_list=tvars, ...)
    `repeated_rows="as_listed"` is TF1's clipping of a sparse gradient (each listed row measured as listed), so
    the rewrite keeps TF1's numbers; `"summed"` (the norm of the gradient as applied) is named in the report
    as the opt-in improvement.
    "Unambiguous": the statements sit in one block, every intermediate name is used nowhere else, and
    compute_gradients / tf.gradients take only the loss and the variables. Anything else that mixes
    compute_gradients / tf.gradients with apply_gradients is left as it is, with a comment and a report line.
  - `tf.contrib.X.Y` -> the name tf1clip.contrib.catalog gives: `tf.nn.static_rnn` when the catalogue serves
    it from tf.compat.v1, a public `tf1clip.` name (`tf1clip.clip_gradients_by_norm`), else
    `tf1clip.contrib.X.Y`; a name the catalogue does not provide gets a comment and a report line.

Every change is a `Change` (file:line, before -> after, warnings). `warnings_for` adds the call-site warnings
`tf1clip check` raises (tools.hazards: what runs differently on TF 2.21 / NumPy 2, and what will not run).

Data flow: contrib.catalog + tools.hazards + tools.check <- tools.upgrade <- tools.upgrade_cli <- cli.
Imports no TensorFlow.
"""

import collections
import os
import re

import libcst as cst
from libcst import metadata

import tf1clip
from tf1clip.tools import check
from tf1clip.contrib import catalog

Change = collections.namedtuple("Change", "line kind before after warnings")
Change.__doc__ = """One rewrite (or one spot left unchanged with a comment, `after` None) at a source line."""

FACADE = "tf1clip.compat.v1"
COMMENT_PREFIX = "# tf1clip upgrade: "
_RESOLVER = check.Resolver()  # is a catalogue source a TF 2.21 name the facade serves? (static lookup)
_TF1CLIP_DIR = os.path.dirname(os.path.abspath(tf1clip.__file__))
_INTERNALS = ("python", "core")


def _dotted(node):
  """"a.b.c" for a Name/Attribute chain, else None."""
  parts = []
  while isinstance(node, cst.Attribute):
    parts.append(node.attr.value)
    node = node.value
  if isinstance(node, cst.Name):
    parts.append(node.value)
    return ".".join(reversed(parts))
  return None


def _expr(dotted):
  return cst.parse_expression(dotted)


def tf1clip_module_exists(dotted):
  """True when tf1clip holds `dotted` ("tf1clip.contrib.rnn") as a file or package (checked statically)."""
  base = os.path.join(os.path.dirname(_TF1CLIP_DIR), *dotted.split("."))
  return os.path.isfile(base + ".py") or os.path.isfile(os.path.join(base, "__init__.py"))


def _module_for(tf_module):
  """The importable module `tf1clip run` gives for a `tensorflow...` module path, or None if none is a file.

  Returns:
    "tf1clip.compat.v1", "tf1clip.contrib.<...>", the same tensorflow.python/core path (TF's real
    internals, as the facade serves them), or None (bind by attribute instead).
  """
  parts = tf_module.split(".")
  if tf_module in ("tensorflow", "tensorflow.compat.v1"):
    return FACADE
  if parts[1] in _INTERNALS:
    return tf_module
  if parts[1] == "contrib":
    candidate = ".".join(["tf1clip"] + parts[1:])
    if tf1clip_module_exists(candidate):
      return candidate
  return None


class _Positions:
  """Line numbers of original nodes."""

  def __init__(self, wrapper):
    self._positions = wrapper.resolve(metadata.PositionProvider)

  def line(self, node):
    position = self._positions.get(node)
    return position.start.line if position else 0


class ImportRewriter(cst.CSTTransformer):
  """Stage 1: every import form of tensorflow -> tf1clip's facade / tf1clip.contrib (see the module docstring).

  Args:
    positions: a _Positions of the module being rewritten.
    changes: a list that receives one Change per rewritten statement.
    module: the cst.Module being rewritten (for the code of original nodes).

  Attributes:
    tf_aliases: the local names the rewritten imports bind to the TF1 facade.
  """

  def __init__(self, positions, changes, module):
    super().__init__()
    self._positions = positions
    self._changes = changes
    self._module = module
    self.tf_aliases = set()

  def _record(self, original, updated, kind="import"):
    before = self._module.code_for_node(original).strip()
    after = cst.Module([]).code_for_node(updated).strip() if not isinstance(
        updated, cst.FlattenSentinel) else "; ".join(
            cst.Module([]).code_for_node(n).strip() for n in updated)
    if before != after:
      self._changes.append(Change(self._positions.line(original), kind, before, after, ()))

  def leave_Import(self, original_node, updated_node):  # pylint: disable=invalid-name
    names, extra = [], []
    for alias in updated_node.names:
      name = _dotted(alias.name)
      if name is None or name.split(".")[0] != "tensorflow":
        names.append(alias)
        continue
      bound = alias.asname.name.value if alias.asname else None
      parts = name.split(".")
      if bound is None:
        # `import tensorflow.x.y` binds `tensorflow`, which the runner makes the facade.
        self.tf_aliases.add("tensorflow")
        names.append(alias.with_changes(
            name=_expr(FACADE), asname=cst.AsName(name=cst.Name("tensorflow"))))
        continue
      target = _module_for(name)
      if target == FACADE:
        self.tf_aliases.add(bound)
      if target is not None:
        names.append(alias.with_changes(name=_expr(target)))
      else:
        extra.append(cst.Assign(targets=[cst.AssignTarget(cst.Name(bound))],
                                value=_expr(".".join([FACADE] + parts[1:]))))
    if not extra:
      result = updated_node.with_changes(names=_fix_commas(names))
    else:
      statements = []
      if names:
        statements.append(updated_node.with_changes(names=_fix_commas(names)))
      statements.append(cst.Import(names=[cst.ImportAlias(name=_expr(FACADE))]))
      result = cst.FlattenSentinel(statements + extra)
    self._record(original_node, result)
    return result

  def leave_ImportFrom(self, original_node, updated_node):  # pylint: disable=invalid-name
    if updated_node.relative or updated_node.module is None:
      return updated_node
    module = _dotted(updated_node.module)
    if module is None or module.split(".")[0] != "tensorflow":
      return updated_node
    if isinstance(updated_node.names, cst.ImportStar):
      target = _module_for(module)
      if target is None:
        return updated_node
      result = updated_node.with_changes(module=_expr(target))
      self._record(original_node, result)
      return result
    if module == "tensorflow.compat" and all(a.name.value == "v1" for a in updated_node.names):
      target = "tf1clip.compat"
      for alias in updated_node.names:
        self.tf_aliases.add(alias.asname.name.value if alias.asname else "v1")
    else:
      target = _module_for(module)
    if target is not None:
      result = updated_node.with_changes(module=_expr(target))
    else:
      parts = module.split(".")
      statements = [cst.Import(names=[cst.ImportAlias(name=_expr(FACADE))])]
      for alias in updated_node.names:
        bound = alias.asname.name.value if alias.asname else alias.name.value
        statements.append(cst.Assign(
            targets=[cst.AssignTarget(cst.Name(bound))],
            value=_expr(".".join([FACADE] + parts[1:] + [alias.name.value]))))
      result = cst.FlattenSentinel(statements)
    self._record(original_node, result)
    return result


def _fix_commas(names):
  """Import aliases with commas between them and none after the last."""
  fixed = []
  for i, alias in enumerate(names):
    if i == len(names) - 1:
      fixed.append(alias.with_changes(comma=cst.MaybeSentinel.DEFAULT))
    elif alias.comma is cst.MaybeSentinel.DEFAULT:
      fixed.append(alias.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))))
    else:
      fixed.append(alias)
  return fixed


def contrib_target(symbol):
  """Where stage 2 sends a `tf.contrib` name, from the catalogue.

  Args:
    symbol: "tf.contrib.<module>[.<name>]".

  Returns:
    ("tf", "nn.static_rnn") for a name the catalogue serves as-is from TensorFlow 2.21 (its source is a
    `tf.` name the facade has; spelled on the script's tf alias),
    ("tf1clip", "clip_gradients_by_norm") for a public tf1clip name, ("tf1clip", "contrib.rnn.GRUCell")
    for the rest of what tf1clip provides, or None when the catalogue does not provide it.
  """
  if not catalog.is_provided(symbol) or symbol == "tf.contrib":
    return None
  alias = catalog.tf_alias(symbol)
  if alias:  # served as-is from TensorFlow (the same object as a public tf. name): use that name
    name = check.canonical(alias)
    if name.startswith("tf.") and _RESOLVER.resolve(name)[1] == check.RUNS:
      return ("tf", name[len("tf."):])
  leaf = symbol.split(".")[-1]
  source = (catalog.origin(symbol) or "").split(": ", 1)[-1]
  # Only the very object tf1clip exports: a contrib name served by its own TF 1.15 function (contrib.estimator's
  # clip_gradients_by_norm, TF1's numbers) keeps its contrib path, never the public name with other defaults.
  public = tf1clip._EXPORTS.get(leaf)  # pylint: disable=protected-access
  if public is not None and source == public + "." + leaf:
    return ("tf1clip", leaf)
  return ("tf1clip", symbol[len("tf."):])


class _Usage(cst.CSTVisitor):
  """Counts loads of each Name in a module (to prove an intermediate name is used nowhere else)."""

  def __init__(self):
    super().__init__()
    self.counts = collections.Counter()

  def visit_Name(self, node):  # pylint: disable=invalid-name
    self.counts[node.value] += 1


# What a gradient rewrite changes besides the code: the values and variables are the same, op names not.
_RENAMED_OPS = ("same variables and values; the gradient and clipping ops get new names (under the "
                "wrapper's name scope), so code that fetches them by name must follow")
_AS_LISTED = ("repeated_rows=\"as_listed\" keeps TF1's numbers (a sparse gradient's repeated rows each "
              "counted as listed); repeated_rows=\"summed\" is tf1clip's improvement (the norm of the "
              "gradient as applied), opt-in: it changes training where an embedding row repeats in a batch")

GradientPattern = collections.namedtuple(
    "GradientPattern", "first last target optimizer loss var_list clip kind apply_call names")


class Stage2Rewriter(cst.CSTTransformer):
  """Stage 2: contrib names -> catalogue targets, hand-written clipping -> tf1clip's wrappers.

  Args:
    positions: a _Positions of the module being rewritten.
    changes: a list that receives one Change per rewrite or commented spot.
    module: the original cst.Module.
    tf_aliases: the local names bound to the TF1 API (after stage 1).
  """

  def __init__(self, positions, changes, module, tf_aliases):
    super().__init__()
    self._positions = positions
    self._changes = changes
    self._module = module
    self._tf = set(tf_aliases)
    usage = _Usage()
    module.visit(usage)
    self._name_counts = usage.counts
    self._comments = [[]]
    self._inner = set()
    self.needs_tf1clip = False

  def _code(self, node):
    return self._module.code_for_node(node).strip()

  # Comments attach to the statement that holds the node.
  def visit_SimpleStatementLine(self, node):  # pylint: disable=invalid-name
    self._comments.append([])

  def leave_SimpleStatementLine(self, original_node, updated_node):  # pylint: disable=invalid-name
    return self._attach(updated_node)

  def _attach(self, node):
    comments = self._comments.pop()
    if not comments:
      return node
    lines = [cst.EmptyLine(indent=True, comment=cst.Comment(COMMENT_PREFIX + c)) for c in comments]
    return node.with_changes(leading_lines=list(node.leading_lines) + lines)

  def _leave_compound(self, original_node, updated_node):
    return self._attach(updated_node)

  def _visit_compound(self, node):
    self._comments.append([])

  for _kind in ("If", "For", "While", "With", "Try", "FunctionDef", "ClassDef"):
    locals()["visit_" + _kind] = _visit_compound
    locals()["leave_" + _kind] = _leave_compound
  del _kind

  def _comment(self, text):
    self._comments[-1].append(text)

  def visit_Attribute(self, node):  # pylint: disable=invalid-name
    if isinstance(node.value, cst.Attribute):
      self._inner.add(id(node.value))

  def leave_Attribute(self, original_node, updated_node):  # pylint: disable=invalid-name
    dotted = _dotted(original_node)
    if dotted is None:
      return updated_node
    parts = dotted.split(".")
    if len(parts) < 3 or parts[0] not in self._tf or parts[1] != "contrib":
      return updated_node
    # Rewrite the object the script uses (tf.contrib.X.Y), or the module when it is used bare.
    if len(parts) > 4 or (len(parts) == 3 and id(original_node) in self._inner):
      return updated_node
    symbol = "tf." + ".".join(parts[1:4])
    target = contrib_target(symbol)
    if target is None:
      line = self._positions.line(original_node)
      if not any(c.line == line and c.before == symbol for c in self._changes):
        note = catalog.explain(symbol)
        self._comment(note)
        self._changes.append(Change(line, "contrib", symbol, None, (note,)))
      return updated_node
    root, rest = target
    if root == "tf":
      new = _expr(parts[0] + "." + rest)
    else:
      self.needs_tf1clip = True
      new = _expr("tf1clip." + rest)
    self._changes.append(Change(self._positions.line(original_node), "contrib", dotted,
                                cst.Module([]).code_for_node(new), ()))
    return new

  def leave_Module(self, original_node, updated_node):  # pylint: disable=invalid-name
    body = self._rewrite_block(list(updated_node.body), list(original_node.body))
    if self.needs_tf1clip:
      body = _add_import_tf1clip(body)
    return updated_node.with_changes(body=body)

  def leave_IndentedBlock(self, original_node, updated_node):  # pylint: disable=invalid-name
    return updated_node.with_changes(
        body=self._rewrite_block(list(updated_node.body), list(original_node.body)))

  # --- gradient patterns ------------------------------------------------------------------------

  def _rewrite_block(self, body, original_body):
    patterns, leftovers = _find_gradient_patterns(original_body, self._tf, self._name_counts)
    if not patterns and not leftovers:
      return body
    drop = set()
    replace = {}
    for p in patterns:
      drop.update(i for i in p.names if i != p.last)
      replace[p.last] = p
    new_body = []
    carried = []  # comments above dropped statements stay, above the replacement
    for i, statement in enumerate(body):
      if i in drop:
        carried += list(statement.leading_lines)
        continue
      if i in replace:
        statement = self._replace_apply(statement, original_body, replace[i])
        statement = statement.with_changes(leading_lines=carried + list(statement.leading_lines))
        carried = []
      elif i in leftovers:
        reason = leftovers[i]
        line = self._positions.line(original_body[i])
        self._changes.append(Change(line, "gradients", self._code(original_body[i]), None, (reason,)))
        statement = statement.with_changes(leading_lines=list(statement.leading_lines) + [
            cst.EmptyLine(indent=True, comment=cst.Comment(COMMENT_PREFIX + reason))])
      new_body.append(statement)
    return new_body

  def _replace_apply(self, statement, original_body, p):
    self.needs_tf1clip = True
    # repeated_rows="as_listed": TF1's clipping measured a sparse gradient's rows as listed (the rewrite keeps
    # TF1's numbers; "summed", the norm of the gradient as applied, is the opt-in the report names).
    if p.kind == "global":
      wrapper = "tf1clip.clip_gradients_by_norm(%s, %s, repeated_rows=\"as_listed\")" % (p.optimizer, p.clip)
    else:
      wrapper = "tf1clip.WrappedOptimizer(%s, [tf1clip.transforms.%s])" % (
          p.optimizer, p.clip[:-1] + ", repeated_rows=\"as_listed\")")
    args = [p.loss]
    if p.var_list:
      args.append("var_list=" + p.var_list)
    args += [self._code(a).rstrip(",") for a in p.apply_call.args[1:]]
    call = "%s.minimize(%s)" % (wrapper, ", ".join(args))
    small = statement.body[0]
    if p.target is None:
      new_small = cst.Expr(_expr(call))
    else:
      new_small = small.with_changes(value=_expr(call))
    new_statement = statement.with_changes(body=[new_small])
    before = "\n".join(self._code(original_body[i]) for i in p.names)
    self._changes.append(Change(self._positions.line(original_body[p.first]), "gradients", before,
                                cst.Module([]).code_for_node(new_small).strip(), (_RENAMED_OPS, _AS_LISTED)))
    return new_statement


def _add_import_tf1clip(body, module="tf1clip"):
  """Adds `import <module>` (tf1clip's) after the last top-level tf1clip / tensorflow import (once)."""
  last = -1
  for i, statement in enumerate(body):
    if isinstance(statement, cst.SimpleStatementLine):
      for small in statement.body:
        if isinstance(small, cst.Import):
          names = [_dotted(a.name) for a in small.names]
          if module in names and not any(a.asname for a in small.names):
            return body
          if any(n and n.split(".")[0] in ("tf1clip", "tensorflow") for n in names):
            last = i
        elif isinstance(small, cst.ImportFrom) and small.module is not None and (
            (_dotted(small.module) or "").split(".")[0] in ("tf1clip", "tensorflow")):
          last = i
  if last < 0:  # no top-level import to follow: after the docstring and `from __future__` imports
    for i, statement in enumerate(body):
      small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) else None
      if (isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString) and i == 0) or (
          isinstance(small, cst.ImportFrom) and _dotted(small.module) == "__future__"):
        last = i
      else:
        break
  line = cst.SimpleStatementLine(body=[cst.Import(names=[cst.ImportAlias(name=_expr(module))])])
  return body[:last + 1] + [line] + body[last + 1:]


def _single_assign(statement):
  """(targets node, value) of a one-statement `x = value` line, else None."""
  if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
    return None
  small = statement.body[0]
  if isinstance(small, cst.Assign) and len(small.targets) == 1:
    return small.targets[0].target, small.value
  if isinstance(small, cst.Expr):
    return None, small.value
  return None


def _method_call(node, method):
  """(receiver code, call) when node is `<receiver>.<method>(...)`."""
  if (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
      and node.func.attr.value == method):
    return node.func.value, node
  return None


def _tf_call(node, tf_aliases, name):
  if isinstance(node, cst.Call):
    dotted = _dotted(node.func)
    if dotted and "." in dotted and dotted.split(".")[0] in tf_aliases and dotted.split(".", 1)[1] == name:
      return node
  return None


_NOT_A_NAME = "<not a name>"


def _names_in_tuple(target):
  """The names a tuple target binds (_NOT_A_NAME for `self.x` and other non-names), else None."""
  if isinstance(target, (cst.Tuple, cst.List)):
    return [e.value.value if isinstance(e.value, cst.Name) else _NOT_A_NAME for e in target.elements]
  return None


def _plain(node):
  """The code of a side-effect-free operand (name or attribute chain), else None."""
  return _dotted(node)


def _positional(call, n_max):
  """The call's arguments when they are at most n_max positional ones (keywords var_list allowed)."""
  positional, keywords = [], {}
  for arg in call.args:
    if arg.star:
      return None
    if arg.keyword is None:
      positional.append(arg.value)
    else:
      keywords[arg.keyword.value] = arg.value
  if len(positional) > n_max:
    return None
  return positional, keywords


def _find_gradient_patterns(body, tf_aliases, name_counts):
  """The unambiguous gradient patterns of one block, and apply_gradients lines left alone (index -> why)."""
  assigns = [_single_assign(s) for s in body]
  patterns, leftovers = [], {}
  used = set()
  for last, pair in enumerate(assigns):
    if pair is None:
      continue
    target, value = pair
    found = _method_call(value, "apply_gradients")
    if found is None:
      continue
    receiver, apply_call = found
    optimizer = _plain(receiver)
    pattern = None
    if optimizer is not None and apply_call.args and apply_call.args[0].keyword is None:
      pattern = _match_before(body, assigns, last, optimizer, apply_call, tf_aliases, name_counts)
    if pattern is None:
      if _looks_hand_written(assigns, last, tf_aliases):
        leftovers[last] = ("gradient code left as is: not a form tf1clip upgrade can prove equivalent "
                           "(an intermediate value is used elsewhere, or extra arguments); "
                           "the target is tf1clip.clip_gradients_by_norm(opt, c).minimize(...)")
      continue
    if used & set(pattern["names"]):
      continue
    used |= set(pattern["names"])
    patterns.append(GradientPattern(
        first=min(pattern["names"]), last=last,
        target=None if target is None else _dotted(target), optimizer=optimizer,
        loss=pattern["loss"], var_list=pattern["var_list"], clip=pattern["clip"],
        kind=pattern["kind"], apply_call=apply_call, names=sorted(pattern["names"])))
  return patterns, leftovers


def _looks_hand_written(assigns, last, tf_aliases):
  for pair in assigns[:last]:
    if pair is None:
      continue
    for node in _walk(pair[1]):
      if _method_call(node, "compute_gradients") or _tf_call(node, tf_aliases, "gradients"):
        return True
  return False


def _walk(node):
  stack = [node]
  while stack:
    current = stack.pop()
    yield current
    stack.extend(current.children)


def _name_used_only(name, times, name_counts):
  return name is not None and name_counts.get(name, 0) == times


def _match_before(body, assigns, last, optimizer, apply_call, tf_aliases, name_counts):
  """Matches the statements before an apply_gradients line against the rewritable forms."""
  first_arg = apply_call.args[0].value
  # Form B: apply_gradients(zip(G, V)) after `G, _ = tf.clip_by_global_norm(X, c)`.
  if (isinstance(first_arg, cst.Call) and _dotted(first_arg.func) == "zip" and len(first_arg.args) == 2
      and all(isinstance(a.value, cst.Name) for a in first_arg.args)):
    grads, variables = (a.value.value for a in first_arg.args)
    clip_index = _find_assign(assigns, last, grads)
    if clip_index is None:
      return None
    names_out = _names_in_tuple(assigns[clip_index][0])
    clip_call = _tf_call(assigns[clip_index][1], tf_aliases, "clip_by_global_norm")
    if clip_call is None or names_out is None or len(names_out) != 2 or names_out[0] != grads:
      return None
    if names_out[1] != "_" and not _name_used_only(names_out[1], 1, name_counts):
      return None
    clip_args = _positional(clip_call, 2)
    if clip_args is None or len(clip_args[0]) != 2 or clip_args[1]:
      return None
    source, clip_norm = clip_args[0]
    clip = _code(clip_norm)
    # grads appear: the clip target, zip(...) here -- and where the raw gradients came from.
    source_call = _tf_call(source, tf_aliases, "gradients")
    names = {clip_index, last}
    if source_call is not None:  # tf.clip_by_global_norm(tf.gradients(loss, V), c)
      gradient_args = _positional(source_call, 2)
      if gradient_args is None or gradient_args[1] or len(gradient_args[0]) != 2:
        return None
      loss, var_list = gradient_args[0]
      if _plain(loss) is None or _dotted(var_list) != variables:
        return None
      if not _name_used_only(grads, 2, name_counts):
        return None
      return {"names": names, "loss": _plain(loss), "var_list": variables, "clip": clip, "kind": "global"}
    if isinstance(source, cst.Name):  # G, V = zip(*opt.compute_gradients(loss)); clip G
      raw = source.value
      split_index = _find_assign(assigns, clip_index, raw)
      if split_index is None:
        return None
      split_names = _names_in_tuple(assigns[split_index][0])
      split_value = assigns[split_index][1]
      if (split_names != [raw, variables] or not isinstance(split_value, cst.Call)
          or _dotted(split_value.func) != "zip" or len(split_value.args) != 1
          or split_value.args[0].star != "*"):
        return None
      compute = _method_call(split_value.args[0].value, "compute_gradients")
      if compute is None or _plain(compute[0]) != optimizer:
        return None
      compute_args = _positional(compute[1], 2)
      if compute_args is None or set(compute_args[1]) - {"var_list"}:
        return None
      loss = _plain(compute_args[0][0]) if compute_args[0] else None
      var_list = (compute_args[0][1:] or [compute_args[1].get("var_list")])[0]
      if loss is None or (var_list is not None and _plain(var_list) is None):
        return None
      # raw: split target + clip argument; grads: clip target + zip argument (4 when one name).
      expected = {raw: 4, variables: 2} if raw == grads else {raw: 2, variables: 2}
      if any(not _name_used_only(n, c, name_counts) for n, c in expected.items()):
        return None
      if raw != grads and not _name_used_only(grads, 2, name_counts):
        return None
      names.add(split_index)
      return {"names": names, "loss": loss, "var_list": _plain(var_list) if var_list is not None else None,
              "clip": clip, "kind": "global"}
    return None
  # Form A: apply_gradients(C) after `C = [(tf.clip_by_norm(g, c), v) for g, v in GV]`, GV from compute.
  if isinstance(first_arg, cst.Name):
    clipped = first_arg.value
    clip_index = _find_assign(assigns, last, clipped)
    if clip_index is None or not _name_used_only(clipped, 2, name_counts):
      return None
    comp = assigns[clip_index][1]
    if (not isinstance(comp, cst.ListComp) or comp.for_in.inner_for_in is not None or comp.for_in.ifs
        or not isinstance(comp.elt, cst.Tuple) or len(comp.elt.elements) != 2):
      return None
    loop_names = _names_in_tuple(comp.for_in.target)
    if loop_names is None or len(loop_names) != 2 or not isinstance(comp.for_in.iter, cst.Name):
      return None
    g, v = loop_names
    if _dotted(comp.elt.elements[1].value) != v:
      return None
    clip_expr = comp.elt.elements[0].value
    transform = None
    for name, arity in (("clip_by_norm", 2), ("clip_by_value", 3)):
      call = _tf_call(clip_expr, tf_aliases, name)
      if call is not None:
        call_args = _positional(call, arity)
        if call_args and not call_args[1] and len(call_args[0]) == arity and _dotted(call_args[0][0]) == g:
          rest = [_code(a) for a in call_args[0][1:]]
          if any(g in _code(a).split() or v in _code(a).split() for a in call_args[0][1:]):
            return None
          transform = "%s(%s)" % (name, ", ".join(rest))
    if transform is None:
      return None
    grads_and_vars = comp.for_in.iter.value
    compute_index = _find_assign(assigns, clip_index, grads_and_vars)
    if compute_index is None or not _name_used_only(grads_and_vars, 2, name_counts):
      return None
    compute = _method_call(assigns[compute_index][1], "compute_gradients")
    if compute is None or _plain(compute[0]) != optimizer:
      return None
    compute_args = _positional(compute[1], 2)
    if compute_args is None or set(compute_args[1]) - {"var_list"} or not compute_args[0]:
      return None
    loss = _plain(compute_args[0][0])
    var_list = (compute_args[0][1:] or [compute_args[1].get("var_list")])[0]
    if loss is None or (var_list is not None and _plain(var_list) is None):
      return None
    return {"names": {compute_index, clip_index, last}, "loss": loss,
            "var_list": _plain(var_list) if var_list is not None else None, "clip": transform,
            "kind": "transform"}
  return None


def _code(node):
  return cst.Module([]).code_for_node(node).strip()


def _find_assign(assigns, before, name):
  """Index of the last statement before `before` that assigns `name` (alone or in a tuple)."""
  for i in range(before - 1, -1, -1):
    pair = assigns[i]
    if pair is None or pair[0] is None:
      continue
    target = pair[0]
    if isinstance(target, cst.Name) and target.value == name:
      return i
    names = _names_in_tuple(target)
    if names and name in names:
      return i
  return None


# np.<name> NumPy removed -> today's exact spelling (the same object or value), rewritten at stage 1.
NUMPY_RENAMES = {
    "int": "int", "float": "float", "bool": "bool", "object": "object", "str": "str", "long": "int",
    "unicode": "str", "complex": "complex",
    "NaN": "np.nan", "Inf": "np.inf", "Infinity": "np.inf", "infty": "np.inf", "PINF": "np.inf",
    "NINF": "(-np.inf)", "float_": "np.float64", "complex_": "np.complex128", "string_": "np.bytes_",
    "unicode_": "np.str_", "int0": "np.intp", "uint0": "np.uintp", "bool8": "np.bool_",
    "object0": "np.object_", "str0": "np.str_", "bytes0": "np.bytes_", "void0": "np.void",
    "longfloat": "np.longdouble", "singlecomplex": "np.complex64", "cfloat": "np.complex128",
    "longcomplex": "np.clongdouble", "clongfloat": "np.clongdouble", "product": "np.prod",
    "cumproduct": "np.cumprod", "alltrue": "np.all", "sometrue": "np.any", "round_": "np.round",
    "mat": "np.asmatrix", "typeDict": "np.sctypeDict", "rank": "np.ndim", "issubclass_": "issubclass",
}
# np.<name>(...) calls NumPy removed whose NumPy-1 meaning has an exact spelling for these arguments:
# name -> (positional count, keywords allowed, template over the arguments' code).
NUMPY_CALLS = {
    "asscalar": (1, (), "{np}.asarray({0}).item()"),
    "asfarray": (1, (), "{np}.asarray({0}, dtype={np}.float64)"),  # NumPy 1: float64 unless dtype= said so
    "msort": (1, (), "{np}.sort({0}, axis=0)"),
}
# scipy.misc names SciPy removed that tf1clip serves at run time (compat.scipy_legacy, SciPy 1.1's semantics):
# stage 1 imports them from there, so the copy runs under plain python with the same numbers.
SCIPY_SERVED = ("imread", "imsave", "imresize", "imrotate", "toimage", "fromimage", "bytescale")
SCIPY_LEGACY = "tf1clip.compat.scipy_legacy"
SCIPY_MODULE_MOVES = {"scipy.sparse.linalg.eigen.arpack": "scipy.sparse.linalg"}  # a private path, dropped
# scipy.misc.<name> that only moved: the same function in its new module.
SCIPY_MOVES = {"logsumexp": "scipy.special", "comb": "scipy.special", "factorial": "scipy.special",
               "factorial2": "scipy.special", "factorialk": "scipy.special"}


class LegacyNumericsRewriter(cst.CSTTransformer):
  """Stage 1, beside the imports: NumPy / SciPy names that were renamed, where the new spelling is exact.

  `np.float_` -> `np.float64`, `np.NaN` -> `np.nan`, `np.product` -> `np.prod`, `np.int` -> `int`, ... (through
  whatever name the file imported numpy as), `scipy.misc.logsumexp` -> `scipy.special.logsumexp` and
  `from scipy.misc import logsumexp` -> `from scipy.special import logsumexp`; the SciPy removals the runner
  serves (compat.scipy_legacy, SciPy 1.1's semantics) from there: `from scipy.misc import imread, imresize` ->
  `from tf1clip.compat.scipy_legacy import imread, imresize`, `scipy.misc.imsave` ->
  `tf1clip.compat.scipy_legacy.imsave`, `scipy.sparse.linalg.eigen.arpack` -> `scipy.sparse.linalg`; NumPy-1
  calls with an exact spelling (NUMPY_CALLS: `np.asscalar(a)` -> `np.asarray(a).item()`, `np.asfarray`,
  `np.msort`; `np.array(x, copy=False)` -> `np.asarray(x)`). What has no exact spelling (a ragged np.array,
  `scipy.misc` reached as `from scipy import misc`) is left to the runner; `tf1clip check` lists it.
  """

  def __init__(self, positions, changes):
    super().__init__()
    self._positions = positions
    self._changes = changes
    self._numpy = set()
    self.needs_scipy_legacy = False

  def visit_Import(self, node):  # pylint: disable=invalid-name
    for alias in node.names:
      if _dotted(alias.name) == "numpy":
        self._numpy.add(alias.asname.name.value if alias.asname else "numpy")

  def leave_Attribute(self, original_node, updated_node):  # pylint: disable=invalid-name
    dotted = _dotted(original_node)
    if dotted is None:
      return updated_node
    parts = dotted.split(".")
    new = None
    if len(parts) == 2 and parts[0] in self._numpy and parts[1] in NUMPY_RENAMES:
      new = NUMPY_RENAMES[parts[1]].replace("np.", parts[0] + ".")
    elif len(parts) == 3 and parts[:2] == ["scipy", "misc"] and parts[2] in SCIPY_MOVES:
      new = SCIPY_MOVES[parts[2]] + "." + parts[2]
    elif len(parts) == 3 and parts[:2] == ["scipy", "misc"] and parts[2] in SCIPY_SERVED:
      new = SCIPY_LEGACY + "." + parts[2]
      self.needs_scipy_legacy = True
    elif len(parts) > 5 and ".".join(parts[:5]) in SCIPY_MODULE_MOVES:
      new = ".".join([SCIPY_MODULE_MOVES[".".join(parts[:5])]] + parts[5:])
    if new is None:
      return updated_node
    self._changes.append(Change(self._positions.line(original_node), "numpy", dotted, new, ()))
    return _expr(new)

  def leave_Call(self, original_node, updated_node):  # pylint: disable=invalid-name
    dotted = _dotted(original_node.func)
    parts = dotted.split(".") if dotted else []
    if len(parts) != 2 or parts[0] not in self._numpy:
      return updated_node
    args = updated_node.args
    if any(a.star for a in args):
      return updated_node
    positional = [a for a in args if a.keyword is None]
    keywords = {a.keyword.value: a for a in args if a.keyword is not None}
    new = None
    if parts[1] in NUMPY_CALLS:
      count, allowed, template = NUMPY_CALLS[parts[1]]
      if len(positional) == count and set(keywords) <= set(allowed):
        new = template.format(*[_code(a.value) for a in positional], np=parts[0])
    elif parts[1] == "array" and len(positional) == 1 and "copy" in keywords and set(keywords) <= {
        "copy", "dtype", "order"}:
      copy = keywords["copy"].value
      if isinstance(copy, cst.Name) and copy.value == "False":  # NumPy 1's "copy only if needed" is asarray
        rest = ["%s=%s" % (k, _code(keywords[k].value)) for k in ("dtype", "order") if k in keywords]
        new = "%s.asarray(%s)" % (parts[0], ", ".join([_code(positional[0].value)] + rest))
    if new is None:
      return updated_node
    self._changes.append(Change(self._positions.line(original_node), "numpy", _code(original_node), new, ()))
    return _expr(new)

  def leave_Import(self, original_node, updated_node):  # pylint: disable=invalid-name
    names = []
    for alias in updated_node.names:
      name = _dotted(alias.name)
      if name in SCIPY_MODULE_MOVES and alias.asname:
        alias = alias.with_changes(name=_expr(SCIPY_MODULE_MOVES[name]))
      names.append(alias)
    updated = updated_node.with_changes(names=names)
    before, after = _code(original_node), _code(updated)
    if before != after:
      self._changes.append(Change(self._positions.line(original_node), "numpy", before, after, ()))
    return updated

  def leave_ImportFrom(self, original_node, updated_node):  # pylint: disable=invalid-name
    module = _dotted(updated_node.module) if updated_node.module is not None else None
    if module in SCIPY_MODULE_MOVES and not updated_node.relative:
      updated = updated_node.with_changes(module=_expr(SCIPY_MODULE_MOVES[module]))
      self._changes.append(Change(self._positions.line(original_node), "numpy", _code(original_node),
                                  _code(updated), ()))
      return updated
    if module != "scipy.misc" or isinstance(updated_node.names, cst.ImportStar):
      return updated_node
    names = [a.name.value for a in updated_node.names]
    if not names or any(n not in SCIPY_MOVES and n not in SCIPY_SERVED for n in names):
      return updated_node
    groups = [(target, [a for a in updated_node.names if (a.name.value in SCIPY_MOVES) == moved])
              for target, moved in (("scipy.special", True), (SCIPY_LEGACY, False))]
    statements = [updated_node.with_changes(module=_expr(target), names=_fix_commas(aliases))
                  for target, aliases in groups if aliases]
    after = "; ".join(_code(n) for n in statements)
    self._changes.append(Change(self._positions.line(original_node), "numpy", _code(original_node), after, ()))
    return statements[0] if len(statements) == 1 else cst.FlattenSentinel(statements)


def upgrade_source(source, stage=1):
  """Rewrites one file's source.

  Args:
    source: the file's text.
    stage: 1 (imports only) or 2 (also gradient code and tf.contrib names).

  Returns:
    (new source, [Change]) -- the source is unchanged when nothing needed rewriting.

  Raises:
    ValueError: stage is not 1 or 2.
    libcst.ParserSyntaxError: the source does not parse.
  """
  if stage not in (1, 2):
    raise ValueError("stage must be 1 or 2, got %r" % (stage,))
  module = cst.parse_module(source)
  wrapper = metadata.MetadataWrapper(module, unsafe_skip_copy=True)
  positions = _Positions(wrapper)
  changes = []
  rewriter = ImportRewriter(positions, changes, module)
  updated = wrapper.module.visit(rewriter)
  # The import rewrite keeps every statement on its line, so the renames' lines are read off its result.
  renamed = metadata.MetadataWrapper(updated, unsafe_skip_copy=True)
  numerics = LegacyNumericsRewriter(_Positions(renamed), changes)
  updated = renamed.module.visit(numerics)
  if numerics.needs_scipy_legacy:
    updated = updated.with_changes(body=_import_on_the_same_line(list(updated.body), SCIPY_LEGACY))
  if stage == 2:
    tf_aliases = rewriter.tf_aliases | _facade_aliases(module)
    updated = _stage2(updated, tf_aliases, changes, module, positions)
  changes.sort(key=lambda c: c.line)
  return updated.code, changes


def _import_on_the_same_line(body, module):
  """Appends `; import <module>` to the first top-level import line (stage 1 keeps every line where it was)."""
  for i, statement in enumerate(body):
    if isinstance(statement, cst.SimpleStatementLine) and any(
        isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body):
      names = [_dotted(a.name) for small in statement.body if isinstance(small, cst.Import) for a in small.names]
      if module in names:
        return body
      small = cst.Import(names=[cst.ImportAlias(name=_expr(module))])
      last = statement.body[-1].with_changes(semicolon=cst.Semicolon(whitespace_after=cst.SimpleWhitespace(" ")))
      return body[:i] + [statement.with_changes(body=list(statement.body[:-1]) + [last, small])] + body[i + 1:]
  return _add_import_tf1clip(body, module)


def _stage2(updated, tf_aliases, changes, original_module, positions):
  """Runs the stage-2 rewriter over the stage-1 result, with positions taken from the original."""
  # Line numbers must point at the original file: stage 1 changes no line count (one statement stays
  # on one line), so positions of the stage-1 tree are the original's.
  wrapper = metadata.MetadataWrapper(updated, unsafe_skip_copy=True)
  rewriter = Stage2Rewriter(_Positions(wrapper), changes, wrapper.module, tf_aliases)
  return wrapper.module.visit(rewriter)


def _facade_aliases(module):
  """Names already bound to the TF1 API by `import tf1clip.compat.v1 as tf` in the original."""
  aliases = set()
  for statement in module.body:
    if isinstance(statement, cst.SimpleStatementLine):
      for small in statement.body:
        if isinstance(small, cst.Import):
          for alias in small.names:
            if _dotted(alias.name) in (FACADE, "tensorflow.compat.v1", "tensorflow") and alias.asname:
              aliases.add(alias.asname.name.value)
  return aliases


def warnings_for(source, resolver=None):
  """Call-site warnings for a file: what `tf1clip check` finds will not run or runs differently.

  Args:
    source: the original file's text.
    resolver: a check.Resolver to share.

  Returns:
    A list of (line, symbol, note).
  """
  findings = check.check_source(source, resolver=resolver or check.Resolver())
  return [(f.line, f.symbol, f.note) for f in findings
          if f.status in (check.UNSUPPORTED, check.WARNING) and not f.guarded]

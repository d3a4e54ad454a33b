"""Deprecation notices in a legacy run: the ones TF 1.15 printed for the same call, once each.

Place in the data flow (DESIGN.md): compat.runner.prepare -> **compat.deprecation_notices** -> tf115.deprecations()
(what TF 1.15 itself warned about, written by TF 1.15: `make inventory`).

A TF1 script under TensorFlow 2.21 hears of deprecations TF 1.15 never announced: tensorflow_estimator marks
every class and hook "Use tf.keras instead", tf-keras's TF1 layers and RNN cells warn once per call site
(`tf.layers.dense` twice in a model_fn gives two notices), session-run hooks and SavedModel helpers add theirs.
Under the runner a notice is printed when TF 1.15 printed one for the same thing, once per process:

- TF's decorator form, "From f.py:12: NAME (from MODULE) is deprecated ...": kept when TF 1.15 had NAME in
  MODULE deprecated; "calling NAME (from MODULE) with ARG[=VALUE] is deprecated" when TF 1.15 deprecated ARG
  (or that value of it) of the same function;
- a library's own form, "`tf.layers.dense` is deprecated ..." (tf-keras, as a log line or a Python warning):
  kept when TF 1.15's object for that public name was deprecated.

Everything else (the script's own warnings, TensorFlow's other messages) passes untouched. `tf1clip run
--verbose` / TF1CLIP_TF_LOG=1 keeps every notice. On purpose, tf1clip does not repeat TF 1.15's module-wrapper
notices "The name tf.X is deprecated. Please use tf.compat.v1.X instead" (they asked the script to move to
tf.compat.v1, which is what tf1clip serves it) nor its "contrib module will not be included in TensorFlow 2.0"
banner.
"""

import logging
import re
import warnings

from tf1clip import tf115

_DECORATOR = re.compile(
    r"^From .*?: (?:(?P<calling>calling) )?(?P<name>[\w.<>]+) \(from (?P<module>[\w.]+)\)"
    r"(?: with (?P<arg>\w+)(?P<value>=\S+)?)? is deprecated")
_ALIAS = re.compile(r"^From .*?: The name \S+ is deprecated\. Please use \S+ instead")
_API = re.compile(r"^`(?P<api>tf\.[\w.]+)` is deprecated")
_state = {"printed": set(), "installed": False}


def _normalized(module):
  return module.replace("tensorflow_core.", "tensorflow.", 1)


def notice_key(message):
  """What a message announces as deprecated: a hashable key, or None when it is not a deprecation notice."""
  match = _DECORATOR.match(message)
  if match:
    module = _normalized(match.group("module"))
    if not match.group("calling"):
      return ("function", match.group("name"), module)
    kind = "argument-values" if match.group("value") else "arguments"
    return (kind, match.group("name"), module, match.group("arg"))
  if _ALIAS.match(message):
    return ("alias", message.split(":", 2)[-1].strip())
  match = _API.match(message)
  if match:
    return ("api", match.group("api"))
  return None


def tf115_printed(key):
  """True when TF 1.15 printed a deprecation warning for what `key` (from `notice_key`) names."""
  table = tf115.deprecations()
  kind = key[0]
  if kind == "function":
    return key[1:] in table.functions
  if kind == "arguments":
    return key[1:] in table.arguments
  if kind == "argument-values":
    return key[1:] in table.argument_values
  if kind == "api":
    return key[1] in table.api
  return False


def keep(message):
  """True when a message is printed under the runner: not a deprecation notice, or TF 1.15's and new."""
  key = notice_key(message)
  if key is None:
    return True
  if key in _state["printed"] or not tf115_printed(key):
    return False
  _state["printed"].add(key)
  return True


class _NoticeFilter(logging.Filter):

  def filter(self, record):
    try:
      message = record.getMessage()
    except Exception:  # pylint: disable=broad-except
      return True  # a record that cannot format is the logging module's to report
    return keep(message)


def install():
  """Filters the `tensorflow` logger and Python's warnings as the module docstring says (idempotent)."""
  if _state["installed"]:
    return
  _state["installed"] = True
  # TensorFlow and tf-keras log through the "tensorflow" logger (tf.get_logger() returns it).
  logging.getLogger("tensorflow").addFilter(_NoticeFilter())
  shown = warnings.showwarning

  def showwarning(message, category, filename, lineno, file=None, line=None):
    if keep(str(message)):
      shown(message, category, filename, lineno, file, line)

  warnings.showwarning = showwarning

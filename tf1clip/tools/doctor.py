"""`tf1clip doctor`: what this environment gives `tf1clip run`, and whether anything it needs is missing.

Place in the data flow (DESIGN.md, "Legacy surface"): cli -> **tools.doctor** -> shims. It prints
the versions of the packages the runner relies on, applies every registered shim in this (doctor's own)
process and reports each patch as applied, present or skipped, the Keras flavour `tf.keras` resolves to
under the runner's settings, and the GPUs TensorFlow sees. It also lists every TensorFlow / tf-keras
internal (`tensorflow.python...`, `tf_keras.src...`) that tf1clip's own modules import — found by reading
tf1clip's sources, so the list cannot fall behind the code — and whether each still resolves: those are
the places a new TensorFlow or tf-keras release breaks first. Exit status 1 when something the runner
needs is missing (TensorFlow, tf-keras, numpy) or a shim could not be applied at all; a broken internal
or a skipped patch is reported with what it affects.
"""

import ast
import collections
import importlib
import importlib.metadata
import os
import sys

_INTERNAL_PREFIXES = ("tensorflow.python", "tf_keras.src")

# distribution name -> (what it serves, needed by the runner)
PACKAGES = (
    ("tensorflow", "TensorFlow", True),
    ("tf-keras", "tf.compat.v1.layers / nn.rnn_cell / tf.keras under TF_USE_LEGACY_KERAS=1", True),
    ("numpy", "numpy", True),
    ("tensorflow-estimator", "tf.estimator (optional)", False),
    ("tf-slim", "tf.contrib.slim (optional)", False),
    ("tensorflow-probability", "tf.contrib.distributions (optional)", False),
)


def _version(dist):
  try:
    return importlib.metadata.version(dist)
  except importlib.metadata.PackageNotFoundError:
    return None


def _keras_flavour():
  import tensorflow as tf  # pylint: disable=g-import-not-at-top
  module = tf.keras.layers.Dense.__module__.split(".")[0] if hasattr(tf, "keras") else "none"
  return {"tf_keras": "tf-keras (Keras 2)", "keras": "Keras 3"}.get(module, module)


def _gpus():
  import tensorflow as tf  # pylint: disable=g-import-not-at-top
  return [d.name for d in tf.config.list_physical_devices("GPU")]


def internal_imports(package_dir=None):
  """Every TensorFlow / tf-keras internal that tf1clip's sources import, and who imports it.

  Args:
    package_dir: the tf1clip package folder (default: this installation's).

  Returns:
    {(module, attribute or None): sorted list of tf1clip source files (relative paths)}.
  """
  package_dir = package_dir or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
  found = collections.defaultdict(set)
  for folder, _, files in os.walk(package_dir):
    for filename in files:
      if not filename.endswith(".py"):
        continue
      path = os.path.join(folder, filename)
      with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), filename=path)
      where = os.path.relpath(path, os.path.dirname(package_dir))
      for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and (
            node.module.startswith(_INTERNAL_PREFIXES)):
          for alias in node.names:
            found[(node.module, alias.name)].add(where)
        elif isinstance(node, ast.Import):
          for alias in node.names:
            if alias.name.startswith(_INTERNAL_PREFIXES):
              found[(alias.name, None)].add(where)
  return {key: sorted(users) for key, users in sorted(found.items(), key=lambda kv: (kv[0][0], kv[0][1] or ""))}


def broken_internals(imports):
  """The entries of `internal_imports()` that no longer resolve: [(module, attribute, error)]."""
  broken = []
  for module_name, attr in imports:
    try:
      module = importlib.import_module(module_name)
      if attr is not None and not hasattr(module, attr):
        importlib.import_module(module_name + "." + attr)  # `from package import submodule`
    except Exception as e:  # pylint: disable=broad-except  # any failure is the finding
      broken.append((module_name, attr, "%s: %s" % (type(e).__name__, e)))
  return broken


def diagnose():
  """Collects the doctor's findings.

  Returns:
    dict with "packages" [(dist, version or None, what, needed)], "tf1_era" [(dist, version, why)]
    (compat.tf1_packages: the libraries that get the TF1 facade), "shims" {name: ShimReport or the
    error text}, "keras", "gpus", "internals" (internal_imports()), "broken_internals", and
    "missing" (list of problems that make the runner fail).
  """
  # The runner's setting, before TensorFlow is first imported.
  os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
  found = {"packages": [], "tf1_era": [], "shims": {}, "keras": None, "gpus": [], "missing": [], "internals": {},
           "broken_internals": []}
  for dist, what, needed in PACKAGES:
    version = _version(dist)
    found["packages"].append((dist, version, what, needed))
    if needed and version is None:
      found["missing"].append("%s is not installed (%s)" % (dist, what))
  if _version("tensorflow") is None:
    return found
  from tf1clip import shims  # pylint: disable=g-import-not-at-top
  for name in sorted(shims.SHIMS):
    try:
      found["shims"][name] = shims.apply(name)
    except Exception as e:  # pylint: disable=broad-except  # a broken shim is a finding, not a crash
      found["shims"][name] = "%s: %s" % (type(e).__name__, e)
      found["missing"].append("shim %s could not be applied (%s)" % (name, e))
  from tf1clip.compat import tf1_packages  # pylint: disable=g-import-not-at-top
  found["tf1_era"] = [(name, version, reason) for name, version, reason, _ in tf1_packages.tf1_era()]
  found["keras"] = _keras_flavour()
  found["gpus"] = _gpus()
  found["internals"] = internal_imports()
  found["broken_internals"] = broken_internals(found["internals"])
  return found


def main(argv=()):
  """Prints the diagnosis; returns 0, or 1 when something the runner needs is missing."""
  del argv
  found = diagnose()
  print("tf1clip doctor (Python %s)" % sys.version.split()[0])
  print("packages:")
  for dist, version, what, _ in found["packages"]:
    print("  %-24s %-12s %s" % (dist, version or "missing", what))
  print("TensorFlow of the installed libraries under `tf1clip run`: TF 2.21 for all but")
  for name, version, reason in found["tf1_era"]:
    print("  %-24s %-12s TF1 facade: %s" % (name, version, reason))
  if not found["tf1_era"]:
    print("  (no TF1-era library is installed; --tf1-package NAME names one)")
  print("shims:")
  for name, report in found["shims"].items():
    if isinstance(report, str):
      print("  %s: FAILED %s" % (name, report))
      continue
    print("  %s: %d applied, %d present, %d skipped" % (
        name, len(report.applied), len(report.present), len(report.skipped)))
    for patch, detail in report.skipped:
      print("    skipped %s <- %s (%s); affects: %s" % (patch.target, patch.source, detail,
                                                       patch.needed_by))
  print("keras: %s" % found["keras"])
  print("gpus: %s" % (", ".join(found["gpus"]) or "none visible"))
  internals, broken = found["internals"], found["broken_internals"]
  print("internals: %d TensorFlow/tf-keras internals imported by tf1clip, %s" % (
      len(internals), "%d broken" % len(broken) if broken else "all resolve"))
  for module_name, attr, error in broken:
    users = internals[(module_name, attr)]
    print("  broken %s%s (%s); affects: %s" % (module_name, ":" + attr if attr else "", error,
                                              ", ".join(users)))
  for problem in found["missing"]:
    print("MISSING: %s" % problem)
  return 1 if found["missing"] else 0

"""Which installed libraries were written for TensorFlow 1.x, and so get the TF1 API as the script does.

Under `tf1clip run`, `import tensorflow` answers the TF1 facade to the user's files (compat.importer). A
library installed in the environment gets it too when it was written for TensorFlow 1.x, recognised in
this order (the first rule that speaks decides):

1. the user's word: `tf1clip run --tf1-package NAME` (repeatable) or TF1CLIP_TF1_PACKAGES=NAME,NAME (a
   distribution or import name);
2. TF2-era packages never: TensorFlow's own distributions, tf-keras, tensorflow-estimator, tensorboard,
   tensorflow-probability, tf-slim, tf1clip (they are written against TensorFlow 2.21, and tf1clip's shims
   adapt the two that need it);
3. a curated table of the well-known TF1-era libraries, by version: tflearn < 0.5, dm-sonnet < 2, gpflow < 2,
   keras 2.0 - 2.3 (its TensorFlow backend), tensorpack < 0.12, tensorlayer < 2, edward, tensor2tensor < 1.15;
4. any other distribution whose metadata requires `tensorflow` (or tensorflow-gpu / tensorflow-cpu) with a
   range that admits 1.x and no 2.x (`tensorflow<2`, `tensorflow>=1.4,<2.0`, `tensorflow==1.15.*`).

The result is read once per process, the first time code in an installation folder imports TensorFlow
(a pass over the installed distributions' metadata: tens of milliseconds). `tf1clip doctor` prints it.
"""

import functools
import importlib.metadata
import os


# Distribution name (normalized) -> the versions written for TensorFlow 1.x.
CURATED = {
    "tflearn": "<0.5",
    "dm-sonnet": "<2",
    "gpflow": "<2",
    "keras": ">=2.0,<2.4",
    "tensorpack": "<0.12",
    "tensorlayer": "<2",
    "edward": "",
    "tensor2tensor": "<1.15",
}
# Written against TensorFlow 2: never given the TF1 facade, whatever they declare.
TF2_ERA = ("tensorflow", "tensorflow-cpu", "tensorflow-gpu", "tensorflow-intel", "tf-keras", "tf-nightly",
           "tensorflow-estimator", "tensorboard", "tensorflow-probability", "tf-slim", "tf1clip",
           "tensorflow-io-gcs-filesystem", "keras-nightly", "tensorflow-datasets", "tensorflow-hub")
_TENSORFLOW = ("tensorflow", "tensorflow-gpu", "tensorflow-cpu")
ENV = "TF1CLIP_TF1_PACKAGES"


def normalized(name):
  return name.lower().replace("_", "-").replace(".", "-")


def requested():
  """The names the user asked for (TF1CLIP_TF1_PACKAGES, which `--tf1-package` sets), normalized."""
  return {normalized(n.strip()) for n in os.environ.get(ENV, "").split(",") if n.strip()}


def verdict(name, version, requires, asked=()):
  """Why a distribution gets TensorFlow 1 (a reason string), or None when it keeps TensorFlow 2.

  Args:
    name: the distribution's name.
    version: its version string.
    requires: its Requires-Dist lines (or None).
    asked: normalized names the user asked for (requested()).
  """
  key = normalized(name)
  if key in asked:
    return "asked for (--tf1-package / %s)" % ENV
  if key in TF2_ERA:
    return None
  if key not in CURATED and not requires:
    return None
  # packaging costs 0.3 s to import: only for a candidate.
  from packaging import requirements, specifiers, version as version_lib  # pylint: disable=import-outside-toplevel
  if key in CURATED:
    try:
      written_for_tf1 = version_lib.Version(version) in specifiers.SpecifierSet(CURATED[key])
    except version_lib.InvalidVersion:
      written_for_tf1 = False
    return "%s %s (known TF1-era release: %s)" % (name, version, CURATED[key] or "every version") \
        if written_for_tf1 else None
  for line in requires or ():
    try:
      requirement = requirements.Requirement(line)
    except requirements.InvalidRequirement:
      continue
    if normalized(requirement.name) not in _TENSORFLOW or requirement.marker is not None and "extra" in str(
        requirement.marker):
      continue
    spec = requirement.specifier
    if spec and spec.contains("1.15.0", prereleases=True) and not spec.contains("2.0.0", prereleases=True):
      return "requires %s" % line.split(";")[0].strip()
  return None


def _top_level_dirs(dist):
  """The folders (and single-file modules) a distribution installed, as real paths."""
  places = set()
  for entry in dist.files or ():
    parts = entry.parts
    if not parts or parts[0].endswith((".dist-info", ".egg-info", ".data")) or parts[0] in ("..", "__pycache__"):
      continue
    if len(parts) == 1 and not parts[0].endswith(".py"):
      continue
    places.add(os.path.realpath(str(dist.locate_file(parts[0]))))
  return places


def _headers(dist):
  """(name, version, the Requires-Dist lines that name TensorFlow) read off METADATA's header lines.

  A plain line scan: the email parser behind `dist.metadata` costs ~3 ms per distribution, and this runs at
  the start of every run that has a TF1-era candidate.
  """
  name = version = ""
  requires = []
  text = dist.read_text("METADATA") or dist.read_text("PKG-INFO") or ""
  for line in text.splitlines():
    if not line:
      break
    if line.startswith("Name:") and not name:
      name = line[5:].strip()
    elif line.startswith("Version:") and not version:
      version = line[8:].strip()
    elif line.startswith("Requires-Dist:") and "tensorflow" in line.lower():
      requires.append(line[14:].strip())
  return name, version, requires


@functools.lru_cache(maxsize=None)
def tf1_era(asked=None):
  """[(distribution, version, reason, top-level paths)] of the installed TF1-era libraries.

  Args:
    asked: frozenset of normalized names (default: requested()).
  """
  asked = requested() if asked is None else asked
  found, seen = [], set()
  for dist in importlib.metadata.distributions():
    name, version, requires = _headers(dist)
    if not name or normalized(name) in seen:
      continue
    seen.add(normalized(name))
    reason = verdict(name, version, requires, asked)
    if reason is None and asked:
      tops = {normalized(line) for line in (dist.read_text("top_level.txt") or "").split()}
      reason = "asked for (--tf1-package / %s)" % ENV if tops & set(asked) else None
    if reason is not None:
      found.append((name, version, reason, tuple(sorted(_top_level_dirs(dist)))))
  return found


def library_dirs():
  """The real paths of every TF1-era library's installed folders and modules."""
  return tuple(path for _, _, _, paths in tf1_era() for path in paths)

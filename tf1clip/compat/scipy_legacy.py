"""The SciPy names TF1-era scripts used that SciPy has since removed, served under `tf1clip run` (never on `import tf1clip`).

Place in the data flow (DESIGN.md): compat.runner calls `install()` before the script runs; nothing else does.
TF1 image code (GANs, style transfer, pix2pix) read and wrote images with `scipy.misc.imread / imsave /
imresize / toimage` (removed in SciPy 1.2-1.3), and took `logsumexp / comb / factorial` from `scipy.misc`
(moved to `scipy.special`); graph-convolution code imported `eigsh` from `scipy.sparse.linalg.eigen.arpack`
(a private path SciPy dropped). `install()` adds a `sys.meta_path` finder that, when `scipy.misc` is imported,
puts those names on it, and answers `scipy.sparse.linalg.eigen.arpack` with an alias module of
`scipy.sparse.linalg`. Each served name warns once (DeprecationWarning) with today's spelling.

The image functions are tf1clip's own code with SciPy 1.1's semantics (its `pilutil`: uint8 byte-scaling
of the data range, `mode`, `interp`, palette images, channel axis), on Pillow; `logsumexp`, `comb`,
`factorial` are scipy.special's own objects. tests/oracle/test_legacy_numerics_oracle.py compares them with
SciPy 1.1 itself.
"""

import importlib
import importlib.abc
import importlib.util
import sys
import types
import warnings

import numpy as np

# SciPy 1.1's interpolation codes for Image.resize / rotate.
_RESAMPLE = {"nearest": 0, "lanczos": 1, "bilinear": 2, "bicubic": 3, "cubic": 3}
_MODE_ERROR = "Mode is unknown or incompatible with input array shape."


def bytescale(data, cmin=None, cmax=None, high=255, low=0):
  """SciPy 1.1's `scipy.misc.bytescale`: scale `data` linearly from [cmin, cmax] to uint8 [low, high]."""
  data = np.asarray(data)
  if data.dtype == np.uint8:
    return data
  if high > 255:
    raise ValueError("`high` should be less than or equal to 255.")
  if low < 0:
    raise ValueError("`low` should be greater than or equal to 0.")
  if high < low:
    raise ValueError("`high` should be greater than or equal to `low`.")
  cmin = data.min() if cmin is None else cmin
  cmax = data.max() if cmax is None else cmax
  cscale = cmax - cmin
  if cscale < 0:
    raise ValueError("`cmax` should be larger than `cmin`.")
  if cscale == 0:
    cscale = 1
  scale = float(high - low) / cscale
  scaled = (data - cmin) * scale + low
  return (scaled.clip(low, high) + 0.5).astype(np.uint8)


def fromimage(im, flatten=False, mode=None):
  """SciPy 1.1's `scipy.misc.fromimage`: a PIL image as an array (palette images as RGB / RGBA)."""
  from PIL import Image  # pylint: disable=import-outside-toplevel
  if not isinstance(im, Image.Image):
    raise TypeError("Input is not a PIL image.")
  if mode is not None:
    if mode != im.mode:
      im = im.convert(mode)
  elif im.mode == "P":
    im = im.convert("RGBA" if "transparency" in im.info else "RGB")
  if flatten:
    im = im.convert("F")
  elif im.mode == "1":
    im = im.convert("L")
  return np.array(im)


def imread(name, flatten=False, mode=None):
  """SciPy 1.1's `scipy.misc.imread`: read an image file into an array (`flatten`: grey float32)."""
  from PIL import Image  # pylint: disable=import-outside-toplevel
  return fromimage(Image.open(name), flatten=flatten, mode=mode)


def toimage(arr, high=255, low=0, cmin=None, cmax=None, pal=None, mode=None, channel_axis=None):
  """SciPy 1.1's `scipy.misc.toimage`: an array as a PIL image, byte-scaled unless mode is 'F' / 'I' / '1'."""
  from PIL import Image  # pylint: disable=import-outside-toplevel
  data = np.asarray(arr)
  if np.iscomplexobj(data):
    raise ValueError("Cannot convert a complex-valued array.")
  shape = list(data.shape)
  if not (len(shape) == 2 or (len(shape) == 3 and (3 in shape or 4 in shape))):
    raise ValueError("'arr' does not have a suitable array shape for any mode.")
  if len(shape) == 2:
    size = (shape[1], shape[0])
    if mode == "F":
      return Image.frombytes(mode, size, data.astype(np.float32).tobytes())
    if mode in (None, "L", "P"):
      image = Image.frombytes("L", size, bytescale(data, high=high, low=low, cmin=cmin, cmax=cmax).tobytes())
      if pal is not None:
        image.putpalette(np.asarray(pal, dtype=np.uint8).tobytes())
      elif mode == "P":
        grey = np.arange(0, 256, 1, dtype=np.uint8)[:, np.newaxis] * np.ones((3,), dtype=np.uint8)[np.newaxis, :]
        image.putpalette(grey.tobytes())
      return image
    if mode == "1":
      return Image.frombytes("1", size, (data > high).tobytes())
    cmin = np.amin(np.ravel(data)) if cmin is None else cmin
    cmax = np.amax(np.ravel(data)) if cmax is None else cmax
    data = (data * 1.0 - cmin) * (high - low) / (cmax - cmin) + low
    if mode == "I":
      return Image.frombytes(mode, size, data.astype(np.uint32).tobytes())
    raise ValueError(_MODE_ERROR)
  if channel_axis is None:
    if 3 in shape:
      axis = int(np.flatnonzero(np.asarray(shape) == 3)[0])
    else:
      found = np.flatnonzero(np.asarray(shape) == 4)
      if not len(found):  # pylint: disable=g-explicit-length-test
        raise ValueError("Could not find channel dimension.")
      axis = int(found[0])
  else:
    axis = channel_axis
  channels = shape[axis]
  if channels not in (3, 4):
    raise ValueError("Channel axis dimension is not valid.")
  scaled = bytescale(data, high=high, low=low, cmin=cmin, cmax=cmax)
  order = {2: (0, 1, 2), 1: (0, 2, 1), 0: (1, 2, 0)}[axis]
  planar = np.transpose(scaled, order)
  size = (planar.shape[1], planar.shape[0])
  if mode is None:
    mode = "RGB" if channels == 3 else "RGBA"
  if mode not in ("RGB", "RGBA", "YCbCr", "CMYK"):
    raise ValueError(_MODE_ERROR)
  if (mode in ("RGB", "YCbCr") and channels != 3) or (mode in ("RGBA", "CMYK") and channels != 4):
    raise ValueError("Invalid array shape for mode.")
  return Image.frombytes(mode, size, np.ascontiguousarray(planar).tobytes())


def imsave(name, arr, format=None):  # pylint: disable=redefined-builtin
  """SciPy 1.1's `scipy.misc.imsave`: write an array as an image (byte-scaled to the full 0-255 range)."""
  image = toimage(arr, channel_axis=2)
  if format is None:
    image.save(name)
  else:
    image.save(name, format)


def imresize(arr, size, interp="bilinear", mode=None):
  """SciPy 1.1's `scipy.misc.imresize`: resize through a byte-scaled PIL image (returns uint8).

  Args:
    arr: the image array.
    size: an int (percent), a float (fraction) or (height, width).
    interp: 'nearest', 'lanczos', 'bilinear', 'bicubic' or 'cubic'.
    mode: the PIL mode to convert to first (see toimage).

  Returns:
    The resized image as an array.
  """
  image = toimage(arr, mode=mode)
  if isinstance(size, (int, np.integer)):
    size = tuple((np.array(image.size) * (size / 100.0)).astype(int))
  elif isinstance(size, (float, np.floating)):
    size = tuple((np.array(image.size) * size).astype(int))
  else:
    size = (size[1], size[0])
  if interp not in _RESAMPLE:
    raise KeyError("imresize: interp must be one of %s, got %r" % (sorted(_RESAMPLE), interp))
  return fromimage(image.resize(size, resample=_RESAMPLE[interp]))


def imrotate(arr, angle, interp="bilinear"):
  """SciPy 1.1's `scipy.misc.imrotate`: rotate counter-clockwise by `angle` degrees (returns uint8)."""
  return fromimage(toimage(np.asarray(arr)).rotate(angle, resample=_RESAMPLE[interp]))


# scipy.misc name -> (the object or a "module:attr" it moved to, what to write instead)
MISC = {
    "imread": (imread, "imageio.v2.imread(name) (or PIL.Image.open)"),
    "imsave": (imsave, "imageio.imwrite(name, arr) (it does not byte-scale)"),
    "imresize": (imresize, "PIL.Image.fromarray(arr).resize((w, h)) or skimage.transform.resize"),
    "imrotate": (imrotate, "PIL.Image.fromarray(arr).rotate(angle) or skimage.transform.rotate"),
    "toimage": (toimage, "PIL.Image.fromarray"),
    "fromimage": (fromimage, "np.asarray(image)"),
    "bytescale": (bytescale, "an explicit scaling to uint8"),
    "logsumexp": ("scipy.special:logsumexp", "scipy.special.logsumexp"),
    "comb": ("scipy.special:comb", "scipy.special.comb"),
    "factorial": ("scipy.special:factorial", "scipy.special.factorial"),
    "factorial2": ("scipy.special:factorial2", "scipy.special.factorial2"),
    "factorialk": ("scipy.special:factorialk", "scipy.special.factorialk"),
}
ALIASED_MODULES = {"scipy.sparse.linalg.eigen.arpack": "scipy.sparse.linalg"}


def _resolve(value):
  if isinstance(value, str):
    module, _, attr = value.partition(":")
    return getattr(importlib.import_module(module), attr)
  return value


def _warned(name, value, instead):
  """`value`, warning once on first call that scipy.misc.<name> is served by tf1clip."""
  if not callable(value):
    return value
  state = {"warned": False}

  def served(*args, **kwargs):
    if not state["warned"]:
      state["warned"] = True
      warnings.warn("scipy.misc.%s was removed from SciPy; tf1clip run serves it (SciPy 1.1's behaviour) for "
                    "this legacy script. Use %s instead." % (name, instead), DeprecationWarning, stacklevel=2)
    return value(*args, **kwargs)

  served.__name__ = name
  served.__doc__ = value.__doc__
  served.__wrapped__ = value
  return served


def add_to_misc(misc):
  """Puts every MISC name scipy.misc lacks on the module `misc`; returns the names added."""
  added = []
  for name, (value, instead) in MISC.items():
    if name not in misc.__dict__:
      setattr(misc, name, _warned(name, _resolve(value), instead))
      added.append(name)
  return added


class _AliasLoader(importlib.abc.Loader):
  """Loads a module name as another module's contents (scipy.sparse.linalg.eigen.arpack -> ...linalg)."""

  def __init__(self, target):
    self._target = target

  def create_module(self, spec):
    return None

  def exec_module(self, module):
    target = importlib.import_module(self._target)
    module.__dict__.update({k: v for k, v in target.__dict__.items() if not k.startswith("__")})


class _WrappedLoader(importlib.abc.Loader):
  """Runs a SciPy module's own loader, then `after(module)`."""

  def __init__(self, loader, after):
    self._loader = loader
    self._after = after

  def create_module(self, spec):
    return self._loader.create_module(spec)

  def exec_module(self, module):
    with warnings.catch_warnings():
      warnings.simplefilter("ignore", DeprecationWarning)  # "scipy.misc is deprecated": we serve it
      self._loader.exec_module(module)
    self._after(module)


def _make_package(module):
  # `import scipy.sparse.linalg.eigen.arpack` needs its parent to be a package (SciPy 1.8+ made it a
  # deprecated plain module); an empty __path__ leaves every submodule to the finder below.
  if not hasattr(module, "__path__"):
    module.__path__ = []


# module -> what to do after SciPy's own code has run it
_AFTER = {"scipy.misc": add_to_misc}
_AFTER.update({name.rsplit(".", 1)[0]: _make_package for name in ALIASED_MODULES})


class LegacyScipyFinder(importlib.abc.MetaPathFinder):
  """Answers `import scipy.misc` (with the removed names added) and the aliased private module paths."""

  def find_spec(self, fullname, path, target=None):
    if fullname in ALIASED_MODULES:
      return importlib.util.spec_from_loader(fullname, _AliasLoader(ALIASED_MODULES[fullname]))
    after = _AFTER.get(fullname)
    if after is None:
      return None
    for finder in sys.meta_path:
      if finder is self or not hasattr(finder, "find_spec"):
        continue
      spec = finder.find_spec(fullname, path, target)
      if spec is not None:
        spec.loader = _WrappedLoader(spec.loader, after)
        return spec
    return None


def install():
  """Makes `import scipy.misc` carry the removed names and aliases the private module paths (idempotent)."""
  if not any(isinstance(f, LegacyScipyFinder) for f in sys.meta_path):
    sys.meta_path.insert(0, LegacyScipyFinder())
  for name, after in _AFTER.items():  # already imported before the runner started
    if isinstance(sys.modules.get(name), types.ModuleType):
      after(sys.modules[name])

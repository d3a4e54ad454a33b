"""`tf.contrib.image.single_image_random_dot_stereograms`: TF 1.15's random-dot stereogram op, in NumPy.

TF 1.15's C++ kernel, which TF 2 removed, step for step: the 2-D depth values are normalized (autoscaled when
`normalize_max < normalize_min`) and clipped to [0, 1]; each output row links the pixel pairs a depth's
separation `round((1 - mu z) E / (2 - mu z))` (E = `int(eye_separation * dots_per_inch)`) joins, with hidden
surfaces removed; unlinked pixels get a random colour and linked ones copy theirs; two black convergence
squares go below the image. The image is `[output_image_shape[1], output_image_shape[0], channels]` uint8 (three
channels when `number_colors > 256`), the data window centred in it, the border at `border_level`.

The random colours come from the C library's `rand()`, as in TF 1.15's kernel (which called it unseeded): the
same process-wide generator, so after `srand(seed)` both give the same image, and without it a fresh process
starts from the C library's default state as TF 1.15's did. The float attributes keep their float32 values.
"""

import ctypes
import ctypes.util

import numpy as np
import tensorflow as tf

_LIBC = ctypes.CDLL(ctypes.util.find_library("c") or None)
_LIBC.rand.restype = ctypes.c_int


def _separation(z, mu, e2e):
  return np.floor((1.0 - mu * z) * e2e / (2.0 - mu * z) + 0.5).astype(np.int64)


def _stereogram(depth, hidden_surface_removal, convergence_dots_size, dots_per_inch, eye_separation, mu,
                normalize, normalize_max, normalize_min, border_level, number_colors, image_shape, window):
  """The kernel's Compute: the uint8 image of `depth` (a 2-D array)."""
  mu, border = float(np.float32(mu)), float(np.float32(border_level))
  e2e = int(np.float32(eye_separation) * np.float32(dots_per_inch))
  in_y, in_x = depth.shape[:2]
  depth = depth.reshape(-1)[:in_y * in_x].reshape(in_y, in_x).astype(np.float64)
  out_x, out_y, channels = image_shape
  if number_colors > 256:
    channels = 3
  win_x, win_y = window
  delta_x, delta_y = out_x - win_x, out_y - win_y
  if convergence_dots_size > 0:
    delta_y = max(0, delta_y - convergence_dots_size)
    top = delta_y // 3
    dots_row = out_y - 1 - top
  else:
    top = delta_y // 2 if delta_y >= 0 else -((-delta_y) // 2)
    dots_row = out_y - 1
  left_edge = delta_x // 2 if delta_x >= 0 else -((-delta_x) // 2)
  # the Z buffer
  if normalize:
    high, low = ((depth.max(), depth.min()) if np.float32(normalize_max) < np.float32(normalize_min)
                 else (float(np.float32(normalize_max)), float(np.float32(normalize_min))))
    depth = (depth - low) / (high - low)
  depth = np.clip(depth, 0.0, 1.0)
  # the depth under each output pixel, over a margin wide enough for the hidden-surface look-around
  margin = e2e + 2
  xs = np.arange(-margin, out_x + margin)

  def row_depth(y):
    yofz = float(in_y) * (y - top) / float(win_y)
    xofz = float(in_x) * (xs - left_edge) / float(win_x)
    inside = (xofz >= 0) & (xofz < in_x) & (yofz >= 0) & (yofz < in_y)
    values = np.full(xs.shape, border)
    if inside.any():
      values[inside] = depth[int(yofz), xofz[inside].astype(np.int64)]
    return values

  image = np.zeros([out_y, out_x, channels], np.uint8)
  mu_e2e = float(np.float32(mu) * np.float32(e2e))  # float * int in the kernel: a float32 product
  for y in range(out_y):
    z_all = row_depth(y)
    z = z_all[margin:margin + out_x]
    sep = _separation(z, mu, e2e)
    lefts = np.arange(out_x) - sep // 2
    rights = lefts + sep
    candidate = (lefts >= 0) & (rights < out_x)
    visible = candidate.copy()
    if hidden_surface_removal:
      pending = candidate.copy()  # still looking further out
      t = 1
      while pending.any():
        zt = z + 2.0 * (2.0 - mu * z) * t / mu_e2e
        seen = (z_all[margin - t:margin - t + out_x] < zt) & (z_all[margin + t:margin + t + out_x] < zt)
        visible &= ~pending | seen
        pending &= seen & (zt < 1.0)
        t += 1
    same = list(range(out_x))
    for x in np.flatnonzero(visible).tolist():
      left, right = int(lefts[x]), int(rights[x])
      link = same[left]
      while link != left and link != right:
        if link < right:
          left = link
          link = same[left]
        else:
          same[left] = right
          left = right
          link = same[left]
          right = link
      same[left] = right
    pix = np.zeros([out_x, channels], np.uint8)
    for x in range(out_x - 1, -1, -1):
      if same[x] == x:
        for channel in range(channels):
          r = _LIBC.rand()
          pix[x, channel] = (0 if r % 2 == 0 else 255) if number_colors == 2 else r % 256
      else:
        pix[x] = pix[same[x]]
    image[y] = pix
  if convergence_dots_size:
    # the kernel writes the squares into the flat buffer unchecked: a square past the right edge continues on
    # the next row (what lies outside the buffer is left alone here)
    far = int(_separation(np.float64(0.0), mu, e2e))
    flat = image.reshape(-1)
    for center in (out_x // 2 - far // 2, out_x // 2 + far // 2):
      for row in range(convergence_dots_size):
        for col in range(convergence_dots_size):
          start = ((dots_row - row) * out_x + center - convergence_dots_size // 2 + col) * channels
          if 0 <= start and start + channels <= flat.size:
            flat[start:start + channels] = 0
  return image


def single_image_random_dot_stereograms(depth_values, hidden_surface_removal=None, convergence_dots_size=None,
                                        dots_per_inch=None, eye_separation=None, mu=None, normalize=None,
                                        normalize_max=None, normalize_min=None, border_level=None,
                                        number_colors=None, output_image_shape=None, output_data_window=None):
  """A single-image random-dot stereogram (uint8 image) encoding the 2-D `depth_values` (TF 1.15's op).

  A `depth_values` of rank 1 is a ValueError here (TF 1.15's kernel aborted the process on one).

  Args: TF 1.15's; None takes the op's default (hidden_surface_removal True, convergence_dots_size 8,
  dots_per_inch 72, eye_separation 2.5, mu 0.3333, normalize True, normalize_max -100, normalize_min 100 (min >
  max: autoscale), border_level 0, number_colors 256, output_image_shape [1024, 768, 1], output_data_window
  [1022, 757]).
  """
  settings = dict(hidden_surface_removal=True, convergence_dots_size=8, dots_per_inch=72, eye_separation=2.5,
                  mu=0.3333, normalize=True, normalize_max=-100.0, normalize_min=100.0, border_level=0.0,
                  number_colors=256, output_image_shape=[1024, 768, 1], output_data_window=[1022, 757])
  given = dict(hidden_surface_removal=hidden_surface_removal, convergence_dots_size=convergence_dots_size,
               dots_per_inch=dots_per_inch, eye_separation=eye_separation, mu=mu, normalize=normalize,
               normalize_max=normalize_max, normalize_min=normalize_min, border_level=border_level,
               number_colors=number_colors, output_image_shape=output_image_shape,
               output_data_window=output_data_window)
  settings.update({k: v for k, v in given.items() if v is not None})
  for key in ("hidden_surface_removal", "normalize"):
    if not isinstance(settings[key], (bool, np.bool_)):
      raise TypeError("Expected bool for argument '%s' not %r." % (key, settings[key]))
  for key in ("convergence_dots_size", "dots_per_inch", "number_colors"):  # as the op's int attributes: int()
    try:
      if isinstance(settings[key], (str, bytes)):
        raise TypeError
      settings[key] = int(settings[key])
    except (TypeError, ValueError):
      raise TypeError("Expected int for argument '%s' not %r." % (key, settings[key])) from None
  for key in ("eye_separation", "mu", "normalize_max", "normalize_min", "border_level"):
    if isinstance(settings[key], (str, bytes)) or not np.isreal(settings[key]):
      raise TypeError("Expected float for argument '%s' not %r." % (key, settings[key]))
  image_shape = [int(d) for d in tf.TensorShape(settings["output_image_shape"]).as_list()]
  window = [int(d) for d in tf.TensorShape(settings["output_data_window"]).as_list()]
  with tf.name_scope("SingleImageRandomDotStereograms"):
    depth = tf.convert_to_tensor(depth_values, name="depth_values")
    if depth.dtype not in (tf.float64, tf.float32, tf.int64, tf.int32):
      raise TypeError("Value passed to parameter 'depth_values' has DataType %s not in list of allowed values: "
                      "float64, float32, int64, int32" % depth.dtype.name)
    # the kernel reads dims 0 and 1 and the first rows x columns values (TF 1.15 accepted any rank from 2)
    depth.shape.with_rank_at_least(2)

    def compute(values):
      return _stereogram(values, bool(settings["hidden_surface_removal"]), int(settings["convergence_dots_size"]),
                         int(settings["dots_per_inch"]), settings["eye_separation"], settings["mu"],
                         bool(settings["normalize"]), settings["normalize_max"], settings["normalize_min"],
                         settings["border_level"], int(settings["number_colors"]), image_shape, window)

    image = tf.numpy_function(compute, [depth], tf.uint8, stateful=True)
    image.set_shape([image_shape[1], image_shape[0], 3 if settings["number_colors"] > 256 else image_shape[2]])
    return image

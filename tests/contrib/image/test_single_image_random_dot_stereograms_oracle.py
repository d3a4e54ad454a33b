"""tf.contrib.image.single_image_random_dot_stereograms against TF 1.15, byte for byte: both sides seed the C
library's rand() (which TF 1.15's kernel called unseeded, and tf1clip calls too) with srand(7) and then build
images from smooth and stepped depth maps: the default 1024 x 768 image, a small one with a data window and
convergence dots, two colours, full colour (number_colors > 256: three channels), without hidden-surface removal,
with fixed normalization bounds, without normalization (values clipped to [0, 1]), without convergence dots and
integer depths; the static shapes; what TF 1.15 let through (a rank-3 depth read as its first rows x columns
values, number_colors=2.5 taken as 2) and the errors of string, non-bool and non-number attributes. A rank-1
depth, which aborted TF 1.15's process, is a ValueError under tf1clip (only that side runs it). Each image is run once, in order, so both sides draw the same random colours."""

import numpy as np

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.image.single_image_random_dot_stereograms",)

SNIPPET = r'''
import ctypes
import hashlib
import ctypes.util
import numpy as np
import tensorflow as tf
sirds = tf.contrib.image.single_image_random_dot_stereograms
smooth = np.fromfunction(lambda i, j: np.sin(i / 8.0) * np.cos(j / 9.0), (64, 80)).astype(np.float32)
steps = np.zeros((40, 50), np.float64)
steps[10:30, 15:35] = 1.0
steps[15:25, 20:30] = 2.5
CASES = (
    ("default", smooth, {}),
    ("window", smooth, dict(output_image_shape=[120, 90, 1], output_data_window=[100, 70])),
    ("two_colors", steps, dict(number_colors=2, output_image_shape=[110, 80, 1], output_data_window=[100, 60])),
    ("full_color", steps, dict(number_colors=1000, output_image_shape=[110, 80, 1], output_data_window=[100, 60])),
    ("no_hsr", steps, dict(hidden_surface_removal=False, output_image_shape=[110, 80, 1],
                           output_data_window=[100, 60])),
    ("bounds", smooth, dict(normalize_max=0.5, normalize_min=-0.5, output_image_shape=[100, 80, 1],
                            output_data_window=[90, 60], mu=0.5, eye_separation=2.0, dots_per_inch=60)),
    ("raw", smooth * 1.5, dict(normalize=False, border_level=0.25, output_image_shape=[100, 80, 1],
                               output_data_window=[90, 60])),
    ("no_dots", steps.astype(np.int32), dict(convergence_dots_size=0, output_image_shape=[100, 70, 1],
                                             output_data_window=[90, 66])),
    ("int64_big_dots", steps.astype(np.int64), dict(convergence_dots_size=12, output_image_shape=[100, 80, 1],
                                                    output_data_window=[80, 40])),
)
ops = {}
for key, depth, kwargs in CASES:
    ops[key] = sirds(depth, **kwargs)
    report(key + "/static_shape", ops[key].shape.as_list())
ctypes.CDLL(ctypes.util.find_library("c")).srand(7)
with tf.Session() as sess:
    for key, _, _ in CASES:
        image = sess.run(ops[key])
        report(key + "/shape", list(image.shape))
        # the 1024 x 768 default by its digest (byte-equal iff equal; it kept the batch's records 3 MB a side)
        report(key + "/image", hashlib.sha256(image.tobytes()).hexdigest() if key == "default" else image)
# TF 1.15 was lax: a rank-3 depth is read as its first rows x columns values, an int attribute is int()'d
lax = {"rank3": sirds(np.stack([steps, 1.0 - steps, steps]).transpose(1, 2, 0), output_image_shape=[90, 60, 1],
                      output_data_window=[80, 40]),
       "float_colors": sirds(steps, number_colors=2.5, output_image_shape=[90, 60, 1], output_data_window=[80, 40])}
with tf.Session() as sess:
    for key, op in sorted(lax.items()):
        report(key, sess.run(op))
with case("rank1"):
    if tf.__version__.startswith("1."):
        raise ValueError("TF 1.15's kernel aborted the process on a rank-1 depth")  # not run there: it crashes
    sirds(np.zeros(8, np.float32))
with case("string_attr"):
    sirds(smooth, dots_per_inch="72")
with case("bool_attr"):
    sirds(smooth, normalize=1)
with case("float_attr"):
    sirds(smooth, mu="big")
'''


@requires_tf115
def test_stereograms_match_tf115_byte_for_byte():
  tf115, ours = run_both(SNIPPET)
  assert tf115["default/shape"] == [768, 1024, 1] and tf115["full_color/shape"] == [80, 110, 3]
  assert len(np.unique(tf115["two_colors/image"])) == 2
  assert len(np.unique(tf115["float_colors"])) == 2
  assert tf115["string_attr:error"] == tf115["bool_attr:error"] == tf115["float_attr:error"] == "TypeError"
  assert ours["rank1:error"] == "ValueError"
  assert_same(tf115, ours, rtol=0, atol=0)

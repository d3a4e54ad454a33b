"""The NumPy 1.18 and SciPy 1.1 that TF1 scripts were written for, judged by the oracle (which has exactly those).

The same script runs with the oracle's Python (numpy 1.18.5, scipy 1.1.0, Pillow) and under `tf1clip run`
(NumPy 2, SciPy 1.17): ragged `np.array`, the names NumPy 2.0 removed, `scipy.misc`'s image functions and
moved functions, and the `eigen.arpack` path give the same values. Under plain `python` the same script
still fails: nothing leaks out of the runner.
"""

import os
import subprocess
import sys
import tempfile

from harness import assert_same, requires_tf115, run_both

SNIPPET = r'''
import warnings
import numpy as np
import scipy.misc
from scipy.misc import imread, imsave, imresize, toimage, logsumexp, comb, factorial
from scipy.sparse.linalg.eigen.arpack import eigsh
import scipy.sparse as sp

# NumPy: ragged sequences become object arrays (as a 2016 text-CNN's data helper expects)
sentences = [[1, 2, 3], [4, 5], [6]]
ragged = np.array(sentences)
report("ragged_dtype", str(ragged.dtype))
report("ragged_shape", list(ragged.shape))
report("ragged_items", [list(x) for x in ragged])
report("ragged_asarray", str(np.asarray([[1.0], [2.0, 3.0]]).dtype))
report("nested_ragged_shape", list(np.array([[[1, 2], [3, 4]], [[1, 2]]]).shape))
report("mixed_shape", list(np.array([[1, [2, 3]], [4, 5]]).shape))
with case("equal_leading_dims"):
    np.array([np.zeros((2, 3)), np.zeros((2, 4))])
# NumPy 2.0's removals
report("constants", [np.NaN, np.Inf, np.NINF, np.PINF, np.infty])
report("types", [np.float_.__name__, np.complex_.__name__, np.string_.__name__, np.unicode_.__name__])
report("product", np.product([[1, 2], [3, 4]], axis=0))
report("cumproduct", np.cumproduct([1, 2, 3, 4]))
report("alltrue", bool(np.alltrue([True, False])))
report("sometrue", bool(np.sometrue([True, False])))
report("asfarray", [str(np.asfarray([1, 2]).dtype), str(np.asfarray([1, 2], dtype=np.float32).dtype),
                    str(np.asfarray([1, 2], dtype=np.int32).dtype)])
report("round_", np.round_([1.234, 5.678], 1))
report("msort", np.msort(np.array([[3, 1], [1, 2], [2, 0]])))
report("find_common_type", [str(np.find_common_type([np.int8, np.int16], [])),
                            str(np.find_common_type([np.int8], [np.float32])),
                            str(np.find_common_type([np.float32], [np.int64])),
                            str(np.find_common_type([], [np.int8, np.uint8])),
                            str(np.find_common_type([np.uint8], [np.complex64]))])
report("cast", [str(np.cast[np.float32]([1, 2]).dtype), list(np.cast["int16"]([1.7, -2.2]))])
report("asscalar", np.asscalar(np.array([4.5])))

# SciPy 1.1's scipy.misc
rng = np.random.RandomState(0)
grey = rng.uniform(-3, 7, [5, 7])
rgb = rng.uniform(0, 1, [6, 4, 3])
report("bytescale", scipy.misc.bytescale(grey))
report("toimage_L", np.asarray(toimage(grey)))
report("toimage_F", np.asarray(toimage(grey.astype(np.float32), mode="F")))
report("toimage_rgb", np.asarray(toimage(rgb)))
report("toimage_channels_first", np.asarray(toimage(np.transpose(rgb, (2, 0, 1)))))
report("toimage_cmin", np.asarray(toimage(grey, cmin=0, cmax=5)))
for interp in ["nearest", "bilinear", "bicubic", "lanczos"]:
    report("imresize_" + interp, imresize(rgb, (9, 5), interp=interp))
report("imresize_percent", imresize(grey, 50))
report("imresize_fraction", imresize(grey, 1.5, interp="nearest"))
png = ORACLE_SHARED + "/x_%s.png" % (1 if "tf1clip" in __import__("sys").modules else 0)
imsave(png, rgb)
back = imread(png)
report("imsave_imread", back)
report("imread_flatten", imread(png, flatten=True))
report("imread_mode_L", imread(png, mode="L"))
report("logsumexp", logsumexp([1.0, 2.0, 3.0]))
report("comb", [comb(10, 3), comb(10, 3, exact=True)])
report("factorial", [factorial(5), factorial(5, exact=True)])
m = sp.diags([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
vals, _ = eigsh(m, k=2, which="LM")
report("eigsh", sorted(vals.tolist()))
'''


@requires_tf115
def test_numpy_118_and_scipy_11_behaviour_under_tf1clip_run():
  tf115, ours = run_both(SNIPPET)
  assert tf115["ragged_dtype"] == "object" and tf115["imsave_imread"].shape == (6, 4, 3)
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6)


def test_plain_python_still_fails_on_the_same_names():
  # Nothing leaks: the runner's NumPy/SciPy additions exist only inside `tf1clip run`.
  with tempfile.TemporaryDirectory() as d:
    for line in ("import numpy as np; np.array([[1, 2], [3]])", "import numpy as np; np.NaN",
                 "from scipy.misc import imread", "from scipy.sparse.linalg.eigen.arpack import eigsh"):
      script = os.path.join(d, "legacy.py")
      with open(script, "w") as f:
        f.write(line + "\n")
      plain = subprocess.run([sys.executable, script], capture_output=True, text=True)
      assert plain.returncode == 1, line
      runner = subprocess.run([sys.executable, "-m", "tf1clip", "run", script], capture_output=True, text=True)
      assert runner.returncode == 0, (line, runner.stderr[-2000:])


def test_ragged_arrays_stay_an_error_for_library_code(tmp_path):
  # A library's np.array of a ragged list keeps NumPy 2's error (only the script's own files get 1.x).
  lib = tmp_path / "site-packages" / "somelib.py"
  lib.parent.mkdir()
  lib.write_text("import numpy as np\ndef build():\n  return np.array([[1, 2], [3]])\n")
  script = tmp_path / "train.py"
  script.write_text("import sys\nsys.path.insert(0, %r)\nimport numpy as np\nprint(np.array([[1], [2, 3]]).dtype)\n"
                    "import somelib\ntry:\n  somelib.build()\nexcept ValueError:\n  print('library error kept')\n"
                    % str(lib.parent))
  proc = subprocess.run([sys.executable, "-m", "tf1clip", "run", str(script)], capture_output=True, text=True)
  assert proc.returncode == 0, proc.stderr[-2000:]
  assert proc.stdout.split() == ["object", "library", "error", "kept"]
  assert proc.stderr.count("ragged nested sequence") == 1

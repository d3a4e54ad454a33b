"""Installed TF1-era libraries get the TF1 API under `tf1clip run` (issue #36 step 1), TF2-era ones keep TF 2.

The libraries here are small packages written into a temporary site-packages folder with their dist-info (as
pip leaves them), put on PYTHONPATH: one that requires `tensorflow<2`, one that requires nothing (so it keeps
TensorFlow 2 unless `--tf1-package` names it). compat.tf1_packages' rules are tested directly too.
"""

import os
import subprocess
import sys
import textwrap

import pytest

from tf1clip.compat import tf1_packages

LIBRARY = '''
import collections
import tensorflow as tf

def build():
    """What a TF1-era library does: graph-mode TF1 API, collections.Mapping."""
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    y = tf.layers.dense(x, 1, kernel_initializer=tf.ones_initializer())
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return float(sess.run(y, {x: [[1.0, 2.0]]})[0, 0]), isinstance({}, collections.Mapping)

def has_tf1():
    return hasattr(tf, "placeholder")
'''

SCRIPT = '''
import sys
import oldlib, newlib
print("oldlib", oldlib.build())
print("newlib", newlib.has_tf1())
'''


def _install(site, name, requires):
  os.makedirs(os.path.join(site, name))
  with open(os.path.join(site, name, "__init__.py"), "w") as f:
    f.write(LIBRARY)
  info = os.path.join(site, "%s-1.0.dist-info" % name)
  os.makedirs(info)
  with open(os.path.join(info, "METADATA"), "w") as f:
    f.write("Metadata-Version: 2.1\nName: %s\nVersion: 1.0\n%s" % (
        name, "".join("Requires-Dist: %s\n" % r for r in requires)))
  with open(os.path.join(info, "RECORD"), "w") as f:
    f.write("%s/__init__.py,,\n%s-1.0.dist-info/METADATA,,\n" % (name, name))
  with open(os.path.join(info, "top_level.txt"), "w") as f:
    f.write(name + "\n")


def _run(tmp_path, *options):
  site = tmp_path / "lib" / "site-packages"
  if not site.exists():
    _install(str(site), "oldlib", ["tensorflow>=1.4,<2.0", "numpy"])
    _install(str(site), "newlib", ["tensorflow>=2.4"])
    (tmp_path / "train.py").write_text(SCRIPT)
  env = dict(os.environ, PYTHONPATH=str(site), TF_CPP_MIN_LOG_LEVEL="3")
  env.pop(tf1_packages.ENV, None)
  proc = subprocess.run([sys.executable, "-m", "tf1clip", "run", *options, "train.py"], cwd=str(tmp_path),
                        capture_output=True, text=True, env=env, timeout=600)
  assert proc.returncode == 0, proc.stderr[-3000:]
  return proc.stdout.split("\n")


def test_a_library_that_requires_tensorflow_1_gets_the_facade_and_the_others_keep_tensorflow_2(tmp_path):
  out = _run(tmp_path)
  assert "oldlib (3.0, True)" in out
  assert "newlib False" in out
  out = _run(tmp_path, "--tf1-package", "newlib")
  assert "newlib True" in out


def test_tf1_package_without_a_name_is_a_usage_error():
  proc = subprocess.run([sys.executable, "-m", "tf1clip", "run", "--tf1-package"], capture_output=True,
                        text=True, timeout=120)
  assert proc.returncode == 2
  assert "--tf1-package needs one distribution or import name" in proc.stderr


@pytest.mark.parametrize("name, version, requires, tf1", [
    ("tflearn", "0.3.2", [], True),
    ("tflearn", "0.5.0", [], False),          # TF2-ready release
    ("dm-sonnet", "1.36", [], True),
    ("dm_sonnet", "2.0.0", [], False),
    ("Keras", "2.2.4", ["numpy>=1.9.1"], True),
    ("keras", "3.5.0", [], False),
    ("gpflow", "1.5.1", [], True),
    ("somelib", "1.0", ["tensorflow<2"], True),
    ("somelib", "1.0", ["tensorflow-gpu==1.15.*"], True),
    ("somelib", "1.0", ["tensorflow>=1.15"], False),   # admits 2.x
    ("somelib", "1.0", ["tensorflow<2; extra == 'tf'"], False),  # an optional extra is no requirement
    ("somelib", "1.0", ["numpy"], False),
    ("tensorflow-estimator", "1.15.1", ["tensorflow<2"], False),  # TF2-era table wins
])
def test_verdict(name, version, requires, tf1):
  assert (tf1_packages.verdict(name, version, requires) is not None) == tf1


def test_asked_for_wins():
  assert "asked for" in tf1_packages.verdict("Some_Lib", "3.0", [], asked={"some-lib"})

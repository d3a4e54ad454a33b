"""Shared test fixtures: one fresh tf.Graph per graph-mode test, quiet TF logs, hypothesis profile."""

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
# The test process looks like the process `tf1clip run` makes for a legacy script: TF1 layers and RNN
# cells come from tf-keras. It must be set before TensorFlow is imported. Tests that need Keras 3 import
# `keras` directly; tests that need a process without it run a subprocess.
os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")

import hypothesis
import pytest

from tf1clip.compat import quiet

# TensorFlow's C++ start-up lines (printed by every test process, below pytest's pass line) go, as under
# `tf1clip run`; TF1CLIP_TF_LOG=1 keeps them.
quiet.install()

import tensorflow as tf  # pylint: disable=g-import-not-at-top,wrong-import-position

# TF graph construction is slow compared with hypothesis' default deadline.
hypothesis.settings.register_profile(
    "tf1clip", deadline=None, max_examples=30,
    suppress_health_check=[hypothesis.HealthCheck.too_slow])
hypothesis.settings.load_profile("tf1clip")


@pytest.fixture
def graph():
  """A fresh default tf.Graph (graph mode), as TF1 code builds."""
  g = tf.Graph()
  with g.as_default():
    yield g


@pytest.fixture
def sess(graph):
  """A tf.compat.v1.Session on the fresh graph."""
  with tf.compat.v1.Session(graph=graph) as s:
    yield s

"""Shared test fixtures: one fresh tf.Graph per graph-mode test, quiet TF logs, hypothesis profile."""

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import hypothesis
import pytest
import tensorflow as tf

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

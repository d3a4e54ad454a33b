"""Helpers for tests that read summaries back: the newest event file of a directory, its events and summaries,
the simple values of tags, and checks of a Summary proto.

TF 1.15's `tensorflow/contrib/testing/python/framework/util_test.py` (a library module despite its name), written
by tf1clip on tf.compat.v1.train.summary_iterator and the public Summary proto.
"""

import glob
import os

import numpy as np
import tensorflow as tf


def assert_summary(expected_tags, expected_simple_values, summary_proto):
  """Checks a Summary's tags and some of its simple values.

  Args:
    expected_tags: every tag the summary must have, and no other.
    expected_simple_values: tag -> the simple value it must have (to 2 decimals).
    summary_proto: the tf.compat.v1.Summary.

  Raises:
    AssertionError: a simple value differs (numpy's assert_almost_equal).
    ValueError: the tags differ.
  """
  tags = set()
  for value in summary_proto.value:
    tags.add(value.tag)
    if value.tag in expected_simple_values:
      np.testing.assert_almost_equal(value.simple_value, expected_simple_values[value.tag], decimal=2,
                                     err_msg=value.tag)
  if tags != set(expected_tags):
    raise ValueError("Expected tags %s, got %s." % (set(expected_tags), tags))


def to_summary_proto(summary_str):
  """The tf.compat.v1.Summary serialized in `summary_str` (a protobuf DecodeError when it is not one)."""
  return tf.compat.v1.Summary.FromString(summary_str)


def latest_event_file(base_dir):
  """The path of the last `events.*` file of `base_dir` in name order (names start with the time), or None."""
  paths = sorted(glob.glob(os.path.join(base_dir, "events.*")))
  return paths[-1] if paths else None


def latest_events(base_dir):
  """The Event protos of `base_dir`'s latest event file (an iterator), or an empty list when it has none."""
  path = latest_event_file(base_dir)
  return tf.compat.v1.train.summary_iterator(path) if path else []


def latest_summaries(base_dir):
  """The events of `base_dir`'s latest event file that hold a summary, as a list."""
  return [event for event in latest_events(base_dir) if event.HasField("summary")]


def simple_values_from_events(events, tags):
  """tag -> simple value, for each of `tags` found in `events`: the value at its highest step (the first one
  seen at that step).

  Raises:
    ValueError: a summary value of one of `tags` is not a simple value.
  """
  latest = {}  # tag -> (step, value)
  for event in events:
    if not event.HasField("summary"):
      continue
    for value in event.summary.value:
      if value.tag not in tags:
        continue
      if not value.HasField("simple_value"):
        raise ValueError("Summary for %s is not a simple_value." % value.tag)
      # events are written in step order only mostly
      if value.tag not in latest or event.step > latest[value.tag][0]:
        latest[value.tag] = (event.step, value.simple_value)
  return {tag: value for tag, (_, value) in latest.items()}

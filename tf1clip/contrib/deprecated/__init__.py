"""`tf.contrib.deprecated`: TF 1.15's pre-1.0 summary ops, whose tag is an argument (not the op's name).

TF 1.15's code: `scalar_summary(tags, values)`, `histogram_summary(tag, values)`, `image_summary`,
`audio_summary` build the ScalarSummary / HistogramSummary / ImageSummary / AudioSummaryV2 ops with the given
tag(s) and add them to the SUMMARIES collection (or `collections`); `merge_summary` / `merge_all_summaries`
merge them. `tf.compat.v1.summary.*` is the successor (it names summaries after the op).
"""

import tensorflow as tf
from tf1clip.contrib import catalog as _catalog

V1 = tf.compat.v1
_RAW = tf.raw_ops


def _collect(val, collections, default_collections):
  for key in (default_collections if collections is None else collections):
    V1.add_to_collection(key, val)


def scalar_summary(tags, values, collections=None, name=None):
  """A Summary of scalar `values` under `tags` (a string or a tensor of them, shaped like values)."""
  with V1.name_scope(name, "ScalarSummary", [tags, values]) as scope:
    val = _RAW.ScalarSummary(tags=tags, values=values, name=scope)
    _collect(val, collections, [V1.GraphKeys.SUMMARIES])
  return val


def histogram_summary(tag, values, collections=None, name=None):
  """A histogram Summary of `values` under `tag`."""
  with V1.name_scope(name, "HistogramSummary", [tag, values]) as scope:
    val = _RAW.HistogramSummary(tag=tag, values=values, name=scope)
    _collect(val, collections, [V1.GraphKeys.SUMMARIES])
  return val


def image_summary(tag, tensor, max_images=3, collections=None, name=None):
  """An image Summary of up to `max_images` images of `tensor` [batch, h, w, c] under `tag`."""
  with V1.name_scope(name, "ImageSummary", [tag, tensor]) as scope:
    val = _RAW.ImageSummary(tag=tag, tensor=tensor, max_images=max_images, name=scope)
    _collect(val, collections, [V1.GraphKeys.SUMMARIES])
  return val


def audio_summary(tag, tensor, sample_rate, max_outputs=3, collections=None, name=None):
  """An audio Summary of up to `max_outputs` clips of `tensor` at `sample_rate` under `tag`."""
  with V1.name_scope(name, "AudioSummary", [tag, tensor]) as scope:
    sample_rate = tf.convert_to_tensor(sample_rate, dtype=tf.float32, name="sample_rate")
    val = _RAW.AudioSummaryV2(tag=tag, tensor=tensor, max_outputs=max_outputs,
                              sample_rate=sample_rate, name=scope)
    _collect(val, collections, [V1.GraphKeys.SUMMARIES])
  return val


def merge_summary(inputs, collections=None, name=None):
  """One Summary of the union of `inputs`' values."""
  with V1.name_scope(name, "MergeSummary", inputs):
    val = _RAW.MergeSummary(inputs=inputs, name=name)
    _collect(val, collections, [])
  return val


def merge_all_summaries(key=V1.GraphKeys.SUMMARIES):
  """merge_summary of the collection `key` (None when it is empty)."""
  summary_ops = V1.get_collection(key)
  return merge_summary(summary_ops) if summary_ops else None


# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = 'tf.compat.v1.summary.scalar / histogram / image / audio / merge_all (the pre-1.0 summary names)'

__getattr__ = _catalog.module_getattr(__name__)

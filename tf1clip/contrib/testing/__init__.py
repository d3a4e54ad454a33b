"""`tf.contrib.testing`: a fake summary writer and helpers that read summaries back, for tests.

tf1clip's code, TF 1.15's two modules `tensorflow/contrib/testing/python/framework/{fake_summary_writer,util_test}.py`
(python/framework/ here) on the public summary protos and `tf.compat.v1.train.summary_iterator`.
`FakeSummaryWriter.install()` replaces TensorFlow's FileWriter (as its writer modules see it) as TF 1.15's did.
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.testing.python.framework.fake_summary_writer import FakeSummaryWriter  # noqa: F401
from tf1clip.contrib.testing.python.framework.util_test import (  # noqa: F401
    assert_summary, latest_event_file, latest_events, latest_summaries, simple_values_from_events,
    to_summary_proto)

__getattr__ = _catalog.module_getattr(__name__)

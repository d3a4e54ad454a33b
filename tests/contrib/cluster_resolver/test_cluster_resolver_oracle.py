"""contrib.cluster_resolver's resolvers against TF 1.15: the cluster specs, masters and tasks they give."""

from harness import assert_same, requires_tf115, run_both

RESOLVERS = ("ClusterResolver", "SimpleClusterResolver", "TFConfigClusterResolver", "UnionClusterResolver")
ORACLE_TESTED = tuple("tf.contrib.cluster_resolver." + n for n in RESOLVERS)

SNIPPET = r'''
import json
import os
import tensorflow as tf
# cluster resolvers
spec = {"worker": ["w0:2222", "w1:2222"], "ps": ["ps0:2222"]}
simple = tf.contrib.cluster_resolver.SimpleClusterResolver(tf.train.ClusterSpec(spec), task_type="worker", task_id=1)
os.environ["TF_CONFIG"] = json.dumps({"cluster": {"chief": ["c0:1"], "worker": ["w9:1"]},
                                      "task": {"type": "worker", "index": 0}})
from_config = tf.contrib.cluster_resolver.TFConfigClusterResolver()
union = tf.contrib.cluster_resolver.UnionClusterResolver(simple, tf.contrib.cluster_resolver.SimpleClusterResolver(
    tf.train.ClusterSpec({"evaluator": ["e0:1"]})))
report("resolvers", [simple.cluster_spec().as_dict(), simple.master(), simple.task_type, simple.task_id,
                     from_config.cluster_spec().as_dict(), from_config.task_type, from_config.task_id,
                     from_config.master(), union.cluster_spec().as_dict(),
                     isinstance(union, tf.contrib.cluster_resolver.ClusterResolver)])
del os.environ["TF_CONFIG"]
'''


@requires_tf115
def test_contrib_cluster_resolver_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-4, atol=1e-5)

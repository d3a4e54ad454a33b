"""tf.contrib.kernel_methods.sparse_multiclass_hinge_loss (TF 1.15's kernel_methods/python/losses.py) against TF
1.15: values, gradients, reductions and errors.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.kernel_methods.sparse_multiclass_hinge_loss",)

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
km, tfprof = tf.contrib.kernel_methods, tf.contrib.tfprof
root = os.path.abspath("out")
# -- sparse_multiclass_hinge_loss --------------------------------------------------------------------------
logits = tf.constant([[1.0, 2.0, 0.5], [0.2, -1.0, 3.0], [2.0, 2.0, 2.0], [0.0, 1.5, 1.4]])
labels = tf.constant([1, 0, 2, 2])
loss = km.sparse_multiclass_hinge_loss(labels, logits)
loss_w = km.sparse_multiclass_hinge_loss(tf.reshape(labels, [-1, 1]), logits,
                                         weights=tf.constant([1.0, 0.0, 2.0, 0.5]))
loss_none = km.sparse_multiclass_hinge_loss(tf.cast(labels, tf.int64), logits, weights=[[1.0], [2.0], [1.0], [3.0]],
                                            reduction=tf.losses.Reduction.NONE, scope="hinge")
grad = tf.gradients(loss_w, logits)[0]
report("hinge_graph", [loss.name, len(tf.get_collection(tf.GraphKeys.LOSSES))])
report_errors("hinge_errors", [
    ("logits_rank1", lambda: km.sparse_multiclass_hinge_loss(labels, tf.constant([1.0, 2.0]))),
    ("labels_float", lambda: km.sparse_multiclass_hinge_loss(tf.constant([1.0, 0, 2, 2]), logits)),
    ("labels_rank3", lambda: km.sparse_multiclass_hinge_loss(tf.zeros([4, 1, 1], tf.int32), logits)),
    ("weights_rank3", lambda: km.sparse_multiclass_hinge_loss(labels, logits, weights=tf.ones([4, 1, 1]))),
    ("weights_size", lambda: km.sparse_multiclass_hinge_loss(labels, logits, weights=tf.ones([3])))])
out_of_range = km.sparse_multiclass_hinge_loss(tf.constant([0, 3, 1, 1]), logits)
with tf.Session() as sess:
    report("values", sess.run({"loss": loss, "loss_w": loss_w, "none": loss_none, "grad": grad}))
    report_errors("hinge_run_errors", [("label_3_of_3", lambda: sess.run(out_of_range))])

'''


@requires_tf115
def test_sparse_multiclass_hinge_loss_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=2e-5, atol=2e-6)

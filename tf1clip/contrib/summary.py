"""`tf.contrib.summary`: the TF2-style summary-writer API as TF 1.15 had it, for graph-mode scripts.

Place in the data flow (DESIGN.md): **contrib.summary** <- compat <- cli. TF 1.15's contrib.summary
re-exported `tensorflow.python.ops.summary_ops_v2`; TensorFlow 2.21 still has that module, with the
graph-mode functions (`create_file_writer`, `always_record_summaries`, `scalar`, `all_summary_ops`,
`initialize`, `summary_writer_initializer_op`, ...) that the public `tf.summary` replaced. They are
served as those same objects (`catalog.SERVED`). The classic graph-mode use:

    writer = tf.contrib.summary.create_file_writer(logdir)
    with writer.as_default(), tf.contrib.summary.always_record_summaries():
      tf.contrib.summary.scalar("loss", loss)            # step: the global step
      with tf.Session() as sess:
        tf.contrib.summary.initialize(graph=tf.get_default_graph(), session=sess)  # needs the writer
        sess.run(tf.contrib.summary.all_summary_ops())
"""

from tf1clip.contrib import catalog

__getattr__ = catalog.missing_attribute_hook("tf.contrib.summary",
                                             lazy=catalog.served("tf.contrib.summary"))

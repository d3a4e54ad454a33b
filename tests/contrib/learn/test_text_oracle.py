"""contrib.learn.preprocessing's text processors against TF 1.15: VocabularyProcessor (fit_transform, vocabulary,
reverse, and a vocabulary file TF 1.15 wrote), tokenizer and ByteProcessor.
"""

import tempfile

from harness import assert_same, requires_tf115, run_both, run_tf115, run_tf1clip

ORACLE_TESTED = (
    "tf.contrib.learn.preprocessing.VocabularyProcessor", "tf.contrib.learn.preprocessing.tokenizer",
    "tf.contrib.learn.preprocessing.ByteProcessor")

WRITE_VOCAB = r'''
import tensorflow as tf
vp = tf.contrib.learn.preprocessing.VocabularyProcessor(5)
vp.fit(["old vocabulary written by tensorflow one fifteen", "old words stay"])
vp.save(ORACLE_SHARED + "/vocab")
report("ids", [list(x) for x in vp.transform(["old words written", "unknown one"])])
'''

READ_VOCAB = r'''
import tensorflow as tf
vp = tf.contrib.learn.preprocessing.VocabularyProcessor.restore(ORACLE_SHARED + "/vocab")
report("ids", [list(x) for x in vp.transform(["old words written", "unknown one"])])
'''

SNIPPET = r'''
import numpy as np
import tensorflow as tf
# learn.preprocessing
pre = tf.contrib.learn.preprocessing
docs = ["the cat sat on the mat", "a dog ate my homework", "the cat ate"]
vp = pre.VocabularyProcessor(6, min_frequency=0)
report("vocab_fit_transform", np.array(list(vp.fit_transform(docs))))
report("vocab_size", len(vp.vocabulary_))
report("vocab_reverse", list(vp.reverse([[1, 2, 3, 0]])))
report("tokenizer", list(pre.tokenizer(["Hello, world! it's 3.5 o'clock"])))
bp = pre.ByteProcessor(8)
report("byte_processor", np.array(list(bp.transform(["abc", "é!"]))))
'''


@requires_tf115
def test_text_processors_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5)


@requires_tf115
def test_vocabulary_file_written_by_tf115_restores():
  with tempfile.TemporaryDirectory() as shared:
    written = run_tf115(WRITE_VOCAB, shared=shared)
    read = run_tf1clip(READ_VOCAB, shared=shared)
  assert written["ids"] == read["ids"] and written["ids"][0][0] != 0

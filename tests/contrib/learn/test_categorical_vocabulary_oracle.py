"""tf.contrib.learn.preprocessing's CategoricalVocabulary against TF 1.15 (its module categorical_vocabulary).

Compared: ids as categories arrive (strings and integers), the unknown token (id 0, never counted), `len`, freeze
and unfreeze, `add` counts, `trim` (renumbered by decreasing count, ties in TF 1.15's order: integers before strings,
each sorted; min_frequency exclusive, max_frequency dropping the most frequent), the counts kept after a trim (TF
1.15 keeps the first n by count, dropped frequent ones included, in a plain dict: a new category's `add` then fails),
`reverse` with and without support_reverse, and the same vocabulary used by VocabularyProcessor.
"""

import pytest

from harness import assert_same, requires_tf115, run_both
from tf1clip.contrib import learn

ORACLE_TESTED = ("tf.contrib.learn.preprocessing.CategoricalVocabulary",
                 "tf.contrib.learn.preprocessing.categorical_vocabulary.CategoricalVocabulary")

SNIPPET = r'''
import tensorflow as tf
pre = tf.contrib.learn.preprocessing
CV = pre.CategoricalVocabulary

def state(v):
    return {"len": len(v), "mapping": sorted(v._mapping.items(), key=lambda kv: kv[1]),
            "freq": sorted(v._freq.items(), key=lambda kv: str(kv[0])), "freq_type": type(v._freq).__name__,
            "reverse": [v.reverse(i) for i in range(len(v))] if v._support_reverse else None}

# the same vocabulary through its module path (TF 1.15's public alias of the module)
report("same_class", pre.categorical_vocabulary.CategoricalVocabulary is CV)

cv = CV()
report("ids", [cv.get(w) for w in ["x", "y", "x", 3, "z", 3, "<UNK>"]])
for w in ["x", "y", "x", "z", "x", 3, 3, "<UNK>"]:
    cv.add(w)
cv.add("y", count=4)
cv.add("new", 2)
report("counted", state(cv))
cv.freeze()
report("frozen", [cv.get("unseen"), cv.get("y"), len(cv)])
cv.add("unseen_too", 5)
report("frozen_add", state(cv))
cv.freeze(False)
report("unfrozen", [cv.get("unseen"), len(cv)])

# trim: ties (integers before strings, each sorted), min exclusive, max dropping stop words
t = CV(unknown_token="?")
for w, n in [("b", 3), ("a", 3), (2, 3), (1, 3), ("c", 5), ("d", 1), ("stop", 9), ("the", 12)]:
    t.add(w, n)
t.trim(min_frequency=1, max_frequency=9)
report("trimmed", state(t))
report("trimmed_ids", [t.get(w) for w in ["c", "a", 1, "stop", "d"]])
with case("add_after_trim"):
    t.add("brand_new")
t2 = CV()
for w, n in [("p", 4), ("q", 2), ("r", 2), ("s", 1)]:
    t2.add(w, n)
t2.trim(2)
report("trim_min_only", state(t2))
t2.trim(0)
report("trim_again", state(t2))
t3 = CV()
for w, n in [("p", 4), ("q", 2)]:
    t3.add(w, n)
t3.trim(5)
report("trim_everything", state(t3))

# no reverse mapping
nr = CV(unknown_token="UNK", support_reverse=False)
report("no_reverse", [nr.get("a"), nr.get("b"), len(nr), hasattr(nr, "_reverse_mapping")])
nr.add("a", 3)
nr.add("b", 1)
nr.trim(1)
report("no_reverse_trim", state(nr))
with case("reverse_unsupported"):
    nr.reverse(0)
with case("reverse_out_of_range"):
    CV().reverse(5)

# the vocabulary a VocabularyProcessor uses
v = CV()
v.get("hello")
v.freeze()
vp = pre.VocabularyProcessor(3, vocabulary=v)
report("processor", [list(r) for r in vp.fit_transform(["hello world", "world hello hello"])] + [len(v)])
'''


@requires_tf115
def test_categorical_vocabulary_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours)


def test_categorical_vocabulary_trim_orders_by_frequency_then_name():
  vocab = learn.preprocessing.CategoricalVocabulary()
  for word, count in [("b", 3), ("a", 3), ("c", 5), ("d", 1), ("stop", 9)]:
    vocab.add(word, count)
  vocab.trim(min_frequency=1, max_frequency=9)
  assert [vocab.reverse(i) for i in range(len(vocab))] == ["<UNK>", "c", "a", "b"]
  assert vocab.get("d") == 4  # not frozen: d comes back with a new id
  no_reverse = learn.preprocessing.CategoricalVocabulary(support_reverse=False)
  with pytest.raises(ValueError, match="support_reverse"):
    no_reverse.reverse(0)

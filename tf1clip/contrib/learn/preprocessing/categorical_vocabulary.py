"""`CategoricalVocabulary`: category -> integer id, with frequencies, as TF 1.15's contrib.learn had it.

Id 0 is the unknown token; new categories take the next free id until the vocabulary is frozen, after which
unseen ones map to 0. The instance attributes keep TF 1.15's names (`_mapping`, `_reverse_mapping`, `_freq`,
`_freeze`, `_unknown_token`, `_support_reverse`), so a VocabularyProcessor pickled by TF 1.x restores into this
class (tests/contrib/learn/test_text_oracle.py).
"""

import collections


def _alphabetical(item):
  """Sort key of a (category, count) pair: integers (and other non-strings) first, then strings, each in order."""
  category = item[0]
  return isinstance(category, str), category


class CategoricalVocabulary(object):
  """Maps categories (strings or integers) to ids 1..n, 0 standing for the unknown token.

  Args:
    unknown_token: the category of id 0.
    support_reverse: keep the id -> category list (needed by `reverse`).
  """

  def __init__(self, unknown_token="<UNK>", support_reverse=True):
    self._unknown_token = unknown_token
    self._support_reverse = support_reverse
    self._freeze = False
    self._freq = collections.defaultdict(int)
    self._start_numbering()

  def _start_numbering(self):
    """Only the unknown token, at id 0."""
    self._mapping = {self._unknown_token: 0}
    if self._support_reverse:
      self._reverse_mapping = [self._unknown_token]

  def _number(self, category):
    """Gives `category` the next id."""
    self._mapping[category] = len(self._mapping)
    if self._support_reverse:
      self._reverse_mapping.append(category)

  def __len__(self):
    """How many ids there are, the unknown token's included."""
    return len(self._mapping)

  def freeze(self, freeze=True):
    """Stops (or, with `freeze=False`, resumes) giving ids to new categories."""
    self._freeze = freeze

  def get(self, category):
    """The id of `category`; an unseen one gets a new id, or 0 once the vocabulary is frozen."""
    known = self._mapping.get(category)
    if known is not None:
      return known
    if self._freeze:
      return 0
    self._number(category)
    return self._mapping[category]

  def add(self, category, count=1):
    """Counts `count` more occurrences of `category` (giving it an id first, as `get` does).

    The unknown token, and unseen categories of a frozen vocabulary, are not counted.
    """
    if self.get(category) > 0:
      self._freq[category] += count

  def trim(self, min_frequency, max_frequency=-1):
    """Keeps the categories seen more than `min_frequency` times and renumbers them 1..n by decreasing count.

    Equal counts keep the order of `_alphabetical`. With `max_frequency` > 0, categories seen that often or more
    are dropped too (stop words). As in TF 1.15, the counts kept afterwards are those of the first n categories by
    count (dropped frequent ones included), in a plain dict.

    Args:
      min_frequency: categories counted this many times or fewer are dropped.
      max_frequency: see above; <= 0 keeps every frequent category.
    """
    by_count = sorted(sorted(self._freq.items(), key=_alphabetical), key=lambda item: item[1], reverse=True)
    self._start_numbering()
    kept = 0
    for category, count in by_count:
      if count <= min_frequency:
        break
      too_frequent = max_frequency > 0 and count >= max_frequency
      if not too_frequent:
        self._number(category)
        kept += 1
    self._freq = dict(by_count[:kept])

  def reverse(self, class_id):
    """The category whose id is `class_id`.

    Raises:
      ValueError: the vocabulary was made with support_reverse=False.
    """
    if self._support_reverse:
      return self._reverse_mapping[class_id]
    raise ValueError("This vocabulary wasn't initialized with support_reverse to support reverse() function.")

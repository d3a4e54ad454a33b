"""`CategoricalVocabulary`: category -> integer id, with frequencies, as TF 1.15's contrib.learn had it.

Place in the data flow (DESIGN.md): contrib.learn.preprocessing (our own code, TF 1.15's semantics and
attribute names, so a vocabulary pickled by TF 1.x restores into this class) <- compat <- cli.
Id 0 is the unknown token; a frozen vocabulary maps unseen categories to 0.
"""

import collections


class CategoricalVocabulary:
  """Maps categories (strings or integers) to ids 1..n, 0 for the unknown token.

  Args:
    unknown_token: the category of id 0.
    support_reverse: keep the id -> category list (needed by `reverse`).
  """

  def __init__(self, unknown_token="<UNK>", support_reverse=True):
    self._unknown_token = unknown_token
    self._mapping = {unknown_token: 0}
    self._support_reverse = support_reverse
    if support_reverse:
      self._reverse_mapping = [unknown_token]
    self._freq = collections.defaultdict(int)
    self._freeze = False

  def __len__(self):
    """The number of ids, the unknown token's included."""
    return len(self._mapping)

  def freeze(self, freeze=True):
    """Stops (or, with False, resumes) adding new categories."""
    self._freeze = freeze

  def get(self, category):
    """The id of `category`, adding it when the vocabulary is not frozen (0 if frozen and unseen)."""
    if category not in self._mapping:
      if self._freeze:
        return 0
      self._mapping[category] = len(self._mapping)
      if self._support_reverse:
        self._reverse_mapping.append(category)
    return self._mapping[category]

  def add(self, category, count=1):
    """Adds `count` to the frequency of `category` (adding the category when not frozen)."""
    category_id = self.get(category)
    if category_id <= 0:
      return
    self._freq[category] += count

  def trim(self, min_frequency, max_frequency=-1):
    """Keeps the categories seen more than `min_frequency` times, renumbered by decreasing frequency.

    Ties keep alphabetical order (integers before strings). Categories seen `max_frequency` times or
    more are dropped when `max_frequency` > 0 (stop words).

    Args:
      min_frequency: categories with a frequency <= this are dropped.
      max_frequency: see above.
    """
    self._freq = sorted(
        sorted(self._freq.items(), key=lambda x: (isinstance(x[0], str), x[0])),
        key=lambda x: x[1], reverse=True)
    self._mapping = {self._unknown_token: 0}
    if self._support_reverse:
      self._reverse_mapping = [self._unknown_token]
    idx = 1
    for category, count in self._freq:
      if 0 < max_frequency <= count:
        continue
      if count <= min_frequency:
        break
      self._mapping[category] = idx
      idx += 1
      if self._support_reverse:
        self._reverse_mapping.append(category)
    self._freq = dict(self._freq[:idx - 1])

  def reverse(self, class_id):
    """The category of id `class_id`.

    Raises:
      ValueError: the vocabulary was made with support_reverse=False.
    """
    if not self._support_reverse:
      raise ValueError("This vocabulary wasn't initialized with support_reverse to support "
                       "reverse() function.")
    return self._reverse_mapping[class_id]

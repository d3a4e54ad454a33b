"""`VocabularyProcessor`, `ByteProcessor` and the TF 1.x tokenizer, with the pickle files TF 1.x wrote.

Place in the data flow (DESIGN.md): contrib.learn.preprocessing (our own code, TF 1.15's semantics)
<- compat <- cli. Text-classification scripts of 2016-2018 (CNN / RNN classifiers) fit a
VocabularyProcessor, `save` it next to the checkpoint and `restore` it at prediction time.

The file format is the pickle of the processor object. A file TF 1.x wrote names TF 1.x's modules
(`tensorflow.contrib.learn.python.learn.preprocessing.text.VocabularyProcessor`,
`...categorical_vocabulary.CategoricalVocabulary`, `...text.tokenizer`); `restore` maps those names to
this package (`LegacyUnpickler`), so an old vocabulary file restores. Files `save` writes name
tf1clip's modules.
"""

import io
import pickle
import re

import numpy as np
import tensorflow as tf

from tf1clip.contrib.learn.preprocessing.categorical_vocabulary import CategoricalVocabulary

TOKENIZER_RE = re.compile(r"[A-Z]{2,}(?![a-z])|[A-Z][a-z]+(?=[A-Z])|[\'\w\-]+", re.UNICODE)

_TF1_PACKAGE = "tensorflow.contrib.learn.python.learn.preprocessing"


def tokenizer(iterator):
  """Splits each document of `iterator` into words with TF 1.x's regex (TOKENIZER_RE).

  Args:
    iterator: an iterable of strings.

  Yields:
    The list of tokens of each document.
  """
  for value in iterator:
    yield TOKENIZER_RE.findall(value)


class ByteProcessor:
  """Maps documents to their UTF-8 bytes, zero-padded / cut to `max_document_length`."""

  def __init__(self, max_document_length):
    self.max_document_length = max_document_length

  def fit(self, x):
    """Does nothing (bytes need no vocabulary)."""
    del x

  def fit_transform(self, x):
    """`transform(x)`."""
    return self.transform(x)

  def reverse(self, x):
    """Yields the document of each byte array (trailing zeros removed; '' if not UTF-8)."""
    for data in x:
      document = np.trim_zeros(data.astype(np.int8), trim="b").tobytes()
      try:
        yield document.decode("utf-8")
      except UnicodeDecodeError:
        yield ""

  def transform(self, x):
    """Yields a uint8 array [max_document_length] per document."""
    for document in x:
      if isinstance(document, str):
        document = document.encode("utf-8")
      buff = np.frombuffer(memoryview(document)[:self.max_document_length], dtype=np.uint8)
      yield np.pad(buff, (0, self.max_document_length - len(buff)), "constant")


class VocabularyProcessor:
  """Maps documents to fixed-length arrays of word ids (TF 1.x's contrib.learn preprocessing).

  Args:
    max_document_length: length of the id arrays (longer documents are cut, shorter padded with 0).
    min_frequency: words seen this many times or fewer in `fit` map to 0 (unknown).
    vocabulary: a CategoricalVocabulary to use (default: a new one).
    tokenizer_fn: a function iterable of documents -> iterable of token lists (default: `tokenizer`).
  """

  def __init__(self, max_document_length, min_frequency=0, vocabulary=None, tokenizer_fn=None):
    self.max_document_length = max_document_length
    self.min_frequency = min_frequency
    self.vocabulary_ = vocabulary if vocabulary else CategoricalVocabulary()
    self._tokenizer = tokenizer_fn if tokenizer_fn else tokenizer

  def fit(self, raw_documents, unused_y=None):
    """Learns the vocabulary of `raw_documents` (an iterable of strings), then freezes it.

    Returns:
      self.
    """
    del unused_y
    for tokens in self._tokenizer(raw_documents):
      for token in tokens:
        self.vocabulary_.add(token)
    if self.min_frequency > 0:
      self.vocabulary_.trim(self.min_frequency)
    self.vocabulary_.freeze()
    return self

  def fit_transform(self, raw_documents, unused_y=None):
    """`fit(raw_documents)` then `transform(raw_documents)` (pass a list, not a one-shot iterator)."""
    del unused_y
    self.fit(raw_documents)
    return self.transform(raw_documents)

  def transform(self, raw_documents):
    """Yields an int64 array [max_document_length] of word ids per document (0: unknown / padding)."""
    for tokens in self._tokenizer(raw_documents):
      word_ids = np.zeros(self.max_document_length, np.int64)
      for idx, token in enumerate(tokens):
        if idx >= self.max_document_length:
          break
        word_ids[idx] = self.vocabulary_.get(token)
      yield word_ids

  def reverse(self, documents):
    """Yields the space-joined words of each id array (0 becomes the unknown token, "<UNK>")."""
    for item in documents:
      yield " ".join(self.vocabulary_.reverse(class_id) for class_id in item)

  def save(self, filename):
    """Pickles this processor to `filename` (any tf.io.gfile path)."""
    with tf.io.gfile.GFile(filename, "wb") as f:
      f.write(pickle.dumps(self))

  @classmethod
  def restore(cls, filename):
    """The processor pickled in `filename`, by tf1clip or by TF 1.x (see LegacyUnpickler).

    Raises:
      pickle.UnpicklingError: the file is not a pickle of a processor.
      TypeError: the file holds another kind of object.
    """
    with tf.io.gfile.GFile(filename, "rb") as f:
      restored = LegacyUnpickler(io.BytesIO(f.read())).load()
    if not isinstance(restored, (VocabularyProcessor, ByteProcessor)):
      raise TypeError("%s holds a %s, not a VocabularyProcessor" % (filename, type(restored).__name__))
    return restored


class LegacyUnpickler(pickle.Unpickler):
  """Unpickles files TF 1.x wrote: its contrib.learn preprocessing names resolve to this package.

  Python 2 pickles (TF 1.x on Python 2.7) load too: their byte strings decode as latin-1 and
  Python 2 module names (`__builtin__`, `copy_reg`) map to Python 3's.
  """

  _MODULES = {
      _TF1_PACKAGE + ".text": "tf1clip.contrib.learn.preprocessing.text",
      _TF1_PACKAGE + ".categorical_vocabulary":
          "tf1clip.contrib.learn.preprocessing.categorical_vocabulary",
      _TF1_PACKAGE: "tf1clip.contrib.learn.preprocessing",
      "tensorflow.contrib.learn.preprocessing": "tf1clip.contrib.learn.preprocessing",
  }

  def __init__(self, file):
    super().__init__(file, fix_imports=True, encoding="latin1")

  def find_class(self, module, name):
    return super().find_class(self._MODULES.get(module, module), name)

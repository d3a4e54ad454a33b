"""`tf.contrib.learn.preprocessing`: VocabularyProcessor, CategoricalVocabulary, CategoricalProcessor, and the rest.

Place in the data flow (DESIGN.md): contrib.learn (our own code, TF 1.15's semantics) <- compat <- cli.
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.learn.preprocessing import categorical
from tf1clip.contrib.learn.preprocessing import categorical_vocabulary
from tf1clip.contrib.learn.preprocessing import text
from tf1clip.contrib.learn.preprocessing.categorical import CategoricalProcessor
from tf1clip.contrib.learn.preprocessing.categorical_vocabulary import CategoricalVocabulary
from tf1clip.contrib.learn.preprocessing.text import ByteProcessor
from tf1clip.contrib.learn.preprocessing.text import VocabularyProcessor
from tf1clip.contrib.learn.preprocessing.text import tokenizer

__getattr__ = _catalog.module_getattr(__name__)

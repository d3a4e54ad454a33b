"""`python -m tf1clip.contrib --write | --check`: the catalog's index (catalog.tsv), collected from the packages."""

import os
import sys

# The process `tf1clip run` gives a script: TF1 layers and RNN cells from tf-keras (set before TensorFlow is imported).
os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")

from tf1clip.contrib import catalog as _catalog  # pylint: disable=wrong-import-position

sys.exit(_catalog.main())

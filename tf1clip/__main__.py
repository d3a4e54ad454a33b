"""`python -m tf1clip ...` is the same as the `tf1clip` console script."""

import sys

from tf1clip.cli import main

if __name__ == "__main__":
  sys.exit(main())

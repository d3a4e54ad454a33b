"""Runs one test file with pytest: the `main` of every py_test in BUILD (`bazel test //:test_clipping_dense`)."""

import sys

import pytest

if __name__ == "__main__":
  sys.exit(pytest.main(["-q", "-p", "no:cacheprovider"] + sys.argv[1:]))

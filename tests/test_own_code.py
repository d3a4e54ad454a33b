"""Our own code (DESIGN.md; issue #34): no file in tf1clip/ is more than 30% verbatim TF 1.15 source.

The measure is the project's copy meter (../shared/tools/copy_meter.py beside the checkout, or $COPY_METER; `make
copy-meter` runs the same): a line counts as copied when it lies in a run of 5 consecutive code lines found in the
same order in TF 1.15's own Python source, read from the oracle venv. `STILL_OVER` lists the files not yet rewritten
with the share they had when listed: each may only go down, leaves the list once it is at or under the limit, and
no other file may cross the limit.
"""

import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIMIT = 30.0
METER = os.environ.get("COPY_METER") or os.path.join(os.path.dirname(ROOT), "shared", "tools", "copy_meter.py")
TF115_SITE = os.path.join(ROOT, ".venv-tf115", "lib", "python3.7", "site-packages")

# path -> its share (percent) when it was listed. Empty once every file is our own code.
STILL_OVER = {
}

_LINE = re.compile(r"^\s*(\d+(?:\.\d+)?)%\s+(\d+)/(\d+)\s+(\S+)\s*$")


@pytest.fixture(scope="module")
def shares():
  if not os.path.isfile(METER):
    pytest.skip("the copy meter is not beside this checkout (%s; set COPY_METER to run it)" % METER)
  if not os.path.isdir(os.path.join(TF115_SITE, "tensorflow_core")):
    pytest.skip("no TF 1.15 oracle venv (.venv-tf115: `make oracle`), whose source the meter compares with")
  done = subprocess.run([sys.executable, METER, TF115_SITE, ROOT], capture_output=True, text=True, timeout=600)
  found = {}
  for line in done.stdout.splitlines():
    match = _LINE.match(line)
    if match:
      found[match.group(4)] = float(match.group(1))
  assert found, "the copy meter printed no per-file line:\n" + done.stdout[-2000:] + done.stderr[-2000:]
  return found


def test_no_other_file_is_over_the_limit(shares):
  over = {path: share for path, share in shares.items()
          if path.startswith("tf1clip/") and share > LIMIT and path not in STILL_OVER}
  assert not over, "files over %d%% verbatim TF 1.15 source (rewrite them as our own code): %s" % (LIMIT, over)


def test_listed_files_only_go_down_and_leave_the_list_when_done(shares):
  grown = {path: (listed, shares[path]) for path, listed in STILL_OVER.items()
           if path in shares and shares[path] > listed + 0.05}
  assert not grown, "listed files copied more than when listed (listed, now): %s" % grown
  done = sorted(path for path in STILL_OVER if shares.get(path, 0.0) <= LIMIT)
  assert not done, "at or under the limit now (or gone): remove from STILL_OVER: %s" % done

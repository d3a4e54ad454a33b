"""The TF 1.15 API inventory and its consumers: the file TF 1.15 writes, the catalog, signatures, the coverage page.

tf1clip/tf115/api.tsv is the list of what `tf1clip run` owes (DESIGN.md, "its API as the inventory"). These
tests hold the catalog to it: every TF 1.15 contrib name is served or raises a clear ContribNotProvidedError;
a served class or function takes TF 1.15's parameters (or only adds ones with defaults) unless
the serving package's SIGNATURE_DIFFERENCES (catalog.tsv's difference column) says why not; docs/api-coverage.md is what tools.api_coverage prints now.
"""

import json
import os
import re
import subprocess
import sys

import pytest

from harness import REPO, oracle_python, requires_tf115
from tf1clip import tf115
from tf1clip.contrib import catalog
from tf1clip.tools import api_coverage



@pytest.fixture(scope="module")
def survey():
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
  proc = subprocess.run([sys.executable, "-m", "tf1clip.tools.api_coverage", "--json"], capture_output=True,
                        text=True, env=env, cwd=REPO, timeout=600)
  assert proc.returncode == 0, proc.stderr[-3000:]
  return json.loads(proc.stdout)


@requires_tf115
def test_inventory_file_is_what_tf115_itself_lists():
  proc = subprocess.run([oracle_python(), os.path.join(REPO, "tf1clip", "tf115", "generate.py")],
                        capture_output=True, text=True, timeout=600,
                        env={k: v for k, v in os.environ.items() if k != "TF2_BEHAVIOR"})
  assert proc.returncode == 0, proc.stderr[-3000:]
  with open(tf115.API_FILE, encoding="utf-8") as f:
    committed = f.read()
  assert proc.stdout == committed, "tf1clip/tf115/api.tsv is stale: run `make inventory`"


def test_inventory_has_every_contrib_module_tf115_had():
  groups = tf115.by_group("tf.contrib.")
  assert set(g.split(".")[2] for g in groups) <= catalog.TF115_SUBMODULES
  assert tf115.kind_of("tf.contrib.layers.flatten") == "function"
  assert tf115.entries()["tf.contrib.layers.flatten"].signature == "(inputs, outputs_collections=None, scope=None)"
  assert len(groups) >= 70 and sum(len(v) for v in groups.values()) > 1400


def test_oracle_tested_declarations_name_tf115_names_their_file_runs():
  for name, files in api_coverage.oracle_tested().items():
    assert tf115.has(name), "%s declares %s, which TF 1.15 did not have" % (files, name)
    leaf = name.rsplit(".", 1)[-1]
    for f in files:
      with open(os.path.join(api_coverage.TESTS, f), encoding="utf-8") as handle:
        text = handle.read()
      code = text.split("ORACLE_TESTED", 1)[0] + text.split("ORACLE_TESTED", 1)[1].split(")", 1)[1]
      assert re.search(r"\b%s\b" % re.escape(leaf), code), "%s declares %s but never uses it" % (f, name)


def test_every_tf115_contrib_name_is_served_or_a_clear_error(survey):
  missing = [(r["name"], r["error"]) for r in survey if r["status"] == "missing" and r["group"].startswith("tf.contrib")]
  assert not missing, "%d TF 1.15 contrib names neither served nor a clear error, e.g. %s" % (
      len(missing), missing[:10])


def test_served_callables_take_tf115_parameters_unless_documented(survey):
  # tf.contrib is what tf1clip chooses to serve; tf.* outside it is TensorFlow 2.21's own tf.compat.v1
  # object, whose differences docs/api-coverage.md lists.
  differs = {r["name"]: (r["tf115_signature"], r["served_signature"]) for r in survey
             if r["signature_compatible"] is False and r["group"].startswith("tf.contrib")}
  undocumented = {n: s for n, s in differs.items() if not catalog.signature_difference(n)}
  assert not undocumented, "served with another signature than TF 1.15's, and no reason given: %s" % (
      "\n".join("%s\n  TF 1.15: %s\n  served:  %s" % (n, a, b) for n, (a, b) in sorted(undocumented.items())))
  module_wide = tuple(k for k in catalog.SIGNATURE_DIFFERENCES if k.endswith("."))
  stale = sorted(name for name, record in catalog.index().items()
                 if record.difference and not name.startswith(module_wide) and name not in differs)
  assert not stale, "a SIGNATURE_DIFFERENCES declaration covers names whose signature is compatible now: %s" % stale


def test_coverage_page_is_current(survey):
  with open(os.path.join(REPO, "docs", "api-coverage.md"), encoding="utf-8") as f:
    page = f.read()
  expected = api_coverage.table(survey, api_coverage.oracle_tested())
  assert expected in page, "docs/api-coverage.md is stale: python -m tf1clip.tools.api_coverage --write docs/api-coverage.md"


def test_a_module_is_judged_with_a_name_directly_in_it():
  records = [{"name": "tf.contrib.a", "kind": "module", "status": "served"},
             {"name": "tf.contrib.a.b", "kind": "module", "status": "served"},
             {"name": "tf.contrib.c", "kind": "module", "status": "clear error"},
             {"name": "tf.contrib.d", "kind": "module", "status": "served"}]
  tested = {"tf.contrib.a.b.f", "tf.contrib.c.g", "tf.contrib.d"}
  assert api_coverage.judged(records, tested) == tested | {"tf.contrib.a.b"}


def test_a_name_is_judged_with_the_tested_name_tf115_and_tf1clip_both_serve_as_that_object():
  records = [{"name": "tf.contrib.m", "kind": "module", "status": "served", "same_object": None},
             {"name": "tf.contrib.m.f", "kind": "function", "status": "served", "same_object": "tf.contrib.m.f"},
             {"name": "tf.contrib.s", "kind": "module", "status": "served", "same_object": None},
             {"name": "tf.contrib.s.m", "kind": "module", "status": "served", "same_object": None},
             {"name": "tf.contrib.s.m.f", "kind": "function", "status": "served", "same_object": "tf.contrib.m.f"},
             # TF 1.15 served it as the same object too, tf1clip serves another one: not judged
             {"name": "tf.contrib.t.f", "kind": "function", "status": "served", "same_object": "tf.contrib.t.f"}]
  assert api_coverage.judged(records, {"tf.contrib.m.f"}) == {
      "tf.contrib.m.f", "tf.contrib.m", "tf.contrib.s.m.f", "tf.contrib.s.m"}


def test_same_object_needs_the_very_same_served_object():
  f, g = object(), object()
  served = {"tf.contrib.a.f": f, "tf.contrib.b.f": f, "tf.contrib.c.f": g}
  group_of = dict.fromkeys(served, "tf.contrib.a.f")
  assert api_coverage.same_object("tf.contrib.b.f", served, group_of) == "tf.contrib.a.f"
  assert api_coverage.same_object("tf.contrib.c.f", served, group_of) == "tf.contrib.c.f"
  assert api_coverage.same_object("tf.contrib.d.f", served, group_of) is None


def test_the_inventory_records_which_names_tf115_served_as_one_object():
  groups = tf115.same_object_groups()
  assert {"tf.contrib.metrics.streaming_auc", "tf.contrib.slim.metrics.streaming_auc"} <= set(
      groups["tf.contrib.metrics.streaming_auc"])
  assert tf115.entries()["tf.contrib.slim.metrics.streaming_auc"].same_as == "tf.contrib.metrics.streaming_auc"
  assert not any(tf115.kind_of(n) == "constant" for g in groups.values() for n in g)

"""Tools that read, rewrite or launch legacy TF1 code; the legacy surface itself lives in tf1clip.compat.

- `tf1clip check PATH...`: reads a project (never runs it) and reports what `tf1clip run` will do, per use
  site, with the first blocker of each entry script (tools.check per file, tools.check_project for the
  project, tools.api_index for TensorFlow's API read from its sources, tools.hazards for NumPy / TF 1.x
  removals). Imports no TensorFlow.
- `tf1clip upgrade SRC --out DST`: rewrites scripts to run under plain `python` (tools.upgrade, libcst),
  and with --check-run compares seeded runs of original and copy (tools.upgrade_cli, tools.seeded_run).
- `tf1clip cluster`: starts a ps/worker cluster of one legacy script (tools.cluster).
- `tf1clip doctor`: what this environment gives the runner (tools.doctor).

Data flow (DESIGN.md): compat (the legacy surface) + contrib.catalog <- **tools** <- cli.
"""

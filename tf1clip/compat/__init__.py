"""Legacy TF1 code on TensorFlow 2.21: the TF1 facade, the script runner and the static checker.

- `import tf1clip.compat.v1 as tf`: the TF1 API (tf.compat.v1 in graph mode, tf.contrib, tf-keras layers
  and RNN cells) for a script run with plain `python` (compat.v1).
- `tf1clip run script.py`: runs a script unchanged; its `import tensorflow` gets that same API, while
  libraries keep the real TensorFlow 2 (compat.runner, compat.importer).
- `tf1clip check PATH...`: reads a project (never runs it) and reports what `tf1clip run` will do, per use
  site, with the first blocker of each entry script (compat.check per file, compat.check_project for the
  project, compat.api_index for TensorFlow's API read from its sources, compat.hazards for NumPy / TF 1.x
  removals). Imports no TensorFlow.
- `tf1clip upgrade SRC --out DST`: rewrites scripts to run under plain `python` (compat.upgrade, libcst),
  and with --check-run compares seeded runs of original and copy (compat.upgrade_cli, compat.seeded_run).
- compat.surface: the table all of them share.

Importing this package imports nothing heavy; only compat.v1 imports TensorFlow (and switches the process
to graph mode), so never import it in a process that needs eager execution.

Data flow: clipping <- transforms <- optimizer <- accumulation <- contrib <- compat <- cli.
"""

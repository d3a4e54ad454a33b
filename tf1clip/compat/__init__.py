"""Legacy TF1 code on TensorFlow 2.21: the TF1 facade, the script runner and the static checker.

- `import tf1clip.compat.v1 as tf`: the TF1 API (tf.compat.v1 in graph mode, tf.contrib, tf-keras layers
  and RNN cells) for a script run with plain `python` (compat.v1).
- `tf1clip run script.py`: runs a script unchanged; its `import tensorflow` gets that same API, while
  libraries keep the real TensorFlow 2 (compat.runner, compat.importer).
- `tf1clip check script.py`: reads a script and reports which TF1 symbols run, and how (compat.check).
- compat.surface: the table all three share.

Importing this package imports nothing heavy; only compat.v1 imports TensorFlow (and switches the process
to graph mode), so never import it in a process that needs eager execution.

Data flow: clipping <- transforms <- optimizer <- accumulation <- contrib <- compat <- cli.
"""

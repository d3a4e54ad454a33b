"""The legacy surface: what a TF1 script sees on TensorFlow 2.21 (the tools that read or launch it are tf1clip.tools).

- `import tf1clip.compat.v1 as tf`: the TF1 API (tf.compat.v1 in graph mode, tf.contrib, tf-keras layers
  and RNN cells) for a script run with plain `python` (compat.v1).
- `tf1clip run script.py`: runs a script unchanged; its `import tensorflow` gets that same API, while
  libraries keep the real TensorFlow 2 (compat.runner, compat.importer).
- compat.numpy_legacy / compat.scipy_legacy: the NumPy 1.x and SciPy names served under the runner. (The patches
  that make maintained legacy libraries import are tf1clip.shims, below both contrib and compat.)
- compat.surface: where each TF1 name comes from, the table the facade, the importer and tools.check share.

Importing this package imports nothing heavy; only compat.v1 imports TensorFlow (and switches the process
to graph mode), so never import it in a process that needs eager execution.

Data flow: clipping <- transforms <- optimizer <- accumulation <- shims <- contrib <- compat <- tools <- cli.
"""

"""`tf.contrib.factorization`: the KMeans graph builder and its constants, TensorFlow's own (TF 2.21 still has
TF 1.15's `clustering_ops`), and the KMeansClustering Estimator (factorization_kmeans: tensorflow-estimator's,
with TF 1.15's constructor and transform); GMM, GmmAlgorithm and gmm (factorization_gmm) and WALSModel and
WALSMatrixFactorization (factorization_wals) are TF 1.15's code.

Place in the data flow (DESIGN.md): TensorFlow's clustering_ops <- **contrib.factorization** <- compat <- cli.
"""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.missing_attribute_hook("tf.contrib.factorization",
                                              lazy=_catalog.served("tf.contrib.factorization"))

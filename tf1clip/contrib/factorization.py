"""`tf.contrib.factorization`: the KMeans graph builder and its constants, TensorFlow's own (TF 2.21 still has
TF 1.15's `clustering_ops`), and the KMeansClustering Estimator (factorization_kmeans: tensorflow-estimator's,
with TF 1.15's constructor and transform); WALSMatrixFactorization, GMM and the WALS/GMM graph builders are not
provided (ContribNotProvidedError names the replacement).

Place in the data flow (DESIGN.md): TensorFlow's clustering_ops <- **contrib.factorization** <- compat <- cli.
"""

from tf1clip.contrib import catalog

__getattr__ = catalog.missing_attribute_hook("tf.contrib.factorization",
                                             lazy=catalog.served("tf.contrib.factorization"))

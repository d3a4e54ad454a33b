"""`tf.contrib.factorization`: the KMeans graph builder and its constants, TensorFlow's own (TF 2.21 still has
TF 1.15's `clustering_ops`), and the KMeansClustering Estimator (factorization_kmeans: tensorflow-estimator's,
with TF 1.15's constructor and transform); GMM, GmmAlgorithm and gmm (factorization_gmm) and WALSModel and
WALSMatrixFactorization (factorization_wals) are TF 1.15's code.
"""

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tensorflow.python.ops.clustering_ops import (
    COSINE_DISTANCE, KMeans, KMEANS_PLUS_PLUS_INIT, RANDOM_INIT, SQUARED_EUCLIDEAN_DISTANCE)
from tf1clip.contrib.factorization.python.ops.gmm import GMM, gmm, GmmAlgorithm
from tf1clip.contrib.factorization.python.ops.kmeans import KMeansClustering
from tf1clip.contrib.factorization.python.ops.wals import WALSMatrixFactorization, WALSModel

# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = 'no maintained replacement (tf.compat.v1 has none either)'

__getattr__ = _catalog.module_getattr(__name__)

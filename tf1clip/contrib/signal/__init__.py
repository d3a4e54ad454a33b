"""`tf.contrib.signal`: `tf.signal`'s functions, which TF 1.15's contrib.signal already re-exported."""

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tensorflow.signal import (
    frame, hamming_window, hann_window, inverse_stft, inverse_stft_window_fn, linear_to_mel_weight_matrix,
    mfccs_from_log_mel_spectrograms, overlap_and_add, stft)

# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = 'tf.signal'

__getattr__ = _catalog.module_getattr(__name__)

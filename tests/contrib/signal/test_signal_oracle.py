"""contrib.signal against TF 1.15: framing, windows, STFT round trip, mel matrix and MFCCs."""

from harness import assert_same, requires_tf115, run_both

SIGNAL = ("frame", "hamming_window", "hann_window", "inverse_stft", "inverse_stft_window_fn",
          "linear_to_mel_weight_matrix", "mfccs_from_log_mel_spectrograms", "overlap_and_add", "stft")
ORACLE_TESTED = tuple("tf.contrib.signal." + n for n in SIGNAL)

SNIPPET = r'''
import numpy as np
import tensorflow as tf
c = tf.contrib
rng = np.random.RandomState(0)
f32 = lambda a: tf.constant(np.asarray(a, np.float32))
out = {}
# signal
S = c.signal
wave = f32(np.sin(np.arange(400) * 0.3) + 0.1 * rng.randn(400))
spec = S.stft(wave, 64, 16, window_fn=S.hann_window)
out["signal"] = {
    "frame": S.frame(tf.range(10), 4, 3, pad_end=True),
    "hamming": S.hamming_window(8), "hann": S.hann_window(8, periodic=False),
    "stft": tf.abs(spec), "roundtrip": S.inverse_stft(spec, 64, 16, window_fn=S.inverse_stft_window_fn(16)),
    "overlap_and_add": S.overlap_and_add(tf.reshape(tf.range(12.0), [3, 4]), 2),
    "mel": S.linear_to_mel_weight_matrix(8, 33, 8000.0, 100.0, 3800.0),
    "mfccs": S.mfccs_from_log_mel_spectrograms(tf.math.log(tf.matmul(tf.abs(spec), S.linear_to_mel_weight_matrix(
        8, 33, 8000.0, 100.0, 3800.0)) + 1e-6)),
}
with tf.Session() as sess:
    for key, value in sorted(out.items()):
        report(key, sess.run(value))
'''


@requires_tf115
def test_signal_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5)

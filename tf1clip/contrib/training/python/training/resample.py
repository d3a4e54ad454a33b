"""`tf.contrib.training.resample_at_rate` and `weighted_resample`: Poisson resampling of a batch (TF 1.15's code).

`resample_at_rate(inputs, rates)` repeats each row i of every input Poisson(rates[i]) times;
`weighted_resample(inputs, weights, overall_rate)` does so at rates weights * overall_rate / mean(weights),
the mean a moving average (a local variable `estimate_mean/estimated_mean`), and also returns the rates.
The same seeds give TF 1.15's draws (the same random_poisson kernel).
"""

import tensorflow as tf
from tensorflow.python.training import moving_averages  # zero-debiased, as TF 1.15 called it

V1 = tf.compat.v1


def _repeat_range(counts, name=None):
  """[0] * counts[0] + [1] * counts[1] + ... as int32 (a while loop over a TensorArray, as TF 1.15)."""
  with V1.name_scope(name, "repeat_range", [counts]) as scope:
    counts = tf.convert_to_tensor(counts, name="counts")
    size = tf.shape(counts)[0]

    def cond(unused_output, i):
      return i < size

    def body(output, i):
      return output.write(i, tf.fill(counts[i:i + 1], i)), i + 1

    init = tf.TensorArray(dtype=tf.int32, size=size, infer_shape=False)
    output_array, num_writes = V1.while_loop(cond, body, loop_vars=[init, 0])
    return V1.cond(num_writes > 0, output_array.concat,
                   lambda: tf.zeros(shape=[0], dtype=tf.int32), name=scope)


def resample_at_rate(inputs, rates, scope=None, seed=None, back_prop=False):
  """Each row i of every tensor in `inputs` repeated Poisson(rates[i]) times."""
  with V1.name_scope(scope, default_name="resample_at_rate", values=list(inputs) + [rates]):
    rates = tf.convert_to_tensor(rates, name="rates")
    sample_counts = tf.cast(V1.random_poisson(rates, (), rates.dtype, seed=seed), tf.int32)
    sample_indices = _repeat_range(sample_counts)
    if not back_prop:
      sample_indices = tf.stop_gradient(sample_indices)
    return [tf.gather(x, sample_indices) for x in inputs]


def weighted_resample(inputs, weights, overall_rate, scope=None, mean_decay=0.999, seed=None):
  """(resampled inputs, their rates) at rates weights * overall_rate / (moving) mean weight."""
  with V1.name_scope(scope, "weighted_resample", inputs) as opscope:
    with V1.variable_scope(scope, "estimate_mean", inputs):
      estimated_mean = V1.get_local_variable(
          "estimated_mean", initializer=tf.cast(0, weights.dtype), dtype=weights.dtype)
      batch_mean = tf.reduce_mean(weights)
      mean = moving_averages.assign_moving_average(estimated_mean, batch_mean, mean_decay)
    rates = weights * overall_rate / mean
    results = resample_at_rate([rates] + inputs, rates, scope=opscope, seed=seed, back_prop=False)
    return results[1:], results[0]

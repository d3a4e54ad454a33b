"""`tf.contrib.learn.datasets.synthetic`: TF 1.15's toy two-class datasets, concentric circles and spirals.

Place in the data flow (DESIGN.md): NumPy <- **contrib.learn.datasets.synthetic** <- contrib.learn.datasets.

TF 1.15's code: a given `seed` seeds NumPy's global generator (as TF 1.15 did, so the same seed gives TF 1.15's
points, noise and shuffle); the classes are stacked, `n_samples % n_classes` extra points of class 0 are added on
the unit circle (or spiral), then everything is shuffled and `noise` (a standard deviation) is added.
"""

import numpy as np

from tf1clip.contrib.learn.datasets.base import Dataset


def circles(n_samples=100, noise=None, seed=None, factor=0.8, n_classes=2, *args, **kwargs):  # pylint: disable=keyword-arg-before-vararg
  """Concentric circles, one per class, each `factor` times the radius of the previous one."""
  del args, kwargs  # TF 1.15 accepted and ignored them
  if seed is not None:
    np.random.seed(seed)
  linspace = np.linspace(0, 2 * np.pi, n_samples // n_classes)
  circ_x, circ_y = np.empty(0, dtype=np.int32), np.empty(0, dtype=np.int32)
  base_cos, base_sin = np.cos(linspace), np.sin(linspace)
  y = np.empty(0, dtype=np.int32)
  for label in range(n_classes):
    circ_x = np.append(circ_x, base_cos)
    circ_y = np.append(circ_y, base_sin)
    base_cos *= factor
    base_sin *= factor
    y = np.append(y, label * np.ones(n_samples // n_classes, dtype=np.int32))
  extras = n_samples % n_classes
  circ_x = np.append(circ_x, np.cos(np.random.rand(extras) * 2 * np.pi))
  circ_y = np.append(circ_y, np.sin(np.random.rand(extras) * 2 * np.pi))
  y = np.append(y, np.zeros(extras, dtype=np.int32))
  return _shuffled(np.vstack((circ_x, circ_y)).T, np.hstack(y), n_samples, noise)


def spirals(n_samples=100, noise=None, seed=None, mode="archimedes", n_loops=2, *args, **kwargs):  # pylint: disable=keyword-arg-before-vararg
  """Two interleaved spirals ('archimedes', 'bernoulli' or 'fermat') of `n_loops` turns.

  Raises:
    ValueError: an unknown mode.
  """
  modes = {"archimedes": _archimedes_spiral, "bernoulli": _bernoulli_spiral, "fermat": _fermat_spiral}
  if mode is None or mode not in modes:
    raise ValueError("Cannot generate spiral with mode %s" % mode)
  if seed is not None:
    np.random.seed(seed)
  linspace = np.linspace(0, 2 * n_loops * np.pi, n_samples // 2)
  spir_x, spir_y = np.empty(0, dtype=np.int32), np.empty(0, dtype=np.int32)
  y = np.empty(0, dtype=np.int32)
  for label in range(2):
    base_cos, base_sin = modes[mode](linspace, label * np.pi, *args, **kwargs)
    spir_x = np.append(spir_x, base_cos)
    spir_y = np.append(spir_y, base_sin)
    y = np.append(y, label * np.ones(n_samples // 2, dtype=np.int32))
  extras = n_samples % 2
  if extras > 0:
    x_extra, y_extra = modes[mode](np.random.rand(extras) * 2 * np.pi, *args, **kwargs)
    spir_x = np.append(spir_x, x_extra)
    spir_y = np.append(spir_y, y_extra)
    y = np.append(y, np.zeros(extras, dtype=np.int32))
  return _shuffled(np.vstack((spir_x, spir_y)).T, np.hstack(y), n_samples, noise)


def _shuffled(x, y, n_samples, noise):
  indices = np.random.permutation(range(n_samples))
  if noise is not None:
    x += np.random.normal(scale=noise, size=x.shape)
  return Dataset(data=x[indices], target=y[indices])


def _normalized(x, y):
  return x / np.max(np.abs(x)), y / np.max(np.abs(y))


def _archimedes_spiral(theta, theta_offset=0.0, *args, **kwargs):  # pylint: disable=keyword-arg-before-vararg,unused-argument
  return _normalized(theta * np.cos(theta + theta_offset), theta * np.sin(theta + theta_offset))


def _bernoulli_spiral(theta, theta_offset=0.0, *args, **kwargs):  # pylint: disable=keyword-arg-before-vararg,unused-argument
  exp_scale = kwargs.pop("exp_scale", 0.1)
  radius = np.exp(exp_scale * theta)
  return _normalized(radius * np.cos(theta + theta_offset), radius * np.sin(theta + theta_offset))


def _fermat_spiral(theta, theta_offset=0.0, *args, **kwargs):  # pylint: disable=keyword-arg-before-vararg,unused-argument
  return _normalized(np.sqrt(theta) * np.cos(theta + theta_offset), np.sqrt(theta) * np.sin(theta + theta_offset))

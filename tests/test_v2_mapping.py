"""TF1 -> Keras optimizer mappings: parity where the table says they match, and the differences."""

import os

import keras
import numpy as np
import pytest
import tensorflow as tf
import tf_keras

import tf1clip
import tf1clip.v2
from tf1clip.v2 import mapping

MAPPED = ("sgd", "momentum", "nesterov", "adam", "rmsprop", "rmsprop_centered", "adagrad",
          "ftrl", "adadelta")
DOCS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs",
                    "migration.md")


@pytest.mark.parametrize("name", MAPPED)
@pytest.mark.parametrize("clip_norm,micro_batches", [(None, 1), (0.3, 1), (None, 3), (0.3, 3)],
                         ids=["plain", "clipped", "accumulated", "clipped_accumulated"])
def test_mapped_keras_optimizer_ends_with_the_tf1_weights(name, clip_norm, micro_batches):
  report = tf1clip.v2.check_parity(name, steps=4, clip_norm=clip_norm,
                                   micro_batches=micro_batches, model="mlp")
  assert report.passed, report.format()


@pytest.mark.parametrize("name", ["adam", "sgd", "adagrad"])
def test_non_lazy_mappings_agree_on_sparse_embedding_gradients(name):
  report = tf1clip.v2.check_parity(name, steps=5, model="embedding", clip_norm=0.5)
  assert report.passed, report.format()


def test_adam_parity_on_the_lstm_classifier_with_tf_keras():
  report = tf1clip.v2.check_parity("adam", steps=5, model="lstm", keras="tf_keras",
                                   clip_norm=1.0, micro_batches=2)
  assert report.passed, report.format()


def densify(grads_and_vars):
  return [(tf.convert_to_tensor(g) if isinstance(g, tf.IndexedSlices) else g, v)
          for g, v in grads_and_vars]


@pytest.mark.parametrize("name", ["momentum", "rmsprop", "ftrl", "adadelta"])
def test_lazy_tf1_sparse_updates_are_the_only_embedding_difference(name):
  # TF1 updates only the rows an IndexedSlices touches; Keras updates every row.
  lazy = tf1clip.v2.check_parity(name, steps=5, model="embedding")
  assert lazy.max_difference > 1e-5
  assert lazy.differences[:, 0].max() == lazy.max_difference  # the embedding, not w or b
  # Hand TF1 the dense gradient instead, and the two agree.
  dense = tf1clip.v2.check_parity(name, steps=5, model="embedding", transforms=[densify])
  assert dense.passed, dense.format()


def test_keras_default_adam_epsilon_is_not_tf1s():
  # On gradients near epsilon, 1e-7 against 1e-8 shows; keras_optimizer_like sets 1e-8.
  tiny = tf1clip.v2.parity_models.mlp()
  scaled = tiny.__class__(
      tiny.name, tiny.initial_values, tiny.batch_spec,
      lambda p, b: 1e-6 * tiny.loss_fn(p, b), tiny.make_batch)
  assert tf1clip.v2.check_parity("adam", steps=3, model=scaled).passed
  default_eps = tf1clip.v2.check_parity("adam", steps=3, model=scaled, epsilon=1e-7)
  assert default_eps.max_difference > 1e-4


def test_plain_keras_rmsprop_starts_its_mean_square_at_zero_not_one():
  assert tf1clip.v2.check_parity("rmsprop", steps=3).passed
  keras_start = tf1clip.v2.check_parity("rmsprop", steps=3,
                                        keras_optimizer=keras.optimizers.RMSprop)
  assert keras_start.max_difference > 1e-2


@pytest.mark.parametrize("keras_module", [keras.optimizers, tf_keras.optimizers],
                         ids=["keras", "tf_keras"])
def test_rmsprop_epsilon_sits_inside_the_square_root_in_keras_and_tf1(keras_module):
  # With epsilon = 1.0, sqrt(ms + eps) and sqrt(ms) + eps are far apart: agreement shows
  # the same placement.
  tf1_opt = tf.compat.v1.train.RMSPropOptimizer(0.01, epsilon=1.0)
  keras_opt = tf1clip.v2.keras_optimizer_like(tf1_opt, keras_optimizers=keras_module)
  assert keras_opt.epsilon == 1.0
  report = tf1clip.v2.check_parity(tf1_opt, steps=3,
                                   keras="keras" if keras_module is keras.optimizers
                                   else "tf_keras")
  assert report.passed, report.format()


@pytest.mark.parametrize("name", ["rmsprop", "rmsprop_centered", "adagrad"])
def test_mappings_onto_tf_keras_legacy_optimizers_take_tf1s_steps(name):
  # The legacy RMSprop's mean square is its 'rms' slot (started at 1.0 like TF1's), and its
  # Adagrad turns epsilon=0.0 into 1e-7: keras_optimizer_like handles both.
  report = tf1clip.v2.check_parity(name, steps=3, keras="tf_keras_legacy")
  assert report.passed, report.format()
  legacy = tf1clip.v2.keras_optimizer_like(tf.compat.v1.train.AdagradOptimizer(0.1),
                                           keras_optimizers=tf_keras.optimizers.legacy)
  assert legacy.epsilon == 0.0


def test_tf_keras_legacy_rmsprop_puts_epsilon_outside_the_root_without_momentum():
  # sqrt(ms) + eps against sqrt(ms + eps): visible with epsilon = 1.0 (docs/migration.md).
  outside = tf1clip.v2.check_parity(tf.compat.v1.train.RMSPropOptimizer(0.01, epsilon=1.0),
                                    steps=3, keras="tf_keras_legacy")
  assert outside.max_difference > 1e-3
  inside = tf1clip.v2.check_parity(
      tf.compat.v1.train.RMSPropOptimizer(0.01, epsilon=1.0, momentum=0.5), steps=3,
      keras="tf_keras_legacy")
  assert inside.passed, inside.format()


def test_momentum_differs_once_the_learning_rate_changes():
  # TF1 applies the current rate to the whole velocity; Keras bakes past rates into m.
  rates = [0.1, 0.1, 0.01, 0.01]
  start = np.array([1.0, -2.0], np.float32)
  grad = np.array([0.5, 0.25], np.float32)
  with tf.Graph().as_default():
    var = tf.compat.v1.get_variable("v", initializer=start)
    lr = tf.compat.v1.placeholder(tf.float32, [])
    tf1_opt = tf.compat.v1.train.MomentumOptimizer(lr, 0.9)
    train_op = tf1_opt.apply_gradients([(tf.constant(grad), var)])
    with tf.compat.v1.Session() as sess:
      sess.run(tf.compat.v1.global_variables_initializer())
      for rate in rates:
        sess.run(train_op, {lr: rate})
      tf1_result = sess.run(var)
  keras_var = tf.Variable(start)
  keras_opt = tf1clip.v2.keras_optimizer_like(tf1_opt, learning_rate=0.1)
  for rate in rates:
    keras_opt.learning_rate = rate
    keras_opt.apply_gradients([(tf.constant(grad), keras_var)])
  assert not np.allclose(keras_var.numpy(), tf1_result, rtol=1e-3)
  # Constant rate: equal.
  assert tf1clip.v2.check_parity("momentum", steps=4).passed


def test_keras_kwargs_make_tf1_defaults_explicit():
  assert mapping.keras_kwargs_like(tf.compat.v1.train.AdamOptimizer()) == (
      "Adam", {"learning_rate": 0.001, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-8,
               "amsgrad": False})
  assert mapping.keras_kwargs_like(tf.compat.v1.train.RMSPropOptimizer(0.01)) == (
      "RMSprop", {"learning_rate": 0.01, "rho": 0.9, "momentum": 0.0, "epsilon": 1e-10,
                  "centered": False})
  assert mapping.keras_kwargs_like(tf.compat.v1.train.AdagradOptimizer(0.1)) == (
      "Adagrad", {"learning_rate": 0.1, "initial_accumulator_value": 0.1, "epsilon": 0.0})
  name, kwargs = mapping.keras_kwargs_like(
      tf.compat.v1.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True))
  assert name == "SGD" and kwargs["nesterov"] is True and kwargs["momentum"] == 0.9


def test_mapping_refuses_what_it_cannot_carry_over():
  with pytest.raises(ValueError, match="no Keras counterpart"):
    tf1clip.v2.keras_optimizer_like(tf.compat.v1.train.ProximalAdagradOptimizer(0.1))
  with tf.Graph().as_default():
    decayed = tf.compat.v1.train.exponential_decay(
        0.1, tf.compat.v1.train.get_or_create_global_step(), 100, 0.9)
    tf1_opt = tf.compat.v1.train.AdamOptimizer(decayed)
  with pytest.raises(ValueError, match="learning_rate"):
    tf1clip.v2.keras_optimizer_like(tf1_opt)
  schedule = keras.optimizers.schedules.ExponentialDecay(0.1, 100, 0.9)
  assert tf1clip.v2.keras_optimizer_like(tf1_opt, learning_rate=schedule).epsilon == 1e-8
  with pytest.raises(TypeError, match="tf.compat.v1.train.Optimizer"):
    tf1clip.v2.keras_optimizer_like(keras.optimizers.Adam())


def test_migrate_optimizer_carries_wrappers_and_transforms_over():
  tf1_opt = tf1clip.clip_gradients_by_norm(tf.compat.v1.train.AdamOptimizer(0.01), 2.0)
  migrated = tf1clip.v2.migrate_optimizer(tf1_opt)
  assert isinstance(migrated, tf1clip.v2.WrappedOptimizer)
  assert migrated.transforms == tf1_opt.transforms
  assert migrated.inner_optimizer.epsilon == 1e-8
  from tf1clip import accumulation  # pylint: disable=g-import-not-at-top
  accumulating = accumulation.GradientAccumulationOptimizer(
      tf.compat.v1.train.GradientDescentOptimizer(0.1), 4, skip_non_finite=True)
  migrated = tf1clip.v2.migrate_optimizer(accumulating)
  assert isinstance(migrated, tf1clip.v2.GradientAccumulationOptimizer)
  assert migrated.num_micro_batches == 4 and migrated.skip_non_finite


def test_every_mapping_is_in_the_migration_guide():
  with open(DOCS) as f:
    text = f.read()
  for m in mapping.MAPPINGS:
    assert m.tf1 in text, m.tf1


def test_lazy_adam_maps_by_its_exact_class_not_as_adam():
  from tf1clip.contrib.opt import LazyAdamOptimizer  # pylint: disable=g-import-not-at-top
  lazy = mapping.mapping_for(LazyAdamOptimizer(0.01))
  assert lazy.tf1 == "LazyAdamOptimizer" and lazy.same_steps != mapping.mapping_for(
      tf.compat.v1.train.AdamOptimizer).same_steps
  assert "dense gradients only" in lazy.same_steps


def test_an_unknown_subclass_of_a_mapped_optimizer_is_refused_naming_its_parent():
  class MyAdam(tf.compat.v1.train.AdamOptimizer):
    pass
  with pytest.raises(ValueError, match="MyAdam.*subclasses AdamOptimizer"):
    mapping.mapping_for(MyAdam(0.1))


def test_migrate_optimizer_refuses_count_micro_steps_naming_it():
  from tf1clip import accumulation  # pylint: disable=g-import-not-at-top
  tf1_opt = accumulation.GradientAccumulationOptimizer(
      tf.compat.v1.train.GradientDescentOptimizer(0.1), 2, count_micro_steps=True)
  with pytest.raises(ValueError, match="count_micro_steps"):
    tf1clip.v2.migrate_optimizer(tf1_opt)

"""AutoClip, AGC and ZClip against numpy references of their papers, in graph mode, eagerly and
in tf.function, with their state checkpointed and restored mid-stream."""

import math
import re

import hypothesis
import hypothesis.strategies as st

import numpy as np
import pytest
import tensorflow as tf

from tf1clip import adaptive

SETTINGS = hypothesis.settings(max_examples=8, deadline=None, derandomize=True)

# ---------------------------------------------------------------- numpy references


def np_autoclip_scales(norms, percentile, history):
  """Seetharaman et al.: threshold = percentile of the norms so far (last `history`)."""
  seen, scales = [], []
  for g in norms:
    if math.isfinite(g):
      seen = (seen + [g])[-history:]
    threshold = np.percentile(seen, percentile) if seen else np.inf
    scales.append(threshold / max(g, threshold))
  return scales


def np_zclip_scales(norms, z_thresh, alpha, warmup, eps=1e-6, option="adaptive_scaling"):
  """Kumar et al., Algorithm 1 (warm-up mean/variance, z-score, reciprocal clip, EMA of g*)."""
  buffer, mean, var, scales = [], None, None, []
  for g in norms:
    if mean is None:
      buffer.append(g)
      if len(buffer) == warmup:
        mean, var = float(np.mean(buffer)), float(np.var(buffer))
      scales.append(1.0)
      continue
    std = math.sqrt(var)
    z = (g - mean) / (std + eps)
    if z > z_thresh:
      clip = mean if option == "mean" else mean + z_thresh ** 2 * std / z
      scales.append(clip / max(g, clip))
      effective = clip
    else:
      scales.append(1.0)
      effective = g
    mean = alpha * mean + (1 - alpha) * effective
    var = alpha * var + (1 - alpha) * (effective - mean) ** 2
  return scales


def np_unitwise_norm(x):
  x = np.asarray(x, np.float64)
  if x.ndim <= 1:
    return np.sqrt(np.sum(x * x))
  axes = (0,) if x.ndim in (2, 3) else tuple(range(x.ndim - 1))
  return np.sqrt(np.sum(x * x, axis=axes, keepdims=True))


def np_agc(g, w, clipping, eps):
  """Brock et al. 2021, Section 4.1."""
  max_norm = np.maximum(np_unitwise_norm(w), eps) * clipping
  g_norm = np_unitwise_norm(g)
  return np.where(g_norm > max_norm, g * max_norm / np.maximum(g_norm, 1e-6), g)


# ---------------------------------------------------------------- a stream of gradients

SHAPES = {"kernel": (3, 2), "bias": (2,)}
DIRECTION = {k: np.random.default_rng(i).standard_normal(s).astype(np.float32)
             for i, (k, s) in enumerate(SHAPES.items())}
_UNIT = math.sqrt(sum(float(np.sum(d.astype(np.float64) ** 2)) for d in DIRECTION.values()))


def stream_grads(multipliers):
  """Step t's gradients: a fixed direction of global norm `multipliers[t]`."""
  return [{k: (d / _UNIT * m).astype(np.float32) for k, d in DIRECTION.items()}
          for m in multipliers]


def norms_of(grads):
  return [math.sqrt(sum(float(np.sum(g[k].astype(np.float64) ** 2)) for g in [s]
                        for k in s)) for s in grads]


def run_graph(make, grads, restore_at=None):
  """Graph mode, placeholders fed per step; with restore_at, Saver round trip at that step."""
  outs, checkpoint = [], None
  steps = [range(len(grads))] if restore_at is None else [range(restore_at),
                                                          range(restore_at, len(grads))]
  for part in steps:
    graph = tf.Graph()
    with graph.as_default():
      variables = {k: tf.compat.v1.get_variable(k, initializer=tf.zeros(s)) for k, s in
                   SHAPES.items()}
      feeds = {k: tf.compat.v1.placeholder(tf.float32, s) for k, s in SHAPES.items()}
      t = make()
      t.build(list(variables.values()))
      assert t.build(list(variables.values())) is t.state  # idempotent
      n_globals = len(tf.compat.v1.global_variables())
      result = t([(feeds[k], variables[k]) for k in SHAPES])
      assert len(tf.compat.v1.global_variables()) == n_globals  # the call created nothing
      saver = tf.compat.v1.train.Saver()
      with tf.compat.v1.Session(graph=graph) as sess:
        sess.run(tf.compat.v1.global_variables_initializer())
        if checkpoint:
          saver.restore(sess, checkpoint)
        for i in part:
          out = sess.run([g for g, _ in result], {feeds[k]: grads[i][k] for k in SHAPES})
          outs.append(dict(zip(SHAPES, out)))
        checkpoint = saver.save(sess, _tmp_prefix())
  return outs


_TMP = []


def _tmp_prefix():
  return _TMP[-1] + "/ckpt"


@pytest.fixture(autouse=True)
def _tmpdir(tmp_path):
  _TMP.append(str(tmp_path))
  yield
  _TMP.pop()


def run_eager(make, grads, use_function=False, restore_at=None):
  outs = []
  variables = {k: tf.Variable(tf.zeros(s), name=k) for k, s in SHAPES.items()}
  t = make()
  t.build(list(variables.values()))

  def step(g):
    return [x for x, _ in t([(g[k], variables[k]) for k in SHAPES])]

  fn = tf.function(step) if use_function else step
  for i, g in enumerate(grads):
    if restore_at is not None and i == restore_at:
      path = tf.train.Checkpoint(transform=t).save(_tmp_prefix())
      t = make()
      t.build(list(variables.values()))
      tf.train.Checkpoint(transform=t).restore(path).assert_existing_objects_matched()
      fn = tf.function(step) if use_function else step
    out = fn({k: tf.constant(v) for k, v in g.items()})
    outs.append({k: o.numpy() for k, o in zip(SHAPES, out)})
  return outs


def assert_scaled(outs, grads, scales):
  for i, (out, g, s) in enumerate(zip(outs, grads, scales)):
    for k in SHAPES:
      np.testing.assert_allclose(out[k], g[k] * s, rtol=2e-5, atol=1e-7,
                                 err_msg="step %d, %s" % (i, k))


multipliers = st.lists(st.floats(0.05, 50.0), min_size=4, max_size=9)

# ---------------------------------------------------------------- AutoClip


@SETTINGS
@hypothesis.given(multipliers, st.sampled_from([0.0, 10.0, 37.5, 90.0, 100.0]),
                  st.integers(1, 5))
def test_autoclip_matches_numpy_in_graph_mode(mults, percentile, history):
  grads = stream_grads(mults)
  outs = run_graph(lambda: adaptive.autoclip(percentile, history=history), grads)
  assert_scaled(outs, grads, np_autoclip_scales(norms_of(grads), percentile, history))


@pytest.mark.parametrize("use_function", [False, True])
def test_autoclip_matches_numpy_eagerly_and_in_tf_function(use_function):
  grads = stream_grads([1.0, 3.0, 0.5, 8.0, 2.0, 0.1, 9.0])
  outs = run_eager(lambda: adaptive.autoclip(25.0, history=4), grads, use_function)
  scales = np_autoclip_scales(norms_of(grads), 25.0, 4)
  assert min(scales) < 0.5  # the stream does clip
  assert_scaled(outs, grads, scales)


@hypothesis.settings(max_examples=5, deadline=None, derandomize=True)
@hypothesis.given(multipliers, st.sampled_from([10.0, 50.0, 95.0]), st.integers(1, 5),
                  st.booleans())
def test_autoclip_matches_numpy_on_random_streams_in_tf2(mults, percentile, history,
                                                         use_function):
  grads = stream_grads(mults)
  outs = run_eager(lambda: adaptive.autoclip(percentile, history=history), grads, use_function)
  assert_scaled(outs, grads, np_autoclip_scales(norms_of(grads), percentile, history))


def test_autoclip_checkpoint_restore_continues_identically():
  grads = stream_grads([1.0, 30.0, 0.5, 8.0, 2.0, 3.0, 4.0, 0.1, 9.0])
  scales = np_autoclip_scales(norms_of(grads), 50.0, 5)
  make = lambda: adaptive.autoclip(50.0, history=5)
  assert_scaled(run_graph(make, grads, restore_at=4), grads, scales)
  assert_scaled(run_eager(make, grads, True, restore_at=4), grads, scales)
  # Without the restored state the continuation differs: the test can fail.
  fresh = run_eager(make, grads[4:])
  assert not all(np.allclose(f["kernel"], g["kernel"] * s)
                 for f, g, s in zip(fresh, grads[4:], scales[4:]))


def test_autoclip_skips_non_finite_norms_and_keeps_sparse():
  var = tf.Variable(tf.zeros([5, 2]))
  t = adaptive.autoclip(50.0, history=8)
  t.build([var])
  sparse = tf.IndexedSlices(tf.constant([[3.0, 4.0], [3.0, 4.0]]), tf.constant([1, 1]),
                            tf.constant([5, 2]))
  (out, _), = t([(sparse, var)])
  assert isinstance(out, tf.IndexedSlices)
  assert t.state["norm_history"].numpy()[0] == pytest.approx(10.0)  # repeated rows summed
  t([(tf.fill([5, 2], np.nan), var)])
  assert int(t.state["count"].numpy()) == 1


# ---------------------------------------------------------------- ZClip

spiky = st.lists(st.floats(0.5, 2.0), min_size=4, max_size=10).flatmap(
    lambda base: st.tuples(st.just(base), st.integers(0, len(base) - 1),
                           st.floats(3.0, 100.0)))


@SETTINGS
@hypothesis.given(spiky, st.sampled_from(["adaptive_scaling", "mean"]))
def test_zclip_matches_numpy_in_graph_mode(stream, option):
  base, where, spike = stream
  mults = list(base)
  mults[where] *= spike
  grads = stream_grads(mults)
  make = lambda: adaptive.zclip(z_thresh=1.5, alpha=0.8, warmup_steps=3, clip_option=option)
  scales = np_zclip_scales(norms_of(grads), 1.5, 0.8, 3, option=option)
  assert_scaled(run_graph(make, grads), grads, scales)


@pytest.mark.parametrize("use_function", [False, True])
def test_zclip_matches_numpy_eagerly_and_in_tf_function(use_function):
  mults = [1.0, 1.2, 0.9, 1.1, 10.0, 1.0, 1.05, 30.0, 0.95]
  grads = stream_grads(mults)
  scales = np_zclip_scales(norms_of(grads), 2.5, 0.97, 4)
  assert scales[:4] == [1.0] * 4 and scales[4] < 0.2 and scales[7] < 0.1  # spikes clipped
  outs = run_eager(lambda: adaptive.zclip(warmup_steps=4), grads, use_function)
  assert_scaled(outs, grads, scales)


@hypothesis.settings(max_examples=5, deadline=None, derandomize=True)
@hypothesis.given(spiky, st.booleans())
def test_zclip_matches_numpy_on_random_streams_in_tf2(stream, use_function):
  base, where, spike = stream
  mults = list(base)
  mults[where] *= spike
  grads = stream_grads(mults)
  make = lambda: adaptive.zclip(z_thresh=1.5, alpha=0.8, warmup_steps=3)
  outs = run_eager(make, grads, use_function)
  assert_scaled(outs, grads, np_zclip_scales(norms_of(grads), 1.5, 0.8, 3))


def test_zclip_checkpoint_restore_continues_identically():
  grads = stream_grads([1.0, 1.2, 0.9, 1.1, 10.0, 1.0, 1.05, 30.0, 0.95])
  scales = np_zclip_scales(norms_of(grads), 2.0, 0.9, 3)
  make = lambda: adaptive.zclip(z_thresh=2.0, alpha=0.9, warmup_steps=3)
  assert_scaled(run_graph(make, grads, restore_at=5), grads, scales)
  assert_scaled(run_eager(make, grads, False, restore_at=5), grads, scales)


def test_zclip_state_is_global_non_trainable_and_colocated():
  with tf.Graph().as_default() as graph:
    var = tf.compat.v1.get_variable("w", [2])
    t = adaptive.zclip()
    state = t.build([var])
    assert sorted(state) == ["count", "mean", "var"]
    assert all(v in tf.compat.v1.global_variables() for v in state.values())
    assert not any(v in tf.compat.v1.trainable_variables() for v in state.values())
    assert state["mean"].op.name == "zclip/mean"
    assert state["mean"].op.colocation_groups() == var.op.colocation_groups()
    assert adaptive.zclip().build([var])["mean"].op.name == "zclip_1/mean"
    assert graph is tf.compat.v1.get_default_graph()


@pytest.mark.parametrize("factory,kwargs,error,message", [
    (adaptive.autoclip, {"percentile": 101}, ValueError,
     re.escape("`percentile` must be in [0, 100]; got 101.")),
    (adaptive.autoclip, {"percentile": float("nan")}, ValueError,
     re.escape("`percentile` must be in [0, 100]; got nan.")),
    (adaptive.autoclip, {"history": 0}, ValueError, re.escape("`history` must be an int in [1, ")),
    (adaptive.zclip, {"alpha": 1.0}, ValueError, re.escape("`alpha` must be in (0, 1); got 1.0.")),
    (adaptive.zclip, {"z_thresh": -1}, ValueError, re.escape("`z_thresh` must be > 0; got -1.")),
    (adaptive.zclip, {"warmup_steps": 2.5}, ValueError,
     re.escape("`warmup_steps` must be an int in [1, ")),
    (adaptive.zclip, {"max_grad_norm": float("inf")}, ValueError,
     re.escape("`max_grad_norm` must be finite; got inf.")),
    (adaptive.zclip, {"clip_option": "max"}, ValueError, "`clip_option` must be"),
    (adaptive.adaptive_grad_clip, {"clipping": 0.0}, ValueError,
     re.escape("`clipping` must be > 0; got 0.0.")),
    (adaptive.adaptive_grad_clip, {"clipping": 0.1, "eps": "1"}, TypeError,
     re.escape("`eps` must be a number; got a str: '1'.")),
])
def test_bad_arguments_name_themselves(factory, kwargs, error, message):
  with pytest.raises(error, match=message):
    factory(**kwargs)


# ---------------------------------------------------------------- AGC


@SETTINGS
@hypothesis.given(st.sampled_from([(4,), (3, 5), (2, 3, 4), (2, 2, 3, 4)]),
                  st.integers(0, 2 ** 31), st.sampled_from([0.01, 0.1, 1.0]))
def test_agc_matches_numpy_per_unit(shape, seed, clipping):
  rng = np.random.default_rng(seed)
  w = rng.normal(0, 1, shape).astype(np.float32)
  w[..., 0] = 0.0  # a zero unit: eps is its norm
  g = (rng.normal(0, 1, shape) * rng.choice([0.001, 1.0], shape[-1])).astype(np.float32)
  expected = np_agc(g, w, clipping, 1e-3)
  with tf.Graph().as_default():
    var = tf.compat.v1.get_variable("w", initializer=w)
    (out, _), = adaptive.adaptive_grad_clip(clipping)([(tf.constant(g), var)])
    with tf.compat.v1.Session() as sess:
      sess.run(tf.compat.v1.global_variables_initializer())
      got = sess.run(out)
  np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-7)
  # TF2, eagerly and traced, same numbers.
  var2 = tf.Variable(w)
  t = adaptive.adaptive_grad_clip(clipping)
  t.build([var2])
  eager = t([(tf.constant(g), var2)])[0][0].numpy()
  traced = tf.function(lambda x: t([(x, var2)])[0][0])(tf.constant(g)).numpy()
  np.testing.assert_allclose(eager, expected, rtol=1e-5, atol=1e-7)
  np.testing.assert_allclose(traced, expected, rtol=1e-5, atol=1e-7)


def test_agc_keeps_indexed_slices_sparse_and_equals_densify_then_clip():
  rng = np.random.default_rng(0)
  w = rng.normal(0, 0.1, (6, 3)).astype(np.float32)
  values = rng.normal(0, 1, (4, 3)).astype(np.float32)
  indices = np.array([1, 4, 1, 0], np.int32)  # a repeated row
  dense = np.zeros_like(w)
  np.add.at(dense, indices, values)
  var = tf.Variable(w)
  (out, _), = adaptive.adaptive_grad_clip(0.05)([(
      tf.IndexedSlices(tf.constant(values), tf.constant(indices), tf.constant([6, 3])), var)])
  assert isinstance(out, tf.IndexedSlices)
  np.testing.assert_allclose(tf.convert_to_tensor(out).numpy(), np_agc(dense, w, 0.05, 1e-3),
                             rtol=1e-5, atol=1e-7)
  assert not np.allclose(np_agc(dense, w, 0.05, 1e-3), dense)  # it did clip


def test_agc_leaves_none_gradients_and_small_units_alone():
  var = tf.Variable(tf.ones([2, 2]))
  other = tf.Variable(tf.ones([3]))
  g = tf.constant([[1e-4, 5.0], [1e-4, 5.0]])
  out = adaptive.adaptive_grad_clip(0.5)([(g, var), (None, other)])
  assert out[1][0] is None
  np.testing.assert_allclose(out[0][0].numpy()[:, 0], [1e-4, 1e-4])
  np.testing.assert_allclose(np.linalg.norm(out[0][0].numpy()[:, 1]), 0.5 * math.sqrt(2),
                             rtol=1e-6)

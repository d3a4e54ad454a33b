"""Reference graph: CBOW word embeddings, whose embedding gradient is a sparse tf.IndexedSlices.

The situations it reproduces:
- `tf.nn.embedding_lookup` makes the embedding's gradient a `tf.IndexedSlices` touching
  only the looked-up rows (with repeats). Careless gradient code densifies it ("Converting
  sparse IndexedSlices to a dense Tensor with ... elements"); tf1clip.clipping and every
  transform must keep it sparse.
- The adversarial use of `tf.gradients(loss, embedding)` (Miyato et al.'s adversarial
  training perturbs embeddings along that gradient): evaluating such a gradient computes
  it and updates nothing. `adversarial_gradients` builds it.

Continuous bag of words (Mikolov et al. 2013): the mean of the context words' embeddings
predicts the centre word through a softmax over the vocabulary (full, or sampled with
`num_sampled`, whose output-weight gradient is then sparse too). The synthetic corpus is
a fixed random Markov chain in which every word has `num_successors` likely successors,
so the centre word is predictable from its context.

References:
  Mikolov et al. 2013, "Efficient Estimation of Word Representations in Vector Space".
  Miyato et al. 2017, "Adversarial Training Methods for Semi-Supervised Text Classification".
"""

import collections
import dataclasses

import numpy as np
import tensorflow as tf

from graphs import model as model_lib


@dataclasses.dataclass(frozen=True, eq=False)
class Model(model_lib.Model):
  """The CBOW graph.

  Attributes:
    embedding: the [vocab_size, embedding_dim] embedding variable (sparse gradient).
    embedded: [batch, 2 * window, embedding_dim] Tensor, the looked-up context embeddings.
    softmax_w: the [vocab_size, embedding_dim] output weights.
    softmax_b: the [vocab_size] output biases.
  """
  embedding: object
  embedded: object
  softmax_w: object
  softmax_b: object


AdversarialGradients = collections.namedtuple("AdversarialGradients", ["embedding", "embedded"])
AdversarialGradients.__doc__ = """Gradients of the loss for an adversarial perturbation.

Attributes:
  embedding: gradient w.r.t. the embedding variable, a tf.IndexedSlices.
  embedded: gradient w.r.t. the looked-up embeddings, a dense
    [batch, 2 * window, embedding_dim] Tensor (what adversarial training perturbs).
"""


def build(vocab_size=64, embedding_dim=16, window=2, num_sampled=None, num_successors=3,
          init_scale=0.5, seed=0, scope="cbow"):
  """Builds CBOW in the default graph.

  Placeholders: "context" [batch, 2 * window] int32 and "target" [batch] int32.

  Args:
    vocab_size: words in the vocabulary.
    embedding_dim: embedding width.
    window: context words on each side of the target.
    num_sampled: None for the full softmax; else the classes `tf.nn.sampled_softmax_loss`
      samples per batch (seeded by `seed`), which makes softmax_w's gradient sparse too.
    num_successors: likely successors of each word in the synthetic Markov chain.
    init_scale: the embedding starts uniform in [-init_scale, init_scale].
    seed: int; fixes the initial weights, the sampler and the synthetic corpus.
    scope: variable scope of the weights and name scope of the placeholders.

  Returns:
    Model, with placeholders {"context", "target"}, variables [embedding, softmax_w,
    softmax_b] and extras embedding, embedded, softmax_w, softmax_b.

  Raises:
    ValueError: a size is not a positive int, or num_sampled/num_successors is not
      smaller than vocab_size.
  """
  model_lib.check_sizes(vocab_size=vocab_size, embedding_dim=embedding_dim, window=window,
                        num_successors=num_successors)
  if num_sampled is not None:
    model_lib.check_sizes(num_sampled=num_sampled)
    if num_sampled >= vocab_size:
      raise ValueError("`num_sampled` must be smaller than `vocab_size` (%d); got %r"
                       % (vocab_size, num_sampled))
  if num_successors >= vocab_size:
    raise ValueError("`num_successors` must be smaller than `vocab_size` (%d); got %r"
                     % (vocab_size, num_successors))
  if not init_scale > 0:
    raise ValueError("`init_scale` must be positive; got %r" % (init_scale,))
  with tf.compat.v1.variable_scope(scope):
    context = tf.compat.v1.placeholder(tf.int32, [None, 2 * window], name="context")
    target = tf.compat.v1.placeholder(tf.int32, [None], name="target")
    embedding = tf.compat.v1.get_variable(
        "embedding", [vocab_size, embedding_dim],
        initializer=tf.compat.v1.random_uniform_initializer(
            -init_scale, init_scale, seed=model_lib.op_seed(seed, 0)))
    softmax_w = tf.compat.v1.get_variable(
        "softmax_w", [vocab_size, embedding_dim],
        initializer=tf.compat.v1.truncated_normal_initializer(
            stddev=embedding_dim ** -0.5, seed=model_lib.op_seed(seed, 1)))
    softmax_b = tf.compat.v1.get_variable(
        "softmax_b", [vocab_size], initializer=tf.compat.v1.zeros_initializer())

    embedded = tf.nn.embedding_lookup(embedding, context)
    hidden = tf.reduce_mean(embedded, axis=1)
    if num_sampled is None:
      logits = tf.matmul(hidden, softmax_w, transpose_b=True) + softmax_b
      losses = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=target, logits=logits)
    else:
      losses = tf.nn.sampled_softmax_loss(
          weights=softmax_w, biases=softmax_b, labels=tf.expand_dims(target, 1),
          inputs=hidden, num_sampled=num_sampled, num_classes=vocab_size,
          seed=model_lib.op_seed(seed, 2))
    loss = tf.reduce_mean(losses, name="loss")

  task = model_lib.task_rng(seed)
  successors = np.stack([task.choice(vocab_size, num_successors, replace=False)
                         for _ in range(vocab_size)])

  def make_arrays(batch_seed, batch_size):
    rng = model_lib.batch_rng(batch_seed)
    batch_size = model_lib.check_batch_size(batch_size)
    words = np.empty((batch_size, 2 * window + 1), np.int32)
    words[:, 0] = rng.integers(vocab_size, size=batch_size)
    for t in range(1, 2 * window + 1):
      words[:, t] = successors[words[:, t - 1], rng.integers(num_successors, size=batch_size)]
    return {"context": np.delete(words, window, axis=1), "target": words[:, window]}

  return Model(placeholders={"context": context, "target": target}, loss=loss,
               variables=[embedding, softmax_w, softmax_b], make_arrays=make_arrays,
               embedding=embedding, embedded=embedded, softmax_w=softmax_w,
               softmax_b=softmax_b)


def adversarial_gradients(model):
  """Builds `tf.gradients` of the loss w.r.t. the embedding and the looked-up embeddings.

  Evaluating these computes a perturbation direction and changes no variable: there is
  no optimizer and no assign op behind them.

  Args:
    model: a Model from `build`.

  Returns:
    AdversarialGradients(embedding=tf.IndexedSlices, embedded=dense Tensor).
  """
  embedding_grad, embedded_grad = tf.gradients(model.loss, [model.embedding, model.embedded])
  return AdversarialGradients(embedding=embedding_grad, embedded=embedded_grad)

"""Reference TF1 graphs for the situations tf1clip's users ask about (see docs/graphs.md).

Each module's `build(**sizes)` adds a small, deterministic tf.compat.v1 graph to the
caller's default graph and returns a `graphs.model.Model` (placeholders, loss, variables,
make_batch/make_arrays, plus extras). Tests, examples and benchmarks train these graphs
through the gradient pipeline; nothing in `tf1clip/` imports them.

  lstm_classifier   statically unrolled LSTM; `EXPLODING` settings make gradient norms spike
  cbow              CBOW embeddings: sparse tf.IndexedSlices gradients; adversarial tf.gradients
  frozen_product    stop_gradient'ed factors: None gradients; w1 converges to w2 * w3
  big_batch_mlp     activations dominate memory: the case for gradient accumulation
"""

from graphs import big_batch_mlp
from graphs import cbow
from graphs import frozen_product
from graphs import lstm_classifier
from graphs.model import Model

# name -> build, for code that runs something over every reference graph.
BUILDERS = {
    "lstm_classifier": lstm_classifier.build,
    "cbow": cbow.build,
    "frozen_product": frozen_product.build,
    "big_batch_mlp": big_batch_mlp.build,
}

"""tf.contrib.keras (tf-keras' TF1 API under TF 1.15's second name) against TF 1.15: a Sequential model built,
compiled and fit in graph mode from the same initial weights ends with the same weights and variable names;
utils.to_categorical, preprocessing.sequence.pad_sequences, backend functions, api.keras."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.keras." + n for n in (
    "layers", "models", "optimizers", "utils", "preprocessing", "backend", "api", "losses", "activations",
    "initializers", "regularizers"))

SNIPPET = r'''
import numpy as np
import tensorflow as tf
keras = tf.contrib.keras
rng = np.random.RandomState(0)
xs = rng.randn(32, 4).astype(np.float32)
ys = (xs.sum(axis=1) > 0).astype(np.int64)
model = keras.models.Sequential([
    keras.layers.Dense(8, activation=keras.activations.relu, input_shape=(4,),
                       kernel_regularizer=keras.regularizers.l2(0.01),
                       kernel_initializer=keras.initializers.Ones()),
    keras.layers.Dense(2, activation="softmax", name="out"),
])
model.compile(optimizer=keras.optimizers.SGD(lr=0.1, momentum=0.5), loss=keras.losses.categorical_crossentropy)
report("weights_names", [w.name for w in model.weights])
sess = keras.backend.get_session()
rs = np.random.RandomState(1)
model.set_weights([(rs.randn(*w.shape) * 0.3).astype(np.float32) for w in model.get_weights()])
history = model.fit(xs, keras.utils.to_categorical(ys, 2), batch_size=8, epochs=3, shuffle=False, verbose=0)
report("loss", history.history["loss"])
report("weights", model.get_weights())
report("predict", model.predict(xs[:4]))
report("pad", keras.preprocessing.sequence.pad_sequences([[1, 2], [3, 4, 5, 6]], maxlen=3))
report("same_api", keras.api.keras.layers.Dense is keras.layers.Dense)
report("floatx", keras.backend.floatx())
'''


@requires_tf115
def test_contrib_keras_trains_a_model_as_tf115_did():
  tf115, ours = run_both(SNIPPET)
  assert tf115["same_api"] and ours["same_api"]
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)

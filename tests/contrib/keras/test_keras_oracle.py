"""tf.contrib.keras (tf-keras' TF1 API under TF 1.15's second name) against TF 1.15: a Sequential model built,
compiled and fit in graph mode from the same initial weights ends with the same weights and variable names;
utils.to_categorical, preprocessing.sequence.pad_sequences, backend functions, api.keras; then a second model with a
max-norm constraint, an accuracy metric and a LambdaCallback, the text / image preprocessing helpers, an
application's preprocess_input, and the modules TF 1.15 had under each name (the datasets' loaders are not
called: they download)."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.keras." + n for n in (
    "layers", "models", "optimizers", "utils", "preprocessing", "backend", "api", "losses", "activations",
    "initializers", "regularizers", "callbacks", "constraints", "metrics", "datasets", "applications",
    "preprocessing.image", "preprocessing.sequence", "preprocessing.text", "applications.inception_v3",
    "applications.mobilenet", "applications.resnet50", "applications.vgg16", "applications.vgg19",
    "applications.xception", "datasets.boston_housing", "datasets.cifar10", "datasets.cifar100", "datasets.imdb",
    "datasets.mnist", "datasets.reuters")) + tuple("tf.contrib.keras.api.keras" + n for n in (
        "", ".activations", ".applications", ".backend", ".callbacks", ".constraints", ".datasets",
        ".initializers", ".layers", ".losses", ".metrics", ".models", ".optimizers", ".preprocessing",
        ".regularizers", ".utils"))

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
seen = []
second = keras.models.Sequential([keras.layers.Dense(3, input_shape=(4,), kernel_constraint=keras.constraints.max_norm(0.5),
                                                     name="constrained"), keras.layers.Dense(2, activation="softmax")])
second.compile(optimizer=keras.optimizers.SGD(lr=0.5), loss="categorical_crossentropy",
               metrics=[keras.metrics.categorical_accuracy])
second.set_weights([(rs.randn(*w.shape) * 0.3).astype(np.float32) for w in second.get_weights()])
second_history = second.fit(xs, keras.utils.to_categorical(ys, 2), batch_size=16, epochs=2, shuffle=False, verbose=0,
                            callbacks=[keras.callbacks.LambdaCallback(on_epoch_end=lambda e, logs: seen.append(e))])
report("second", [second_history.history["loss"], seen, np.linalg.norm(second.get_weights()[0], axis=0)])
tokenizer = keras.preprocessing.text.Tokenizer(num_words=5)
tokenizer.fit_on_texts(["the cat sat", "the dog sat down"])
report("text", [tokenizer.texts_to_sequences(["the cat sat down"]),
                keras.preprocessing.text.text_to_word_sequence("Hello, World!")])
report("image", [keras.preprocessing.image.img_to_array(np.ones((2, 2, 3), np.float32) * 3).tolist(),
                 keras.applications.mobilenet.preprocess_input(np.full((1, 2, 2, 3), 128.0, np.float32)).tolist(),
                 keras.applications.vgg16.preprocess_input(np.full((1, 2, 2, 3), 128.0, np.float32)).tolist()])
report("modules", [[callable(getattr(m, "load_data", None)) for m in (
    keras.datasets.boston_housing, keras.datasets.cifar10, keras.datasets.cifar100, keras.datasets.imdb,
    keras.datasets.mnist, keras.datasets.reuters)], [callable(getattr(m, "preprocess_input", None)) for m in (
    keras.applications.inception_v3, keras.applications.mobilenet, keras.applications.resnet50,
    keras.applications.vgg16, keras.applications.vgg19, keras.applications.xception)],
    [getattr(keras.api.keras, n) is getattr(keras, n) for n in (
        "activations", "applications", "backend", "callbacks", "constraints", "datasets", "initializers", "layers",
        "losses", "metrics", "models", "optimizers", "preprocessing", "regularizers", "utils")],
    keras.api.keras.layers.Dense is keras.layers.Dense])
'''


@requires_tf115
def test_contrib_keras_trains_a_model_as_tf115_did():
  tf115, ours = run_both(SNIPPET)
  assert tf115["same_api"] and ours["same_api"]
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)

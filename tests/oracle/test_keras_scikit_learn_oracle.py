"""tf.keras.wrappers.scikit_learn (and its second name under tf.contrib.keras.wrappers) against TF 1.15: a
KerasClassifier on string labels with a sigmoid output (binary) and on integer labels with a softmax and
categorical crossentropy (the labels one-hot encoded for the model), a KerasClassifier subclass whose __call__
builds the model, a callable-object build_fn, and a KerasRegressor; every model starts from constant weights and
trains without shuffling, so the numbers can agree: the fit history, predict (labels mapped back through
classes_), predict_proba (two columns for one sigmoid output), score (accuracy; the regressor's negative loss),
get_params / set_params; and the errors: an sk_param no function takes, labels of rank 3, a model compiled without
an accuracy metric asked for a score."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.keras.wrappers.scikit_learn", "tf.keras.wrappers.scikit_learn.KerasClassifier",
                 "tf.keras.wrappers.scikit_learn.KerasRegressor", "tf.contrib.keras.wrappers",
                 "tf.contrib.keras.wrappers.scikit_learn", "tf.keras.wrappers")

SNIPPET = r'''
import numpy as np
import tensorflow as tf
from tensorflow.keras.wrappers.scikit_learn import KerasClassifier, KerasRegressor
tf.logging.set_verbosity(tf.logging.ERROR)
report("same_module", tf.contrib.keras.wrappers.scikit_learn.KerasClassifier is KerasClassifier)
rng = np.random.RandomState(0)
x = rng.randn(24, 3).astype(np.float32)
score = x.dot([1.0, -1.0, 0.5])
words = np.where(score > 0, "yes", "no")
three = np.digitize(score, [-0.5, 0.5])
kernel = np.array([[0.1, -0.2, 0.3], [0.2, 0.1, -0.1], [-0.3, 0.2, 0.1]], np.float32)

def model(units=1, activation="sigmoid", loss="binary_crossentropy", metrics=("accuracy",), lr=0.5):
    net = tf.keras.Sequential([tf.keras.layers.Dense(
        units, activation=activation, input_shape=(3,),
        kernel_initializer=tf.keras.initializers.Constant(kernel[:, :units]),
        bias_initializer="zeros")])
    net.compile(loss=loss, optimizer=tf.keras.optimizers.SGD(lr), metrics=list(metrics))
    return net

def run(key, wrapper, x, y, x_test, proba=True):
    history = wrapper.fit(x, y)
    report(key + "/loss", history.history["loss"])
    report(key + "/predict", wrapper.predict(x_test))
    if proba:
        report(key + "/predict_proba", wrapper.predict_proba(x_test))
        report(key + "/classes", wrapper.classes_)
        report(key + "/n_classes", wrapper.n_classes_)
    report(key + "/score", wrapper.score(x, y))

binary = KerasClassifier(build_fn=model, epochs=3, batch_size=8, verbose=0, shuffle=False, lr=0.3)
report("params", sorted(binary.get_params()))
run("binary", binary, x, words, x[:6])
report("binary/predict_batch", binary.predict(x[:6], batch_size=2))
run("softmax", KerasClassifier(build_fn=model, units=3, activation="softmax", loss="categorical_crossentropy",
                               epochs=2, batch_size=6, verbose=0, shuffle=False), x, three, x[:6])

class Built(KerasClassifier):
    def __call__(self, units=3, lr=0.2):
        return model(units=units, activation="softmax", loss="sparse_categorical_crossentropy", lr=lr)

run("subclass", Built(epochs=2, batch_size=12, verbose=0, shuffle=False).set_params(lr=0.4), x, three + 5, x[:6])

class Builder(object):
    def __call__(self, lr=0.1):
        return model(activation=None, loss="mse", metrics=(), lr=lr)

run("regressor", KerasRegressor(build_fn=Builder(), epochs=2, batch_size=8, verbose=0, shuffle=False),
    x, score.astype(np.float32), x[:6], proba=False)

with case("illegal_param"):
    KerasClassifier(build_fn=model, epoch=3)
with case("illegal_set_params"):
    KerasRegressor(build_fn=Builder()).set_params(units=4)
with case("rank3_labels"):
    KerasClassifier(build_fn=model, verbose=0).fit(x, np.zeros([24, 1, 1]))
with case("no_accuracy"):
    wrapper = KerasClassifier(build_fn=model, metrics=(), epochs=1, verbose=0)
    wrapper.fit(x, words)
    wrapper.score(x, words)
'''


@requires_tf115
def test_keras_scikit_learn_wrappers_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["same_module"] is True
  assert list(tf115["binary/classes"]) == ["no", "yes"]
  assert tf115["illegal_param:error"] == tf115["no_accuracy:error"] == "ValueError"
  assert tf115["rank3_labels:error"] == "ValueError"
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)

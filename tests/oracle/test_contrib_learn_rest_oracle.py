"""tf.contrib.learn's remaining names against TF 1.15: datasets.base and datasets.mnist on small local files,
text_datasets' DBpedia unpacking, BaseEstimator, export_estimator, make_parsing_export_strategy,
infer_real_valued_columns_from_input_fn and learn_runner (the monitors: tests/contrib/learn/test_monitors_oracle.py).

Compared: the Dataset / Datasets tuples; load_csv_with_header / load_csv_without_header (values, dtypes, target
column, a header with too few rows, a missing file: a tf.errors.NotFoundError on both sides); maybe_download of a
present file and of a file:// URL (copied, its folder made), urlretrieve_with_retry of a file:// URL (no network on
either side); maybe_download_dbpedia unpacking a local archive and keeping present CSVs; MNIST idx gzip files
written here: extract_images / extract_labels (one-hot too), dense_to_one_hot, DataSet (scaling, reshape, uint8,
seeded shuffles across an epoch, fake data), read_data_sets / load_mnist and their errors;
infer_real_valued_columns_from_input_fn (names, dtypes, the parsing spec); BaseEstimator (abstract, the classes under it, a subclass of TF 1.15's protocol trained, evaluated, predicting);
export_estimator's export folder; make_parsing_export_strategy's SavedModel (signature keys, inputs, outputs, a
prediction from a serialized tf.Example); learn_runner.run's "train" schedule.
"""

from harness import assert_same, requires_tf115, run_both

_L = "tf.contrib.learn."
ORACLE_TESTED = tuple(_L + n for n in (
    "BaseEstimator", "datasets.base.Dataset", "datasets.base.Datasets",
    "datasets.base.load_csv_with_header", "datasets.base.load_csv_without_header", "datasets.base.maybe_download",
    "datasets.base.urlretrieve_with_retry", "datasets.mnist", "datasets.mnist.DataSet",
    "datasets.mnist.dense_to_one_hot", "datasets.mnist.extract_images", "datasets.mnist.extract_labels",
    "datasets.mnist.load_mnist", "datasets.mnist.read_data_sets", "datasets.text_datasets.maybe_download_dbpedia",
    "infer_real_valued_columns_from_input_fn", "learn_runner", "utils.export.export_estimator", "utils.export_estimator",
    "utils.saved_model_export_utils.make_parsing_export_strategy"))

SNIPPET = r'''
import gzip
import logging
import os
import shutil
import struct
import tarfile
import numpy as np
import tensorflow as tf
learn = tf.contrib.learn
base, mnist = learn.datasets.base, learn.datasets.mnist
root = os.path.abspath("learn_rest")
os.makedirs(root)

# -- datasets.base: the tuples, the CSV loaders, maybe_download / urlretrieve_with_retry of local files ------
report("tuples", [list(base.Dataset._fields), list(base.Datasets._fields),
                  list(base.Datasets(train=base.Dataset(1, 2), validation=None, test=3)._replace(test=4))])
with open(os.path.join(root, "with_header.csv"), "w") as f:
    f.write("3,2,setosa,versicolor\n1.5,2.0,0\n-0.5,4.25,1\n3.0,0.0,1\n")
with open(os.path.join(root, "too_many.csv"), "w") as f:
    f.write("1,2\n1.5,2.0,0\n-0.5,4.25,1\n")
with open(os.path.join(root, "without.csv"), "w") as f:
    f.write("7,1.5,2\n8,2.5,3\n9,-1.0,0.5\n")
for key, loaded in (
        ("csv_header", base.load_csv_with_header(os.path.join(root, "with_header.csv"), np.int32, np.float32)),
        ("csv_header_first", base.load_csv_with_header(os.path.join(root, "with_header.csv"), np.float64, np.float64,
                                                       target_column=0)),
        ("csv_plain", base.load_csv_without_header(os.path.join(root, "without.csv"), np.int64, np.float64,
                                                   target_column=0)),
        ("csv_plain_last", base.load_csv_without_header(os.path.join(root, "without.csv"), np.float32, np.float32))):
    report(key, [loaded.data, loaded.target, loaded.data.dtype.name, loaded.target.dtype.name,
                 type(loaded).__name__])

def error_kind(call):
    try:
        call()
        return "no error"
    except tf.errors.NotFoundError:
        return "NotFoundError"
    except Exception as e:
        return type(e).__name__
report("csv_errors", [error_kind(lambda: base.load_csv_with_header(os.path.join(root, "too_many.csv"), np.int32,
                                                                   np.float32)),
                      error_kind(lambda: base.load_csv_with_header(os.path.join(root, "nope.csv"), np.int32,
                                                                   np.float32)),
                      error_kind(lambda: base.load_csv_without_header(os.path.join(root, "nope.csv"), np.int32,
                                                                      np.float32))])
report("maybe_download_present", os.path.basename(base.maybe_download("without.csv", root, "http://unused/x.csv")))
copied = base.maybe_download("copy.csv", os.path.join(root, "made"), "file://" + os.path.join(root, "without.csv"))
with open(copied) as f:
    report("maybe_download_copied", [os.path.relpath(copied, root), f.read()])
fetched, _ = base.urlretrieve_with_retry("file://" + os.path.join(root, "with_header.csv"),
                                         os.path.join(root, "fetched.csv"))
with open(fetched) as f:
    report("urlretrieve", [os.path.basename(fetched), f.read()])

# -- text_datasets.maybe_download_dbpedia: present files kept, a local archive unpacked ---------------------
db = os.path.join(root, "dbpedia")
os.makedirs(os.path.join(root, "src", "dbpedia_csv"))
for name in ("train.csv", "test.csv"):
    with open(os.path.join(root, "src", "dbpedia_csv", name), "w") as f:
        f.write('1,"Title %s","text"\n2,"Other","more"\n' % name)
os.makedirs(db)
with tarfile.open(os.path.join(db, "dbpedia_csv.tar.gz"), "w:gz") as tar:
    tar.add(os.path.join(root, "src", "dbpedia_csv"), arcname="dbpedia_csv")
learn.datasets.text_datasets.maybe_download_dbpedia(db)
report("dbpedia_unpacked", sorted(os.listdir(os.path.join(db, "dbpedia_csv"))))
os.remove(os.path.join(db, "dbpedia_csv.tar.gz"))
learn.datasets.text_datasets.maybe_download_dbpedia(db)   # both CSVs there: nothing to do
report("dbpedia_kept", sorted(os.listdir(db)))

# -- mnist: idx gzip files written here ----------------------------------------------------------------------
rng = np.random.RandomState(0)
train_images = rng.randint(0, 256, (12, 4, 4)).astype(np.uint8)
train_labels = rng.randint(0, 10, 12).astype(np.uint8)
test_images = rng.randint(0, 256, (5, 4, 4)).astype(np.uint8)
test_labels = rng.randint(0, 10, 5).astype(np.uint8)
mnist_dir = os.path.join(root, "mnist")
os.makedirs(mnist_dir)
def write_idx(name, magic, array):
    with gzip.open(os.path.join(mnist_dir, name), "wb") as f:
        f.write(struct.pack(">I", magic) + b"".join(struct.pack(">I", d) for d in array.shape) + array.tobytes())
write_idx("train-images-idx3-ubyte.gz", 2051, train_images)
write_idx("train-labels-idx1-ubyte.gz", 2049, train_labels)
write_idx("t10k-images-idx3-ubyte.gz", 2051, test_images)
write_idx("t10k-labels-idx1-ubyte.gz", 2049, test_labels)
with open(os.path.join(mnist_dir, "train-images-idx3-ubyte.gz"), "rb") as f:
    images = mnist.extract_images(f)
with open(os.path.join(mnist_dir, "train-labels-idx1-ubyte.gz"), "rb") as f:
    labels = mnist.extract_labels(f)
with open(os.path.join(mnist_dir, "t10k-labels-idx1-ubyte.gz"), "rb") as f:
    one_hot = mnist.extract_labels(f, one_hot=True, num_classes=10)
report("extracted", [images, images.dtype.name, labels, labels.dtype.name, one_hot, one_hot.dtype.name])
report("one_hot", [mnist.dense_to_one_hot(np.array([2, 0, 1]), 3), mnist.dense_to_one_hot(np.array([[1], [3]]), 4)])
def extract_wrong():
    with open(os.path.join(mnist_dir, "train-labels-idx1-ubyte.gz"), "rb") as f:
        mnist.extract_images(f)
def labels_wrong():
    with open(os.path.join(mnist_dir, "t10k-images-idx3-ubyte.gz"), "rb") as f:
        mnist.extract_labels(f)
report_errors("mnist_errors", [
    ("images_magic", extract_wrong), ("labels_magic", labels_wrong),
    ("dataset_dtype", lambda: mnist.DataSet(images, labels, dtype=tf.int32)),
    ("dataset_lengths", lambda: mnist.DataSet(images, labels[:3])),
    ("validation_size", lambda: mnist.read_data_sets(mnist_dir, validation_size=13)),
    ("load_mnist_5000", lambda: mnist.load_mnist(mnist_dir)),
])
data = mnist.DataSet(images, labels, seed=5)
report("dataset", [data.num_examples, data.images.shape, data.images.dtype.name, float(data.images.max()),
                   data.epochs_completed])
batches = [data.next_batch(5) for _ in range(3)]
report("next_batch", [[b[0], b[1]] for b in batches] + [data.epochs_completed])
report("next_batch_in_order", mnist.DataSet(images, labels, seed=5).next_batch(4, shuffle=False))
raw = mnist.DataSet(images, labels, dtype=tf.uint8, reshape=False, seed=3)
report("dataset_uint8", [raw.images.shape, raw.images.dtype.name, raw.next_batch(3)])
fake = mnist.DataSet([], [], fake_data=True, one_hot=True)
report("fake", [fake.num_examples, [np.asarray(x).shape for x in fake.next_batch(2, fake_data=True)],
                fake.next_batch(1, fake_data=True)[1]])
sets = mnist.read_data_sets(mnist_dir, one_hot=True, validation_size=3, seed=7)
report("read_data_sets", [type(sets).__name__, sets.train.num_examples, sets.validation.num_examples,
                          sets.test.num_examples, sets.train.images.shape, sets.validation.labels,
                          sets.test.images, sets.train.next_batch(4)])
report("read_data_sets_fake", [s.num_examples for s in mnist.read_data_sets("unused", fake_data=True)])

# -- infer_real_valued_columns_from_input_fn -------------------------------------------------------------------
columns = learn.infer_real_valued_columns_from_input_fn(
    lambda: ({"a": tf.zeros([4, 3]), "b": tf.ones([4, 2, 2], tf.float64), "c": tf.zeros([4], tf.int64)},
             tf.zeros([4])))
def spec(columns):
    return sorted([k, type(v).__name__, list(v.shape), v.dtype.name]
                  for k, v in tf.contrib.layers.create_feature_spec_for_parsing(columns).items())
report("inferred", [sorted([c.name, c.dtype.name] for c in columns), spec(columns)])
single = learn.infer_real_valued_columns_from_input_fn(lambda: (tf.zeros([2, 5]), None))
report("inferred_single", [[[c.name, c.dtype.name] for c in single], spec(single)])
report_errors("infer_errors", [("string", lambda: learn.infer_real_valued_columns_from_input_fn(
    lambda: ({"s": tf.constant(["a"])}, None)))])

root = os.path.abspath("learn_est")  # -- estimators ----------------------------------------
xs = np.array([[1.0, 2.0], [0.5, -1.0], [-1.5, 0.25], [2.0, 1.0]], np.float32)
ys = np.array([1.0, 0.0, -1.0, 2.0], np.float32)

def model_fn(features, labels, mode):
    w = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer(0.5))
    pred = tf.squeeze(tf.matmul(features["x"], w), 1)
    loss = tf.losses.mean_squared_error(labels, pred) if labels is not None else None
    train_op = (tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=tf.train.get_global_step())
                if mode == learn.ModeKeys.TRAIN else None)
    return learn.ModelFnOps(mode=mode, predictions={"y": pred}, loss=loss, train_op=train_op)

def input_fn():
    return {"x": tf.constant(xs)}, tf.constant(ys)

est = learn.Estimator(model_fn=model_fn, model_dir=os.path.join(root, "est"),
                      config=learn.RunConfig(save_checkpoints_steps=1, save_checkpoints_secs=None))
report("base_estimator", [isinstance(est, learn.BaseEstimator), issubclass(learn.Estimator, learn.BaseEstimator),
                          issubclass(learn.LinearRegressor, learn.BaseEstimator),
                          issubclass(learn.DNNClassifier, learn.BaseEstimator),
                          isinstance(learn.SKCompat(est), learn.BaseEstimator),
                          isinstance(est, learn.Evaluable), isinstance(est, learn.Trainable)])
report_errors("base_estimator_errors", [
    ("model_dir_mismatch", lambda: learn.Estimator(model_fn=model_fn, model_dir=os.path.join(root, "a"),
                                                   config=learn.RunConfig(model_dir=os.path.join(root, "b"))))])
est.fit(input_fn=input_fn, steps=3)  # the checkpoint exported below
# export_estimator: the export directory of the latest checkpoint's step
def serving_input_fn(estimator, examples):   # the deprecated input_fn: parses the serialized examples
    return tf.parse_example(examples, {"x": tf.FixedLenFeature([2], tf.float32)})
learn.utils.export.export_estimator(est, os.path.join(root, "export"), input_fn=serving_input_fn,
                                    signature_fn=learn.utils.export.generic_signature_fn)
report("export_estimator", sorted(os.listdir(os.path.join(root, "export"))))
report("export_estimator_alias", learn.utils.export_estimator is learn.utils.export.export_estimator)
# make_parsing_export_strategy: a SavedModel parsing tf.Examples
strategy = learn.utils.saved_model_export_utils.make_parsing_export_strategy(
    [tf.contrib.layers.real_valued_column("x", dimension=2)], exports_to_keep=2)
report("strategy", [type(strategy).__name__, strategy.name])
exported = strategy.export(est, os.path.join(root, "servo"))
report("strategy_export", [len(os.path.basename(exported)), os.path.dirname(exported) == os.path.join(root, "servo").encode()])
with tf.Graph().as_default():
    with tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, ["serve"], exported)
        report("strategy_signatures", sorted(meta.signature_def))
        example = tf.train.Example(features=tf.train.Features(feature={
            "x": tf.train.Feature(float_list=tf.train.FloatList(value=[1.0, -2.0]))})).SerializeToString()
        signature = meta.signature_def["serving_default"] if "serving_default" in meta.signature_def else None
        report("strategy_signature", [signature.method_name, sorted(signature.inputs), sorted(signature.outputs)]
               if signature else None)
        report("strategy_predict", sess.run(signature.outputs["y"].name,
                                            {signature.inputs["examples"].name: [example]}) if signature else None)
# learn_runner: the module's public names and a "train" schedule
report("learn_runner", sorted(n for n in dir(learn.learn_runner) if not n.startswith("_") and n in ("run", "tune")))
def experiment_fn(output_dir):
    return learn.Experiment(learn.Estimator(model_fn=model_fn, model_dir=output_dir), train_input_fn=input_fn,
                            eval_input_fn=input_fn, train_steps=2, eval_steps=1)
learn.learn_runner.run(experiment_fn, output_dir=os.path.join(root, "runner"), schedule="train")
report("learn_runner_train", tf.train.load_variable(os.path.join(root, "runner"), "w"))

# BaseEstimator subclassed as TF 1.15 defined it
class Linear(learn.BaseEstimator):
    """TF 1.15's BaseEstimator protocol: the subclass builds each mode's ModelFnOps."""
    def _model(self, features):
        w = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer(0.25))
        return tf.squeeze(tf.matmul(features["x"], w), 1)
    def _get_train_ops(self, features, labels):
        pred = self._model(features)
        loss = tf.losses.mean_squared_error(labels, pred)
        train_op = tf.train.GradientDescentOptimizer(0.2).minimize(loss, global_step=tf.train.get_global_step())
        return learn.ModelFnOps(mode=learn.ModeKeys.TRAIN, predictions={"y": pred}, loss=loss, train_op=train_op)
    def _get_eval_ops(self, features, labels, metrics):
        pred = self._model(features)
        loss = tf.losses.mean_squared_error(labels, pred)
        return learn.ModelFnOps(mode=learn.ModeKeys.EVAL, predictions={"y": pred}, loss=loss,
                                eval_metric_ops={"mae": tf.metrics.mean_absolute_error(labels, pred)})
    def _get_predict_ops(self, features):
        return learn.ModelFnOps(mode=learn.ModeKeys.INFER, predictions={"y": self._model(features)})
sub = Linear(model_dir=os.path.join(root, "subclass"))
sub.fit(input_fn=input_fn, steps=2)
report("subclass_w", sub.get_variable_value("w"))
report("subclass_eval", sub.evaluate(input_fn=input_fn, steps=1))
report("subclass_predict", sub.predict(input_fn=lambda: {"x": tf.constant(xs)}, as_iterable=False))
report("subclass_predict_iter", [p["y"] for p in sub.predict(input_fn=lambda: {"x": tf.constant(xs[:2])})])
class Half(learn.BaseEstimator):
    def _get_train_ops(self, features, labels):
        return None
report_errors("abstract", [("base", lambda: learn.BaseEstimator()), ("half", lambda: Half())])'''


@requires_tf115
def test_learn_rest_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["csv_errors"] == ["IndexError", "NotFoundError", "NotFoundError"]
  assert tf115["base_estimator_errors"]["model_dir_mismatch"] == "ValueError"
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)

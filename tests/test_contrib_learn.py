"""tf.contrib.learn (preprocessing, datasets) and tensorflow.examples.tutorials.mnist.input_data."""

import gzip
import json
import os
import pickle
import subprocess
import sys
import types

import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib import ContribNotProvidedError
from tf1clip.contrib import learn
from tf1clip.contrib.learn.datasets import base
from tf1clip.contrib.learn.datasets import mnist
from tf1clip.contrib.learn.preprocessing import text

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TF1_PREPROCESSING = "tensorflow.contrib.learn.python.learn.preprocessing"


# ---- MNIST idx files -------------------------------------------------------------------------


def _write_idx(path, magic, dims, payload):
  header = np.array([magic] + list(dims), dtype=">u4").tobytes()
  with gzip.open(path, "wb") as f:
    f.write(header + payload.astype(np.uint8).tobytes())


def _write_mnist(directory, n_train=7, n_test=3, rows=28, cols=28):
  """Four idx files whose pixel values encode (example index, pixel index); labels = index % 10."""
  rng = np.random.RandomState(1)
  train = rng.randint(0, 256, size=(n_train, rows, cols))
  test = rng.randint(0, 256, size=(n_test, rows, cols))
  train_labels = np.arange(n_train) % 10
  test_labels = (np.arange(n_test) + 3) % 10
  _write_idx(os.path.join(directory, mnist.TRAIN_IMAGES), 2051, (n_train, rows, cols), train)
  _write_idx(os.path.join(directory, mnist.TRAIN_LABELS), 2049, (n_train,), train_labels)
  _write_idx(os.path.join(directory, mnist.TEST_IMAGES), 2051, (n_test, rows, cols), test)
  _write_idx(os.path.join(directory, mnist.TEST_LABELS), 2049, (n_test,), test_labels)
  return train, train_labels, test, test_labels


def test_read_data_sets_shapes_values_and_validation_split(tmp_path, graph):  # pylint: disable=unused-argument
  train, train_labels, test, test_labels = _write_mnist(str(tmp_path))
  data = mnist.read_data_sets(str(tmp_path), validation_size=2)
  assert data.train.images.shape == (5, 784) and data.train.images.dtype == np.float32
  np.testing.assert_allclose(data.validation.images, train[:2].reshape(2, 784) / 255.0, rtol=1e-6)
  np.testing.assert_allclose(data.train.images, train[2:].reshape(5, 784).astype(np.float32) / 255.0,
                             rtol=1e-6)
  np.testing.assert_array_equal(data.train.labels, train_labels[2:])
  np.testing.assert_array_equal(data.test.labels, test_labels)
  assert data.train.labels.dtype == np.uint8 and data.test.num_examples == 3

  raw = mnist.read_data_sets(str(tmp_path), one_hot=True, dtype=tf.uint8, reshape=False,
                             validation_size=0)
  assert raw.train.images.shape == (7, 28, 28, 1) and raw.train.images.dtype == np.uint8
  np.testing.assert_array_equal(raw.test.images[..., 0], test)
  assert raw.train.labels.dtype == np.float64
  np.testing.assert_array_equal(raw.train.labels, np.eye(10)[train_labels])
  assert raw.validation.num_examples == 0


def test_read_data_sets_errors(tmp_path, graph):  # pylint: disable=unused-argument
  with pytest.raises(base.DatasetFileMissingError) as e:
    mnist.read_data_sets(str(tmp_path), validation_size=0)
  message = str(e.value)
  assert str(tmp_path) in message and "does not download" in message
  assert all(name in message for name in mnist.FILES)
  _write_mnist(str(tmp_path))
  with pytest.raises(ValueError, match="between 0 and 7. Received: 8"):
    mnist.read_data_sets(str(tmp_path), validation_size=8)
  with pytest.raises(TypeError, match="uint8 or float32"):
    mnist.read_data_sets(str(tmp_path), dtype=tf.int32, validation_size=0)
  _write_idx(os.path.join(str(tmp_path), mnist.TEST_LABELS), 2051, (3,), np.zeros(3))
  with pytest.raises(ValueError, match="Invalid magic number 2051 in MNIST label file"):
    mnist.read_data_sets(str(tmp_path), validation_size=0)


def test_next_batch_without_shuffle_walks_epochs_in_order(graph):  # pylint: disable=unused-argument
  images = np.arange(5 * 4, dtype=np.uint8).reshape(5, 2, 2, 1)
  data = mnist.DataSet(images, np.arange(5), dtype=tf.uint8)
  order = []
  for _ in range(4):
    _, labels = data.next_batch(3, shuffle=False)
    order.append(list(labels))
  # A batch crossing the end takes the rest of the epoch, then the start of the next one.
  assert order == [[0, 1, 2], [3, 4, 0], [1, 2, 3], [4, 0, 1]]
  assert data.epochs_completed == 2


def test_next_batch_shuffles_each_epoch_as_tf1_did(graph):
  tf.compat.v1.set_random_seed(5)
  n = 6
  images = np.arange(n * 4, dtype=np.uint8).reshape(n, 2, 2, 1)
  data = mnist.DataSet(images, np.arange(n), dtype=tf.uint8, seed=3)
  # TF 1.x: numpy's global generator is seeded with the op seed, then permuted with shuffle().
  _, op_seed = tf.compat.v1.random.get_seed(3)
  reference = np.random.RandomState(op_seed)
  perm0 = np.arange(n)
  reference.shuffle(perm0)
  perm1 = np.arange(n)
  reference.shuffle(perm1)
  batches = [data.next_batch(4)[1] for _ in range(3)]
  np.testing.assert_array_equal(batches[0], perm0[:4])
  epoch1 = perm0[perm1]  # TF 1.x permutes the already shuffled arrays
  np.testing.assert_array_equal(batches[1], np.concatenate([perm0[4:], epoch1[:2]]))
  np.testing.assert_array_equal(batches[2], epoch1[2:6])
  assert data.epochs_completed == 1
  assert graph is not None


def test_fake_data_and_one_hot_helper(graph):  # pylint: disable=unused-argument
  fake = mnist.read_data_sets("unused", fake_data=True, one_hot=True)
  images, labels = fake.train.next_batch(2, fake_data=True)
  assert len(images[0]) == 784 and labels == [[1] + [0] * 9] * 2
  np.testing.assert_array_equal(mnist.dense_to_one_hot(np.array([2, 0]), 3), [[0, 0, 1], [1, 0, 0]])


# ---- CSV loaders ----------------------------------------------------------------------------


def test_csv_loaders(tmp_path):
  with_header = tmp_path / "iris.csv"
  with_header.write_text("3,2,setosa,versicolor\n5.1,3.5,0\n4.9,3.0,1\n6.2,2.9,1\n")
  data = base.load_csv_with_header(str(with_header), target_dtype=np.int32, features_dtype=np.float32)
  np.testing.assert_allclose(data.data, [[5.1, 3.5], [4.9, 3.0], [6.2, 2.9]], rtol=1e-6)
  np.testing.assert_array_equal(data.target, [0, 1, 1])
  assert data.data.dtype == np.float32 and data.target.dtype == np.int32
  without = tmp_path / "rows.csv"
  without.write_text("7,1.5,2\n8,2.5,3\n")
  data = base.load_csv_without_header(str(without), target_dtype=np.int64, features_dtype=np.float64,
                                      target_column=0)
  np.testing.assert_array_equal(data.target, [7, 8])
  np.testing.assert_allclose(data.data, [[1.5, 2], [2.5, 3]])
  with pytest.raises(base.DatasetFileMissingError, match="local files only"):
    base.load_csv_with_header(str(tmp_path / "nope.csv"), np.int32, np.float32)


# ---- preprocessing --------------------------------------------------------------------------


def test_tokenizer_splits_as_tf1():
  docs = ["a b c", "a\nb\nc", "a, b - c", "фырфыр фыр", "abc def?", "HTTPServer CamelCase it's"]
  assert list(text.tokenizer(docs)) == [
      ["a", "b", "c"], ["a", "b", "c"], ["a", "b", "-", "c"], ["фырфыр", "фыр"], ["abc", "def"],
      ["HTTP", "Server", "Camel", "Case", "it's"]]


def test_vocabulary_processor_fit_transform_reverse():
  processor = text.VocabularyProcessor(max_document_length=4, min_frequency=1)
  ids = list(processor.fit_transform(["a b c", "a\nb\nc", "a, b - c"]))
  np.testing.assert_array_equal(ids, [[1, 2, 3, 0], [1, 2, 3, 0], [1, 2, 0, 3]])
  assert ids[0].dtype == np.int64 and len(processor.vocabulary_) == 4
  assert list(processor.reverse(ids[2:])) == ["a b <UNK> c"]
  # Frozen after fit: new words are unknown, long documents are cut.
  np.testing.assert_array_equal(list(processor.transform(["c z a b c a"])), [[3, 0, 1, 2]])


def test_vocabulary_processor_with_existing_vocabulary_and_tokenizer():
  vocab = learn.preprocessing.CategoricalVocabulary()
  vocab.get("A")
  vocab.get("B")
  vocab.freeze()
  processor = text.VocabularyProcessor(max_document_length=4, vocabulary=vocab, tokenizer_fn=list)
  np.testing.assert_array_equal(list(processor.fit_transform(["ABC", "CBABAF"])),
                                [[1, 2, 0, 0], [0, 2, 1, 2]])


def test_vocabulary_processor_save_restore(tmp_path):
  processor = text.VocabularyProcessor(max_document_length=3)
  processor.fit(["the cat sat", "the dog"])
  path = str(tmp_path / "vocab")
  processor.save(path)
  restored = text.VocabularyProcessor.restore(path)
  assert restored.vocabulary_._mapping == processor.vocabulary_._mapping  # pylint: disable=protected-access
  np.testing.assert_array_equal(list(restored.transform(["the dog sat"])), [[1, 4, 3]])


@pytest.mark.parametrize("protocol", [0, 2, 3])
def test_restore_reads_a_file_pickled_by_tf1(tmp_path, monkeypatch, protocol):
  """A pickle naming TF 1.x's modules (as TF 1.x's VocabularyProcessor.save wrote) restores."""
  text_module = types.ModuleType(TF1_PREPROCESSING + ".text")
  vocab_module = types.ModuleType(TF1_PREPROCESSING + ".categorical_vocabulary")

  class CategoricalVocabulary:  # the TF 1.x classes' state, under their module names
    pass

  class VocabularyProcessor:
    pass

  def tokenizer(iterator):  # pylint: disable=unused-argument
    raise AssertionError("the restored processor must use tf1clip's tokenizer")

  for obj, module in ((CategoricalVocabulary, vocab_module), (VocabularyProcessor, text_module),
                      (tokenizer, text_module)):
    obj.__module__ = module.__name__
    obj.__qualname__ = obj.__name__
    setattr(module, obj.__name__, obj)
    monkeypatch.setitem(sys.modules, module.__name__, module)
  vocab = CategoricalVocabulary()
  vocab.__dict__.update(_unknown_token="<UNK>", _mapping={"<UNK>": 0, "hello": 1, "world": 2},
                        _support_reverse=True, _reverse_mapping=["<UNK>", "hello", "world"],
                        _freq={"hello": 2, "world": 1}, _freeze=True)
  old = VocabularyProcessor()
  old.__dict__.update(max_document_length=3, min_frequency=0, vocabulary_=vocab, _tokenizer=tokenizer)
  payload = pickle.dumps(old, protocol=protocol)
  assert TF1_PREPROCESSING.encode() in payload
  path = tmp_path / "vocab.pickle"
  path.write_bytes(payload)
  for module in (text_module, vocab_module):
    monkeypatch.delitem(sys.modules, module.__name__)

  restored = text.VocabularyProcessor.restore(str(path))
  assert type(restored) is text.VocabularyProcessor
  assert type(restored.vocabulary_) is learn.preprocessing.CategoricalVocabulary
  assert restored._tokenizer is text.tokenizer  # pylint: disable=protected-access
  np.testing.assert_array_equal(list(restored.transform(["world, hello again"])), [[2, 1, 0]])
  assert list(restored.reverse([[1, 2, 0]])) == ["hello world <UNK>"]


def test_restore_rejects_other_pickles(tmp_path):
  path = tmp_path / "list.pickle"
  path.write_bytes(pickle.dumps([1, 2]))
  with pytest.raises(TypeError, match="not a VocabularyProcessor"):
    text.VocabularyProcessor.restore(str(path))


def test_old_estimator_api_is_served_and_the_rest_fails_naming_a_replacement():
  from tf1clip.contrib.learn import canned, estimator, experiment  # pylint: disable=import-outside-toplevel
  assert learn.DNNClassifier is canned.DNNClassifier
  assert learn.Estimator is estimator.Estimator and learn.SKCompat is estimator.SKCompat
  assert learn.Experiment is experiment.Experiment
  assert learn.learn_runner.run is learn.learn_runner.run and callable(learn.learn_runner.run)
  from tf1clip.contrib.learn import dynamic_rnn_estimator, svm  # pylint: disable=import-outside-toplevel
  assert learn.SVM is svm.SVM and learn.DynamicRnnEstimator is dynamic_rnn_estimator.DynamicRnnEstimator
  with pytest.raises(ContribNotProvidedError, match=r"^tf\.contrib\.learn\.NoSuchEstimator is not provided"):
    learn.NoSuchEstimator  # pylint: disable=pointless-statement


# ---- the tutorial script under `tf1clip run` ---------------------------------------------------


def test_mnist_tutorial_script_runs_under_tf1clip_run(tmp_path):
  _write_mnist(str(tmp_path))
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
  env.pop("TF_USE_LEGACY_KERAS", None)
  proc = subprocess.run(
      [sys.executable, "-m", "tf1clip", "run", "mnist_tutorial.py", str(tmp_path)],
      cwd=os.path.join(REPO, "tests", "fixtures", "legacy"), capture_output=True, text=True, env=env,
      timeout=600)
  assert proc.returncode == 0, proc.stderr[-3000:]
  assert proc.stdout.count("Extracting") == 4
  result = json.loads([l for l in proc.stdout.splitlines() if l.startswith("RESULT ")][0][7:])
  assert result["train"] == [5, 784] and result["validation"] == 2 and result["test_labels"] == [3, 10]
  assert result["epochs"] == 1  # 3 batches of 3 from 5 examples cross one epoch end
  assert all(np.isfinite(result["losses"])) and result["same_module"]


def test_missing_mnist_files_stop_the_script_with_where_to_put_them(tmp_path):
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
  proc = subprocess.run(
      [sys.executable, "-m", "tf1clip", "run", "mnist_tutorial.py", str(tmp_path)],
      cwd=os.path.join(REPO, "tests", "fixtures", "legacy"), capture_output=True, text=True, env=env,
      timeout=600)
  assert proc.returncode == 1
  assert "DatasetFileMissingError: MNIST files missing in %s" % tmp_path in proc.stderr
  assert "train-images-idx3-ubyte.gz" in proc.stderr

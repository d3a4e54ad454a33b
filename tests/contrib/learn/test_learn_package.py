"""tf1clip.contrib.learn declares the names it serves beside its code (issue #34): real imports, two lazy names
(RunConfig, TaskType), utils.gc's names from tensorflow-estimator, SUCCESSOR for what is not served; and importing
the package leaves tensorflow-estimator unimported."""

import subprocess
import sys

import pytest

from tf1clip.contrib import catalog
from tf1clip.contrib import learn


@pytest.mark.parametrize("name, module, attr", [
    ("Estimator", "estimator", "Estimator"), ("SKCompat", "estimator", "SKCompat"),
    ("DNNClassifier", "canned", "DNNClassifier"), ("Experiment", "experiment", "Experiment"),
    ("NanLossDuringTrainingError", "monitors", "NanLossDuringTrainingError"), ("train", "graph_actions", "train"),
    ("read_batch_examples", "io", "read_batch_examples"), ("multi_head", "head", "multi_head"),
    ("make_export_strategy", "utils", "make_export_strategy"), ("SVM", "svm", "SVM"),
    ("RunConfig", "run_config", "RunConfig")])
def test_package_names_are_their_modules_objects(name, module, attr):
  assert getattr(learn, name) is getattr(getattr(learn, module), attr)


def test_task_type_and_gc_are_tensorflow_estimators():
  from tensorflow_estimator.python.estimator import gc  # pylint: disable=import-outside-toplevel
  from tensorflow_estimator.python.estimator import run_config  # pylint: disable=import-outside-toplevel
  assert learn.TaskType is run_config.TaskType
  assert learn.utils.gc.Path is gc.Path
  assert learn.utils.gc.largest_export_versions is gc._largest_export_versions  # pylint: disable=protected-access


def test_a_name_not_served_names_the_successor():
  with pytest.raises(catalog.ContribNotProvidedError, match="tf.contrib.learn.NoSuchThing.*tf.estimator"):
    learn.NoSuchThing  # pylint: disable=pointless-statement
  assert not hasattr(catalog, "SERVED") and "tf.contrib.learn" not in catalog.UNSUPPORTED


def test_import_leaves_tensorflow_estimator_unimported():
  code = "import sys, tf1clip.contrib.learn; print('tensorflow_estimator' in sys.modules)"
  done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
  assert done.stdout.strip().splitlines()[-1] == "False", done.stderr[-2000:]

"""`tf.contrib.learn.learn_runner`: build an Experiment and run the schedule TF 1.15 chose for the task.

Place in the data flow (DESIGN.md): contrib.learn.experiment <- **contrib.learn.learn_runner** <- compat <- cli.

`run(experiment_fn, output_dir=... | run_config=..., schedule=None, hparams=None)` calls
`experiment_fn(output_dir=)` (the old form) or `experiment_fn(run_config, hparams)` and runs `schedule`, by
default TF 1.15's: train_and_evaluate when not distributed, run_std_server on a ps, train on a worker,
train_and_evaluate on a master.
"""

from tf1clip.contrib.learn.experiment import Experiment



def _is_distributed(config):
  spec = config.cluster_spec
  if not spec:
    return False
  return sum(len(spec.job_tasks(job)) for job in spec.jobs) > 1


def _default_schedule(config):
  if not config or not _is_distributed(config):
    return "train_and_evaluate"
  if not config.task_type:
    raise ValueError("Must specify a schedule")
  schedule = {"master": "train_and_evaluate", "ps": "run_std_server", "worker": "train"}.get(
      config.task_type)
  if schedule is None:
    raise ValueError("No default schedule for task type: %s" % config.task_type)
  return schedule


def _execute_schedule(experiment, schedule):
  task = getattr(experiment, schedule, None)
  valid = [x for x in dir(experiment) if not x.startswith("_") and callable(getattr(experiment, x))]
  if task is None:
    raise ValueError("Schedule references non-existent task %s (allowed: %s)" % (schedule, valid))
  if not callable(task):
    raise TypeError("Schedule references non-callable member %s (allowed: %s)" % (schedule, valid))
  return task()


def run(experiment_fn, output_dir=None, schedule=None, run_config=None, hparams=None):
  """Builds the Experiment (`experiment_fn(output_dir)` or `(run_config, hparams)`) and runs `schedule`."""
  if output_dir is not None and run_config is not None:
    raise ValueError("Cannot provide both `output_dir` and `run_config`")
  if output_dir is None and run_config is None:
    raise ValueError("Must set value for `output_dir` or `run_config`")
  if not callable(experiment_fn):
    raise TypeError('Experiment builder "%s" is not callable.' % experiment_fn)
  if run_config is not None:
    if not hasattr(run_config, "model_dir"):
      raise ValueError("`run_config` must be `tf.contrib.learn.RunConfig` instance")
    if not run_config.model_dir:
      raise ValueError("Must specify a model directory `model_dir` in `run_config`.")
    experiment = experiment_fn(run_config, hparams)
  else:
    if not output_dir:
      raise ValueError("Must specify an output directory")
    if hparams is not None:
      raise ValueError("Must set `hparams` as None for `experiment_fn` with `output_dir`.")
    experiment = experiment_fn(output_dir=output_dir)
  if not isinstance(experiment, Experiment):
    raise TypeError("Experiment builder did not return an Experiment instance, got %s instead."
                    % type(experiment))
  run_config = run_config or experiment.estimator.config
  return _execute_schedule(experiment, schedule or _default_schedule(run_config))


def tune(experiment_fn, tuner):
  """Runs `experiment_fn(run_config, hparams)` for each of the tuner's trials (TF 1.15's)."""
  while tuner.next_trial():
    tuner.run_experiment(lambda run_config, hparams: experiment_fn(run_config, hparams))

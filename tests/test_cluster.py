"""`tf1clip cluster`: the roles each task gets, supervision, faults, and the classic distributed script.

The supervision tests use a fixture script without TensorFlow (tests/fixtures/cluster/roles.py) so
each task starts in a fraction of a second; one test runs the real example on TF's gRPC runtime.
"""

import json
import os
import re
import subprocess
import sys

import pytest

from tf1clip.tools import cluster

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROLES = os.path.join(REPO, "tests", "fixtures", "cluster", "roles.py")
EXAMPLE = os.path.join(REPO, "examples", "legacy", "distributed_mnist_style.py")


def _cluster(*args, timeout=300):
  """Runs `tf1clip cluster` with its own --timeout (unless given), so a hang fails with every task's output."""
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
  bound = [] if "--timeout" in args else ["--timeout", str(timeout - 30)]
  proc = subprocess.run([sys.executable, "-m", "tf1clip", "cluster", *bound, *args],
                        capture_output=True, text=True, env=env, timeout=timeout, cwd=REPO)
  return proc.returncode, proc.stdout, proc.stderr


def test_plan_gives_loopback_addresses_flags_and_tf_config():
  tasks = cluster.plan_cluster(1, 2)
  assert [t.role for t in tasks] == ["ps:0", "worker:0", "worker:1"]
  assert all(re.fullmatch(r"127\.0\.0\.1:\d+", t.address) for t in tasks)
  assert len({t.address for t in tasks}) == 3
  worker1 = tasks[2]
  flags = cluster.task_flags(tasks, worker1)
  assert flags == ["--job_name=worker", "--task_index=1", "--ps_hosts=" + tasks[0].address,
                   "--worker_hosts=%s,%s" % (tasks[1].address, tasks[2].address)]
  config = json.loads(cluster.task_environment(tasks, worker1, {})["TF_CONFIG"])
  assert config == {"cluster": {"ps": [tasks[0].address],
                                "worker": [tasks[1].address, tasks[2].address]},
                    "task": {"type": "worker", "index": 1}}
  assert cluster.chief_of(tasks) == tasks[1]


def test_plan_with_chief_and_hosts_lays_tasks_round_robin():
  tasks = cluster.plan_cluster(1, 2, chief=True, hosts=["a", "b"], base_port=3000)
  assert [(t.role, t.address) for t in tasks] == [
      ("chief:0", "a:3000"), ("ps:0", "b:3000"), ("worker:0", "a:3001"), ("worker:1", "b:3001")]
  assert cluster.chief_of(tasks).role == "chief:0"
  assert "--chief_hosts=a:3000" in cluster.task_flags(tasks, tasks[0])


@pytest.mark.parametrize("args, message", [
    (["--workers", "0", "x.py"], "--workers must be an integer >= 1; got 0"),
    (["--ps", "-1", "x.py"], "argument --ps: a count must be at least 0; got '-1'"),
    (["--timeout", "0", "x.py"], "argument --timeout: a duration in seconds must be > 0; got '0'"),
    (["--grace", "-1", "x.py"], "argument --grace: a duration in seconds must be at least 0; got '-1'"),
])
def test_bad_arguments_exit_2_naming_the_flag(args, message, tmp_path):
  script = tmp_path / "x.py"
  script.write_text("")
  args = [str(script) if a == "x.py" else a for a in args]
  status, _, stderr = _cluster(*args)
  assert status == 2
  assert message in stderr


def test_every_task_gets_its_role_and_output_is_prefixed_and_ps_stopped():
  status, out, _ = _cluster("--ps", "1", "--workers", "2", ROLES)
  assert status == 0, out
  for role in ("ps:0", "worker:0", "worker:1"):
    assert re.search(r"^\[%s\] role %s .*tf_config_task=%s$" % (role, role, role), out, re.M), out
  assert "[worker:0] finished worker:0" in out and "[worker:1] finished worker:1" in out


def test_exit_status_is_the_chiefs():
  status, out, _ = _cluster("--ps", "1", "--workers", "2", ROLES, "--behaviour=chief_status")
  assert status == 7, out


def test_a_killed_worker_is_reported_and_the_others_finish():
  status, out, _ = _cluster("--ps", "1", "--workers", "2", ROLES, "--behaviour=worker_killed")
  assert status == 0, out
  assert "worker:1 killed by signal 9" in out
  assert "[worker:0] finished worker:0" in out


def test_a_synchronous_job_that_lost_a_worker_ends_naming_it_or_finishes_with_restart(tmp_path, monkeypatch):
  monkeypatch.setenv("LOST_MARKER", str(tmp_path / "lost"))
  status, out, _ = _cluster("--ps", "1", "--workers", "2", "--grace", "3", ROLES, "--behaviour=sync_lost_worker")
  assert status == 1, out
  assert "worker:1 killed by signal 9" in out and "the other tasks go on" not in out
  assert "no task has printed anything for 3 s since worker:1 died" in out
  assert "waiting for worker:1's replica" in out and "--restart N" in out
  (tmp_path / "lost").unlink()
  status, out, _ = _cluster("--ps", "1", "--workers", "2", "--restart", "1", ROLES,
                            "--behaviour=sync_lost_worker")
  assert status == 0, out
  assert "restarting worker:1 (1 of 1)" in out and "[worker:1] worker 1 rejoined" in out
  assert "[worker:0] finished worker:0" in out and "[worker:1] finished worker:1" in out


def test_every_task_ending_at_once_is_named():
  status, out, _ = _cluster("--ps", "1", "--workers", "2", ROLES, "--behaviour=everyone_fails")
  assert status == 1, out
  assert re.search(r"^tf1clip cluster: .*ended: stopping the job$", out, re.M), out
  summary = re.search(r"^tf1clip cluster: summary after [\d.]+ s: (.*)$", out, re.M)
  # Each task is named once, in task order, with its status. Which ends first is a race: the first to
  # exit 1 stops the job, and a task not yet ended then is "stopped" (or killed by signal 15).
  assert summary, out
  status_re = r"(exit 1|stopped|killed by signal 15)"
  parts = re.fullmatch(r"ps:0 %s, worker:0 %s, worker:1 %s" % (status_re, status_re, status_re),
                       summary.group(1))
  assert parts, summary.group(1)
  assert "exit 1" in parts.groups(), summary.group(1)


def test_a_worker_still_running_after_the_chief_finished_is_stopped_after_the_grace():
  # TF 1.x's non-chief worker that waits forever once the chief has gone (a sync token, a recovery
  # poll): the job ends with the chief's status, naming the worker it stopped.
  status, out, _ = _cluster("--ps", "1", "--workers", "2", "--grace", "1", ROLES,
                            "--behaviour=worker_hangs")
  assert status == 0, out
  assert "[worker:0] finished worker:0" in out
  assert "worker:1 still running 1 s after the chief finished: stopping it" in out


def test_a_dead_ps_ends_the_job_naming_the_task_and_its_last_output():
  status, out, _ = _cluster("--ps", "1", "--workers", "2", "--timeout", "120", ROLES,
                            "--behaviour=ps_dies")
  assert status == 1, out
  assert "ps:0 exited with status 3" in out
  assert "[ps:0] ps giving up" in out.split("ps:0 exited with status 3", 1)[1]
  assert "stopping the job" in out
  assert "finished" not in out  # the workers were stopped, not waited for (they would wait 60 s)


def test_hosts_print_the_command_for_each_remote_task(tmp_path):
  script = tmp_path / "x.py"
  script.write_text("")
  # Every host is remote: nothing starts here, and each task's command is printed.
  status, out, _ = _cluster("--ps", "1", "--workers", "1", "--hosts", "10.0.0.1,10.0.0.2",
                            "--timeout", "5", str(script))
  assert ("start ps:0 on 10.0.0.1 with: tf1clip cluster --task ps:0 --ps 1 --workers 1 --hosts "
          "10.0.0.1,10.0.0.2 --port 2222") in out
  assert "start worker:0 on 10.0.0.2 with: tf1clip cluster --task worker:0" in out
  assert status == 0


@pytest.mark.parametrize("shape", [(["--ps", "1", "--workers", "1"], 2), (["--ps", "2", "--workers", "3"], 3),
                                   (["--chief", "--ps", "1", "--workers", "2", "--port", "3000"], 2)])
def test_each_printed_command_plans_the_same_cluster_on_its_host(shape):
  options, num_hosts = shape
  hosts = ["h%d" % i for i in range(num_hosts)]
  args = cluster.build_parser().parse_args(options + ["--hosts", ",".join(hosts), "train.py", "--steps", "5"])
  tasks = cluster.plan_cluster(args.ps, args.workers, args.chief, args.hosts.split(","), args.port)
  for task in tasks:
    command = cluster.remote_command(tasks, task, "train.py", ["--steps", "5"])
    assert command[:2] == ["tf1clip", "cluster"] and command[-3:] == ["train.py", "--steps", "5"]
    there = cluster.build_parser().parse_args(command[2:])
    replanned = cluster.plan_cluster(there.ps, there.workers, there.chief, there.hosts.split(","), there.port)
    assert replanned == tasks and there.task == task.role


def test_distributed_example_trains_synchronously_and_resumes_after_a_chief_restart(tmp_path):
  train_dir = str(tmp_path / "train")
  args = ["--ps", "1", "--workers", "2", EXAMPLE, "--train_dir", train_dir, "--batch_size", "32",
          "--hidden_units", "16", "--log_every", "3"]
  status, out, err = _cluster(*args, "--train_steps", "30")
  assert status == 0, out + err
  # SyncReplicasOptimizer does not promise each worker a share of every step (a fast worker may send
  # both gradients of a step), so the loss is followed across workers, in global-step order.
  points = sorted((int(step), float(loss)) for step, loss in re.findall(
      r"^\[worker:\d\] worker \d: local step \d+, global step (\d+), loss ([\d.]+)$", out, re.M))
  assert len(points) >= 2 and points[-1][1] < points[0][1], out
  assert os.path.exists(os.path.join(train_dir, "checkpoint"))
  assert "CancelledError" not in out

  # The chief restarted (here with one worker, which is its own chief) and a later last step:
  # MonitoredTrainingSession resumes from the checkpoint, and global_step goes on from there.
  args[args.index("--workers") + 1] = "1"
  status, out, err = _cluster(*args, "--train_steps", "50")
  assert status == 0, out + err
  first_step = int(re.search(r"^\[worker:0\] worker 0: local step 1, global step (\d+)", out,
                             re.M).group(1))
  assert first_step >= 30, out


def test_estimator_script_trains_distributed_from_tf_config(tmp_path):
  model_dir = str(tmp_path / "model")
  status, out, err = _cluster(
      "--chief", "--ps", "1", "--workers", "1", "--timeout", "240",
      os.path.join(REPO, "examples", "legacy", "estimator_train.py"), "--model_dir", model_dir,
      "--train_steps", "40", "--log_every", "20")
  assert status == 0, out + err
  # The chief and the worker train one model (variables on the ps) to the same last step; only the chief
  # evaluates at the end and exports the model, once.
  chief_eval = re.search(r"^\[chief:0\] eval after step (\d+): loss ([\d.]+)", out, re.M)
  assert chief_eval and chief_eval.group(1) == "40", out
  assert "[worker:0] eval after step" not in out and "[worker:0] exported" not in out
  assert out.count("exported SavedModel") == 1 and "[chief:0] exported SavedModel" in out
  assert re.search(r"^tf1clip cluster: starting chief:0 at 127\.0\.0\.1:\d+, ps:0 at", out, re.M), out
  assert re.search(r"^tf1clip cluster: summary after [\d.]+ s: chief:0 exit 0, ps:0 stopped, worker:0 exit 0",
                   out, re.M), out
  assert os.path.exists(os.path.join(model_dir, "checkpoint"))


def test_python_option_runs_each_task_as_plain_python_script(tmp_path, monkeypatch):
  tasks = cluster.plan_cluster(1, 1)
  worker = tasks[1]
  flags = cluster.task_flags(tasks, worker)
  plain = cluster.task_command("up.py", ["--a", "1"], tasks, worker,
                               prefix=cluster.launcher(plain_python=True))
  assert plain == [sys.executable, "up.py", "--a", "1"] + flags
  default = cluster.task_command("up.py", ["--a", "1"], tasks, worker)
  assert default == [sys.executable, "-m", "tf1clip", "run", "up.py", "--a", "1"] + flags
  assert cluster.task_command("up.py", [], tasks, worker, pass_flags=False,
                              prefix=cluster.launcher(True, python="py3")) == ["py3", "up.py"]

  # `tf1clip cluster --python` hands the plain prefix to the launcher; without it, tf1clip run.
  script = tmp_path / "up.py"
  script.write_text("")
  seen = []
  monkeypatch.setattr(cluster, "run_cluster", lambda *a, **k: seen.append(k["prefix"]) or 0)
  assert cluster.main(["--ps", "1", "--workers", "1", "--python", str(script), "--x"]) == 0
  assert cluster.main(["--ps", "1", "--workers", "1", str(script)]) == 0
  assert seen == [[sys.executable], [sys.executable, "-m", "tf1clip", "run"]]
  assert "--python" in cluster.build_parser().format_help()

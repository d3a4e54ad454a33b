"""`tf1clip cluster`: start a TF1 ps/worker cluster of one legacy script on TensorFlow's own gRPC runtime.

Place in the data flow (DESIGN.md): compat.runner <- **tools.cluster** <- cli. Each task is a process
`python -m tf1clip run script.py [args...]` (so the script runs unchanged, as under `tf1clip run`) given
the two conventions legacy distributed scripts read:

- flags: `--job_name=<ps|worker|chief> --task_index=<i> --ps_hosts=<h:p,...> --worker_hosts=<h:p,...>`
  (the between-graph replication scripts of TF 1.x: `tf.train.ClusterSpec`, `tf.train.Server`,
  `replica_device_setter`, `SyncReplicasOptimizer`), unless `--no_flags` (or `--chief`);
- the `TF_CONFIG` environment variable (`{"cluster": {...}, "task": {"type": ..., "index": ...}}`),
  which tf.estimator's RunConfig and tf.distribute's cluster resolvers read. Estimator scripts
  (`train_and_evaluate`) run distributed with `tf1clip cluster --chief --ps 1 --workers 1 train.py`:
  the estimator library starts each task's server, places variables on the ps tasks and runs the
  chief, worker and ps roles itself.

`--python` runs each task as `python script.py [args...]` instead: for a script that already runs under
plain Python, e.g. the copy `tf1clip upgrade` wrote (it imports `tf1clip.compat.v1` itself), so the
upgraded script is launched exactly as its user will launch it, without tf1clip's import hook.

There is no parameter server of ours: the ps tasks are the script's own `tf.train.Server(...).join()`.

Lifetime: every task's output is echoed line by line with its role as prefix ("[worker:1] ...").
The launcher waits for the chief (`--chief`'s task, else worker 0) and the other workers; then it stops
the ps tasks (they serve forever by design) and exits with the chief's status. Once the chief has
finished, the other workers get `--grace` seconds (60 by default) to finish too; one still running then
is stopped and named. That is TF 1.x's own behaviour made finite: a non-chief worker can wait forever
after the chief has gone (a synchronous worker for the token of a step nobody will aggregate, any
worker for a session whose recovery polls a chief that no longer answers), which in TF 1.x left
the job to be killed by hand. A worker that dies is
reported; with `--restart N` it is started again (same flags, same TF_CONFIG, up to N times per task) and
rejoins through MonitoredTrainingSession / Supervisor recovery. Without it, asynchronous training goes on,
while a synchronous job (SyncReplicasOptimizer) can no longer gather its replicas: the job ends, naming the
dead task, once no task has printed anything for `--grace` seconds. A ps task or the chief that dies while the workers run ends the whole
job: the launcher names the task, shows its last output, stops the others and exits non-zero — a
cluster without its parameters cannot finish, and would otherwise hang in gRPC retries. `--timeout`
bounds the whole job.

Multi-machine clusters: `--hosts h1,h2,...` lays the tasks (chief, ps, then workers, in that order)
onto the given hosts (ports picked from `--port`); the launcher starts the tasks whose host is this
machine and prints the one command that starts each of the others there (`--task worker:1`), so the
same cluster description serves every machine.
"""

import argparse
import collections
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

from tf1clip import flag_values

_LOCAL_HOSTS = frozenset(["localhost", "127.0.0.1", "::1"])
_TAIL_LINES = 20


class Task(collections.namedtuple("Task", "job index address")):
  """One task of the cluster: job name ("chief", "ps", "worker"), index in the job, "host:port"."""

  @property
  def role(self):
    return "%s:%d" % (self.job, self.index)


def _free_port():
  """A TCP port on the loopback interface that nobody listens on now."""
  with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
    s.bind(("127.0.0.1", 0))
    return s.getsockname()[1]


def plan_cluster(num_ps, num_workers, chief=False, hosts=None, base_port=2222):
  """The tasks of a cluster, in start order (chief, ps, workers).

  Args:
    num_ps: number of parameter-server tasks (>= 0).
    num_workers: number of worker tasks (>= 1; >= 0 with `chief`).
    chief: whether a separate "chief" task exists (estimator-style TF_CONFIG); otherwise worker 0
      is the chief, the TF 1.x convention (`is_chief = task_index == 0`).
    hosts: None for this machine's loopback (free ports picked now), or a list of host names laid
      round-robin onto the tasks, each given `base_port` plus its position on that host.
    base_port: the first port on each host when `hosts` is given.

  Returns:
    A list of Task.

  Raises:
    ValueError: a count out of range, or an empty host list.
  """
  for name, value, low in (("--ps", num_ps, 0), ("--workers", num_workers, 0 if chief else 1)):
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
      raise ValueError("%s must be an integer >= %d; got %r" % (name, low, value))
  jobs = ([("chief", 0)] if chief else []) + [("ps", i) for i in range(num_ps)] + [
      ("worker", i) for i in range(num_workers)]
  if hosts is None:
    return [Task(job, i, "127.0.0.1:%d" % _free_port()) for job, i in jobs]
  hosts = [h.strip() for h in hosts if h.strip()]
  if not hosts:
    raise ValueError("--hosts must name at least one host; got an empty list")
  used = collections.Counter()
  tasks = []
  for position, (job, i) in enumerate(jobs):
    host = hosts[position % len(hosts)]
    port = flag_values.check_port(base_port + used[host], "--port %d with %d task(s) on %s" % (
        base_port, used[host] + 1, host))
    tasks.append(Task(job, i, "%s:%d" % (host, port)))
    used[host] += 1
  return tasks


def cluster_spec(tasks):
  """The cluster as TF_CONFIG's "cluster" dict: job -> list of "host:port", by task index."""
  spec = collections.OrderedDict()
  for task in tasks:
    spec.setdefault(task.job, []).append(task.address)
  return dict(spec)


def chief_of(tasks):
  """The task whose exit status is the job's: the "chief" task if any, else worker 0."""
  for job in ("chief", "worker"):
    for task in tasks:
      if task.job == job and task.index == 0:
        return task
  raise ValueError("a cluster needs a chief or at least one worker")


def task_environment(tasks, task, base_env=None):
  """The environment of one task's process: `base_env` plus its TF_CONFIG."""
  env = dict(os.environ if base_env is None else base_env)
  env["TF_CONFIG"] = json.dumps({
      "cluster": cluster_spec(tasks),
      "task": {"type": task.job, "index": task.index},
  })
  return env


def task_flags(tasks, task):
  """The command-line flags TF 1.x distributed scripts define for their role."""
  spec = cluster_spec(tasks)
  flags = ["--job_name=%s" % task.job, "--task_index=%d" % task.index,
           "--ps_hosts=%s" % ",".join(spec.get("ps", [])),
           "--worker_hosts=%s" % ",".join(spec.get("worker", []))]
  if "chief" in spec:
    flags.append("--chief_hosts=%s" % ",".join(spec["chief"]))
  return flags


def launcher(plain_python=False, python=None):
  """The command prefix that starts a script: `python -m tf1clip run`, or `python` with `plain_python`.

  Args:
    plain_python: run the script under the bare interpreter (`tf1clip cluster --python`).
    python: the interpreter (default: the one running tf1clip).

  Returns:
    A list of argv words; the script and its arguments follow.
  """
  interpreter = python or sys.executable
  return [interpreter] if plain_python else [interpreter, "-m", "tf1clip", "run"]


def task_command(script, script_args, tasks, task, pass_flags=True, python=None, prefix=None):
  """The command line that runs `task`: the script with its role's flags.

  Args:
    script, script_args: the script and its own arguments.
    tasks: the cluster (plan_cluster()).
    task: the Task to run.
    pass_flags: append --job_name/--task_index/--ps_hosts/--worker_hosts.
    python: the interpreter for the default prefix.
    prefix: the argv words before the script (launcher()); default `python -m tf1clip run`.

  Returns:
    The argv list.
  """
  command = list(prefix or launcher(python=python)) + [script] + list(script_args)
  if pass_flags:
    command += task_flags(tasks, task)
  return command


def _is_local(address):
  host = address.rsplit(":", 1)[0]
  return host in _LOCAL_HOSTS or host in (socket.gethostname(), socket.getfqdn())


class _Process:
  """One running task: its process, and a thread echoing its output with the role as prefix."""

  def __init__(self, task, command, env, out):
    self.task = task
    self.tail = collections.deque(maxlen=_TAIL_LINES)
    self.proc = subprocess.Popen(
        command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, errors="replace", bufsize=1,
        start_new_session=True)  # its own process group: stopping it stops what it started
    self._out = out
    self.last_output = time.monotonic()  # when it last printed (or started): progress, as seen from here
    self._reader = threading.Thread(target=self._echo, daemon=True)
    self._reader.start()

  def _echo(self):
    prefix = "[%s] " % self.task.role
    for line in self.proc.stdout:
      self.last_output = time.monotonic()
      self.tail.append(line.rstrip("\n"))
      self._out.write(prefix + line if line.endswith("\n") else prefix + line + "\n")
      self._out.flush()

  def poll(self):
    return self.proc.poll()

  def stop(self, grace_seconds=5.0):
    """SIGTERM, then SIGKILL after `grace_seconds`; returns the exit status."""
    if self.proc.poll() is None:
      try:
        os.killpg(self.proc.pid, signal.SIGTERM)
        self.proc.wait(grace_seconds)
      except subprocess.TimeoutExpired:
        os.killpg(self.proc.pid, signal.SIGKILL)
      except ProcessLookupError:
        pass
    status = self.proc.wait()
    self._reader.join(2.0)
    return status


def _report(out, message):
  out.write("tf1clip cluster: %s\n" % message)
  out.flush()


def _status_word(status, task):
  if status == 0:
    return "exit 0"
  if task.job == "ps" and status in (-signal.SIGTERM, -signal.SIGKILL):
    return "stopped"
  return ("killed by signal %d" % -status) if status < 0 else "exit %d" % status


def _describe_death(process, status):
  how = ("killed by signal %d" % -status) if status < 0 else ("exited with status %d" % status)
  lines = ["%s %s" % (process.task.role, how)]
  if process.tail:
    lines.append("its last output:")
    lines += ["  [%s] %s" % (process.task.role, line) for line in process.tail]
  return "\n".join(lines)


def run_cluster(script, script_args, tasks, pass_flags=True, only=None, timeout=None,
                out=None, poll_seconds=0.2, prefix=None, grace=60.0, restart=0):
  """Starts the local tasks of a cluster, supervises them, and returns the job's exit status.

  Args:
    script: the legacy script every task runs.
    script_args: its arguments (before the role flags).
    tasks: the cluster (plan_cluster()).
    pass_flags: give each task --job_name/--task_index/--ps_hosts/--worker_hosts.
    only: None to start every task on this machine, or one Task to start just that one.
    timeout: seconds after which every task is stopped and the job fails (None: no limit).
    out: where prefixed output and the launcher's own messages go (default sys.stdout).
    poll_seconds: how often the processes are checked.
    prefix: the argv words that start the script (launcher()); default `python -m tf1clip run`.
    grace: seconds the other workers may run on after the chief has finished successfully; then
      they are stopped (their status does not change the job's). Also: after a worker died for good,
      the job ends when no task has printed anything for this long (a synchronous job is stalled).
    restart: times a worker (not the chief, not a ps) that died is started again, per task.

  Returns:
    The chief's exit status (0 when it finished); 1 when a ps task or the chief died while the
    workers ran, or on timeout; 130 on Ctrl-C.
  """
  out = out or sys.stdout
  chief = chief_of(tasks)
  if only is not None:
    targets = [only]
  else:
    targets = [t for t in tasks if _is_local(t.address)]
    for task in tasks:
      if task not in targets:
        _report(out, "start %s on %s with: %s" % (task.role, task.address.rsplit(":", 1)[0], " ".join(
            remote_command(tasks, task, script, script_args, plain_python=prefix == launcher(plain_python=True),
                           pass_flags=pass_flags))))
  commands = {task: (task_command(script, script_args, tasks, task, pass_flags, prefix=prefix),
                     task_environment(tasks, task)) for task in targets}
  processes = {task: _Process(task, command, env, out) for task, (command, env) in commands.items()}
  restarts = {task: 0 for task in targets}
  started = time.monotonic()
  if not targets:
    return 0  # every task runs on another host: their commands are printed above
  _report(out, "starting %s" % ", ".join("%s at %s" % (t.role, t.address) for t in targets) + (
      "; only ps tasks here: they serve until the job's workers elsewhere are done (Ctrl-C or --timeout "
      "stops them)" if all(t.job == "ps" for t in targets) else ""))
  deadline = None if timeout is None else time.monotonic() + timeout
  chief_finished = None  # when the (local) chief exited with status 0
  dead_since = {}  # a worker that died for good -> when (the others are then watched for progress)
  reported = set()
  try:
    while True:
      servers = [p for t, p in processes.items() if t.job == "ps"]
      trainers = [p for t, p in processes.items() if t.job != "ps"]
      if only is not None and only.job == "ps":
        running = [p for p in servers if p.poll() is None]
        if not running:
          return servers[0].proc.returncode
      fatal = []
      for process in servers + trainers:
        code = process.poll()
        if code is None or process.task in reported:
          continue
        reported.add(process.task)
        task = process.task
        if task.job == "ps" or (task == chief and code != 0):
          fatal.append((process, code))
        elif task == chief:
          chief_finished = time.monotonic()
        elif code != 0 and restarts[task] < restart:
          restarts[task] += 1
          _report(out, _describe_death(process, code) + "\nrestarting %s (%d of %d), with the same flags and "
                  "TF_CONFIG" % (task.role, restarts[task], restart))
          processes[task] = _Process(task, commands[task][0], commands[task][1], out)
          reported.discard(task)
        elif code != 0:
          dead_since[task] = time.monotonic()
          _report(out, _describe_death(process, code) + "\nthe other tasks may go on only if the job is "
                  "asynchronous: a synchronous job (SyncReplicasOptimizer) cannot gather %s's replica any more. "
                  "The job ends if no task prints anything for %g s (--grace); --restart N restarts a dead "
                  "worker" % (task.role, grace))
      if fatal:
        for process, code in fatal:
          _report(out, _describe_death(process, code))
        _report(out, "%s ended: stopping the job" % ", ".join(p.task.role for p, _ in fatal))
        chief_fatal = [c for p, c in fatal if p.task == chief]
        return chief_fatal[0] if chief_fatal and chief_fatal[0] > 0 else 1
      trainers = [p for t, p in processes.items() if t.job != "ps"]
      # A machine that holds only ps tasks serves until they are stopped (Ctrl-C, --timeout): its job's
      # workers run elsewhere.
      if trainers and all(p.poll() is not None for p in trainers):
        break
      now = time.monotonic()
      if deadline is not None and now > deadline:
        _report(out, "--timeout of %g s reached; stopping the job" % timeout)
        return 1
      if chief_finished is not None and now > chief_finished + grace:
        for process in trainers:
          if process.poll() is None:
            _report(out, "%s still running %g s after the chief finished: stopping it" % (
                process.task.role, grace))
        break
      if dead_since and chief_finished is None:
        alive = [p for p in trainers if p.poll() is None]
        quiet_since = max([p.last_output for p in alive] + list(dead_since.values()))
        if alive and now > quiet_since + grace:
          dead = ", ".join(sorted(t.role for t in dead_since))
          _report(out, "no task has printed anything for %g s since %s died: %s %s waiting for %s's replica "
                  "(a synchronous job cannot go on without it). Stopping the job; rerun with --restart N to "
                  "restart a dead worker" % (grace, dead, ", ".join(p.task.role for p in alive),
                                             "is" if len(alive) == 1 else "are", dead))
          return 1
      time.sleep(poll_seconds)
    if chief in processes:
      return processes[chief].proc.returncode
    # The chief runs elsewhere: this machine's part succeeded when its workers did.
    return max([p.proc.returncode for t, p in processes.items() if t.job != "ps"] + [0])
  except KeyboardInterrupt:
    return 130
  finally:
    for process in processes.values():  # workers first is unneeded: they have exited or must stop
      process.stop()
    if processes:
      _report(out, "summary after %.1f s: %s" % (time.monotonic() - started, ", ".join(
          "%s %s%s" % (t.role, _status_word(p.proc.returncode, t), " (restarted %d)" % restarts[t] if restarts[t]
                       else "") for t, p in processes.items())))


def remote_command(tasks, task, script, script_args, plain_python=False, pass_flags=True):
  """The `tf1clip cluster` command that starts `task` on its host and plans exactly this cluster there.

  Every option that shapes the plan is spelled out (--ps, --workers, --chief, --hosts in order, --port), so
  planning on any host gives the same tasks at the same addresses.
  """
  hosts = []
  for t in tasks:
    host = t.address.rsplit(":", 1)[0]
    if host not in hosts:
      hosts.append(host)
  jobs = collections.Counter(t.job for t in tasks)
  port = min(int(t.address.rsplit(":", 1)[1]) for t in tasks)
  return (["tf1clip", "cluster", "--task", task.role, "--ps", str(jobs["ps"]), "--workers", str(jobs["worker"])]
          + (["--chief"] if jobs["chief"] else []) + ["--hosts", ",".join(hosts), "--port", str(port)]
          + ([] if pass_flags or jobs["chief"] else ["--no_flags"]) + (["--python"] if plain_python else [])
          + [script] + list(script_args))


def _parse_task(text, tasks):
  job, _, index = text.partition(":")
  for task in tasks:
    if task.job == job and str(task.index) == index:
      return task
  raise argparse.ArgumentTypeError(
      "--task must name one task of the cluster (%s); got %r" % (
          ", ".join(t.role for t in tasks), text))


def build_parser():
  """The `tf1clip cluster` argument parser."""
  parser = argparse.ArgumentParser(
      prog="tf1clip cluster",
      description="Run a TF1 ps/worker script as a cluster on this machine (or print the commands "
      "for other machines), on TensorFlow's own distributed runtime.")
  parser.add_argument("--ps", type=flag_values.count, default=1, help="parameter-server tasks (default 1)")
  parser.add_argument("--workers", type=flag_values.count, default=2, help="worker tasks (default 2)")
  parser.add_argument("--chief", action="store_true",
                      help="add a separate chief task (estimator-style TF_CONFIG scripts; implies "
                      "--no_flags, since such scripts define no --job_name)")
  parser.add_argument("--hosts", default=None,
                      help="comma-separated hosts for a multi-machine cluster (default: loopback)")
  parser.add_argument("--port", type=flag_values.port, default=2222,
                      help="first port on each host with --hosts (default 2222)")
  parser.add_argument("--task", default=None,
                      help="start only this task (e.g. worker:1), for multi-machine clusters")
  parser.add_argument("--no_flags", action="store_true",
                      help="pass only TF_CONFIG, not --job_name/--task_index/--ps_hosts/--worker_hosts")
  parser.add_argument("--python", action="store_true",
                      help="run each task as `python script.py` instead of `python -m tf1clip run "
                      "script.py`: for scripts that run under plain Python, e.g. the output of "
                      "`tf1clip upgrade`")
  parser.add_argument("--timeout", type=flag_values.seconds, default=None,
                      help="stop the whole job after this many seconds and exit 1")
  parser.add_argument("--grace", type=flag_values.grace_seconds, default=60.0,
                      help="seconds the other workers may run on after the chief has finished "
                      "(default 60); then they are stopped and the job ends with the chief's status")
  parser.add_argument("--restart", type=flag_values.count, default=0, metavar="N",
                      help="restart a worker that died, up to N times per task, with its same flags and "
                      "TF_CONFIG, as a cluster manager would (default 0)")
  parser.add_argument("script", help="the legacy TF1 script every task runs")
  parser.add_argument("script_args", nargs=argparse.REMAINDER, help="the script's own arguments")
  return parser


def main(argv):
  """`tf1clip cluster ...`; returns the exit status (2 for a usage error)."""
  parser = build_parser()
  args = parser.parse_args(argv)
  if args.timeout is not None and not args.timeout > 0:
    parser.error("--timeout must be a positive number of seconds; got %r" % args.timeout)
  if not args.grace >= 0:
    parser.error("--grace must be a number of seconds >= 0; got %r" % args.grace)
  if args.restart < 0:
    parser.error("--restart must be a number of restarts >= 0; got %r" % args.restart)
  if not 0 < args.port < 65536:
    parser.error("--port must be in 1..65535; got %r" % args.port)
  if not os.path.isfile(args.script):
    parser.error("can't open the script %r" % args.script)
  try:
    tasks = plan_cluster(args.ps, args.workers, args.chief,
                         None if args.hosts is None else args.hosts.split(","), args.port)
    only = None if args.task is None else _parse_task(args.task, tasks)
  except (ValueError, argparse.ArgumentTypeError) as e:
    parser.error(str(e))
  if args.task is not None and args.hosts is None:
    parser.error("--task goes with --hosts (the other tasks' addresses must be known)")
  return run_cluster(args.script, args.script_args, tasks,
                     pass_flags=not (args.no_flags or args.chief),
                     only=only, timeout=args.timeout, prefix=launcher(plain_python=args.python),
                     grace=args.grace, restart=args.restart)

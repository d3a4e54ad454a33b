"""`tf1clip exec -- COMMAND [ARGS]`: run any command so that every Python process it starts runs as under `tf1clip run`.

A project that starts through a shell script (`python prepare.py && python train.py`), `make`, a console-script
entry point or child processes runs unchanged: the command gets an environment in which compat/exec_hook's
`sitecustomize` activates compat.runner.prepare in each Python child (TF1CLIP_EXEC_ROOT names the user's code:
the current directory), and `python` on PATH is this environment's interpreter (its folder comes first). The
exit status is the command's (128 + N when a signal N ended it); SIGINT and SIGTERM are passed on to it; a
command that does not exist exits 127, naming it.

Place in the data flow: cli -> **tools.exec_command** -> (a child process) compat/exec_hook -> compat.runner.
"""

import os
import signal
import subprocess
import sys

HOOK_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "compat", "exec_hook")


def environment(root=None, base=None):
  """The environment a command runs in under `tf1clip exec` (a copy of `base`, default os.environ)."""
  env = dict(os.environ if base is None else base)
  env["TF1CLIP_EXEC_ROOT"] = os.path.abspath(root or os.getcwd())
  env["PYTHONPATH"] = os.pathsep.join([HOOK_DIR] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
  env["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), env.get("PATH", "")])
  env.setdefault("TF_USE_LEGACY_KERAS", "1")
  return env


def main(argv):
  """Entry point of `tf1clip exec`; returns the exit status."""
  if argv[:1] == ["--"]:
    argv = argv[1:]
  if not argv or argv[0] in ("-h", "--help"):
    print("usage: tf1clip exec [--] COMMAND [ARGS...]\n\nRuns COMMAND so that every Python process it starts "
          "runs its code as `tf1clip run` would (shell scripts, make, entry points, subprocesses, "
          "multiprocessing workers). Exit status: the command's; 127 if it does not exist.",
          file=sys.stderr if not argv else sys.stdout)
    return 2 if not argv else 0
  try:
    proc = subprocess.Popen(argv, env=environment())
  except FileNotFoundError:
    print("tf1clip exec: %s: command not found" % argv[0], file=sys.stderr)
    return 127
  except PermissionError:
    print("tf1clip exec: %s: permission denied" % argv[0], file=sys.stderr)
    return 126

  def forward(signum, _frame):
    proc.send_signal(signum)

  previous = {s: signal.signal(s, forward) for s in (signal.SIGINT, signal.SIGTERM)}
  try:
    status = proc.wait()
  finally:
    for s, handler in previous.items():
      signal.signal(s, handler)
  return 128 - status if status < 0 else status

"""`tf1clip exec -- COMMAND [ARGS]`: run any command so that every Python process it starts runs as under `tf1clip run`.

A project that starts through a shell script (`python prepare.py && python train.py`), `make`, a console-script
entry point or child processes runs unchanged: the command gets an environment in which compat/exec_hook's
`sitecustomize` activates compat.runner.prepare in each Python child (TF1CLIP_EXEC_ROOT names the user's code:
the current directory), and `python` on PATH is this environment's interpreter (its folder comes first). The
exit status is the command's (128 + N when a signal N ended it); SIGINT and SIGTERM are passed on to it.

The command is started as a POSIX shell would start it: an executable text file without a `#!` line runs under
/bin/sh (the kernel refuses it with ENOEXEC; a shell retries it that way); a command that does not exist exits
127 and a directory or a file without execute permission 126, naming it. Options of `exec` itself come before
the command (or a `--`): `--verbose` as for `tf1clip run`; any other option there is a usage error (exit 2).

Place in the data flow: cli -> **tools.exec_command** -> (a child process) compat/exec_hook -> compat.runner.
"""

import errno
import os
import signal
import subprocess
import sys

# `tf1clip exec` options (before the command) -> the environment variable each sets (cli.RUN_OPTIONS' meaning).
OPTIONS = {"--verbose": ("TF1CLIP_TF_LOG", "1"), "--record-clipping": ("TF1CLIP_RECORD_CLIPPING", "1")}

HOOK_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "compat", "exec_hook")


def environment(root=None, base=None):
  """The environment a command runs in under `tf1clip exec` (a copy of `base`, default os.environ)."""
  env = dict(os.environ if base is None else base)
  env["TF1CLIP_EXEC_ROOT"] = os.path.abspath(root or os.getcwd())
  env["PYTHONPATH"] = os.pathsep.join([HOOK_DIR] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
  env["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), env.get("PATH", "")])
  env.setdefault("TF_USE_LEGACY_KERAS", "1")
  return env


def _usage(out):
  print("usage: tf1clip exec [--verbose] [--record-clipping] [--] COMMAND [ARGS...]\n\nRuns COMMAND so that "
        "every Python process it starts runs its code as `tf1clip run` would (shell scripts, make, entry points, "
        "subprocesses, multiprocessing workers). Exit status: the command's; 127 if it does not exist, 126 if "
        "it cannot be executed.", file=out)


def _start(argv, env):
  """Popen of `argv` as a shell starts it; (process, None) or (None, exit status) after naming the problem."""
  name = argv[0]
  try:
    return subprocess.Popen(argv, env=env), None
  except FileNotFoundError:
    what = "no such file or directory" if os.sep in name else "command not found"
    print("tf1clip exec: %s: %s" % (name, what), file=sys.stderr)
    return None, 127
  except PermissionError:
    found = name if os.sep in name else _which(name, env)
    what = "is a directory" if found and os.path.isdir(found) else "permission denied (not executable)"
    print("tf1clip exec: %s: %s" % (name, what), file=sys.stderr)
    return None, 126
  except OSError as e:
    if e.errno == errno.ENOEXEC:  # a text file without `#!`: what a shell does, run it with /bin/sh
      found = name if os.sep in name else _which(name, env)
      return subprocess.Popen(["/bin/sh", found or name] + list(argv[1:]), env=env), None
    print("tf1clip exec: %s: %s" % (name, e.strerror or e), file=sys.stderr)
    return None, 126


def _which(name, env):
  for folder in env.get("PATH", "").split(os.pathsep):
    candidate = os.path.join(folder or ".", name)
    if os.path.exists(candidate):
      return candidate
  return None


def main(argv):
  """Entry point of `tf1clip exec`; returns the exit status."""
  argv = list(argv)
  settings = {}
  while argv and argv[0].startswith("-"):
    if argv[0] == "--":
      argv = argv[1:]
      break
    if argv[0] in ("-h", "--help"):
      _usage(sys.stdout)
      return 0
    if argv[0] not in OPTIONS:
      print("tf1clip exec: unknown option %s (options: %s; put the command after `--` if it starts with "
            "`-`)" % (argv[0], ", ".join(sorted(OPTIONS))), file=sys.stderr)
      return 2
    name, value = OPTIONS[argv.pop(0)]
    settings[name] = value
  if not argv:
    _usage(sys.stderr)
    return 2
  env = environment()
  env.update(settings)
  proc, status = _start(argv, env)
  if proc is None:
    return status

  def forward(signum, _frame):
    proc.send_signal(signum)

  previous = {s: signal.signal(s, forward) for s in (signal.SIGINT, signal.SIGTERM)}
  try:
    status = proc.wait()
  finally:
    for s, handler in previous.items():
      signal.signal(s, handler)
  return 128 - status if status < 0 else status

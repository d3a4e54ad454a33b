"""`tf.contrib.tfprof.model_analyzer`: TF 1.15's deprecated tfprof entry points and `ProfileContext`.

Mirrors TF 1.15's `tensorflow/contrib/tfprof/model_analyzer.py`.

- `print_model_analysis(graph, run_meta, op_log, tfprof_cmd, tfprof_options)` and `advise(graph, run_meta,
  tfprof_options)`: TF 1.15's deprecated wrappers, ported onto `tf.compat.v1.profiler.profile` / `advise` (the
  same tfprof C++ library answers: a GraphNodeProto for 'scope' / 'graph', a MultiGraphNodeProto for 'op' /
  'code', an AdviceProto); the default options (0) are the trainable-variable parameter counts, as in TF 1.15.
- `Profiler` and `ALL_ADVICE` are TensorFlow's own (`tf.compat.v1.profiler.Profiler`); the option dicts
  (`TRAINABLE_VARS_PARAMS_STAT_OPTIONS`, `FLOAT_OPS_OPTIONS`, `PRINT_ALL_TIMING_MEMORY`) are TF 1.15's.
- `ProfileContext`: TF 1.15's code (tensorflow/python/profiler/profile_context.py, which TensorFlow 2.21 no
  longer ships). Inside the context every `Session.run` is counted as a step; the steps to trace run with
  FULL_TRACE and are added to a `tf.compat.v1.profiler.Profiler`, the profiles asked for with
  `add_auto_profiling` are taken at their steps (`get_profiles(cmd)`), and the profile is written to
  `profile_dir/profile_<step>` at the dump steps. As in TF 1.15 it swaps `run` and `__init__` of TensorFlow's
  session base class (found from `tf.compat.v1.Session`'s bases) while the context is open.
"""

import contextlib
import os
import random
import sys
import threading

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog
import tf1clip.contrib.tfprof.tfprof_logger as tfprof_logger

_DEFAULT_PROFILE_OPTIONS = 0
_DEFAULT_ADVISE_OPTIONS = 0

Profiler = tf.compat.v1.profiler.Profiler

# The advisor's checkers (TensorFlow's model_analyzer.ALL_ADVICE).
ALL_ADVICE = {
    "ExpensiveOperationChecker": {},
    "AcceleratorUtilizationChecker": {},
    "JobChecker": {},  # Only available internally.
    "OperationChecker": {},
}

# Option dicts for print_model_analysis (TF 1.15's).
# The parameter counts of the trainable variables.
TRAINABLE_VARS_PARAMS_STAT_OPTIONS = {
    "max_depth": 10000,
    "min_bytes": 0,
    "min_micros": 0,
    "min_params": 0,
    "min_float_ops": 0,
    "order_by": "name",
    "account_type_regexes": [tfprof_logger.TRAINABLE_VARIABLES],
    "start_name_regexes": [".*"],
    "trim_name_regexes": [],
    "show_name_regexes": [".*"],
    "hide_name_regexes": [],
    "account_displayed_op_only": True,
    "select": ["params"],
    "output": "stdout",
    "dump_to_file": "",  # Deprecated, use 'output': 'file:outfile=<name>'
}

# The number of float operations.
FLOAT_OPS_OPTIONS = {
    "max_depth": 10000,
    "min_bytes": 0,
    "min_micros": 0,
    "min_params": 0,
    "min_float_ops": 1,
    "order_by": "float_ops",
    "account_type_regexes": [".*"],
    "start_name_regexes": [".*"],
    "trim_name_regexes": [],
    "show_name_regexes": [".*"],
    "hide_name_regexes": [],
    "account_displayed_op_only": True,
    "select": ["float_ops"],
    "output": "stdout",
    "dump_to_file": "",  # Deprecated, use 'output': 'file:outfile=<name>'
}

# The timing and memory of every op.
PRINT_ALL_TIMING_MEMORY = {
    "max_depth": 10000,
    "min_bytes": 1,  # Only >=1
    "min_micros": 1,  # Only >=1
    "min_params": 0,
    "min_float_ops": 0,
    "order_by": "name",
    "account_type_regexes": [".*"],
    "start_name_regexes": [".*"],
    "trim_name_regexes": [],
    "show_name_regexes": [".*"],
    "hide_name_regexes": [],
    "account_displayed_op_only": True,
    "select": ["micros", "bytes"],
    "output": "stdout",
    "dump_to_file": "",  # Deprecated, use 'output': 'file:outfile=<name>'
}

def advise(graph, run_meta=None, tfprof_options=_DEFAULT_ADVISE_OPTIONS):
  """The advisor's AdviceProto for `graph` (and `run_meta`): `tf.compat.v1.profiler.advise`."""
  return tf.compat.v1.profiler.advise(graph, run_meta, tfprof_options)

def print_model_analysis(graph, run_meta=None, op_log=None, tfprof_cmd="scope",
                         tfprof_options=_DEFAULT_PROFILE_OPTIONS):
  """Prints (per the options' `output`) and returns the `tfprof_cmd` view of `graph`: tf.compat.v1.profiler.profile."""
  return tf.compat.v1.profiler.profile(graph, run_meta, op_log, tfprof_cmd, tfprof_options)

# ----------------------------------------------------------------------------------------------------
# ProfileContext (TF 1.15's profile_context.py)

WARMUP_STEPS = 10
MAX_TRACED_STEPS = 100

def _base_session():
  """TensorFlow's session base class (tf.compat.v1.Session and InteractiveSession derive from it)."""
  for cls in tf.compat.v1.Session.__mro__:
    if cls.__name__ == "BaseSession":
      return cls
  return tf.compat.v1.Session

def _fetch_names(graph, fetches):
  """The names of the graph elements `fetches` (any nest of them) asks for, sorted and joined by '-'."""
  names = set()
  with graph.as_default():
    for fetch in tf.nest.flatten(fetches, expand_composites=True):
      try:
        names.add(graph.as_graph_element(fetch).name)
      except (TypeError, ValueError, KeyError):
        names.add(str(fetch))
  return "-".join(sorted(names))

def _profiled_init(self, target="", graph=None, config=None):
  """Stands for the session's __init__ while a ProfileContext is open."""
  self._profiler_init_internal(target, graph, config)  # pylint: disable=protected-access

def _profiled_run(self, fetches, feed_dict=None, options=None, run_metadata=None):
  """Stands for Session.run while a ProfileContext is open: counts, traces, profiles and dumps steps."""
  # pylint: disable=protected-access
  context = self.profile_context
  with context._new_step() as state:
    step, locked = state
    if locked and not context._is_fast_path(step):
      if context._should_trace(step, self.graph, fetches):
        if context._debug:
          sys.stderr.write("debug: tracing step: %d\n" % step)
        if not run_metadata:
          run_metadata = tf.compat.v1.RunMetadata()
        if not options:
          options = tf.compat.v1.RunOptions(trace_level=tf.compat.v1.RunOptions.FULL_TRACE)
          old_trace_level = options.trace_level
        else:
          old_trace_level = options.trace_level
          options.trace_level = tf.compat.v1.RunOptions.FULL_TRACE
        ret = self._profiler_run_internal(fetches, feed_dict, options, run_metadata)
        if context._debug:
          context._dump_file(run_metadata, "run_meta_%d" % step)
        context.profiler._graph = self.graph
        context.profiler.add_step(step, run_metadata)
        options.trace_level = old_trace_level
      else:
        ret = self._profiler_run_internal(fetches, feed_dict, options)

      context._maybe_dump(step)

      for cmd, opts, _ in context._profile_candidates():
        saved_views = context._views.setdefault(cmd, {})
        if context._debug:
          sys.stderr.write("debug: profiling %s step: %d\n" % (cmd, step))
        if cmd == "graph":
          saved_views[step] = context.profiler.profile_graph(opts)
        elif cmd == "scope":
          saved_views[step] = context.profiler.profile_name_scope(opts)
        elif cmd == "op":
          saved_views[step] = context.profiler.profile_operations(opts)
        elif cmd == "code":
          saved_views[step] = context.profiler.profile_python(opts)
        else:
          raise ValueError("Unknown cmd: %s\n" % cmd)
      return ret
  return self._profiler_run_internal(fetches, feed_dict, options, run_metadata)
  # pylint: enable=protected-access

class ProfileContext(object):
  """A context that traces `Session.run` steps into a profiler, profiles them and dumps the profile (TF 1.15's).

  ```python
    with tf.contrib.tfprof.ProfileContext('/tmp/train_dir', trace_steps=range(100, 200, 3),
                                          dump_steps=[200]) as pctx:
      opts = tf.profiler.ProfileOptionBuilder.time_and_memory()
      pctx.add_auto_profiling('op', opts, [150, 200])
      train_loop()
  ```

  Args:
    profile_dir: Directory to store profiles.
    trace_steps: A list of session run steps to trace. If None, steps are picked automatically (after 10
      warm-up steps, each new set of fetches, and some at random while coverage is low).
    dump_steps: A list of steps to dump the profile to `profile_dir` (None: step 100).
    enabled: If false, everything is disabled with minimal overhead.
    debug: If true, also dumps the raw trace RunMetadata text file to profile_dir and prints debugging
      messages.
  """

  def __init__(self, profile_dir, trace_steps=None, dump_steps=None, enabled=True, debug=False):
    self._enabled = enabled
    if not self._enabled:
      return
    self._debug = debug
    if not profile_dir:
      raise ValueError("Must have a directory for profile.\n")
    self._profiler_dir = profile_dir
    if trace_steps is None:
      self._trace_steps = set()
      self._auto_tracing = True
    else:
      if len(trace_steps) > MAX_TRACED_STEPS:
        raise ValueError("Only support tracing up to 100 steps.\n")
      self._trace_steps = set(trace_steps[:])
      self._auto_tracing = False
    if dump_steps is None:
      self._dump_steps = set([MAX_TRACED_STEPS])
    else:
      self._dump_steps = set(dump_steps[:])
    self._rng = random.Random(111)
    self._fetched = set()
    self._slow_path_steps = self._dump_steps | self._trace_steps
    self._trace_next_step = False
    self._dump_next_step = False
    self._step = 0
    self._traced_steps = 0
    self._auto_profiles = []
    self._profiler = None
    self._views = {}
    self._lock = threading.Lock()

  def get_profiles(self, cmd):
    """{step: GraphNodeProto or MultiGraphNodeProto} of the auto-profiling `cmd`; ValueError if it never ran."""
    if cmd not in self._views:
      raise ValueError("No autoprofiler for command: {}, was run".format(cmd))
    return self._views[cmd]

  def add_auto_profiling(self, cmd, options, profile_steps):
    """Traces and profiles with `cmd` ('scope', 'op', 'code', 'graph') and `options` at `profile_steps`."""
    if not self._enabled:
      return
    self._auto_profiles.append((cmd, options, profile_steps[:]))
    self._slow_path_steps |= set(profile_steps)
    self._trace_steps |= set(profile_steps)

  @property
  def profiler(self):
    """The context's tf.compat.v1.profiler.Profiler (of the default graph when first asked for)."""
    if not self._enabled:
      return None
    if not self._profiler:
      self._profiler = Profiler(tf.compat.v1.get_default_graph())
    return self._profiler

  def trace_next_step(self):
    """Enables tracing and adds traces to profiler at next step."""
    if not self._enabled:
      return
    self._trace_next_step = True
    self._slow_path_steps.add(self._step)

  def dump_next_step(self):
    """Enable tracing and dump profiles at next step."""
    if not self._enabled:
      return
    self._dump_next_step = True
    self._slow_path_steps.add(self._step)

  def _is_fast_path(self, step):
    if step in self._slow_path_steps:
      return False
    if self._auto_tracing and step > WARMUP_STEPS and self._traced_steps <= MAX_TRACED_STEPS:
      return False
    return True

  def _should_trace(self, step, graph, fetches):
    """Whether to trace this step."""
    if self._traced_steps > MAX_TRACED_STEPS:
      return False
    if step in self._trace_steps or self._trace_next_step:
      self._traced_steps += 1
      return True
    if self._auto_tracing and step > WARMUP_STEPS:
      fetch_name = _fetch_names(graph, fetches)
      if self._debug:
        sys.stderr.write("debug: trace fetches: %s\n" % fetch_name)
      if fetch_name not in self._fetched:
        self._fetched.add(fetch_name)
        self._traced_steps += 1
        return True
      if (self.profiler._coverage < 0.5 and step < MAX_TRACED_STEPS  # pylint: disable=protected-access
          and self._rng.randint(0, 10) < 2):
        self._traced_steps += 1
        return True
    return False

  def _maybe_dump(self, step):
    """Writes the profile to profile_dir/profile_<step> at a dump step."""
    if not (step in self._dump_steps or self._dump_next_step):
      return
    if self._debug:
      sys.stderr.write("debug: dumping file at step: %d\n" % step)
    if not tf.io.gfile.exists(self._profiler_dir):
      tf.io.gfile.makedirs(self._profiler_dir)
    filename = os.path.join(self._profiler_dir, "profile_%d" % step)
    # What TF 1.15's Profiler._write_profile wrote: the serialized ProfileProto.
    with tf.io.gfile.GFile(filename, "wb") as f:
      f.write(self.profiler.serialize_to_string())

  def _dump_file(self, pb, basename):
    if not tf.io.gfile.exists(self._profiler_dir):
      tf.io.gfile.makedirs(self._profiler_dir)
    with tf.io.gfile.GFile(os.path.join(self._profiler_dir, basename), "w") as f:
      f.write("%s" % pb)

  @contextlib.contextmanager
  def _new_step(self):
    acquired = self._lock.acquire(False)  # pylint: disable=consider-using-with
    yield (self._step, acquired)
    self._step += 1
    self._trace_next_step = False
    self._dump_next_step = False
    if acquired:
      self._lock.release()

  def _profile_candidates(self):
    return [auto_prof for auto_prof in self._auto_profiles if self._step in auto_prof[2]]

  def __enter__(self):
    if not self._enabled:
      return self
    base = _base_session()
    self.old_run = getattr(base, "run", None)
    self.old_init = getattr(base, "__init__", None)
    if not self.old_run:
      raise tf.errors.InternalError(None, None, "BaseSession misses run method.")
    if not self.old_init:
      raise tf.errors.InternalError(None, None, "BaseSession misses __init__ method.")
    if (getattr(base, "_profiler_run_internal", None)
        or getattr(base, "_profiler_init_internal", None)):
      raise tf.errors.InternalError(None, None, "Already in context or context not cleaned.")
    base.run = _profiled_run
    base.__init__ = _profiled_init
    base._profiler_run_internal = self.old_run  # pylint: disable=protected-access
    base._profiler_init_internal = self.old_init  # pylint: disable=protected-access
    base.profile_context = self
    return self

  def __exit__(self, exec_type, exec_value, exec_tb):
    if not self._enabled:
      return
    # TF 1.15 deleted tfprof's profiler here; TensorFlow 2.21's Profiler deletes it when collected.
    self._profiler = None
    base = _base_session()
    base.run = self.old_run
    base.__init__ = self.old_init
    base._profiler_run_internal = None  # pylint: disable=protected-access
    base._profiler_init_internal = None  # pylint: disable=protected-access
    base.profile_context = None

__getattr__ = _catalog.module_getattr(__name__)

"""Argparse `type=` validators shared by every command: one rule per kind of value, one message per rule.

`tolerance` (a finite number >= 0: rtol / atol of compare, parity, upgrade --check-run), `port` (1..65535),
`count` / `positive_count` (whole numbers >= 0 / >= 1: tasks, steps, restarts), `seconds` (a finite number > 0), `grace_seconds` (>= 0),
`percentile` (0..100). Each raises argparse.ArgumentTypeError, so argparse's own "argument --rtol: ..." line
names the flag and the command exits 2 before any work. `port_list` checks the ports of a `host:port,...` flag.

Data flow: cli, report, tools.compare, tools.cluster, v2.parity -> **flag_values** -> validation (below tools and v2).
"""

import argparse
import math

from tf1clip import validation


def _checked(check, value, what, text):
  """`check` (validation.positive / non_negative: the project's one wording of each rule) as an argparse error."""
  try:
    check(value, what, allow_tensor=False)
  except ValueError:
    raise argparse.ArgumentTypeError("%s %s; got %r" % (
        what, "must be > 0" if check is validation.positive else "must be at least 0", text)) from None
  return value


def _number(text, what):
  try:
    value = float(text)
  except (TypeError, ValueError):
    raise argparse.ArgumentTypeError("%s must be a number; got %r" % (what, text)) from None
  if not math.isfinite(value):
    raise argparse.ArgumentTypeError("%s must be a finite number; got %r" % (what, text))
  return value


def _whole(text, what):
  try:
    return int(str(text).strip(), 10)
  except ValueError:
    raise argparse.ArgumentTypeError("%s must be a whole number; got %r" % (what, text)) from None


def tolerance(text):
  """A relative or absolute tolerance: a finite number >= 0."""
  return _checked(validation.non_negative, _number(text, "a tolerance"), "a tolerance", text)


def seconds(text):
  """A duration: a finite number of seconds > 0."""
  return _checked(validation.positive, _number(text, "a duration in seconds"), "a duration in seconds", text)


def grace_seconds(text):
  """A waiting time: a finite number of seconds >= 0."""
  return _checked(validation.non_negative, _number(text, "a duration in seconds"), "a duration in seconds", text)


def percentile(text):
  """A percentile: a number in [0, 100]."""
  value = _number(text, "a percentile")
  if not 0 <= value <= 100:
    raise argparse.ArgumentTypeError("a percentile must be in [0, 100]; got %r" % (text,))
  return value


def count(text):
  """A count: a whole number >= 0."""
  return _checked(validation.non_negative, _whole(text, "a count"), "a count", text)


def positive_count(text):
  """A count that must be at least 1."""
  value = _whole(text, "a count")
  if value < 1:
    raise argparse.ArgumentTypeError("a count must be >= 1; got %r" % (text,))
  return value


def port(text):
  """A TCP port: a whole number in 1..65535."""
  value = _whole(text, "a port")
  if not 1 <= value <= 65535:
    raise argparse.ArgumentTypeError("a port must be in 1..65535; got %r" % (text,))
  return value


def check_port(value, what):
  """`value` as a port, or ValueError naming `what` (for ports computed after parsing: --port + task count)."""
  try:
    return port(value)
  except argparse.ArgumentTypeError as e:
    raise ValueError("%s: %s" % (what, e)) from None


def port_list(text):
  """`host:port,host:port`: each port checked; returns the text unchanged."""
  for address in filter(None, (a.strip() for a in str(text).split(","))):
    if ":" in address:
      port(address.rsplit(":", 1)[1])
  return text

"""Progress of tf1clip's long commands (report reading event files, upgrade --check-run's two trainings), by rich.

Place in the data flow (DESIGN.md): a leaf used by report and tools.upgrade_cli. On a terminal a live line
(spinner or bar, count, elapsed time, the last line a child printed); elsewhere (a log, CI) rich draws no live
display and one final line per task is printed when it ends, so logs stay readable.
"""

import contextlib

from rich import console as console_lib
from rich import progress as progress_lib


def _progress(file, total_known):
  console = console_lib.Console(file=file, highlight=False)
  columns = [progress_lib.SpinnerColumn(), progress_lib.TextColumn("{task.description}")]
  if total_known:
    columns += [progress_lib.BarColumn(bar_width=20), progress_lib.MofNCompleteColumn()]
  else:
    columns += [progress_lib.TextColumn("{task.completed} lines")]
  columns.append(progress_lib.TimeElapsedColumn())
  if console.is_terminal:  # the child's last line, live; a log gets the closing line only
    columns.append(progress_lib.TextColumn("{task.fields[last]}"))
  return progress_lib.Progress(*columns, console=console, transient=False)


def over(items, description, file=None):
  """Yields `items` (a list) while a bar counts them: "reading event files ━━━━ 3/3 0:00:02".

  An item counts when it is handed out, so a caller that stops early (found what it looked for) ends with
  the count of the items it took.
  """
  with _progress(file, True) as bar:
    task = bar.add_task(description, total=len(items), last="")
    for item in items:
      bar.advance(task)
      yield item


@contextlib.contextmanager
def following(description, file=None):
  """A live count of a child's output lines; yields `line(text)` to call for each line it prints."""
  with _progress(file, False) as bar:
    task = bar.add_task(description, total=None, last="")

    def line(text):
      text = text.strip()
      bar.update(task, advance=1, last=(text[:60] + "...") if len(text) > 60 else text)

    yield line

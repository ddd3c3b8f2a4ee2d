"""Progress reporters: a live Rich bar (tasks done/left, ETA), silence, or one JSON object per task.

The engine calls ``start(total, done)``, ``advance(result)`` once per finished task and ``close()``.
"""

from __future__ import annotations

import json
import sys
import time
from typing import IO, Any, Protocol

from .work import TaskResult

__all__ = ["JsonLogProgress", "Progress", "QuietProgress", "RichProgress", "make_progress"]


class Progress(Protocol):
    """What the engine needs from a progress reporter."""

    def start(self, total: int, done: int) -> None: ...

    def advance(self, result: TaskResult) -> None: ...

    def close(self) -> None: ...


class QuietProgress:
    """Reports nothing."""

    def start(self, total: int, done: int) -> None:
        """Nothing to show."""

    def advance(self, result: TaskResult) -> None:
        """Nothing to show."""

    def close(self) -> None:
        """Nothing to close."""


class JsonLogProgress:
    """One JSON object per line on ``stream`` (stderr): a ``start`` event, then one ``task`` event per task."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.total = self.done = 0
        self.t0 = time.perf_counter()

    def _emit(self, event: dict[str, Any]) -> None:
        self.stream.write(json.dumps(event, sort_keys=True, default=str) + "\n")
        self.stream.flush()

    def start(self, total: int, done: int) -> None:
        """Log the size of the grid and how much of it an earlier run finished."""
        self.total, self.done, self.t0 = total, done, time.perf_counter()
        self._emit({"event": "start", "tasks_total": total, "tasks_done": done, "tasks_left": total - done})

    def advance(self, result: TaskResult) -> None:
        """Log one finished task."""
        self.done += 1
        statuses: dict[str, int] = {}
        for rec in result.records:
            statuses[rec["status"]] = statuses.get(rec["status"], 0) + 1
        self._emit({
            "event": "task", **result.task.describe(), "records": len(result.records), "statuses": statuses,
            "error": result.error or None, "queries": result.queries, "cache_hits": result.cache_hits,
            "elapsed_s": round(result.elapsed_s, 6), "tasks_done": self.done, "tasks_left": self.total - self.done,
            "wall_s": round(time.perf_counter() - self.t0, 3),
        })

    def close(self) -> None:
        """Log the end of the run."""
        self._emit({"event": "end", "tasks_done": self.done, "tasks_total": self.total})


class RichProgress:
    """A live bar on stderr: description, bar, done/total, elapsed and ETA."""

    def __init__(self, description: str = "tasks") -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
        from rich.progress import Progress as Bar

        self.bar = Bar(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                       TextColumn("left {task.fields[left]}"), TimeElapsedColumn(), TextColumn("ETA"),
                       TimeRemainingColumn(), console=Console(stderr=True), transient=False)
        self.description = description
        self.task_id: Any = None

    def start(self, total: int, done: int) -> None:
        """Show the bar, already advanced by the tasks an earlier run finished."""
        self.bar.start()
        self.task_id = self.bar.add_task(self.description, total=total, completed=done, left=total - done)

    def advance(self, result: TaskResult) -> None:
        """Advance by one task."""
        t = self.bar.tasks[0]
        self.bar.update(self.task_id, advance=1, left=int(t.total or 0) - int(t.completed) - 1)

    def close(self) -> None:
        """Stop the live display."""
        self.bar.stop()


def make_progress(mode: str = "bar") -> Progress:
    """``"bar"`` (Rich), ``"quiet"`` or ``"json"``."""
    if mode == "bar":
        return RichProgress()
    if mode == "quiet":
        return QuietProgress()
    if mode == "json":
        return JsonLogProgress()
    raise ValueError(f"Unknown progress mode {mode!r}; use 'bar', 'quiet' or 'json'.")

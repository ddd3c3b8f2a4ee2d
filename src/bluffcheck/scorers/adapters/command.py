"""``command``: score with any program that speaks JSON lines on stdin/stdout (Java, R, a binary).

The program is started once (a list of arguments, never through a shell) and kept running. For
each answer bluffcheck writes one line ``{"id": ..., "prompt_id": ..., "text": ...}`` and waits for
one line ``{"id": ..., "score": 2.0}`` (or ``{"id": ..., "error": "why"}``), in the same order.
Logs go to stderr; the last lines of stderr are quoted when the program fails. A program that
crashes or hangs is killed and restarted, and the item is retried. See ``docs/blackbox.md``.
"""

from __future__ import annotations

import collections
import json
import os
import queue
import shlex
import subprocess
import threading
from collections.abc import Sequence
from typing import Any

from ..._registry import scorers
from ...errors import ConfigError, ScorerError
from ...types import Item
from ._base import BlackBoxScorer, check_number
from ._retry import AbortScoring, CallTimeout, Outcome, RetryPolicy, run_batches

__all__ = ["CommandScorer"]

_FLUSH_HINT = "The program must print one JSON line per request and flush stdout after each line."


class _Crashed(ScorerError):
    """The process ended (or closed stdout) before it answered."""


class _Process:
    """One running scorer process with threads draining its stdout (to a queue) and stderr."""

    def __init__(self, argv: list[str], cwd: str | None) -> None:
        try:
            self.popen = subprocess.Popen(  # a list and shell=False: the text never meets a shell
                argv,
                shell=False,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                cwd=cwd,
            )
        except OSError as exc:
            raise AbortScoring(
                f"could not start the scorer command {argv}: {exc}. Check the program path and PATH."
            ) from exc
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr: collections.deque[str] = collections.deque(maxlen=20)
        self.answered = False
        self._threads = [
            threading.Thread(target=self._pump_stdout, daemon=True, name="bluffcheck-cmd-stdout"),
            threading.Thread(target=self._pump_stderr, daemon=True, name="bluffcheck-cmd-stderr"),
        ]
        for t in self._threads:
            t.start()

    def _pump_stdout(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _pump_stderr(self) -> None:
        assert self.popen.stderr is not None
        for line in self.popen.stderr:
            self.stderr.append(line.rstrip("\n"))

    def stderr_tail(self) -> str:
        self._threads[1].join(timeout=1.0)
        tail = "\n".join(self.stderr)[-1500:]
        return f" Its stderr ends with:\n{tail}" if tail else " It wrote nothing to stderr."

    def ask(self, request: dict[str, Any], timeout: float | None) -> dict[str, Any]:
        """Send one request line and read one response line."""
        try:
            assert self.popen.stdin is not None
            self.popen.stdin.write(json.dumps(request, ensure_ascii=True) + "\n")
            self.popen.stdin.flush()
        except (BrokenPipeError, OSError, ValueError) as exc:
            raise _Crashed(f"the process stopped reading its input ({type(exc).__name__})") from exc
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise CallTimeout(
                    f"no answer within {timeout:g} s; the process was killed and will be restarted. {_FLUSH_HINT}"
                ) from None
            if line is None:
                code = self.popen.wait(timeout=5)
                raise _Crashed(f"the process exited with code {code} before answering.")
            if line.strip():
                break
        try:
            response = json.loads(line)
        except json.JSONDecodeError:
            raise ScorerError(
                f"the program wrote a line that is not JSON: {line[:200]!r}. Print logs to stderr. {_FLUSH_HINT}"
            ) from None
        if not isinstance(response, dict):
            raise ScorerError(f"the program wrote {line[:200]!r}; expected a JSON object with 'id' and 'score'.")
        return response

    def stop(self, *, grace: float = 0.0) -> None:
        """End the process: close its input and wait ``grace`` seconds, then kill it."""
        if self.popen.poll() is None and grace > 0:
            try:
                assert self.popen.stdin is not None
                self.popen.stdin.close()
                self.popen.wait(timeout=grace)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        if self.popen.poll() is None:
            self.popen.kill()
            self.popen.wait()
        for stream in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            try:
                if stream is not None:
                    stream.close()
            except (OSError, ValueError):
                pass


@scorers.register("command")
class CommandScorer(BlackBoxScorer):
    """Score with a long-running program that speaks JSON lines (one request line -> one answer line).

    Parameters
    ----------
    command : str or list of str
        The program and its arguments, e.g. ``["java", "-jar", "scorer.jar"]``. A string is split
        with :func:`shlex.split`; it is never run through a shell.
    timeout : float or None
        Seconds to wait for one answer before killing and restarting the process.
    startup_timeout : float
        Extra seconds allowed for the first answer of each process (JVM start, model loading).
    retries, backoff, max_backoff : int, float, float
        Retries of failed items, with exponential backoff between rounds (seconds).
    cwd : str or None
        Working directory of the program.
    model_version : str
        Your label for the model behind the program; part of the fingerprint (cache key).
    """

    kind = "command"

    def __init__(
        self,
        command: str | Sequence[str] = (),
        *,
        timeout: float | None = 30.0,
        startup_timeout: float = 30.0,
        retries: int = 2,
        backoff: float = 0.1,
        max_backoff: float = 8.0,
        cwd: str | None = None,
        model_version: str = "",
    ) -> None:
        self.command = command
        self.timeout = timeout
        self.startup_timeout = startup_timeout
        self.retries = retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.cwd = cwd
        self.model_version = model_version

    @property
    def argv(self) -> list[str]:
        """The command as a list of arguments."""
        if isinstance(self.command, str):
            return shlex.split(self.command)
        return [os.fspath(a) for a in self.command]

    def _validate_params(self) -> None:
        if not self.argv:
            raise ConfigError(
                "The 'command' parameter of CommandScorer must name a program, e.g. ['java', '-jar', 'scorer.jar']."
            )
        check_number(self, "retries", self.retries, integer=True)
        check_number(self, "startup_timeout", self.startup_timeout)
        if self.timeout is not None:
            check_number(self, "timeout", self.timeout)

    def _setup(self) -> None:
        self.close()  # a second fit starts afresh
        self._lock = threading.Lock()
        self._dead_starts = 0
        self.starts_ = 0
        with self._lock:
            self._process()

    def _process(self) -> _Process:
        proc = getattr(self, "_proc", None)
        if proc is None or proc.popen.poll() is not None:
            if proc is not None:
                self._discard(proc, "it exited")
            proc = self._proc = _Process(self.argv, self.cwd)
            self.starts_ = getattr(self, "starts_", 0) + 1
        return proc

    def _discard(self, proc: _Process, why: str) -> None:
        """Kill ``proc``; too many processes in a row that never answered abort the run."""
        proc.stop()
        self._proc = None
        if proc.answered:
            self._dead_starts = 0
            return
        self._dead_starts = getattr(self, "_dead_starts", 0) + 1
        if self._dead_starts >= 3:
            raise AbortScoring(
                f"the scorer command {self.argv} failed {self._dead_starts} times in a row without answering once "
                f"(last: {why}).{proc.stderr_tail()}"
            )

    def _ask(self, item: Item, policy: RetryPolicy) -> Outcome:
        proc = self._process()
        timeout = policy.timeout
        if timeout is not None and not proc.answered:
            timeout += self.startup_timeout
        try:
            response = proc.ask({"id": item.id, "prompt_id": item.prompt_id, "text": item.text}, timeout)
            if response.get("id") != item.id:
                raise ScorerError(f"answer out of step: expected id {item.id!r}, got {response.get('id')!r}")
        except CallTimeout as exc:
            self._discard(proc, str(exc))
            return Outcome(None, "timeout", str(exc))
        except ScorerError as exc:
            tail = proc.stderr_tail() if isinstance(exc, _Crashed) else ""
            self._discard(proc, str(exc))
            return Outcome(None, "error", f"{exc}{tail}")
        proc.answered = True
        self._dead_starts = 0
        if "error" in response:
            return Outcome(None, "error", f"the program reported: {response['error']}")
        if "score" not in response:
            return Outcome(None, "error", f"the answer {response!r} has neither 'score' nor 'error'")
        return Outcome.from_value(response["score"])

    def _outcomes(self, items: list[Item], policy: RetryPolicy) -> list[Outcome]:
        if getattr(self, "_lock", None) is None:
            self._lock = threading.Lock()

        def call(batch: list[Item]) -> list[Outcome]:
            with self._lock:
                return [self._ask(it, policy) for it in batch]

        return run_batches(call, items, policy, batch_size=64)

    def _identity(self) -> dict[str, Any]:
        return {"command": self.argv, "cwd": self.cwd}

    def close(self) -> None:
        """Close the program's input, give it a second to exit, then kill it."""
        proc = self.__dict__.pop("_proc", None)
        if proc is not None:
            proc.stop(grace=1.0)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # nothing useful to do while the interpreter tears down
            pass

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        for key in ("_proc", "_lock"):
            state.pop(key, None)  # a process and a lock do not travel; the copy starts its own
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

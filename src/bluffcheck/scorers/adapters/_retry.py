"""Per-item outcomes and retries for scorers that can fail: :class:`Outcome`, :class:`RetryPolicy`.

A black-box scorer can crash, hang, time out or answer NaN. None of that may turn into a score
of 0. Adapters therefore report one :class:`Outcome` per item (``ok``, ``error``, ``timeout`` or
``nan``, with the message and the number of attempts), retry what failed with exponential backoff
and jitter, and :meth:`Scorer.score` raises :class:`~bluffcheck.errors.ScorerError` unless every
item is ``ok``. :func:`score_outcomes` gives the same to any scorer, adapter or not.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np

from ...errors import ConfigError, NotFittedError, ScorerError
from ...types import Dataset, Item

__all__ = [
    "AbortScoring",
    "CallTimeout",
    "NoRetry",
    "Outcome",
    "RetryPolicy",
    "call_with_timeout",
    "outcomes_to_scores",
    "run_batches",
    "score_outcomes",
]

Status = Literal["ok", "error", "timeout", "nan"]
Call = Callable[[list[Item]], list["Outcome"]]


@dataclass(frozen=True)
class Outcome:
    """What happened when one item was scored.

    Parameters
    ----------
    score : float or None
        The score; a finite float when ``status == "ok"``, else None.
    status : {"ok", "error", "timeout", "nan"}
        ``nan`` means the scorer answered, but not with a finite number.
    error : str or None
        What went wrong (None when ok).
    attempts : int
        How many times the item was sent to the scorer.
    """

    score: float | None
    status: Status = "ok"
    error: str | None = None
    attempts: int = 1

    @property
    def ok(self) -> bool:
        """Whether the item has a usable score."""
        return self.status == "ok"

    @classmethod
    def from_value(cls, value: Any) -> Outcome:
        """``ok`` for a finite number, ``nan`` for NaN/inf/None, ``error`` for anything else."""
        if value is None:
            return cls(None, "nan", "the scorer returned null instead of a score")
        if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
            return cls(None, "error", f"the scorer returned {value!r} ({type(value).__name__}), not a number")
        if not math.isfinite(float(value)):
            return cls(None, "nan", f"the scorer returned {float(value)!r}")
        return cls(float(value))

    @classmethod
    def failed(cls, exc: BaseException) -> Outcome:
        """An ``error`` (or ``timeout``) outcome describing an exception."""
        status: Status = "timeout" if isinstance(exc, CallTimeout | TimeoutError) else "error"
        return cls(None, status, f"{type(exc).__name__}: {exc}")


class CallTimeout(ScorerError):
    """A call to a scorer took longer than the policy's timeout."""


class NoRetry(ScorerError):
    """A failure that retrying cannot fix (e.g. HTTP 400): recorded for the items, not retried."""


class AbortScoring(ScorerError):
    """The scorer cannot work at all (unreachable, does not start): raised out of ``score_outcomes``."""


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently to retry.

    Parameters
    ----------
    max_attempts : int
        Attempts per item, the first included.
    backoff : float
        Seconds before the first retry; doubled for each further retry.
    max_backoff : float
        Upper bound of one wait.
    timeout : float or None
        Seconds one call may take (None: no limit).
    rng : numpy.random.Generator or None
        Source of the jitter (each wait is drawn from [delay/2, delay]); None: no jitter.
    sleep : callable
        Waits the given seconds; tests inject a recorder.
    """

    max_attempts: int = 3
    backoff: float = 0.5
    max_backoff: float = 8.0
    timeout: float | None = 30.0
    rng: np.random.Generator | None = field(default=None, compare=False)
    sleep: Callable[[float], Any] = field(default=time.sleep, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.max_attempts, int) or self.max_attempts < 1:
            raise ConfigError(f"RetryPolicy max_attempts must be an integer >= 1. Got {self.max_attempts!r} instead.")
        if self.backoff < 0 or self.max_backoff < 0:
            raise ConfigError(
                f"RetryPolicy backoff and max_backoff must be >= 0. Got {self.backoff}, {self.max_backoff}."
            )
        if self.timeout is not None and not self.timeout > 0:
            raise ConfigError(f"RetryPolicy timeout must be > 0 seconds or None. Got {self.timeout!r} instead.")

    def delay(self, retry: int, retry_after: float | None = None) -> float:
        """Seconds to wait before retry number ``retry`` (1 = the first retry)."""
        wait = min(self.max_backoff, self.backoff * 2.0 ** (retry - 1))
        if self.rng is not None:
            wait = float(self.rng.uniform(wait / 2, wait)) if wait > 0 else 0.0
        if retry_after is not None:
            wait = max(wait, min(float(retry_after), max(self.max_backoff, 60.0)))
        return wait


def call_with_timeout(fn: Callable[[Any], Any], arg: Any, timeout: float | None) -> Any:
    """``fn(arg)``, raising :class:`CallTimeout` after ``timeout`` seconds.

    The call runs in a daemon thread; a call that times out keeps running in the background
    (Python cannot stop a thread), its result is discarded.
    """
    if timeout is None:
        return fn(arg)
    box: dict[str, Any] = {}
    done = threading.Event()

    def work() -> None:
        try:
            box["value"] = fn(arg)
        except BaseException as exc:  # handed to the caller below
            box["error"] = exc
        finally:
            done.set()

    threading.Thread(target=work, name="bluffcheck-scorer-call", daemon=True).start()
    if not done.wait(timeout):
        raise CallTimeout(f"the scorer did not answer within {timeout:g} s")
    if "error" in box:
        raise box["error"]
    return box["value"]


_NOT_RETRIED = (NotFittedError, ConfigError, AbortScoring)


def retry_items(call: Call, items: Sequence[Item], policy: RetryPolicy) -> list[Outcome]:
    """Score ``items`` with ``call``, retrying the items that did not come back ``ok``.

    ``call`` returns one outcome per item it is given, or raises: every item of the call then
    fails with that exception (``NoRetry``: without further attempts; ``AbortScoring``,
    ``NotFittedError``, ``ConfigError``: raised to the caller).
    """
    final: list[Outcome | None] = [None] * len(items)
    pending = list(range(len(items)))
    retry_after: float | None = None
    for attempt in range(1, policy.max_attempts + 1):
        if attempt > 1:
            policy.sleep(policy.delay(attempt - 1, retry_after))
        retry_after, stop = None, False
        try:
            results = list(call([items[i] for i in pending]))
            if len(results) != len(pending):
                raise ScorerError(f"the adapter returned {len(results)} outcomes for {len(pending)} items")
        except _NOT_RETRIED:
            raise
        except Exception as exc:
            results = [Outcome.failed(exc)] * len(pending)
            retry_after = getattr(exc, "retry_after", None)
            stop = isinstance(exc, NoRetry)
        for i, res in zip(pending, results, strict=True):
            final[i] = replace(res, attempts=attempt)
        pending = [i for i in pending if not final[i].ok]  # type: ignore[union-attr]
        if not pending or stop:
            break
    return [o for o in final if o is not None]


def run_batches(
    call: Call,
    items: Sequence[Item],
    policy: RetryPolicy,
    *,
    batch_size: int,
    concurrency: int = 1,
    breaker: int = 3,
) -> list[Outcome]:
    """:func:`retry_items` over batches, ``concurrency`` batches at a time.

    When the first ``breaker`` batches (of more) all failed on every item, the scorer is taken
    to be broken and :class:`AbortScoring` is raised with the last message.
    """
    size = max(1, batch_size)
    batches = [list(items[s : s + size]) for s in range(0, len(items), size)]
    out: list[Outcome] = []

    def collect(k: int, batch_out: list[Outcome]) -> None:
        out.extend(batch_out)
        if k == breaker - 1 and len(batches) > breaker and not any(o.ok for o in out):
            raise AbortScoring(
                f"the scorer failed on every item of the first {breaker} batches; stopped. "
                f"Last failure: {batch_out[-1].error}"
            )

    if concurrency <= 1:
        for k, batch in enumerate(batches):
            collect(k, retry_items(call, batch, policy))
        return out
    pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="bluffcheck-batch")
    try:
        futures = [pool.submit(retry_items, call, batch, policy) for batch in batches]
        for k, fut in enumerate(futures):
            collect(k, fut.result())
    finally:
        pool.shutdown(wait=False, cancel_futures=True)  # on abort: drop queued batches, do not wait for running ones
    return out


def outcomes_to_scores(outcomes: Sequence[Outcome], items: Sequence[Item], *, who: str) -> np.ndarray:
    """The scores as a float array, or :class:`ScorerError` naming the items that failed."""
    bad = [(it, o) for it, o in zip(items, outcomes, strict=True) if not o.ok]
    if not bad:
        return np.asarray([o.score for o in outcomes], dtype=float)
    counts: dict[str, int] = {}
    for _, o in bad:
        counts[o.status] = counts.get(o.status, 0) + 1
    kinds = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
    first = "; ".join(f"item {it.id!r} ({o.status} after {o.attempts} attempt(s)): {o.error}" for it, o in bad[:3])
    raise ScorerError(
        f"{who} could not score {len(bad)} of {len(items)} items ({kinds}). First: {first}. "
        "Nothing was scored as 0. Fix the scorer (see its log) and rerun, or call score_outcomes() "
        "to keep the items that did score."
    )


def score_outcomes(
    scorer: Any, items: Sequence[Item] | Dataset, *, policy: RetryPolicy | None = None, batch_size: int = 256
) -> list[Outcome]:
    """One :class:`Outcome` per item for ANY scorer.

    Uses ``scorer.score_outcomes`` when the scorer has it (the adapters); otherwise calls
    ``scorer.score`` on batches of ``batch_size`` items in a worker thread with the policy's
    timeout, retrying failed batches and NaN items. Exceptions become ``error``, slow calls
    ``timeout`` and non-finite scores ``nan``; nothing becomes 0.
    """
    items = list(items.items if isinstance(items, Dataset) else items)
    method = getattr(scorer, "score_outcomes", None)
    if callable(method):
        return method(items) if policy is None else method(items, policy=policy)
    policy = policy or RetryPolicy()
    who = type(scorer).__name__

    def call(batch: list[Item]) -> list[Outcome]:
        values = np.asarray(call_with_timeout(scorer.score, batch, policy.timeout), dtype=float)
        if values.shape != (len(batch),):
            raise ScorerError(f"{who}.score returned shape {values.shape} for {len(batch)} items")
        return [Outcome.from_value(float(v)) for v in values]

    return run_batches(call, items, policy, batch_size=batch_size)

"""What a worker does with one task: generate (or take) answers, look them up in the query cache,
score the misses through the retrying adapter layer, and return the records.

Workers never write to the store: they read the query cache (read-only SQLite, when the run folder
is visible to them) and hand records and new cache entries back to the parent, the single writer.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..types import Item
from .suite import RetrySpec
from .tasks import Bundle, Task, task_rng

__all__ = ["TaskResult", "answer_key", "execute"]

_CHUNK = 500


def answer_key(prompt_id: str, text: str) -> str:
    """The cache key of an answer: the same text may earn different scores under different prompts."""
    return hashlib.sha256(f"{prompt_id}\x1f{text}".encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class TaskResult:
    """The outcome of one task: its records, new cache entries, and a task-level error if any."""

    task: Task
    records: list[dict[str, Any]] = field(default_factory=list)
    cache: list[tuple[str, str, float, int]] = field(default_factory=list)
    error: str = ""
    queries: int = 0
    cache_hits: int = 0
    elapsed_s: float = 0.0


def make_policy(spec: RetrySpec) -> Any:
    """The adapter layer's retry policy for a ``[run.retry]`` table."""
    from ..scorers.adapters._retry import RetryPolicy

    return RetryPolicy(max_attempts=spec.retries + 1, backoff=spec.backoff_s, timeout=spec.timeout_s or None)


def _cache_lookup(cache_path: str, fingerprint: str, keys: list[str]) -> dict[str, tuple[float, int]]:
    """Cached ok scores for these answer keys; empty when the store is not reachable from here."""
    if not cache_path or not keys or not Path(cache_path).is_file():
        return {}
    found: dict[str, tuple[float, int]] = {}
    try:
        con = sqlite3.connect(f"{Path(cache_path).resolve().as_uri()}?mode=ro", uri=True, timeout=30)
        try:
            for start in range(0, len(keys), _CHUNK):
                chunk = keys[start : start + _CHUNK]
                marks = ",".join("?" * len(chunk))
                sql = f"SELECT answer_key, score, attempts FROM answer_cache WHERE fingerprint = ? AND answer_key IN ({marks})"  # noqa: S608
                for sha, score, attempts in con.execute(sql, [fingerprint, *chunk]):
                    found[sha] = (float(score), int(attempts))
        finally:
            con.close()
    except sqlite3.Error:
        return {}  # the cache is an optimisation: an unreadable cache means "query the scorer"
    return found


def _items(task: Task, bundle: Bundle) -> list[Item]:
    if task.kind == "original":
        return list(bundle.test_items)
    context = bundle.contexts[task.prompt_id]
    return list(task.generator.generate(context, task.n, task_rng(task)))


def _score(items: list[Item], bundle: Bundle, cache_path: str, result: TaskResult) -> list[tuple[Any, ...]]:
    """(score, status, error, attempts) per item, from the cache or the scorer."""
    from ..scorers.adapters._retry import score_outcomes

    shas = [answer_key(it.prompt_id, it.text) for it in items]
    cached = _cache_lookup(cache_path, bundle.fingerprint, sorted(set(shas)))
    todo: dict[str, Item] = {}
    for it, sha in zip(items, shas, strict=True):
        if sha not in cached and sha not in todo:
            todo[sha] = it
    fresh: dict[str, tuple[Any, ...]] = {}
    if todo:
        outcomes = score_outcomes(bundle.scorer, list(todo.values()), policy=make_policy(bundle.retry),
                                  batch_size=bundle.batch_size)
        for sha, out in zip(todo, outcomes, strict=True):
            fresh[sha] = (out.score if out.status == "ok" else None, out.status, out.error or None, int(out.attempts))
            result.queries += int(out.attempts)
            if out.status == "ok":
                result.cache.append((bundle.fingerprint, sha, float(out.score), int(out.attempts)))
    result.cache_hits = sum(1 for sha in shas if sha in cached)
    return [(cached[s][0], "ok", None, cached[s][1]) if s in cached else fresh[s] for s in shas]


def _record(task: Task, bundle: Bundle, item: Item, outcome: tuple[Any, ...], run_id: str) -> dict[str, Any]:
    prompt = bundle.prompts[item.prompt_id]
    original = task.kind == "original"
    gen = task.generator
    score, status, error, attempts = outcome
    return {
        "run_id": run_id,
        "task_id": task.task_id,
        "dataset": task.dataset,
        "split": bundle.split if original else bundle.train_split,
        "prompt_id": item.prompt_id,
        "scorer": task.scorer,
        "scorer_fingerprint": bundle.fingerprint,
        "kind": task.kind,
        "method": task.method,
        "params": json.dumps({} if original else gen.params, sort_keys=True, default=str),
        "seed": task.seed,
        "item_id": item.id,
        "text": item.text,
        "source_id": None,
        "source_text": None,
        "source_score": None,
        "gold": item.score if original else None,
        "score": score,
        "status": status,
        "error": error,
        "attempts": attempts,
        "min_score": float(prompt.min_score),
        "max_score": float(prompt.max_score),
        "expectation": None if original else gen.expectation,
        "component_version": str(getattr(bundle.scorer, "version", "")) if original else str(gen.version),
        "elapsed_s": 0.0,
    }


def execute(task: Task, bundle: Bundle, *, cache_path: str = "", run_id: str = "") -> TaskResult:
    """Run one task. Scorer failures become records with status error/timeout/nan; a generator
    failure becomes a task-level ``error`` (no records), retried on the next run."""
    result = TaskResult(task)
    start = time.perf_counter()
    try:
        items = _items(task, bundle)
    except Exception as exc:  # a generator bug must not kill the run; it is reported per task
        result.error = f"{type(exc).__name__}: {exc}"
        return result
    outcomes = _score(items, bundle, cache_path, result)
    result.elapsed_s = time.perf_counter() - start
    per_record = result.elapsed_s / max(len(items), 1)
    for item, outcome in zip(items, outcomes, strict=True):
        rec = _record(task, bundle, item, outcome, run_id)
        rec["elapsed_s"] = per_record
        result.records.append(rec)
    return result

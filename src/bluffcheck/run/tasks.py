"""The task grid: dataset x scorer x prompt x method, plus one "original" task per dataset x scorer.

A :class:`Task` is small, picklable data. What many tasks share (the fitted scorer, the prompts'
generation contexts, the held-out answers) is a :class:`Bundle`, sent to each worker once.
``task_id`` is a stable hash of the task's resolved configuration and the suite seed, and each task
draws its randomness from ``SeedSequence(suite seed, spawn_key=task seed)``, where the task seed
hashes what is generated (dataset content, prompt, method, parameters, n) but not the scorer: results do not
depend on task order, worker count or executor.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..generators.base import GenerationContext
from ..types import Item, Prompt
from .suite import GeneratorSpec, RetrySpec

__all__ = ["Bundle", "Task", "expand_tasks", "stable_hash", "task_rng"]


def stable_hash(payload: Any, length: int = 16) -> str:
    """sha256 of canonical JSON, truncated to ``length`` hex digits."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:length]


@dataclass(frozen=True)
class Bundle:
    """Inputs shared by all tasks of one dataset x scorer pair.

    Parameters
    ----------
    key : str
        ``"<dataset label>/<scorer label>"``.
    scorer : Scorer
        The fitted scorer (or adapter).
    fingerprint : str
        ``scorer.fingerprint``, the query-cache key.
    contexts : mapping of prompt id to GenerationContext
        What generators may use per prompt (training answers and full-credit answers).
    test_items : tuple of Item
        Held-out real answers, scored by the "original" task (QWK).
    prompts : mapping of prompt id to Prompt
    split : str
        The split name recorded for the held-out answers.
    batch_size : int
        Items per scorer call.
    retry : RetrySpec
    """

    key: str
    dataset: str
    scorer_label: str
    scorer: Any
    fingerprint: str
    contexts: dict[str, GenerationContext] = field(hash=False)
    test_items: tuple[Item, ...]
    prompts: dict[str, Prompt] = field(hash=False)
    split: str = ""
    train_split: str = ""
    data_sha256: str = ""
    batch_size: int = 512
    retry: RetrySpec = field(default_factory=RetrySpec)


@dataclass(frozen=True)
class Task:
    """One unit of work: generate (or take) answers for a prompt and score them."""

    task_id: str
    kind: str  # "generator" | "original"
    bundle: str
    dataset: str
    scorer: str
    prompt_id: str
    method: str
    label: str
    params: dict[str, Any] = field(hash=False, compare=False)
    n: int = 0
    seed: int = 0
    suite_seed: int = 0
    generator: Any = field(default=None, hash=False, compare=False, repr=False)

    def describe(self) -> dict[str, Any]:
        """The task's identity as plain data (stored in the tasks table and the JSON log)."""
        return {
            "task_id": self.task_id,
            "kind": self.kind,
            "dataset": self.dataset,
            "scorer": self.scorer,
            "prompt_id": self.prompt_id,
            "method": self.method,
            "params": self.params,
            "n": self.n,
            "seed": self.seed,
        }


def task_rng(task: Task) -> np.random.Generator:
    """The task's own generator: ``SeedSequence(suite_seed, spawn_key=(task.seed,))``."""
    return np.random.default_rng(np.random.SeedSequence(task.suite_seed, spawn_key=(task.seed,)))


def _make(bundle: Bundle, suite_seed: int, **spec: Any) -> Task:
    identity = {
        "suite_seed": suite_seed,
        "dataset": bundle.dataset,
        "data_sha256": bundle.data_sha256,
        "scorer": bundle.scorer_label,
        "scorer_fingerprint": bundle.fingerprint,
        **{k: v for k, v in spec.items() if k != "generator" and k != "label"},
    }
    task_id = stable_hash(identity)
    # The random stream depends on what is generated, not on who scores it: every scorer of a
    # dataset meets the same bluffs (as seed 000 scored one adversarial corpus with both systems),
    # and the same suite gives the same bytes wherever the checkout lives.
    stream = {k: v for k, v in identity.items() if k not in ("scorer", "scorer_fingerprint")}
    return Task(
        task_id=task_id,
        bundle=bundle.key,
        dataset=bundle.dataset,
        scorer=bundle.scorer_label,
        seed=int(stable_hash(stream)[:8], 16),
        suite_seed=suite_seed,
        **spec,
    )


def expand_tasks(bundles: list[Bundle], generators: tuple[GeneratorSpec, ...], suite_seed: int) -> list[Task]:
    """All tasks of a suite, in a deterministic order (bundle, original first, prompt, method)."""
    from .._registry import generators as registry

    instances = {g.label: registry.create(g.name, **g.params) for g in generators}
    tasks: list[Task] = []
    for bundle in bundles:
        tasks.append(_make(bundle, suite_seed, kind="original", prompt_id="", method="original", label="original",
                           params={}, n=len(bundle.test_items)))
        for pid in bundle.contexts:
            for g in generators:
                tasks.append(
                    _make(bundle, suite_seed, kind="generator", prompt_id=pid, method=g.name, label=g.label,
                          params=dict(g.params), n=g.n, generator=instances[g.label])
                )
    return tasks

"""Tiny components for the run-engine tests, following the real contracts.

They are registered under ``test-run-*`` names by :func:`register_fakes` and removed by
:func:`unregister_fakes` (the ``fakes`` fixture does both). Workers never look names up: tasks carry
generator instances and bundles carry fitted scorers, which unpickle by importing this module.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from bluffcheck._registry import datasets, generators, scorers
from bluffcheck.generators.base import BluffGenerator, GenerationContext
from bluffcheck.scorers.base import Scorer
from bluffcheck.types import Dataset, Item, Prompt

GOOD = ["light", "water", "carbon", "dioxide", "chlorophyll", "sugar", "energy", "leaves"]
BAD = ["dog", "table", "music", "blue", "car", "friday", "pizza", "river"]


def toy_dataset(*, split: str = "train", n: int = 12) -> Dataset:
    """Two prompts (score range 0..2); answers mix on-topic and off-topic words by their gold score."""
    prompts = {
        "p1": Prompt("p1", question="What do plants need?", reference_answers=("light water carbon dioxide",),
                     score_range=(0, 2)),
        "p2": Prompt("p2", question="What do leaves make?", reference_answers=("sugar energy chlorophyll",),
                     score_range=(0, 2)),
    }
    offset = 0 if split == "train" else 1000
    items = []
    for pid in prompts:
        for i in range(n):
            score = (i + offset) % 3
            words = GOOD[(i + offset) % 4 : (i + offset) % 4 + 2 * score] + BAD[i % 5 : i % 5 + 3 - score]
            items.append(Item(f"{split}-{pid}-{i}", pid, " ".join(words), float(score)))
    return Dataset("test-run-toy", items, prompts, split)


class OverlapScorer(Scorer):
    """Scores by the share of an answer's words seen in full-credit training answers.

    ``delay`` sleeps per call; texts containing ``fail_marker`` get NaN (``fail_mode="nan"``) or
    make the call raise (``"error"``) until the file ``heal_file`` exists; ``count_file`` gets one
    line per scored item (counts queries across processes).
    """

    def __init__(self, *, delay: float = 0.0, fail_marker: str = "", fail_mode: str = "nan",
                 heal_file: str = "", count_file: str = "") -> None:
        self.delay = delay
        self.fail_marker = fail_marker
        self.fail_mode = fail_mode
        self.heal_file = heal_file
        self.count_file = count_file

    def _fit_prompt(self, items: Sequence[Item], prompt: Prompt | None) -> Any:
        top = max(it.score or 0 for it in items)
        return {w for it in items if it.score == top for w in it.text.split()}

    def _failing(self, text: str) -> bool:
        healed = bool(self.heal_file) and Path(self.heal_file).exists()
        return bool(self.fail_marker) and self.fail_marker in text and not healed

    def _score_prompt(self, model: Any, items: Sequence[Item], prompt: Prompt | None) -> np.ndarray:
        if self.count_file:
            with open(self.count_file, "a", encoding="utf-8") as fh:
                fh.write("x\n" * len(items))
        if self.delay:
            time.sleep(self.delay)
        if self.fail_mode == "error" and any(self._failing(it.text) for it in items):
            raise RuntimeError("scorer crashed on a marked answer")
        out = []
        for it in items:
            words = it.text.split()
            share = sum(w in model for w in words) / max(len(words), 1)
            out.append(float("nan") if self._failing(it.text) else float(np.rint(2 * share)))
        return np.asarray(out)


@dataclass(frozen=True)
class WordSalad(BluffGenerator):
    """``length`` words drawn from the prompt's answers; every third answer gets ``marker`` appended."""

    registry_name: ClassVar[str] = "test-run-salad"  # class state is not pickled: fix it in the class
    length: int = 5
    marker: str = ""

    def _generate(self, context: GenerationContext, n: int, rng: np.random.Generator) -> list[str]:
        vocab = sorted({w for a in context.answers for w in a.split()})
        texts = [" ".join(rng.choice(vocab, size=self.length).tolist()) for _ in range(n)]
        if self.marker:
            texts = [f"{t} {self.marker}" if i % 3 == 0 else t for i, t in enumerate(texts)]
        return texts


@dataclass(frozen=True)
class Broken(BluffGenerator):
    """A generator that always fails (a task-level error)."""

    registry_name: ClassVar[str] = "test-run-broken"

    def _generate(self, context: GenerationContext, n: int, rng: np.random.Generator) -> list[str]:
        raise RuntimeError("this generator is broken on purpose")


def _load_toy(*, split: str = "train", n: int = 12) -> Dataset:
    return toy_dataset(split=split, n=n)


FAKES = {
    (datasets, "test-run-toy"): _load_toy,
    (scorers, "test-run-overlap"): OverlapScorer,
    (generators, "test-run-salad"): WordSalad,
    (generators, "test-run-broken"): Broken,
}


def register_fakes() -> None:
    """Register the fakes (idempotent)."""
    for (registry, name), obj in FAKES.items():
        registry._load()
        registry._items[name] = obj
        obj.registry_name = name  # type: ignore[attr-defined]


def unregister_fakes() -> None:
    """Remove the fakes from the registries."""
    for registry, name in FAKES:
        registry._items.pop(name, None)


def toy_suite(out: Path, *, extra: str = "", scorer_params: str = "", generators_toml: str = "",
              run: str = "", batch_size: int = 4) -> str:
    """A small suite over the toy data, as TOML text."""
    gens = generators_toml or '[[generators]]\nname = "test-run-salad"\nn = 6\n[generators.params]\nlength = 4\n'
    return f"""
[run]
name = "toy"
seed = 7
output = "{out}"
batch_size = {batch_size}
{run}
[run.retry]
retries = 1
timeout_s = 20
backoff_s = 0

[[datasets]]
name = "test-run-toy"
train_split = "train"
test_split = "test"

[[scorers]]
name = "test-run-overlap"
[scorers.params]
{scorer_params}

{gens}
{extra}
"""

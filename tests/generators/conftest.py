"""Fixtures for the generator tests: a small synthetic prompt and the real ASAP-SAS prompt 3."""

from __future__ import annotations

from pathlib import Path

import pytest

from bluffcheck.generators.base import GenerationContext
from bluffcheck.types import Dataset, Item, Prompt

_ANSWERS = [
    "Pandas eat only bamboo and koalas eat only eucalyptus leaves.",
    "Both pandas and koalas are specialists, while pythons eat almost anything.",
    "Pythons are generalists that can live anywhere; pandas need bamboo forests.",
    "Koalas and pandas depend on one food, pythons do not.",
    "The panda and the koala are picky eaters but the python is not picky.",
    "Pandas live in China and koalas live in Australia; pythons invade Florida.",
    "They are similar because each eats one plant, different because pythons hunt.",
    "A python will eat rats, birds and even alligators.",
]


@pytest.fixture(scope="session")
def small_dataset() -> Dataset:
    """24 scored answers to one prompt (scores 0..2), all written for these tests."""
    prompt = Prompt(
        "p1",
        question="Explain how pandas in China are similar to koalas in Australia and how they differ from pythons.",
        passage="Pandas eat bamboo. Koalas eat eucalyptus leaves. Pythons eat many animals.",
        score_range=(0, 2),
    )
    items = [Item(f"a{i}", "p1", f"{text} (answer {i})", score=float(i % 3)) for i, text in enumerate(_ANSWERS * 3)]
    return Dataset("tiny", tuple(items), {"p1": prompt}, "train")


@pytest.fixture(scope="session")
def small_context(small_dataset: Dataset) -> GenerationContext:
    from bluffcheck.generators._api import context_for

    return context_for(small_dataset, "p1")


@pytest.fixture(scope="session")
def asap3(shared_data: Path) -> Dataset:
    """ASAP-SAS prompt 3: the 406 scored public-leaderboard answers, with the prompt's question, passage and rubric."""
    from bluffcheck.datasets import load

    data = load("asap-sas", path=shared_data / "asap-sas" / "kaggle", material=shared_data / "asap-sas")
    return data.for_prompt("3")


@pytest.fixture(scope="session")
def brown_path(shared_data: Path) -> Path:
    return shared_data / "nltk_data" / "corpora" / "brown.zip"

"""Fixtures for the generator tests: a small synthetic prompt and the real ASAP-SAS prompt 3."""

from __future__ import annotations

import csv
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


def _read_asap3(root: Path) -> Dataset:
    kaggle = root / "asap-sas" / "kaggle"
    with (kaggle / "public_leaderboard_solution.csv").open(encoding="utf-8", newline="") as fh:
        scores = {r["Id"]: float(r["Score1"]) for r in csv.DictReader(fh) if r["EssaySet"] == "3"}
    with (kaggle / "public_leaderboard_rel_2.tsv").open(encoding="utf-8", newline="") as fh:
        rows = [r for r in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE) if r["EssaySet"] == "3"]
    readme = root / "asap-sas" / "jjj-readmefirst-txt" / "Data Set #3--ReadMeFirst.txt"
    passage = readme.read_text(encoding="utf-8", errors="replace")
    prompt = Prompt(
        "3",
        question="Explain how pandas in China are similar to koalas in Australia and how they both are different from pythons.",
        passage=passage,
        score_range=(0, 2),
    )
    items = [Item(r["Id"], "3", r["EssayText"], score=scores[r["Id"]]) for r in rows]
    return Dataset("asap-sas", tuple(items), {"3": prompt}, "public-leaderboard")


@pytest.fixture(scope="session")
def asap3(shared_data: Path) -> Dataset:
    """ASAP-SAS prompt 3: 406 scored public-leaderboard answers and the ReadMeFirst text as material."""
    return _read_asap3(shared_data)


@pytest.fixture(scope="session")
def brown_path(shared_data: Path) -> Path:
    return shared_data / "nltk_data" / "corpora" / "brown.zip"

"""Toy datasets for the scorer tests, and readers of the real data for the real-data tests.

The toy data is synthetic: each prompt has two key concepts; an answer's score is how many of them
it mentions (0-2), so a working scorer can learn it from a few dozen answers.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bluffcheck.types import Dataset, Item, Prompt

FILLER = (
    "i think that the it was because they we would see what happens when you do this and then so maybe "
    "some other thing about how much more test result"
).split()
CONCEPTS = {
    "p1": (("mass", "weight", "scale"), ("vinegar", "acid", "container")),
    "p2": (("protein", "ribosome", "mrna"), ("codon", "anticodon", "trna")),
}
QUESTIONS = {
    "p1": "What extra information would you need to replicate the acid rain experiment?",
    "p2": "List and describe the major steps of protein synthesis from mrna.",
}
REFERENCES = {
    "p1": ("you need the mass of each sample and the amount of vinegar",),
    "p2": ("mrna leaves the nucleus, the ribosome reads each codon and trna brings the anticodon",),
}
LABELS = ("incorrect", "contradictory", "correct")  # score 0, 1, 2


def _answer(rng: np.random.Generator, pid: str, score: int) -> str:
    words = list(rng.choice(FILLER, size=int(rng.integers(4, 12))))
    chosen = rng.permutation(2)[:score]
    for c in chosen:
        group = CONCEPTS[pid][int(c)]
        words.insert(int(rng.integers(0, len(words) + 1)), str(group[int(rng.integers(len(group)))]))
    return " ".join(words)


def make_toy(*, labelled: bool = False, n: int = 60, seed: int = 7) -> Dataset:
    """Two prompts, ``n`` answers each, scores 0-2 (or SemEval-style labels whose credit is the score)."""
    rng = np.random.default_rng(seed)
    prompts, items = {}, []
    for pid in CONCEPTS:
        prompts[pid] = Prompt(
            pid,
            question=QUESTIONS[pid],
            reference_answers=REFERENCES[pid],
            score_range=None if labelled else (0, 2),
            labels=LABELS if labelled else None,
        )
        for i in range(n):
            s = i % 3
            text = _answer(rng, pid, s)
            if labelled:
                items.append(Item(f"{pid}-{i}", pid, text, score=float(s == 2), label=LABELS[s]))
            else:
                items.append(Item(f"{pid}-{i}", pid, text, score=float(s)))
    return Dataset("toy-labelled" if labelled else "toy", items, prompts)


@pytest.fixture(scope="session")
def toy() -> Dataset:
    return make_toy()


@pytest.fixture(scope="session")
def toy_labelled() -> Dataset:
    return make_toy(labelled=True)


@pytest.fixture(scope="session")
def toy_factory():
    """:func:`make_toy` itself, for tests that need other sizes or seeds."""
    return make_toy


@pytest.fixture(scope="session")
def real_sets():
    """Readers of the real data (``asap_sas``, ``asap_aes``, ``beetle``), each taking the data root."""
    from types import SimpleNamespace

    return SimpleNamespace(asap_sas=asap_sas_set, asap_aes=asap_aes_set, beetle=semeval_beetle_3way, holdout=holdout)


# -- real data -------------------------------------------------------------------------------------
def asap_sas_set(root: Path, essay_set: int) -> Dataset:
    """The scored public-leaderboard answers of one ASAP-SAS set, with its prompt material."""
    from bluffcheck.datasets import load

    return load(
        "asap-sas", path=root / "asap-sas" / "kaggle" / "public_leaderboard_rel_2.tsv", split="public-leaderboard"
    ).for_prompt(str(essay_set))


def asap_aes_set(root: Path, essay_set: int) -> Dataset:
    """All essays of one ASAP-AES set (the five NEA fold files together) with their domain1 score."""
    from bluffcheck.datasets import load

    return load("asap-aes", path=root / "asap-aes" / "training_set_rel3_nea_folds").for_prompt(str(essay_set))


def semeval_beetle_3way(root: Path) -> Dataset:
    """SemEval-2013 Beetle 3-way training answers, with each question's text and reference answers."""
    from bluffcheck.datasets import load

    return load("semeval2013", path=root / "semeval2013-task7" / "semeval-3way.zip", corpus="beetle", ways=3)


def holdout(data: Dataset, *, fraction: float = 0.2, seed: int = 0) -> tuple[Dataset, Dataset]:
    """A fixed random train/test split."""
    order = np.random.default_rng(seed).permutation(len(data))
    cut = int(round(len(data) * (1 - fraction)))
    return data.subset([data[i] for i in order[:cut]]), data.subset([data[i] for i in order[cut:]])

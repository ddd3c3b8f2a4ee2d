"""Toy datasets for the scorer tests, and readers of the real data for the real-data tests.

The toy data is synthetic: each prompt has two key concepts; an answer's score is how many of them
it mentions (0-2), so a working scorer can learn it from a few dozen answers.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from bluffcheck.types import Dataset, Item, Prompt

FILLER = ("i think that the it was because they we would see what happens when you do this and then so maybe "
          "some other thing about how much more test result").split()
CONCEPTS = {
    "p1": (("mass", "weight", "scale"), ("vinegar", "acid", "container")),
    "p2": (("protein", "ribosome", "mrna"), ("codon", "anticodon", "trna")),
}
QUESTIONS = {"p1": "What extra information would you need to replicate the acid rain experiment?",
             "p2": "List and describe the major steps of protein synthesis from mrna."}
REFERENCES = {"p1": ("you need the mass of each sample and the amount of vinegar",),
              "p2": ("mrna leaves the nucleus, the ribosome reads each codon and trna brings the anticodon",)}
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
        prompts[pid] = Prompt(pid, question=QUESTIONS[pid], reference_answers=REFERENCES[pid],
                              score_range=None if labelled else (0, 2), labels=LABELS if labelled else None)
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

    return SimpleNamespace(asap_sas=asap_sas_set, asap_aes=asap_aes_set, beetle=semeval_beetle_3way)


# -- real data -------------------------------------------------------------------------------------
def _has_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def asap_sas_set(root: Path, essay_set: int) -> Dataset:
    """The scored public-leaderboard answers of one ASAP-SAS set (loader when present, else pandas)."""
    import pandas as pd

    kaggle = root / "asap-sas" / "kaggle"
    text = pd.read_csv(kaggle / "public_leaderboard_rel_2.tsv", sep="\t", quoting=3, dtype={"EssayText": str})
    gold = pd.read_csv(kaggle / "public_leaderboard_solution.csv")
    df = text.merge(gold[["Id", "Score1"]], on="Id", validate="one_to_one")
    df = df[df["EssaySet"] == essay_set]
    pid = str(essay_set)
    low, high = (0, 3) if essay_set in (1, 2, 5, 6) else (0, 2)
    items = [Item(str(r.Id), pid, "" if pd.isna(r.EssayText) else str(r.EssayText), score=float(r.Score1))
             for r in df.itertuples()]
    return Dataset("asap-sas", items, {pid: Prompt(pid, score_range=(low, high))}, split="public-leaderboard")


def asap_aes_set(root: Path, essay_set: int) -> Dataset:
    """All essays of one ASAP-AES set with their domain1 score (the five NEA fold files together)."""
    import csv

    ranges = {1: (2, 12), 2: (1, 6), 3: (0, 3), 4: (0, 3), 5: (0, 4), 6: (0, 4), 7: (0, 30), 8: (0, 60)}
    items = []
    for k in range(5):
        path = root / "asap-aes" / "training_set_rel3_nea_folds" / f"fold_{k}_test.tsv"
        with path.open(encoding="utf-8", newline="") as fh:
            for row in csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
                if len(row) > 6 and row[1] == str(essay_set):
                    items.append(Item(row[0], str(essay_set), row[2], score=float(row[6])))
    items.sort(key=lambda it: int(it.id))
    pid = str(essay_set)
    return Dataset("asap-aes", items, {pid: Prompt(pid, score_range=ranges[essay_set])})


def semeval_beetle_3way(root: Path) -> Dataset:
    """SemEval-2013 Beetle 3-way training answers, with each question's text and reference answers."""
    import xml.etree.ElementTree as ET  # noqa: N817 - the organisers' own release, read from the data folder
    import zipfile

    prompts, items = {}, []
    with zipfile.ZipFile(root / "semeval2013-task7" / "semeval-3way.zip") as zf:
        for name in sorted(n for n in zf.namelist() if n.startswith("training/3way/beetle/") and n.endswith(".xml")):
            q = ET.fromstring(zf.read(name))
            pid = q.get("id")
            refs = tuple(r.text or "" for r in q.iter("referenceAnswer"))
            prompts[pid] = Prompt(pid, question=q.findtext("questionText") or "", reference_answers=refs,
                                  labels=("incorrect", "contradictory", "correct"))
            for a in q.iter("studentAnswer"):
                label = a.get("accuracy")
                items.append(Item(a.get("id"), pid, a.text or "", score=float(label == "correct"), label=label))
    return Dataset("semeval-beetle-3way", items, prompts, split="train")

"""SemEval-2013 Task 7 (student response analysis): Beetle and SciEntsBank, 2-, 3- and 5-way labels.

Each question file carries the question text, the reference answers and the labelled student answers
(Dzikovska et al. 2013). ``Prompt.labels`` is the label set with the "no credit" label first;
``Item.label`` is the gold label and ``Item.score`` is 1.0 for ``"correct"``, else 0.0.

Example
-------
>>> from bluffcheck.datasets import load
>>> ds = load("semeval2013", corpus="beetle", ways=3)  # doctest: +SKIP
>>> len(ds), len(ds.prompts)  # doctest: +SKIP
(3941, 47)
"""

from __future__ import annotations

from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from .._registry import datasets
from ..errors import ConfigError, DatasetFormatError, MissingDataError
from ..types import Dataset, Item, Prompt
from ._common import PathLike, check_choice, check_unique_ids, default_path, existing
from ._semeval_xml import LABELS, members, parse_question, select

__all__ = ["CORPORA", "SPLITS", "load_semeval2013", "read_semeval"]

CORPORA = ("beetle", "scientsbank")
SPLITS = ("train", "test-unseen-answers", "test-unseen-questions", "test-unseen-domains")
_NAME = "semeval2013"
_ZIP = {2: "semeval-3way.zip", 3: "semeval-3way.zip", 5: "semeval-5way.zip"}


def check_options(name: str, corpus: str, ways: int, split: str) -> None:
    """ConfigError for an unknown corpus, label granularity or split, or a split the corpus lacks."""
    check_choice(name, "corpus", corpus, CORPORA)
    check_choice(name, "ways", ways, tuple(LABELS))
    check_choice(name, "split", split, SPLITS)
    if split == "test-unseen-domains" and corpus != "scientsbank":
        raise ConfigError(
            f"Dataset {name!r}: split 'test-unseen-domains' exists only for corpus 'scientsbank', not {corpus!r}."
        )


def read_semeval(source: Path | Traversable, *, name: str, corpus: str, ways: int, split: str) -> Dataset:
    """Parse the question files of one corpus/ways/split found under ``source`` (zip, folder, package data)."""
    chosen = select(members(source), corpus, ways, split)
    if not chosen:
        raise MissingDataError(
            f"Dataset {name!r}: no {ways}-way {corpus} {split!r} XML files under {source}. "
            "Point path=... at the release zip or a folder with its training/ and test/ folders."
        )
    prompts: dict[str, Prompt] = {}
    items: list[Item] = []
    meta: dict[str, Any] = {"corpus": corpus, "ways": ways}
    for member in chosen:
        prompt, answers = parse_question(member, LABELS[ways], meta)
        if prompt.id in prompts:
            first = prompts[prompt.id].metadata["source_file"]
            raise DatasetFormatError(
                member[1], 2, "id", f"question {prompt.id!r} is also in {first}; ids must be unique."
            )
        prompts[prompt.id] = prompt
        items.extend(answers)
    check_unique_ids(items, lambda it: f"{it.metadata['source_file']} line {it.metadata['source_line']}")
    return Dataset(name, tuple(items), prompts, split, metadata={**meta, "source": str(source), "labels": LABELS[ways]})


@datasets.register(_NAME)
def load_semeval2013(
    path: PathLike | None = None, *, corpus: str = "beetle", ways: int = 3, split: str = "train"
) -> Dataset:
    """Load one corpus and split of SemEval-2013 Task 7.

    Parameters
    ----------
    path : str or Path, optional
        The release zip (read directly), its extracted folder, or a folder of question XML files.
        Default: ``semeval2013-task7/semeval-3way.zip`` under the data folder (``semeval-5way.zip`` for ``ways=5``).
    corpus : {"beetle", "scientsbank"}
    ways : {2, 3, 5}
        Label granularity. The 5-way release is not in the shared data folder: pass ``path=``.
    split : {"train", "test-unseen-answers", "test-unseen-questions", "test-unseen-domains"}
        ``"test-unseen-domains"`` exists for SciEntsBank only.
    """
    corpus = corpus.lower() if isinstance(corpus, str) else corpus
    check_options(_NAME, corpus, ways, split)
    source = default_path(_NAME, "semeval2013-task7", _ZIP[ways]) if path is None else existing(path, _NAME)
    return read_semeval(source, name=_NAME, corpus=corpus, ways=ways, split=split)


def probe(root: Path) -> list[dict]:
    """The corpus/split combinations found under ``root`` (for :func:`bluffcheck.datasets.available`)."""
    zip_path = root / "semeval2013-task7" / _ZIP[3]
    found = zip_path.is_file()
    return [
        {
            "options": {"corpus": corpus, "split": split, "ways": 3},
            "path": str(zip_path),
            "found": found,
            "load": {"path": zip_path, "corpus": corpus, "split": split, "ways": 3},
        }
        for corpus in CORPORA
        for split in SPLITS
        if not (split == "test-unseen-domains" and corpus != "scientsbank")
    ]


load_semeval2013.probe = probe  # type: ignore[attr-defined]

"""``semeval-demo``: a 12-question SciEntsBank slice of SemEval-2013 Task 7 shipped inside the package.

It needs no data folder, so examples and first commands work on a fresh install. The files are the
release's own XML (CC BY-SA 3.0; see ``resources/data/semeval2013-slice/ATTRIBUTION.md``), chosen by
``make_slice.py`` for an even mix of labels: 12 questions, 496 training answers, 48 test-unseen-answers.

Example
-------
>>> from bluffcheck.datasets import load
>>> ds = load("semeval-demo")
>>> len(ds.prompts), len(ds) > 400
(12, True)
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable

from .._registry import datasets
from ..types import Dataset
from ._common import check_choice
from .semeval2013 import read_semeval

__all__ = ["load_semeval_demo", "slice_folder"]

_NAME = "semeval-demo"


def slice_folder() -> Traversable:
    """The bundled slice (a folder in the installed package)."""
    return files("bluffcheck.resources").joinpath("data", "semeval2013-slice")


@datasets.register(_NAME)
def load_semeval_demo(*, ways: int = 3, split: str = "train") -> Dataset:
    """Load the bundled SciEntsBank demo slice.

    Parameters
    ----------
    ways : {2, 3}
        Label granularity: 2-way (incorrect, correct) or 3-way (incorrect, contradictory, correct).
    split : {"train", "test-unseen-answers"}
    """
    check_choice(_NAME, "ways", ways, (2, 3))
    check_choice(_NAME, "split", split, ("train", "test-unseen-answers"))
    return read_semeval(slice_folder(), name=_NAME, corpus="scientsbank", ways=ways, split=split)


def probe(root: object) -> list[dict]:
    """The bundled slice is always there (for :func:`bluffcheck.datasets.available`)."""
    where = str(slice_folder())
    return [
        {"options": {"split": split, "ways": 3}, "path": where, "found": True}
        for split in ("train", "test-unseen-answers")
    ]


probe.bundled = True  # type: ignore[attr-defined]
load_semeval_demo.probe = probe  # type: ignore[attr-defined]

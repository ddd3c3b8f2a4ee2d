"""Random characters: letters and spaces drawn uniformly (seed 000 §2.2 "Random", Table 2 row 1)."""

from __future__ import annotations

import string
from dataclasses import dataclass

import numpy as np

from .._registry import generators
from ._common import check_count, check_length, fill_nonempty, target_lengths
from .base import BluffGenerator, GenerationContext

__all__ = ["RandomCharacters"]

ALPHABET = string.ascii_lowercase + " "


@generators.register("random-chars")
@dataclass(frozen=True)
class RandomCharacters(BluffGenerator):
    """Uniformly random characters from a-z and space, as long as the prompt's real answers.

    A baseline no robust scorer should credit: the paper's "nswvtnvakgxpm" came from here.

    Parameters
    ----------
    length : {"mean", "sample"} or int
        Target length in characters (real answers measured without punctuation): ``"mean"``
        (default, as in the paper: the average real answer), ``"sample"`` (drawn from the real
        answers' lengths) or a fixed number.

    Examples
    --------
    >>> import numpy as np
    >>> from bluffcheck.types import Prompt
    >>> from bluffcheck.generators.base import GenerationContext
    >>> ctx = GenerationContext(Prompt("3"), answers=("Pandas eat bamboo.", "Koalas eat leaves."))
    >>> [len(it.text) for it in RandomCharacters().generate(ctx, 2, np.random.default_rng(0))]
    [17, 17]
    """

    length: str | int = "mean"
    level = "char"

    def __post_init__(self) -> None:
        check_length(self, self.length)

    def _generate(self, context: GenerationContext, n: int, rng: np.random.Generator) -> list[str]:
        check_count(n)
        caps = target_lengths(context, "char", self.length, n, rng)
        letters = np.array(list(ALPHABET))

        def make(rows: np.ndarray) -> list[str]:
            draws = rng.integers(0, len(ALPHABET), size=(len(rows), int(caps[rows].max())))
            return ["".join(letters[d[:cap]]) for d, cap in zip(draws, caps[rows].tolist(), strict=True)]

        return fill_nonempty(make, n, "RandomCharacters")

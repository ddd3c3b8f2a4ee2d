"""Random words: corpus vocabulary drawn uniformly (seed 000 §2.2 "Random")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._registry import generators
from ..resources.ngrams import vocabulary
from ._common import CorpusBacked, check_count, check_length, fill_nonempty, target_lengths
from .base import GenerationContext

__all__ = ["RandomWords"]


@generators.register("random-words")
@dataclass(frozen=True)
class RandomWords(CorpusBacked):
    """Words drawn uniformly from a corpus vocabulary (every word type equally likely).

    Unlike word 1-grams, frequency plays no part: rare words are as likely as "the" (seed 000 §2.2).

    Parameters
    ----------
    length : {"mean", "sample"} or int
        Target length in words (see :class:`~bluffcheck.generators.random_chars.RandomCharacters`).
    corpus : {"generic", "prompt"}
        Vocabulary of the generic corpus (default, as in the paper: Brown) or of the prompt's material and answers.
    generic : str
        Which generic corpus: ``"auto"`` (Brown if installed, else the bundled public-domain corpus),
        ``"brown"``, ``"bundled"`` or a file path.
    min_answers : int
        Fewest real answers a prompt-specific corpus may be built from.

    Examples
    --------
    >>> import numpy as np
    >>> from bluffcheck.types import Prompt
    >>> from bluffcheck.generators.base import GenerationContext
    >>> ctx = GenerationContext(Prompt("3"), answers=("Pandas eat bamboo.", "Koalas eat leaves."))
    >>> [len(it.text.split()) for it in RandomWords(generic="bundled").generate(ctx, 2, np.random.default_rng(0))]
    [3, 3]
    """

    length: str | int = "mean"
    corpus: str = "generic"
    generic: Any = "auto"
    min_answers: int = 20
    level = "word"

    def __post_init__(self) -> None:
        check_length(self, self.length)
        self._check_corpus_params()

    def _generate(self, context: GenerationContext, n: int, rng: np.random.Generator) -> list[str]:
        check_count(n)
        vocab = vocabulary(self._corpus(context))
        caps = target_lengths(context, "word", self.length, n, rng)

        def make(rows: np.ndarray) -> list[str]:
            draws = rng.integers(0, len(vocab), size=(len(rows), int(caps[rows].max())))
            return [" ".join(vocab[d[:cap]]) for d, cap in zip(draws, caps[rows].tolist(), strict=True)]

        return fill_nonempty(make, n, "RandomWords")

"""What character and word n-gram generators share (seed 000 §2.2 "N-gram"): fields, checks, sampling."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..resources.ngrams import ngram_table
from ._common import CorpusBacked, check_count, check_int, check_length, fill_nonempty, target_lengths
from ._sampling import concatenate_ngrams
from .base import GenerationContext

__all__ = ["NgramGenerator"]


@dataclass(frozen=True)
class NgramGenerator(CorpusBacked):
    """Frequency-weighted n-grams of a corpus at the subclass's ``level``, concatenated up to a length cap.

    Not a Markov chain (seed 000 footnote 2): each gram is drawn from the corpus frequency
    distribution independently of the previous ones. Drawing stops at the length cap or after a gram
    that contains the end-of-sentence symbol.
    """

    n: int = 1
    corpus: str = "generic"
    length: str | int = "mean"
    generic: Any = "auto"
    min_answers: int = 20

    def __post_init__(self) -> None:
        check_int(self, "n", self.n, 1, 5)
        check_length(self, self.length)
        self._check_corpus_params()

    def _generate(self, context: GenerationContext, n: int, rng: np.random.Generator) -> list[str]:
        check_count(n)
        table = ngram_table(self._corpus(context), self.level, self.n)
        caps = target_lengths(context, self.level, self.length, n, rng)
        return fill_nonempty(lambda rows: concatenate_ngrams(table, caps[rows], rng), n, type(self).__name__)

"""Content burst: frequency-weighted nouns of the prompt material and its answers (seed 000 §2.2)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .._registry import generators
from ..errors import ConfigError
from ..types import Prompt
from ._common import check_count, check_int, check_length, fill_nonempty, target_lengths
from .base import BluffGenerator, GenerationContext

__all__ = ["ContentBurst", "prompt_nouns"]

_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*[A-Za-z]|[A-Za-z]{2,}")


@lru_cache(maxsize=16)
def prompt_nouns(prompt: Prompt, answers: tuple[str, ...]) -> tuple[tuple[str, ...], np.ndarray]:
    """Nouns (NN, NNS, NNP, NNPS) of the prompt material and answers with their counts.

    Tagged offline with the Pattern lexicon tagger bundled in TextBlob (``textblob.en.tag``); the
    paper used NLTK's tagger, whose model cannot be installed offline. Common nouns are lower-cased,
    proper nouns keep their case (Table 2: "... koala eucalyptus python America ...").
    """
    from textblob.en import tag  # lazy: loads the Pattern lexicon (~2 s)

    counts: Counter[str] = Counter()
    for text in (prompt.material, *answers):
        if not text.strip():
            continue
        for word, pos in tag(text):
            if pos.startswith("NN") and _WORD.fullmatch(word):
                counts[word if pos.startswith("NNP") else word.lower()] += 1
    words = tuple(sorted(counts))
    return words, np.array([counts[w] for w in words], dtype=np.float64)


@generators.register("content-burst")
@dataclass(frozen=True)
class ContentBurst(BluffGenerator):
    """A list of nouns from the prompt's material and real answers, drawn by frequency.

    Simulates a student who lists on-topic content words without answering; nouns only, so the
    result is not accidentally a correct answer (seed 000 §2.2). A unigram model over nouns.

    Parameters
    ----------
    length : {"mean", "sample"} or int
        Number of nouns (default ``"mean"``: the real answers' mean word count).
    min_answers : int
        Fewest non-empty real answers needed (default 20): with fewer the nouns are not prompt-specific.

    Examples
    --------
    >>> import numpy as np
    >>> from bluffcheck.types import Prompt
    >>> from bluffcheck.generators.base import GenerationContext
    >>> ctx = GenerationContext(Prompt("3", question="How are pandas like koalas?"), answers=("Pandas eat bamboo.",))
    >>> text = ContentBurst(min_answers=1).generate(ctx, 1, np.random.default_rng(0))[0].text
    >>> {w.lower() for w in text.split()} <= {"pandas", "koalas", "bamboo"}
    True
    """

    length: str | int = "mean"
    min_answers: int = 20
    level = "word"

    def __post_init__(self) -> None:
        check_length(self, self.length)
        check_int(self, "min_answers", self.min_answers, 1)

    def _generate(self, context: GenerationContext, n: int, rng: np.random.Generator) -> list[str]:
        check_count(n)
        answers = tuple(a for a in context.answers if a.strip())
        if len(answers) < self.min_answers:
            raise ConfigError(
                f"Prompt {context.prompt.id!r} has {len(answers)} non-empty answers; ContentBurst needs at least "
                f"{self.min_answers} to collect the prompt's nouns. Add answers or lower min_answers."
            )
        words, counts = prompt_nouns(context.prompt, answers)
        if not words:
            raise ConfigError(f"Prompt {context.prompt.id!r}: its material and answers contain no nouns to sample.")
        cdf = np.cumsum(counts) / counts.sum()
        vocab = np.array(words, dtype=object)
        caps = target_lengths(context, "word", self.length, n, rng)

        def make(rows: np.ndarray) -> list[str]:
            draws = np.searchsorted(cdf, rng.random((len(rows), int(caps[rows].max()))), side="right")
            draws = np.minimum(draws, len(vocab) - 1)
            return [" ".join(vocab[d[:cap]]) for d, cap in zip(draws, caps[rows].tolist(), strict=True)]

        return fill_nonempty(make, n, "ContentBurst")

"""Character n-grams of a corpus, frequency-weighted and concatenated (seed 000 §2.2 "N-gram")."""

from __future__ import annotations

from dataclasses import dataclass

from .._registry import generators
from ._ngrams import NgramGenerator

__all__ = ["CharNgrams"]


@generators.register("char-ngrams")
@dataclass(frozen=True)
class CharNgrams(NgramGenerator):
    """Character n-grams drawn by corpus frequency and concatenated (not a Markov chain, footnote 2).

    The corpus is lower-cased with punctuation removed; each sentence (generic corpus) or answer
    (prompt corpus) ends in an end-of-sentence symbol ``"\\n"``. Drawing stops at the length cap or
    after a gram containing EOS. ``n=1`` is Table 2's "generic corpus characters" (``corpus="generic"``)
    and "prompt-specific characters" (``corpus="prompt"``).

    Parameters
    ----------
    n : int
        Gram length, 1..5.
    corpus : {"generic", "prompt"}
        The generic corpus or the prompt's material plus its real answers.
    length : {"mean", "sample"} or int
        Length cap in characters (default ``"mean"``: the real answers' mean, as in the paper).
    generic : str
        ``"auto"`` (Brown if installed, else the bundled public-domain corpus), ``"brown"``, ``"bundled"`` or a path.
    min_answers : int
        Fewest real answers a prompt-specific corpus may be built from (default 20).

    Examples
    --------
    >>> import numpy as np
    >>> from bluffcheck.types import Prompt
    >>> from bluffcheck.generators.base import GenerationContext
    >>> ctx = GenerationContext(Prompt("3"), answers=("Pandas eat bamboo.",) * 20)
    >>> items = CharNgrams(n=3, corpus="prompt").generate(ctx, 2, np.random.default_rng(0))
    >>> all(set(it.text) <= set("pandas eat bamboo") for it in items)
    True
    """

    level = "char"

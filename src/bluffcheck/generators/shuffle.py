"""Shuffle: the word tokens of a correct answer in random order (seed 000 §2.2 "Shuffle")."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from .._registry import generators
from ..errors import ConfigError
from ._common import check_count, draw_sources
from .base import BluffGenerator, GenerationContext

__all__ = ["WordShuffle", "shuffle_tokens"]

_TOKEN = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")


def shuffle_tokens(text: str) -> list[str]:
    """Word tokens as written (case kept, punctuation dropped).

    >>> shuffle_tokens("Pandas like to eat bamboo, don't they?")
    ['Pandas', 'like', 'to', 'eat', 'bamboo', "don't", 'they']
    """
    return _TOKEN.findall(text)


@generators.register("shuffle")
@dataclass(frozen=True)
class WordShuffle(BluffGenerator):
    """A correct answer's words in random order: same vocabulary, no syntax.

    "Pandas like to eat bamboo" is right; "bamboo Pandas eat like to" should not be. Sources are
    the context's correct answers (highest-scored), drawn without replacement while they last;
    answers with fewer than two distinct tokens cannot be shuffled and are skipped. The output
    never repeats its source's word order. Its length is the source answer's.

    Examples
    --------
    >>> import numpy as np
    >>> from bluffcheck.types import Prompt
    >>> from bluffcheck.generators.base import GenerationContext
    >>> ctx = GenerationContext(Prompt("3"), correct_answers=("Pandas like to eat bamboo.",))
    >>> text = WordShuffle().generate(ctx, 1, np.random.default_rng(0))[0].text
    >>> sorted(text.split()) == sorted("Pandas like to eat bamboo".split()), text != "Pandas like to eat bamboo"
    (True, True)
    """

    level = "word"

    def _generate(self, context: GenerationContext, n: int, rng: np.random.Generator) -> list[str]:
        check_count(n)
        sources = [toks for toks in map(shuffle_tokens, context.correct_answers) if len(set(toks)) > 1]
        if not sources:
            raise ConfigError(
                f"Prompt {context.prompt.id!r} has no correct answer with two or more distinct words to shuffle "
                f"({len(context.correct_answers)} correct answers given). Provide correct_answers (the highest-scored "
                "answers) or drop the 'shuffle' method."
            )
        picks = draw_sources(len(sources), n, rng)
        return [" ".join(_permute(sources[i], rng)) for i in picks.tolist()]


def _permute(tokens: list[str], rng: np.random.Generator) -> list[str]:
    while True:  # terminates: with >= 2 distinct tokens a different order has probability >= 1/len
        order = rng.permutation(len(tokens))
        out = [tokens[i] for i in order]
        if out != tokens:
            return out

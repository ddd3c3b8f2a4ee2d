"""Helpers shared by the generators: parameter checks, length targets, corpus choice, provenance."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import fields, replace
from functools import lru_cache
from typing import Any

import numpy as np

from ..errors import ConfigError
from ..resources.corpora import Corpus, GenericCorpus, PromptCorpus, char_text, word_tokens
from ..types import Item, Prompt
from .base import BluffGenerator, GenerationContext

__all__ = [
    "CorpusBacked",
    "check_choice",
    "check_count",
    "check_int",
    "check_length",
    "draw_sources",
    "fill_nonempty",
    "pick_corpus",
    "target_lengths",
]

_MAX_REDRAWS = 200


def check_int(owner: object, name: str, value: Any, low: int, high: int | None = None) -> None:
    """Raise ConfigError unless ``value`` is an int in ``low..high``."""
    ok = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    ok = ok and value >= low and (high is None or value <= high)
    if not ok:
        span = f"in {low}..{high}" if high is not None else f">= {low}"
        raise ConfigError(
            f"The {name!r} parameter of {type(owner).__name__} must be an integer {span}. Got {value!r} instead."
        )


def check_count(n: Any) -> None:
    """The number of answers asked for must be a positive integer."""
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 1:
        raise ConfigError(f"The number of answers to generate must be a positive integer. Got {n!r} instead.")


def check_choice(owner: object, name: str, value: Any, choices: Sequence[str]) -> None:
    """Raise ConfigError unless ``value`` is one of ``choices``."""
    if value not in choices:
        options = " or ".join(repr(c) for c in choices)
        raise ConfigError(f"The {name!r} parameter of {type(owner).__name__} must be {options}. Got {value!r} instead.")


def check_length(owner: object, value: Any) -> None:
    """``length`` is ``"mean"``, ``"sample"`` or a positive integer."""
    if isinstance(value, str):
        check_choice(owner, "length", value, ("mean", "sample"))
    else:
        check_int(owner, "length", value, 1)


@lru_cache(maxsize=64)
def _real_lengths(answers: tuple[str, ...], level: str) -> np.ndarray:
    measure: Callable[[str], int] = (
        (lambda a: len(char_text(a))) if level == "char" else (lambda a: len(word_tokens(a)))
    )
    lengths = np.array([measure(a) for a in answers], dtype=np.int64)
    return lengths[lengths > 0]


def target_lengths(
    context: GenerationContext, level: str, length: str | int, n: int, rng: np.random.Generator
) -> np.ndarray:
    """Target length of each of ``n`` answers, in characters (``level="char"``) or words, without punctuation.

    ``"mean"``: the mean length of the prompt's real answers (seed 000 §2.2), rounded, at least 1;
    ``"sample"``: drawn from the empirical distribution of real answer lengths; an int: that length.
    """
    if not isinstance(length, str):
        return np.full(n, int(length), dtype=np.int64)
    lengths = _real_lengths(tuple(context.answers), level)
    if lengths.size == 0:
        raise ConfigError(
            f"Prompt {context.prompt.id!r} has no non-empty real answers to match the length of "
            f"(length={length!r}). Give the context answers, or pass a fixed length, e.g. length=50."
        )
    if length == "mean":
        return np.full(n, max(1, int(round(float(lengths.mean())))), dtype=np.int64)
    return rng.choice(lengths, size=n)


@lru_cache(maxsize=16)
def _prompt_corpus(prompt: Prompt, answers: tuple[str, ...], min_answers: int) -> PromptCorpus:
    return PromptCorpus.from_texts(prompt, answers, min_answers=min_answers)


def pick_corpus(corpus: str, generic: Any, context: GenerationContext, min_answers: int) -> Corpus:
    """The generic corpus (``generic`` spec, see :meth:`GenericCorpus.resolve`) or the prompt's corpus."""
    if corpus == "generic":
        return GenericCorpus.resolve(generic)
    return _prompt_corpus(context.prompt, tuple(context.answers), min_answers)


def fill_nonempty(make: Callable[[np.ndarray], list[str]], n: int, what: str) -> list[str]:
    """Call ``make(rows)`` until every one of the ``n`` answers has a non-blank text.

    ``make`` receives the indices still to fill and returns one text per index (drawing from the
    generator's rng, so redraws stay reproducible). An answer that stays blank raises: a generator
    never returns empty answers silently.
    """
    out: list[str | None] = [None] * n
    todo = np.arange(n)
    for _ in range(_MAX_REDRAWS):
        if todo.size == 0:
            break
        for i, text in zip(todo.tolist(), make(todo), strict=True):
            if text.strip():
                out[i] = text
        todo = np.array([i for i in todo.tolist() if out[i] is None], dtype=np.int64)
    if todo.size:
        raise ConfigError(f"{what} produced only blank answers after {_MAX_REDRAWS} draws; its corpus is too small.")
    return [t for t in out if t is not None]


def draw_sources(available: int, n: int, rng: np.random.Generator) -> np.ndarray:
    """Indices of ``n`` source answers: each once in random order, repeated in fresh orders until ``n`` are drawn."""
    rounds = -(-n // available)
    return np.concatenate([rng.permutation(available) for _ in range(rounds)])[:n]


class CorpusBacked(BluffGenerator):
    """Mixin for generators with ``corpus``/``generic``/``min_answers`` fields: records which corpus was used."""

    corpus: str
    generic: Any
    min_answers: int

    def _corpus(self, context: GenerationContext) -> Corpus:
        return pick_corpus(self.corpus, self.generic, context, self.min_answers)

    def _check_corpus_params(self) -> None:
        check_choice(self, "corpus", self.corpus, ("generic", "prompt"))
        check_int(self, "min_answers", self.min_answers, 1)
        if not isinstance(self.generic, (str, GenericCorpus)) and not hasattr(self.generic, "__fspath__"):
            raise ConfigError(
                f"The 'generic' parameter of {type(self).__name__} must be 'auto', 'brown', 'bundled' or a file path. "
                f"Got {self.generic!r} instead."
            )

    def generate(self, context: GenerationContext, n: int, rng: np.random.Generator) -> list[Item]:
        """As :meth:`BluffGenerator.generate`, plus the corpus name in each item's metadata."""
        items = super().generate(context, n, rng)
        name = self._corpus(context).name
        return [replace(it, metadata={**it.metadata, "corpus_name": name}) for it in items]

    @property
    def params(self) -> dict[str, Any]:
        """The parameters, with a corpus object given as ``generic`` shown by its name."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}  # type: ignore[arg-type]
        if isinstance(out.get("generic"), GenericCorpus):
            out["generic"] = out["generic"].name
        return out

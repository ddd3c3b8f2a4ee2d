"""The generator contract: make bluff answers for a prompt without a source answer (seed 000 §2.2).

A generator is a frozen dataclass whose fields are its parameters. It declares
``expectation = "min"`` (a robust scorer gives every generated answer the minimum score) and
implements ``_generate``. Randomness comes only from the ``numpy.random.Generator`` passed in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, ClassVar

import numpy as np

from ..types import Item, Prompt

__all__ = ["BluffGenerator", "GenerationContext"]


@dataclass(frozen=True)
class GenerationContext:
    """What a generator may use for one prompt.

    Parameters
    ----------
    prompt : Prompt
        The prompt (question, passage, rubric, reference answers).
    answers : sequence of str
        Real answers to the prompt (scored or not): the prompt-specific corpus and the length model.
    correct_answers : sequence of str
        Answers that earned full (or at least positive) credit, for methods that start from them.
    """

    prompt: Prompt
    answers: tuple[str, ...] = ()
    correct_answers: tuple[str, ...] = ()


@dataclass(frozen=True)
class BluffGenerator:
    """Base class of generators. Subclasses are frozen dataclasses registered by name."""

    expectation: ClassVar[str] = "min"  # every generated answer should get the prompt's minimum score
    level: ClassVar[str] = "word"  # "char" or "word"
    registry_name: ClassVar[str] = ""
    version: ClassVar[str] = "1"

    def generate(self, context: GenerationContext, n: int, rng: np.random.Generator) -> list[Item]:
        """``n`` bluff answers for ``context.prompt`` as items with provenance metadata."""
        texts = self._generate(context, n, rng)
        meta = {"method": self.registry_name, "params": self.params, "expectation": self.expectation}
        pid = context.prompt.id
        return [Item(f"{pid}:{self.registry_name}:{i}", pid, t, metadata={**meta, "index": i}) for i, t in enumerate(texts)]

    @property
    def params(self) -> dict[str, Any]:
        """The generator's parameters (its dataclass fields)."""
        return asdict(self)

    def _generate(self, context: GenerationContext, n: int, rng: np.random.Generator) -> Sequence[str]:
        raise NotImplementedError

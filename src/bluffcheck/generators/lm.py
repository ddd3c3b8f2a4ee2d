"""Language-model text seeded with the start of a real answer (seed 000 §2.2 "Generative Language Model")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._registry import generators
from ..errors import ConfigError
from ..resources.corpora import GenericCorpus
from ._common import CorpusBacked, check_choice, check_count, check_int, draw_sources
from .base import GenerationContext
from .shuffle import shuffle_tokens

__all__ = ["LanguageModel"]


@generators.register("lm")
@dataclass(frozen=True)
class LanguageModel(CorpusBacked):
    """Fluent-looking text with no correct content: a language model continues a real answer's first words.

    Models a student who pastes sentences found by searching the prompt's key words. For each
    output a real answer is drawn (each once before any repeats); its first ``seed_fraction`` of
    words (at least one) seed the model, which writes until the output has as many words as that
    answer (seed words included), as in the paper.

    **The default backend is not GPT-2.** The paper used GPT-2; its weights cannot be downloaded
    here, so ``backend="ngram"`` (default) is an interpolated Kneser-Ney trigram model trained on the
    generic corpus (Brown when installed), which needs no download. Its text is less fluent than
    GPT-2's. ``backend="hf"`` with ``model_path=`` a local Hugging Face causal LM folder (e.g. GPT-2
    saved with ``save_pretrained``) reproduces the paper's setting; it is loaded with
    ``local_files_only=True`` and sampled with ``temperature``/``top_k`` (defaults 0.7/40, those of
    the GPT-2 PyTorch code the paper cites).

    Parameters
    ----------
    backend : {"ngram", "hf"}
    model_path : str or None
        Local model folder, required for ``backend="hf"``.
    seed_fraction : float
        Share of the real answer's words used as the seed, in (0, 0.5]; 0.05 in the paper.
    generic : str
        Training corpus of the n-gram backend: ``"auto"``, ``"brown"``, ``"bundled"`` or a path.
    discount, temperature, top_k
        Kneser-Ney discount (n-gram backend); sampling temperature and top-k (hf backend).

    Examples
    --------
    >>> import numpy as np
    >>> from bluffcheck.types import Prompt
    >>> from bluffcheck.generators.base import GenerationContext
    >>> ctx = GenerationContext(Prompt("3"), answers=("The panda eats only bamboo and some leaves too",))
    >>> text = LanguageModel(generic="bundled").generate(ctx, 1, np.random.default_rng(0))[0].text
    >>> text.split()[0], len(text.split())
    ('The', 9)
    """

    backend: str = "ngram"
    model_path: str | None = None
    seed_fraction: float = 0.05
    generic: Any = "auto"
    discount: float = 0.75
    temperature: float = 0.7
    top_k: int = 40
    level = "word"
    corpus = "generic"  # the n-gram backend trains on the generic corpus, never on the prompt's answers
    min_answers = 1

    def __post_init__(self) -> None:
        check_choice(self, "backend", self.backend, ("ngram", "hf"))
        self._check_corpus_params()
        check_int(self, "top_k", self.top_k, 0)
        for name, value, low, high in (
            ("seed_fraction", self.seed_fraction, 0.0, 0.5),
            ("discount", self.discount, 0.0, 1.0),
            ("temperature", self.temperature, 0.0, 10.0),
        ):
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not low < value <= high:
                raise ConfigError(
                    f"The {name!r} parameter of LanguageModel must be a float in ({low}, {high}]. Got {value!r} instead."
                )
        if self.backend == "hf" and not self.model_path:
            raise ConfigError(
                "The 'model_path' parameter of LanguageModel is required with backend='hf': a local Hugging Face "
                "model folder. Or use backend='ngram' (the built-in trigram model)."
            )

    def _corpus(self, context: GenerationContext) -> Any:
        if self.backend == "hf":
            return GenericCorpus(f"hf:{self.model_path}", ())
        return super()._corpus(context)

    def _generate(self, context: GenerationContext, n: int, rng: np.random.Generator) -> list[str]:
        check_count(n)
        sources = [toks for toks in map(shuffle_tokens, context.answers) if len(toks) >= 2]
        if not sources:
            raise ConfigError(
                f"Prompt {context.prompt.id!r} has no real answer of two or more words to seed the language model. "
                "Give the context answers."
            )
        out = []
        for i in draw_sources(len(sources), n, rng).tolist():
            tokens = sources[i]
            k = max(1, int(len(tokens) * self.seed_fraction))
            out.append(" ".join([*tokens[:k], *self._continue(context, tokens[:k], len(tokens) - k, rng)]))
        return out

    def _continue(
        self, context: GenerationContext, seed: list[str], n_words: int, rng: np.random.Generator
    ) -> list[str]:
        if self.backend == "hf":
            from ._hf_lm import hf_continue

            assert self.model_path is not None  # checked in __post_init__
            words = hf_continue(
                self.model_path, " ".join(seed), n_words, rng, temperature=self.temperature, top_k=self.top_k
            )
            if len(words) < n_words:
                raise ConfigError(
                    f"The model at {self.model_path} wrote {len(words)} of {n_words} words; it stops early."
                )
            return words
        from ._ngram_lm import kn_trigram

        model = kn_trigram(self._corpus(context), self.discount)
        return model.sample([w.lower() for w in seed], n_words, rng)

"""``features``: an EASE-like feature-based essay scorer (EdX EASE, seed 001 §2.2).

EASE extracts length, spelling, grammar (part-of-speech n-gram), prompt-overlap and bag-of-words
features and fits scikit-learn gradient boosting, one model per prompt. This version, offline:

* length: characters, words, sentences, mean word length, commas, apostrophes, punctuation marks;
* spelling: count and rate of words pyspellchecker does not know (``@PERSON1``-style anonymised
  tokens of ASAP-AES are not words and are skipped);
* prompt overlap: how many and what share of the answer's word types occur in the prompt material
  (question, passage, rubric, reference answers);
* part of speech (TextBlob's bundled Pattern tagger): the share of each of 11 tag groups, and the
  share of the answer's tag bigrams seen in the prompt's training answers (EASE counts tag n-grams
  found in a reference corpus; the training answers stand in for that corpus);
* bag of words: counts of the ``max_bow_features`` most frequent word unigrams and bigrams (EASE
  picks n-grams with a chi-squared test instead).

``GradientBoostingRegressor`` with EASE's settings (100 trees, learning rate 0.05, depth 4, at least
3 answers per leaf) predicts the score, rounded and clipped into the prompt's range (or into the
training scores' range when the prompt declares none).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from .._registry import scorers
from ..errors import ConfigError
from ..types import Item, Prompt
from ._text import sentences, word_tokens
from .base import Scorer, gold_scores

__all__ = ["HANDCRAFTED_FEATURES", "EaseFeatures"]

POS_GROUPS = ("NN", "VB", "JJ", "RB", "PRP", "DT", "IN", "CC", "MD", "CD", "W")
HANDCRAFTED_FEATURES = (
    "chars",
    "words",
    "sentences",
    "mean_word_length",
    "commas",
    "apostrophes",
    "punctuation",
    "spelling_errors",
    "spelling_error_rate",
    "prompt_overlap",
    "prompt_overlap_rate",
    *(f"pos_{g}" for g in POS_GROUPS),
    "known_pos_bigram_rate",
)
_ANONYMISED = re.compile(r"@[A-Za-z]+\d*")


@functools.lru_cache(maxsize=1)
def _speller() -> Any:
    from spellchecker import SpellChecker  # bundled English frequency list, offline

    return SpellChecker()


def _tags(tokens: list[str]) -> list[str]:
    if not tokens:
        return []
    from textblob.en import tag  # the Pattern lexicon tagger bundled with TextBlob (offline)

    return [t for _, t in tag(" ".join(tokens), tokenize=False)]


def _pos_bigrams(tags: list[str]) -> list[str]:
    return [f"{a} {b}" for a, b in zip(tags, tags[1:], strict=False)]


def _analyse(text: str) -> tuple[list[str], list[str]]:
    """Word tokens (anonymised entities removed) and their tags."""
    tokens = word_tokens(_ANONYMISED.sub(" ", text))
    return tokens, _tags(tokens)


def _handcrafted(
    text: str, analysis: tuple[list[str], list[str]], prompt_vocab: frozenset[str], known_bigrams: frozenset[str]
) -> list[float]:
    tokens, tags = analysis
    words = [t.lower() for t in tokens if t[0].isalpha()]
    n = max(len(words), 1)
    errors = len(_speller().unknown(words)) if words else 0
    types = set(words)
    overlap = len(types & prompt_vocab)
    punct = sum(1 for t in tokens if not t[0].isalnum())
    pos = [sum(1 for t in tags if t.startswith(g)) / max(len(tags), 1) for g in POS_GROUPS]
    bigrams = _pos_bigrams(tags)
    known = sum(1 for b in bigrams if b in known_bigrams) / len(bigrams) if bigrams else 0.0
    return [
        float(len(text)),
        float(len(words)),
        float(len(sentences(text))),
        sum(len(w) for w in words) / n,
        float(text.count(",")),
        float(text.count("'")),
        float(punct),
        float(errors),
        errors / n,
        float(overlap),
        overlap / max(len(types), 1),
        *pos,
        known,
    ]


@scorers.register("features")
class EaseFeatures(Scorer):
    """Gradient boosting over EASE-like essay features (seed 001 §2.2).

    Parameters
    ----------
    max_bow_features : int
        Most frequent word unigrams and bigrams kept as count features (0 turns them off).
    n_estimators, learning_rate, max_depth, min_samples_leaf : int, float, int, int
        ``GradientBoostingRegressor`` settings (EASE's defaults).
    random_state : int
        Seed of the boosting (used for tie-breaking among equally good splits).
    """

    version: ClassVar[str] = "1"

    def __init__(
        self,
        *,
        max_bow_features: int = 500,
        n_estimators: int = 100,
        learning_rate: float = 0.05,
        max_depth: int = 4,
        min_samples_leaf: int = 3,
        random_state: int = 0,
    ) -> None:
        self.max_bow_features = max_bow_features
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.random_state = random_state

    def _validate_params(self) -> None:
        for name in ("n_estimators", "max_depth", "min_samples_leaf"):
            if int(getattr(self, name)) < 1:
                raise ConfigError(
                    f"The {name!r} parameter of EaseFeatures must be an int >= 1. Got {getattr(self, name)!r} instead."
                )
        if int(self.max_bow_features) < 0:
            raise ConfigError(
                f"The 'max_bow_features' parameter of EaseFeatures must be an int >= 0. Got {self.max_bow_features!r} instead."
            )
        if not 0 < float(self.learning_rate) <= 1:
            raise ConfigError(
                f"The 'learning_rate' parameter of EaseFeatures must be a float in (0, 1]. Got {self.learning_rate!r} instead."
            )

    def _matrix(self, model: dict[str, Any], texts: list[str], analyses: list[Any] | None = None) -> np.ndarray:
        vocab, known = frozenset(model["prompt_vocab"]), frozenset(model["known_pos_bigrams"])
        analyses = analyses if analyses is not None else [_analyse(t) for t in texts]
        hand = np.asarray([_handcrafted(t, a, vocab, known) for t, a in zip(texts, analyses, strict=True)], dtype=float)
        hand = hand.reshape(len(texts), len(HANDCRAFTED_FEATURES))
        if model["bow"] is None:
            return hand
        return np.hstack([hand, model["bow"].transform(texts).toarray()])

    def _fit_prompt(self, items: Sequence[Item], prompt: Prompt | None) -> dict[str, Any]:
        from sklearn.ensemble import GradientBoostingRegressor
        from sklearn.feature_extraction.text import CountVectorizer

        y = gold_scores(items)
        texts = [it.text for it in items]
        material = prompt.material if prompt is not None else ""
        analyses = [_analyse(t) for t in texts]
        bigrams = sorted({b for _, tags in analyses for b in _pos_bigrams(tags)})
        model: dict[str, Any] = {
            "prompt_vocab": sorted({w.lower() for w in word_tokens(material) if w[0].isalpha()}),
            "known_pos_bigrams": bigrams,
            "bow": None,
            "range": (float(y.min()), float(y.max())),
        }
        if int(self.max_bow_features) > 0:
            bow = CountVectorizer(
                ngram_range=(1, 2), token_pattern=r"(?u)\b\w+\b", max_features=int(self.max_bow_features)
            )
            try:
                model["bow"] = bow.fit(texts)
            except ValueError:  # no word in any training answer: no bag-of-words features
                model["bow"] = None
        gbr = GradientBoostingRegressor(
            n_estimators=int(self.n_estimators),
            learning_rate=float(self.learning_rate),
            max_depth=int(self.max_depth),
            min_samples_leaf=int(self.min_samples_leaf),
            random_state=int(self.random_state),
        )
        model["gbr"] = gbr.fit(self._matrix(model, texts, analyses), y)
        return model

    def _score_prompt(self, model: dict[str, Any], items: Sequence[Item], prompt: Prompt | None) -> np.ndarray:
        raw = model["gbr"].predict(self._matrix(model, [it.text for it in items]))
        low, high = prompt.score_range if prompt is not None and prompt.score_range else model["range"]
        return np.clip(np.rint(raw), low, high)

    def features(self, items: Sequence[Item]) -> np.ndarray:
        """The feature matrix of each item under its prompt's fitted model (handcrafted columns first)."""
        self._check_fitted()
        groups = self._groups(list(items))
        rows: dict[int, np.ndarray] = {}
        for key, idx in groups.items():
            for i, row in zip(idx, self._matrix(self.models_[key], [items[i].text for i in idx]), strict=True):
                rows[i] = row
        return np.asarray([rows[i] for i in range(len(items))])

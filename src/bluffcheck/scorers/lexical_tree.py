"""``lexical-tree``: the lexical similarity baseline of SemEval-2013 Task 7 (Dzikovska et al. 2012, seed 004 §3.2).

Eight features from Text::Similarity::Overlaps with its default options (no stop list, so stop
words count; text lower-cased, everything but ``[a-z0-9]`` treated as a space): the raw number of
overlapping words, F1, Lesk and cosine between the answer and the question, and the best (max) of
each between the answer and every reference answer. A C4.5-like decision tree learns the label
(or integer score) from them, one tree over all questions.

Overlaps are found the way Text::OverlapFinder does: repeatedly take the longest phrase (run of
consecutive words) the two texts share, each word of either text used at most once, until none is
left. With phrase lengths ``l_k``, ``n = sum(l_k)`` overlapping words and word counts ``|a|``,
``|b|``: F1 = 2PR/(P+R) with P = n/|b|, R = n/|a|; cosine = n/sqrt(|a||b|); Lesk = sum(l_k²)/(|a||b|).
An empty text gives 0 everywhere.

Differences from Weka J48: scikit-learn's CART with ``criterion="entropy"`` (information gain,
not C4.5's gain ratio), binary splits on thresholds, ``min_samples_leaf=2`` (J48's ``-M 2``), and
minimal cost-complexity pruning (``ccp_alpha``) instead of J48's pessimistic error-based pruning
with confidence 0.25.
"""

from __future__ import annotations

import heapq
import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from .._registry import scorers
from ..errors import ConfigError, NotFittedError
from ..types import Dataset, Item, Prompt
from ._text import similarity_tokens
from .base import ALL_PROMPTS, Scorer, as_items, class_targets

__all__ = ["FEATURE_NAMES", "LexicalTree", "overlap_scores", "phrase_overlaps"]

FEATURE_NAMES = (
    "question_raw",
    "question_f1",
    "question_lesk",
    "question_cosine",
    "reference_raw",
    "reference_f1",
    "reference_lesk",
    "reference_cosine",
)


def phrase_overlaps(a: Sequence[str], b: Sequence[str]) -> list[int]:
    """Lengths of the shared phrases, longest first, each word of ``a`` and ``b`` used once.

    >>> phrase_overlaps("the gap is in the circuit".split(), "a gap in the circuit".split())
    [3, 1]
    """
    where = defaultdict(list)
    for j, w in enumerate(b):
        where[w].append(j)
    heap: list[tuple[int, int, int]] = []
    for i, w in enumerate(a):
        for j in where.get(w, ()):
            if i and j and a[i - 1] == b[j - 1]:
                continue  # not the start of a maximal run
            k = 1
            while i + k < len(a) and j + k < len(b) and a[i + k] == b[j + k]:
                k += 1
            heap.append((-k, i, j))
    heapq.heapify(heap)
    used_a, used_b, found = [False] * len(a), [False] * len(b), []
    while heap:
        neg, i, j = heapq.heappop(heap)
        free = [not (used_a[i + t] or used_b[j + t]) for t in range(-neg)]
        if all(free):  # keys only shrink, so an intact run is the longest one left
            for t in range(-neg):
                used_a[i + t] = used_b[j + t] = True
            found.append(-neg)
            continue
        t = 0
        while t < len(free):  # requeue the still-free pieces
            start = t
            while t < len(free) and free[t]:
                t += 1
            if t > start:
                heapq.heappush(heap, (start - t, i + start, j + start))
            t += 1
    return found


def overlap_scores(a: Sequence[str], b: Sequence[str]) -> tuple[float, float, float, float]:
    """(raw overlap, F1, Lesk, cosine) between token lists ``a`` and ``b`` (Text::Similarity::Overlaps).

    >>> [round(v, 4) for v in overlap_scores("the gap is in the circuit".split(), "a gap in the circuit".split())]
    [4.0, 0.7273, 0.3333, 0.7303]
    """
    if not a or not b:
        return 0.0, 0.0, 0.0, 0.0
    lengths = phrase_overlaps(a, b)
    n = float(sum(lengths))
    if n == 0:
        return 0.0, 0.0, 0.0, 0.0
    p, r = n / len(b), n / len(a)
    return n, 2 * p * r / (p + r), sum(k * k for k in lengths) / (len(a) * len(b)), n / math.sqrt(len(a) * len(b))


@scorers.register("lexical-tree")
class LexicalTree(Scorer):
    """Decision tree over eight lexical overlap features (seed 004 §3.2).

    Parameters
    ----------
    min_samples_leaf : int
        Smallest leaf (J48's default ``-M 2``).
    ccp_alpha : float
        Cost-complexity pruning strength (stands in for J48's confidence-based pruning).
    random_state : int
        Seed for the tree's tie-breaking among equally good splits.

    Notes
    -----
    Learns labels (labelled data; :meth:`score` gives the credit of the predicted label) or integer
    scores. Scoring a :class:`~bluffcheck.types.Dataset` uses its prompts, so answers to questions not
    seen in training (SemEval "unseen questions") can be scored; a plain list of items needs prompts
    seen in ``fit``.
    """

    per_prompt: ClassVar[bool] = False
    is_classifier: ClassVar[bool] = True
    version: ClassVar[str] = "1"

    def __init__(self, *, min_samples_leaf: int = 2, ccp_alpha: float = 0.002, random_state: int = 0) -> None:
        self.min_samples_leaf = min_samples_leaf
        self.ccp_alpha = ccp_alpha
        self.random_state = random_state

    def _validate_params(self) -> None:
        if int(self.min_samples_leaf) < 1:
            raise ConfigError(
                f"The 'min_samples_leaf' parameter of LexicalTree must be an int >= 1. Got {self.min_samples_leaf!r} instead."
            )
        if not float(self.ccp_alpha) >= 0:
            raise ConfigError(
                f"The 'ccp_alpha' parameter of LexicalTree must be a float >= 0. Got {self.ccp_alpha!r} instead."
            )

    # -- features ------------------------------------------------------------------------------
    def _prompt(self, item: Item, extra: Mapping[str, Prompt]) -> Prompt:
        prompt = extra.get(item.prompt_id) or getattr(self, "prompts_", {}).get(item.prompt_id)
        if prompt is None:
            raise NotFittedError(
                f"LexicalTree compares answers with their question and reference answers, and knows no prompt "
                f"{item.prompt_id!r} (item {item.id!r}). Score a Dataset that includes this prompt, or fit on one."
            )
        return prompt

    def _matrix(self, items: Sequence[Item], extra: Mapping[str, Prompt]) -> np.ndarray:
        cache: dict[str, tuple[list[str], list[list[str]]]] = {}
        rows = []
        for it in items:
            if it.prompt_id not in cache:
                p = self._prompt(it, extra)
                cache[it.prompt_id] = (
                    similarity_tokens(p.question),
                    [similarity_tokens(r) for r in p.reference_answers],
                )
            question, refs = cache[it.prompt_id]
            answer = similarity_tokens(it.text)
            best = np.max([overlap_scores(answer, r) for r in refs], axis=0) if refs else np.zeros(4)
            rows.append([*overlap_scores(answer, question), *best])
        return np.asarray(rows, dtype=float).reshape(len(items), len(FEATURE_NAMES))

    def features(self, items: Sequence[Item] | Dataset) -> np.ndarray:
        """The (n, 8) feature matrix, columns as in :data:`FEATURE_NAMES`."""
        extra = items.prompts if isinstance(items, Dataset) else {}
        return self._matrix(as_items(items), extra)

    # -- fitting and predicting -----------------------------------------------------------------
    def _fit_prompt(self, items: Sequence[Item], prompt: Prompt | None) -> dict[str, Any]:
        from sklearn.tree import DecisionTreeClassifier

        y, classes, credits = class_targets(items)
        tree = DecisionTreeClassifier(
            criterion="entropy",
            min_samples_leaf=int(self.min_samples_leaf),
            ccp_alpha=float(self.ccp_alpha),
            random_state=int(self.random_state),
        )
        return {"tree": tree.fit(self._matrix(items, {}), y), "classes": classes, "credits": credits}

    def _score_prompt(self, model: dict[str, Any], items: Sequence[Item], prompt: Prompt | None) -> np.ndarray:
        return model["credits"][model["tree"].predict(self._matrix(items, {}))]

    def _proba(self, items: Sequence[Item] | Dataset) -> tuple[dict[str, Any], np.ndarray]:
        self._check_fitted()
        model = self.models_[ALL_PROMPTS]
        x = self.features(items)
        proba = np.zeros((len(x), len(model["classes"])))
        if len(x):
            proba[:, model["tree"].classes_] = model["tree"].predict_proba(x)
        return model, proba

    def predict_proba(self, items: Sequence[Item] | Dataset) -> np.ndarray:
        """Class probabilities, shape (n, len(classes_)), columns in :attr:`classes_` order."""
        return self._proba(items)[1]

    def predict(self, items: Sequence[Item] | Dataset) -> list[str | int]:
        """Predicted labels (labelled data) or integer scores (scored data)."""
        model, proba = self._proba(items)
        return [model["classes"][i] for i in proba.argmax(axis=1)]

    def score(self, items: Sequence[Item] | Dataset) -> np.ndarray:
        """The credit of each answer's predicted class (its label's credit, or the integer score)."""
        model, proba = self._proba(items)
        return np.asarray(model["credits"][proba.argmax(axis=1)], dtype=float)

    @property
    def classes_(self) -> tuple[str | int, ...]:
        """Labels or integer scores, in :meth:`predict_proba` column order."""
        self._check_fitted()
        return self.models_[ALL_PROMPTS]["classes"]

"""The scorer contract every victim, adapter and defense follows.

A scorer is a scikit-learn-style estimator over :class:`~bluffcheck.types.Item` objects:

* parameters are keyword arguments of ``__init__`` and are stored unchanged;
* ``fit(dataset)`` validates, learns, sets attributes ending in ``_`` and returns ``self``;
* ``score(items)`` returns a float array, one score per item, in item order;
* classifiers also give ``predict(items)`` (labels) and ``predict_proba(items)``.

Subclasses implement ``_fit_prompt`` and ``_score_prompt``; the base class trains one model per
prompt when ``per_prompt`` is true (as the papers do for ASAP), or one model for all prompts.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from ..errors import ConfigError, NotFittedError, ScorerError
from ..types import Dataset, Item, Prompt

__all__ = [
    "ALL_PROMPTS",
    "Scorer",
    "as_items",
    "class_targets",
    "clip_round",
    "gold_labels",
    "gold_scores",
    "is_labelled",
    "label_credits",
]

ALL_PROMPTS = "*"


def as_items(items: Sequence[Item] | Dataset) -> list[Item]:
    """A list of items from a dataset or any sequence of items."""
    return list(items.items if isinstance(items, Dataset) else items)


class Scorer:
    """Base class of all scorers.

    Class attributes
    ----------------
    per_prompt : bool
        Train one model per prompt (the default, as in seeds 000 and 001) or one for all.
    is_classifier : bool
        Whether the scorer predicts labels and class probabilities.
    """

    per_prompt: ClassVar[bool] = True
    is_classifier: ClassVar[bool] = False
    registry_name: ClassVar[str] = ""
    version: ClassVar[str] = "1"

    # -- scikit-learn style parameters -------------------------------------------------------
    @classmethod
    def _param_names(cls) -> list[str]:
        sig = inspect.signature(cls.__init__)
        return [p.name for p in sig.parameters.values() if p.name != "self" and p.kind is p.KEYWORD_ONLY]

    def get_params(self) -> dict[str, Any]:
        """The constructor parameters, as given."""
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self, **params: Any) -> Scorer:
        """Set constructor parameters; unknown names are an error."""
        valid = set(self._param_names())
        for name, value in params.items():
            if name not in valid:
                raise ConfigError(f"{type(self).__name__} has no parameter {name!r}. Valid: {sorted(valid)}.")
            setattr(self, name, value)
        return self

    def clone(self) -> Scorer:
        """An unfitted copy with the same parameters."""
        return type(self)(**self.get_params())

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({args})"

    # -- fitting and scoring -----------------------------------------------------------------
    def fit(self, data: Dataset) -> Scorer:
        """Learn from a dataset's gold scores (or labels). Returns ``self``."""
        if not isinstance(data, Dataset):
            raise ConfigError(f"{type(self).__name__}.fit expects a Dataset. Got {type(data).__name__} instead.")
        if len(data) == 0:
            raise ConfigError(f"Cannot fit {type(self).__name__} on the empty dataset {data.name!r}.")
        self._validate_params()
        self.prompts_: dict[str, Prompt] = dict(data.prompts)
        if self.per_prompt:
            self.models_: dict[str, Any] = {
                pid: self._fit_prompt(sub.items, data.prompts[pid]) for pid, sub in data.by_prompt().items()
            }
        else:
            self.models_ = {ALL_PROMPTS: self._fit_prompt(data.items, None)}
        self.train_fingerprint_ = _hash_items(data.items)
        return self

    def score(self, items: Sequence[Item] | Dataset) -> np.ndarray:
        """One float score per item, in item order."""
        items = as_items(items)
        self._check_fitted()
        out = np.full(len(items), np.nan, dtype=float)
        for key, idx in self._groups(items).items():
            model = self.models_[key]
            prompt = self.prompts_.get(key) if key != ALL_PROMPTS else None
            values = np.asarray(self._score_prompt(model, [items[i] for i in idx], prompt), dtype=float)
            if values.shape != (len(idx),):
                raise ScorerError(f"{type(self).__name__} returned {values.shape} scores for {len(idx)} items.")
            out[idx] = values
        return out

    def _groups(self, items: list[Item]) -> dict[str, list[int]]:
        groups: dict[str, list[int]] = {}
        for i, it in enumerate(items):
            key = it.prompt_id if self.per_prompt else ALL_PROMPTS
            if key not in self.models_:
                raise NotFittedError(
                    f"{type(self).__name__} was not trained on prompt {it.prompt_id!r} (item {it.id!r}). "
                    f"It knows prompts {sorted(self.models_)}; fit it on data that includes this prompt."
                )
            groups.setdefault(key, []).append(i)
        return groups

    def _check_fitted(self) -> None:
        if not hasattr(self, "models_"):
            raise NotFittedError(f"This {type(self).__name__} is not fitted yet. Call fit(dataset) first.")

    def prompt_for(self, item: Item) -> Prompt | None:
        """The fitted prompt of an item, if known."""
        return getattr(self, "prompts_", {}).get(item.prompt_id)

    # -- hooks -------------------------------------------------------------------------------
    def _validate_params(self) -> None:
        """Check parameters; raise :class:`ConfigError` with the template message."""

    def _fit_prompt(self, items: Sequence[Item], prompt: Prompt | None) -> Any:
        raise NotImplementedError

    def _score_prompt(self, model: Any, items: Sequence[Item], prompt: Prompt | None) -> np.ndarray:
        raise NotImplementedError

    # -- identity ------------------------------------------------------------------------------
    @property
    def fingerprint(self) -> str:
        """A stable hash of class, version, parameters and training data (for query caches)."""
        payload = {
            "class": f"{type(self).__module__}.{type(self).__qualname__}",
            "version": self.version,
            "params": {k: repr(v) for k, v in sorted(self.get_params().items())},
            "train": getattr(self, "train_fingerprint_", None),
        }
        return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:16]


def _hash_items(items: Sequence[Item]) -> str:
    h = hashlib.sha256()
    for it in items:
        h.update(f"{it.id}\x1f{it.prompt_id}\x1f{it.score}\x1f{it.label}\x1f{it.text}\x1e".encode())
    return h.hexdigest()[:16]


def gold_scores(items: Sequence[Item]) -> np.ndarray:
    """Gold scores as floats; an item without one is an error."""
    missing = [it.id for it in items if it.score is None]
    if missing:
        raise ConfigError(f"{len(missing)} items have no gold score (first: {missing[0]!r}); cannot fit on them.")
    return np.asarray([it.score for it in items], dtype=float)


def gold_labels(items: Sequence[Item]) -> list[str]:
    """Gold labels; an item without one is an error."""
    missing = [it.id for it in items if it.label is None]
    if missing:
        raise ConfigError(f"{len(missing)} items have no gold label (first: {missing[0]!r}); cannot fit on them.")
    return [str(it.label) for it in items]


def clip_round(values: np.ndarray, prompt: Prompt | None) -> np.ndarray:
    """Round to the nearest integer score and clip into the prompt's range (for regressors)."""
    if prompt is None or prompt.score_range is None:
        return np.rint(values)
    return np.clip(np.rint(values), prompt.min_score, prompt.max_score)


def is_labelled(items: Sequence[Item]) -> bool:
    """Whether to learn labels (every item has one, SemEval-style) rather than scores.

    Raises
    ------
    ConfigError
        When some items have a label and others do not.
    """
    has = [it.label is not None for it in items]
    if any(has) and not all(has):
        first = next(it.id for it, h in zip(items, has, strict=True) if not h)
        raise ConfigError(
            f"{has.count(False)} of {len(items)} items have no gold label (first: {first!r}) while the others do. "
            "Give every item a label, or none (to learn scores)."
        )
    return bool(has) and all(has)


def label_credits(items: Sequence[Item]) -> dict[str, float]:
    """The credit each gold label earns: the mean gold score of its items.

    Labels whose items carry no score earn 1.0 when the label is ``"correct"`` and 0.0 otherwise
    (the convention of :class:`~bluffcheck.types.Item`).
    """
    sums: dict[str, list[float]] = {}
    for it in items:
        bucket = sums.setdefault(str(it.label), [])
        if it.score is not None:
            bucket.append(float(it.score))
    return {lab: (float(np.mean(v)) if v else float(lab == "correct")) for lab, v in sorted(sums.items())}


def class_targets(items: Sequence[Item]) -> tuple[np.ndarray, tuple[str | int, ...], np.ndarray]:
    """Targets for a classifier over labels (labelled data) or integer scores (scored data).

    Returns
    -------
    y : ndarray of int
        Index of each item's class in ``classes``.
    classes : tuple
        Sorted label strings, or sorted integer scores.
    credits : ndarray of float
        The score each class stands for: the label's credit (:func:`label_credits`) or the score itself.
    """
    if is_labelled(items):
        credit = label_credits(items)
        classes: tuple[str | int, ...] = tuple(credit)
        values = [str(it.label) for it in items]
        credits = np.asarray([credit[c] for c in classes], dtype=float)
    else:
        scores = gold_scores(items)
        bad = [it.id for it, s in zip(items, scores, strict=True) if s != np.rint(s)]
        if bad:
            raise ConfigError(
                f"{len(bad)} gold scores are not whole numbers (first: item {bad[0]!r}); this scorer classifies "
                "integer scores. Round the scores, or use a regressor such as 'features'."
            )
        classes = tuple(sorted({int(s) for s in scores}))
        values = [int(s) for s in scores]
        credits = np.asarray(classes, dtype=float)
    index = {c: i for i, c in enumerate(classes)}
    return np.asarray([index[v] for v in values], dtype=np.int64), classes, credits

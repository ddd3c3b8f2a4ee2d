"""How well a scorer agrees with human scores: cross-validation and train/test evaluation.

>>> from bluffcheck.evaluation import cross_validate          # doctest: +SKIP
>>> result = cross_validate(scorer, dataset, folds=5, seed=0)  # doctest: +SKIP
>>> result.per_prompt()["mean_qwk"]                            # doctest: +SKIP

Scored data (ASAP) is evaluated with QWK per prompt and their mean; labelled data (SemEval,
when the scorer has ``predict``) with the seed-004 classification report and corrective-feedback F1.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .errors import ConfigError
from .metrics import accuracy_score, classification_report, corrective_feedback_f1, mean_qwk, qwk_score
from .scorers.base import Scorer, is_labelled
from .types import Dataset, Item, Prompt

__all__ = ["EvaluationResult", "assign_folds", "cross_validate", "evaluate_split"]

Progress = Callable[[int, int], None]
CORRECT = "correct"


@dataclass
class EvaluationResult:
    """Out-of-sample predictions of one scorer on one dataset, with timings.

    Attributes
    ----------
    scorer, params : the scorer's registry (or class) name and constructor parameters
    dataset, protocol : what was evaluated and how (``"5-fold CV"``, ``"train -> test-unseen-answers"``)
    items : the evaluated items (each scored by a model that did not see it)
    scores : the predicted scores, in item order
    predicted_labels : predicted labels in item order (labelled data and a scorer with ``predict``)
    folds : each item's fold (cross-validation) or None
    fit_seconds, score_seconds : wall time spent in ``fit`` and in ``score``/``predict``
    n_fit : answers fitted on, summed over folds (for the training throughput)
    fitted : the fitted scorer (``evaluate_split`` only)
    """

    scorer: str
    params: dict[str, Any]
    dataset: str
    protocol: str
    items: tuple[Item, ...]
    prompts: Mapping[str, Prompt]
    scores: np.ndarray
    predicted_labels: tuple[str, ...] | None = None
    folds: np.ndarray | None = None
    fit_seconds: float = 0.0
    score_seconds: float = 0.0
    n_fit: int = 0
    fitted: Scorer | None = field(default=None, repr=False)

    @property
    def labelled(self) -> bool:
        """Whether the evaluation compares labels (SemEval) rather than scores (ASAP)."""
        return self.predicted_labels is not None

    @property
    def fit_per_second(self) -> float:
        """Training throughput: answers fitted per second."""
        return self.n_fit / self.fit_seconds if self.fit_seconds > 0 else float("inf")

    @property
    def score_per_second(self) -> float:
        """Scoring throughput: answers scored per second."""
        return len(self.items) / self.score_seconds if self.score_seconds > 0 else float("inf")

    def _label_set(self) -> list[str]:
        declared = [lab for p in self.prompts.values() for lab in (p.labels or ())]
        seen = [str(it.label) for it in self.items] + list(self.predicted_labels or ())
        return list(dict.fromkeys(declared + sorted(set(seen))))

    def per_prompt(self) -> dict[str, Any]:
        """Metrics per prompt and overall.

        Scored data: ``{"kind": "scores", "prompts": {id: {"n", "qwk", "accuracy"}}, "mean_qwk",
        "mean_qwk_fisher", "accuracy"}``. Labelled data: ``{"kind": "labels", "prompts": {id: {"n",
        "accuracy"}}, "report": classification_report(...), "corrective_feedback": {...}}``.
        """
        groups: dict[str, list[int]] = {}
        for i, it in enumerate(self.items):
            groups.setdefault(it.prompt_id, []).append(i)
        if self.labelled:
            return self._label_metrics(groups)
        gold = np.asarray([it.score for it in self.items], dtype=float)
        prompts = {
            pid: {
                "n": len(idx),
                "qwk": qwk_score(gold[idx], self.scores[idx]),
                "accuracy": accuracy_score(gold[idx], self.scores[idx]),
            }
            for pid, idx in groups.items()
        }
        kappas = {pid: m["qwk"] for pid, m in prompts.items()}
        return {
            "kind": "scores",
            "prompts": prompts,
            "mean_qwk": mean_qwk(kappas),
            "mean_qwk_fisher": mean_qwk(kappas, method="fisher"),
            "accuracy": accuracy_score(gold, self.scores),
        }

    def _label_metrics(self, groups: dict[str, list[int]]) -> dict[str, Any]:
        gold = [str(it.label) for it in self.items]
        pred = list(self.predicted_labels or ())
        prompts = {
            pid: {"n": len(idx), "accuracy": accuracy_score([gold[i] for i in idx], [pred[i] for i in idx])}
            for pid, idx in groups.items()
        }
        labels = self._label_set()
        feedback = corrective_feedback_f1(gold, pred, correct_label=CORRECT) if CORRECT in labels else None
        return {
            "kind": "labels",
            "prompts": prompts,
            "report": classification_report(gold, pred, labels=labels),
            "corrective_feedback": feedback,
        }

    def timing(self) -> dict[str, float]:
        """Fit and score seconds and throughputs (answers per second)."""
        return {
            "fit_seconds": self.fit_seconds,
            "score_seconds": self.score_seconds,
            "n_fit": self.n_fit,
            "n_scored": len(self.items),
            "fit_per_second": self.fit_per_second,
            "score_per_second": self.score_per_second,
        }

    def to_frame(self) -> Any:
        """One row per item: ids, fold, gold and predicted score and label (a pandas DataFrame)."""
        import pandas as pd

        return pd.DataFrame(
            {
                "item_id": [it.id for it in self.items],
                "prompt_id": [it.prompt_id for it in self.items],
                "fold": self.folds if self.folds is not None else [None] * len(self.items),
                "gold_score": [it.score for it in self.items],
                "score": self.scores,
                "gold_label": [it.label for it in self.items],
                "predicted_label": list(self.predicted_labels) if self.labelled else [None] * len(self.items),
            }
        )

    def to_dict(self) -> dict[str, Any]:
        """Settings, metrics and timing as plain JSON-ready data (per-item rows are in :meth:`to_frame`)."""
        return {
            "scorer": self.scorer,
            "params": {k: _jsonable(v) for k, v in self.params.items()},
            "dataset": self.dataset,
            "protocol": self.protocol,
            "n_items": len(self.items),
            "metrics": self.per_prompt(),
            "timing": self.timing(),
        }


def _jsonable(value: Any) -> Any:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)
    return value


def _stratum(item: Item, labelled: bool) -> Any:
    value = item.label if labelled else item.score
    if value is None:
        kind = "label" if labelled else "score"
        raise ConfigError(f"Item {item.id!r} has no gold {kind}; evaluation needs gold {kind}s for every item.")
    return value


def assign_folds(dataset: Dataset, *, folds: int, seed: int = 0) -> np.ndarray:
    """A fold number (0..folds-1) per item, stratified by gold score (or label) within each prompt.

    Within a prompt, items are shuffled inside each score stratum, the strata are laid end to
    end, and items are dealt to folds in turn from a random starting fold: every fold gets a
    near-equal share of every score of every prompt. Deterministic for a given ``seed``.
    """
    if int(folds) < 2:
        raise ConfigError(f"Cross-validation needs folds >= 2. Got {folds} instead.")
    rng = np.random.default_rng(seed)
    labelled = is_labelled(dataset.items)
    out = np.empty(len(dataset), dtype=np.int64)
    by_prompt: dict[str, list[int]] = {}
    for i, it in enumerate(dataset.items):
        by_prompt.setdefault(it.prompt_id, []).append(i)
    for idx in by_prompt.values():
        strata: dict[Any, list[int]] = {}
        for i in idx:
            strata.setdefault(_stratum(dataset.items[i], labelled), []).append(i)
        order = np.concatenate([rng.permutation(strata[k]) for k in sorted(strata, key=str)])
        out[order] = (np.arange(order.size) + rng.integers(folds)) % folds
    return out


def _predict(model: Scorer, data: Dataset, labelled: bool) -> tuple[np.ndarray, list[str] | None]:
    # a Dataset (not bare items), so scorers that read prompts can score prompts they were not fitted on
    scores = np.asarray(model.score(data), dtype=float)
    labels = [str(v) for v in model.predict(data)] if labelled else None  # type: ignore[attr-defined]
    return scores, labels


def _name(scorer: Scorer) -> str:
    return getattr(scorer, "registry_name", "") or type(scorer).__name__


def _labelled_for(scorer: Scorer, items: Sequence[Item]) -> bool:
    return is_labelled(items) and callable(getattr(scorer, "predict", None))


def cross_validate(
    scorer: Scorer, dataset: Dataset, *, folds: int = 5, seed: int = 0, on_progress: Progress | None = None
) -> EvaluationResult:
    """Out-of-fold predictions for every item of ``dataset``.

    Folds come from :func:`assign_folds` (stratified by score within each prompt). Each fold
    fits ``scorer.clone()`` on the other folds and scores the held-out one; ``scorer`` itself
    is not fitted. ``on_progress(done, total)`` is called after each fit and each scoring step.
    """
    fold_of = assign_folds(dataset, folds=folds, seed=seed)
    _check_prompt_sizes(scorer, dataset, folds)
    labelled = _labelled_for(scorer, dataset.items)
    scores = np.full(len(dataset), np.nan)
    labels: list[str] = [""] * len(dataset)
    fit_s = score_s = 0.0
    n_fit, total = 0, 2 * folds
    _tick(on_progress, 0, total)
    for k in range(folds):
        test = np.flatnonzero(fold_of == k)
        train = dataset.subset((dataset.items[i] for i in np.flatnonzero(fold_of != k)), split=f"cv-train-{k}")
        t0 = time.perf_counter()
        model = scorer.clone().fit(train)
        fit_s += time.perf_counter() - t0
        n_fit += len(train)
        _tick(on_progress, 2 * k + 1, total)
        t0 = time.perf_counter()
        fold_scores, fold_labels = _predict(model, dataset.subset(dataset.items[i] for i in test), labelled)
        score_s += time.perf_counter() - t0
        scores[test] = fold_scores
        for i, lab in zip(test, fold_labels or (), strict=False):
            labels[i] = lab
        _tick(on_progress, 2 * k + 2, total)
    return EvaluationResult(
        _name(scorer), scorer.get_params(), dataset.name, f"{folds}-fold CV (seed {seed})", dataset.items,
        dataset.prompts, scores, tuple(labels) if labelled else None, fold_of, fit_s, score_s, n_fit,
    )  # fmt: skip


def evaluate_split(
    scorer: Scorer, train: Dataset, test: Dataset, *, on_progress: Progress | None = None
) -> EvaluationResult:
    """Fit ``scorer.clone()`` on ``train`` and score every item of ``test``.

    The fitted clone is kept in :attr:`EvaluationResult.fitted`.
    """
    if len(test) == 0:
        raise ConfigError(f"The test dataset {test.name!r} ({test.split}) is empty; nothing to evaluate.")
    labelled = _labelled_for(scorer, test.items)
    _tick(on_progress, 0, 2)
    t0 = time.perf_counter()
    model = scorer.clone().fit(train)
    fit_s = time.perf_counter() - t0
    _tick(on_progress, 1, 2)
    t0 = time.perf_counter()
    scores, labels = _predict(model, test, labelled)
    score_s = time.perf_counter() - t0
    _tick(on_progress, 2, 2)
    protocol = f"{train.split or 'train'} -> {test.split or 'test'}"
    prompts = {**train.prompts, **test.prompts}
    return EvaluationResult(
        _name(scorer), scorer.get_params(), test.name, protocol, test.items, prompts, scores,
        tuple(labels) if labels is not None else None, None, fit_s, score_s, len(train), model,
    )  # fmt: skip


def _tick(on_progress: Progress | None, done: int, total: int) -> None:
    if on_progress is not None:
        on_progress(done, total)


def _check_prompt_sizes(scorer: Scorer, dataset: Dataset, folds: int) -> None:
    if not getattr(scorer, "per_prompt", False):
        return
    sizes: dict[str, int] = {}
    for it in dataset.items:
        sizes[it.prompt_id] = sizes.get(it.prompt_id, 0) + 1
    small = {pid: n for pid, n in sizes.items() if n < folds}
    if small:
        raise ConfigError(
            f"{type(scorer).__name__} trains one model per prompt, but prompts {sorted(small)[:5]} have fewer than "
            f"folds={folds} answers, so some folds would have no training data for them. Use fewer folds."
        )

"""Per-class, macro- and micro-averaged precision, recall and F1, and corrective-feedback F1.

Definitions follow seed 004 §4.2 (Dzikovska et al. 2012, the SemEval-2013 Task 7 baseline):

* macro average: the plain mean of the per-class values, ``(1/|C|) sum_c R(c)``;
* micro average: the per-class values weighted by gold support, ``sum_c (N_c / N) R(c)``
  ("micro- and macro-averaged precision and F1 are defined similarly"). Micro recall equals
  accuracy. This is scikit-learn's ``average="weighted"``, *not* its ``average="micro"``
  (whose precision and F1 would also equal accuracy); the seed's majority baseline
  (micro precision 0.18 at 0.42 accuracy) confirms the weighted reading;
* corrective feedback: a binary decision, positive when the label is anything but "correct".

A class that is never predicted (or never gold) has precision (recall) 0, as in seed 004's tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import ConfigError
from ._validation import as_labels

__all__ = ["classification_report", "corrective_feedback_f1"]


def _prf(tp: np.ndarray, n_pred: np.ndarray, n_gold: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    precision = np.divide(tp, n_pred, out=np.zeros_like(tp), where=n_pred > 0)
    recall = np.divide(tp, n_gold, out=np.zeros_like(tp), where=n_gold > 0)
    total = precision + recall
    f1 = np.divide(2 * precision * recall, total, out=np.zeros_like(tp), where=total > 0)
    return precision, recall, f1


def _pair(y_true: Any, y_pred: Any) -> tuple[np.ndarray, np.ndarray]:
    a, b = as_labels(y_true, "y_true"), as_labels(y_pred, "y_pred")
    if a.shape != b.shape:
        raise ConfigError(f"y_true and y_pred must have the same length. Got {a.size} and {b.size} instead.")
    return a, b


def classification_report(y_true: Any, y_pred: Any, *, labels: Sequence[Any] | None = None) -> dict[str, Any]:
    """Per-class precision, recall, F1 and support, with macro and micro averages (seed 004 §4.2).

    Parameters
    ----------
    y_true, y_pred : sequence of labels
    labels : sequence, optional
        The class set C, in report order. Defaults to the sorted union of gold and predicted
        labels. A label outside a given set is an error (it would vanish from every average).

    Returns
    -------
    dict
        ``{"per_class": {label: {"precision", "recall", "f1", "support"}}, "macro": {...},
        "micro": {...}, "accuracy": float, "support": int}``; averages hold precision, recall, f1.

    Examples
    --------
    >>> r = classification_report(["a", "a", "b", "c"], ["a", "b", "b", "c"])
    >>> r["per_class"]["a"]
    {'precision': 1.0, 'recall': 0.5, 'f1': 0.6666666666666666, 'support': 2}
    >>> round(r["macro"]["f1"], 4), r["micro"]["recall"], r["accuracy"]
    (0.7778, 0.75, 0.75)
    """
    a, b = _pair(y_true, y_pred)
    classes = sorted(set(a) | set(b), key=str) if labels is None else list(labels)
    if labels is not None:
        unknown = (set(a) | set(b)) - set(classes)
        if unknown:
            raise ConfigError(f"Labels {sorted(map(str, unknown))} are not in labels={classes}. Add them to the list.")
    tp = np.array([np.sum((a == c) & (b == c)) for c in classes], dtype=float)
    n_pred = np.array([np.sum(b == c) for c in classes], dtype=float)
    n_gold = np.array([np.sum(a == c) for c in classes], dtype=float)
    precision, recall, f1 = _prf(tp, n_pred, n_gold)
    share = n_gold / a.size
    per_class = {
        c: {"precision": float(p), "recall": float(r), "f1": float(f), "support": int(s)}
        for c, p, r, f, s in zip(classes, precision, recall, f1, n_gold, strict=True)
    }
    return {
        "per_class": per_class,
        "macro": {"precision": float(precision.mean()), "recall": float(recall.mean()), "f1": float(f1.mean())},
        "micro": {"precision": float(share @ precision), "recall": float(share @ recall), "f1": float(share @ f1)},
        "accuracy": float(np.mean(a == b)),
        "support": int(a.size),
    }


def corrective_feedback_f1(y_true: Any, y_pred: Any, *, correct_label: str = "correct") -> dict[str, float]:
    """Precision, recall and F1 of the decision "give corrective feedback" (seed 004 §4.2).

    Every label other than ``correct_label`` is the positive class: a prediction of any
    non-correct label counts as a true positive when the gold label is also non-correct, even
    if the two labels differ, and as a false positive when the gold label is correct.

    Returns
    -------
    dict
        ``{"precision", "recall", "f1", "support"}``; support is the number of gold positives.

    Examples
    --------
    >>> corrective_feedback_f1(["correct", "contradictory", "incorrect"], ["incorrect", "incorrect", "incorrect"])
    {'precision': 0.6666666666666666, 'recall': 1.0, 'f1': 0.8, 'support': 2}
    """
    a, b = _pair(y_true, y_pred)
    gold = a != correct_label
    pred = b != correct_label
    tp = np.array([float(np.sum(gold & pred))])
    precision, recall, f1 = _prf(tp, np.array([float(pred.sum())]), np.array([float(gold.sum())]))
    return {"precision": float(precision[0]), "recall": float(recall[0]), "f1": float(f1[0]), "support": int(gold.sum())}

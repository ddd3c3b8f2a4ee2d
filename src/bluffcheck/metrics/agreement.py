"""Agreement between gold and predicted scores: quadratic weighted kappa (QWK) and accuracy.

QWK is the standard metric of ASAP-SAS and ASAP-AES (seed 001 §3.1, eq. 1; seed 000 §2.4).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import ConfigError
from ._validation import as_finite, as_pair

__all__ = ["accuracy_score", "mean_qwk", "qwk_score"]

# Kaggle's ASAP metric code clips kappas to this before the Fisher transform (arctanh(±1) is infinite).
_FISHER_CLIP = 0.999


def _as_ratings(values: np.ndarray, name: str) -> np.ndarray:
    rounded = np.rint(values)
    if not np.allclose(values, rounded, rtol=0.0, atol=1e-9):
        first = float(values[np.flatnonzero(~np.isclose(values, rounded, rtol=0.0, atol=1e-9))[0]])
        raise ConfigError(
            f"{name} must hold integer ratings for QWK. Got {first!r}. Round the scores first "
            "(regression scorers do this with bluffcheck.scorers.base.clip_round)."
        )
    return rounded.astype(np.int64)


def qwk_score(y_true: Any, y_pred: Any, *, min_rating: int | None = None, max_rating: int | None = None) -> float:
    """Quadratic weighted kappa between two integer ratings.

    Implements seed 001 eq. (1): ``k = 1 - sum(w * O) / sum(w * E)`` with ``O`` the observed
    confusion matrix over the ratings ``min_rating..max_rating``, ``E`` the outer product of
    the two rating histograms divided by the number of items, and ``w_ij = (i - j)^2 / (N - 1)^2``.

    Parameters
    ----------
    y_true, y_pred : array-like of int
        Gold and predicted ratings (integer-valued floats are accepted).
    min_rating, max_rating : int, optional
        The rating range; defaults to the smallest and largest rating in either array.
        Ratings outside a given range are an error. Categories that nobody used do not
        change the value, so the range only matters for the error check.

    Returns
    -------
    float
        In ``[-1, 1]``; 1 is perfect agreement, 0 is chance agreement.

    Notes
    -----
    Degenerate case: when both raters give every item the same single rating, ``sum(w * E)``
    is 0 and kappa is 0/0. We return ``1.0`` there (the raters agree perfectly);
    ``sklearn.metrics.cohen_kappa_score`` returns NaN (its ``replace_undefined_by``). When only one
    rater is constant, the value is well defined and equals 0.

    Examples
    --------
    >>> qwk_score([0, 1, 2, 3], [0, 1, 2, 3])
    1.0
    >>> round(qwk_score([0, 1, 2, 3], [0, 2, 2, 3]), 4)
    0.9
    >>> qwk_score([1, 1, 1], [1, 1, 1])  # degenerate: both constant and equal
    1.0
    """
    a, b = as_pair(y_true, y_pred, ("y_true", "y_pred"))
    a, b = _as_ratings(a, "y_true"), _as_ratings(b, "y_pred")
    low = int(min(a.min(), b.min())) if min_rating is None else int(min_rating)
    high = int(max(a.max(), b.max())) if max_rating is None else int(max_rating)
    outside = (a < low) | (a > high) | (b < low) | (b > high)
    if outside.any():
        raise ConfigError(
            f"Ratings must lie in {low}..{high} (min_rating..max_rating). "
            f"{int(outside.sum())} items lie outside; widen the range or check the scorer."
        )
    n = high - low + 1
    if n == 1:
        return 1.0
    observed = np.zeros((n, n), dtype=float)
    np.add.at(observed, (a - low, b - low), 1.0)
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0)) / a.size
    idx = np.arange(n)
    weights = (idx[:, None] - idx[None, :]) ** 2 / (n - 1) ** 2
    denominator = float((weights * expected).sum())
    if denominator == 0.0:
        return 1.0
    return 1.0 - float((weights * observed).sum()) / denominator


def accuracy_score(y_true: Any, y_pred: Any) -> float:
    """Share of items whose prediction equals the gold value (numbers or labels).

    Examples
    --------
    >>> accuracy_score([0, 1, 2, 2], [0, 1, 1, 2])
    0.75
    >>> accuracy_score(["correct", "incorrect"], ["correct", "correct"])
    0.5
    """
    a, b = np.asarray(list(y_true), dtype=object), np.asarray(list(y_pred), dtype=object)
    if a.size == 0 or a.shape != b.shape:
        raise ConfigError(f"y_true and y_pred must be non-empty and of equal length. Got {a.size} and {b.size}.")
    if all(isinstance(v, (int, float, np.number)) for v in (*a, *b)):
        a, b = as_pair(a.astype(float), b.astype(float), ("y_true", "y_pred"))
    return float(np.mean(a == b))


def mean_qwk(
    per_prompt: Mapping[str, float], *, method: str = "mean", weights: Mapping[str, float] | None = None
) -> float:
    """Average per-prompt QWKs.

    Parameters
    ----------
    per_prompt : mapping of prompt id to QWK
    method : {"mean", "fisher"}
        ``"mean"``: the arithmetic mean, as Taghipour & Ng (2016) and the essay-scoring papers
        that follow them (seed 001) report. ``"fisher"``: the mean in Fisher-z space
        (``tanh(mean(arctanh(k)))``, kappas clipped to ±0.999 first), the official metric
        of the Kaggle ASAP competitions (Ben Hamner's ``mean_quadratic_weighted_kappa``).
        Seed 000 does not say which average its 0.673 / 0.7705 are.
    weights : mapping of prompt id to weight, optional
        Prompt weights (Kaggle ASAP-SAS weighted all sets equally, i.e. ``None``).

    Examples
    --------
    >>> mean_qwk({"1": 0.8, "2": 0.6})
    0.7
    >>> round(mean_qwk({"1": 0.8, "2": 0.6}, method="fisher"), 4)
    0.7143
    """
    if not per_prompt:
        raise ConfigError("mean_qwk needs at least one per-prompt QWK. Got an empty mapping.")
    keys = list(per_prompt)
    kappas = as_finite([per_prompt[k] for k in keys], "per_prompt QWK values")
    w = np.ones(len(keys)) if weights is None else as_finite([weights[k] for k in keys], "weights")
    if w.sum() <= 0:
        raise ConfigError("mean_qwk weights must sum to a positive number.")
    if method == "mean":
        return float(np.average(kappas, weights=w))
    if method == "fisher":
        z = np.arctanh(np.clip(kappas, -_FISHER_CLIP, _FISHER_CLIP))
        return float(np.tanh(np.average(z, weights=w)))
    raise ConfigError(f"The 'method' parameter of mean_qwk must be 'mean' or 'fisher'. Got {method!r} instead.")

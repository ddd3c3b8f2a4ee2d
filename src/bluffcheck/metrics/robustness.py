"""Robustness metrics: adversarial rejection rate, overstability statistics, attack success.

* :func:`adversarial_rejection_rate` — seed 000 §2.4: the share of adversarial answers that a
  scorer rejects, i.e. gives the minimum score.
* :func:`overstability` — seed 001 §3.2.1, Table 3: N_pos, N_neg, mu, mu_abs, sigma, mu_pos,
  mu_neg, in percent of the samples (N_*) and of the score range (the mu's and sigma).

All ``*_rate`` functions return a proportion in ``[0, 1]``; higher ARR is more robust, higher
attack success is less robust. NaN anywhere in the input raises :class:`ConfigError`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..errors import ConfigError
from ._validation import as_finite, as_pair

__all__ = [
    "adversarial_rejection_rate",
    "attack_success_rate",
    "bootstrap_ci",
    "full_credit_rate",
    "mean_score_rate",
    "overstability",
]

# Scores are compared to the range ends with this tolerance (scores are floats, ranges integers).
_ATOL = 1e-9


def adversarial_rejection_rate(scores: Any, min_score: Any) -> float:
    """Share of adversarial answers given the minimum score (seed 000 §2.4, "ARR").

    ``min_score`` may be a number or one number per answer (answers from several prompts).
    A score below the minimum also counts as rejected.

    Examples
    --------
    >>> adversarial_rejection_rate([0, 0, 1, 2], 0)
    0.5
    """
    s = as_finite(scores, "scores")
    return float(np.mean(s <= np.broadcast_to(as_finite(np.atleast_1d(min_score), "min_score"), s.shape) + _ATOL))


def full_credit_rate(scores: Any, max_score: Any) -> float:
    """Share of answers given the maximum score (at or above ``max_score``).

    Examples
    --------
    >>> full_credit_rate([0, 3, 3, 2], 3)
    0.5
    """
    s = as_finite(scores, "scores")
    return float(np.mean(s >= np.broadcast_to(as_finite(np.atleast_1d(max_score), "max_score"), s.shape) - _ATOL))


def _span(min_score: Any, max_score: Any, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    low = np.broadcast_to(as_finite(np.atleast_1d(min_score), "min_score"), shape)
    high = np.broadcast_to(as_finite(np.atleast_1d(max_score), "max_score"), shape)
    if np.any(high <= low):
        raise ConfigError("max_score must be greater than min_score for every item (the score range is empty).")
    return low, high - low


def mean_score_rate(scores: Any, min_score: Any, max_score: Any) -> float:
    """Mean score as a share of the score range: 0 = every answer at the minimum, 1 = at the maximum.

    Examples
    --------
    >>> mean_score_rate([0, 1, 2, 3], 0, 3)
    0.5
    """
    s = as_finite(scores, "scores")
    low, width = _span(min_score, max_score, s.shape)
    return float(np.mean((s - low) / width))


def bootstrap_ci(
    values: Any,
    statistic: Callable[..., Any] = np.mean,
    *,
    n_boot: int = 1000,
    confidence: float = 0.95,
    rng: np.random.Generator,
) -> tuple[float, float]:
    """Percentile-bootstrap confidence interval of ``statistic(values)``.

    Resamples ``values`` with replacement ``n_boot`` times in one ``(n_boot, n)`` array and calls
    ``statistic(samples, axis=1)`` once (NumPy reductions such as ``np.mean`` do this); a
    statistic without an ``axis`` argument is applied row by row.

    Examples
    --------
    >>> lo, hi = bootstrap_ci([0, 1] * 50, np.mean, rng=np.random.default_rng(0))
    >>> bool(0.35 < lo < 0.5 < hi < 0.65)
    True
    """
    x = as_finite(values, "values")
    if not isinstance(rng, np.random.Generator):
        raise ConfigError("bootstrap_ci needs rng=numpy.random.Generator (e.g. np.random.default_rng(0)).")
    if int(n_boot) < 1 or not 0.0 < confidence < 1.0:
        raise ConfigError(f"bootstrap_ci needs n_boot >= 1 and 0 < confidence < 1. Got {n_boot}, {confidence}.")
    samples = x[rng.integers(0, x.size, size=(int(n_boot), x.size))]
    try:
        stats = np.asarray(statistic(samples, axis=1), dtype=float)
    except TypeError:
        stats = np.array([float(statistic(row)) for row in samples])
    tail = (1.0 - confidence) / 2.0 * 100.0
    low, high = np.percentile(stats, [tail, 100.0 - tail])
    return float(low), float(high)


def overstability(original: Any, perturbed: Any, *, min_score: Any, max_score: Any) -> dict[str, float]:
    """Seed 001 Table 3 statistics of the score change from ``f(r)`` to ``f(r')``.

    With ``d = f(r) - f(r')`` (positive when the perturbed answer scores lower, as it should):

    * ``n_pos`` / ``n_neg``: percent of the N samples with ``f(r') > f(r)`` / ``f(r') < f(r)``
      (percentages of samples, as the seed reports them; ``n`` is the count N);
    * ``mu``: mean of ``d``; ``mu_abs``: mean of ``|d|`` (Table 3 typesets ``|sum d| / N``, which
      would just be ``|mu|``; we follow the name "absolute mean difference");
      ``sigma``: population standard deviation of ``d`` (divides by N, as in Table 3);
    * ``mu_pos``: mean rise ``f(r') - f(r)`` over the positively impacted samples only, and
      ``mu_neg``: mean fall ``f(r) - f(r')`` over the negatively impacted ones (both >= 0). The
      seed's text reads them as the "intensity" of those samples' change; NaN when there are none.

    The mu's and sigma are in percent of the score range ``max_score - min_score`` (per item
    when arrays are given, so prompts with different ranges can be pooled).

    Examples
    --------
    >>> r = overstability([2, 2, 2, 2], [1, 2, 3, 0], min_score=0, max_score=4)
    >>> r["n_pos"], r["n_neg"], r["mu"], r["mu_abs"], r["mu_pos"], r["mu_neg"]
    (25.0, 50.0, 12.5, 25.0, 25.0, 37.5)
    """
    before, after = as_pair(original, perturbed, ("original", "perturbed"))
    _, width = _span(min_score, max_score, before.shape)
    d = (before - after) / width * 100.0
    up, down = d < -_ATOL, d > _ATOL
    return {
        "n": int(d.size),
        "n_pos": float(up.mean() * 100.0),
        "n_neg": float(down.mean() * 100.0),
        "mu": float(d.mean()),
        "mu_abs": float(np.abs(d).mean()),
        "sigma": float(d.std()),
        "mu_pos": float(-d[up].mean()) if up.any() else float("nan"),
        "mu_neg": float(d[down].mean()) if down.any() else float("nan"),
    }


def attack_success_rate(original: Any, perturbed: Any, *, objective: str = "change") -> float:
    """Share of attacked answers whose score moved in the attacker's direction.

    Parameters
    ----------
    objective : {"lower", "raise", "change"}
        Success is ``perturbed < original``, ``perturbed > original`` or ``perturbed != original``.

    Examples
    --------
    >>> attack_success_rate([2, 2, 2], [1, 2, 3], objective="raise")
    0.3333333333333333
    """
    before, after = as_pair(original, perturbed, ("original", "perturbed"))
    if objective == "lower":
        hit = after < before - _ATOL
    elif objective == "raise":
        hit = after > before + _ATOL
    elif objective == "change":
        hit = np.abs(after - before) > _ATOL
    else:
        raise ConfigError(f"The 'objective' parameter must be 'lower', 'raise' or 'change'. Got {objective!r} instead.")
    return float(hit.mean())

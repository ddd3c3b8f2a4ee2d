"""Tests of ARR, the seed-001 overstability statistics, attack success and the bootstrap."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bluffcheck.errors import ConfigError
from bluffcheck.metrics import (
    adversarial_rejection_rate,
    attack_success_rate,
    bootstrap_ci,
    full_credit_rate,
    mean_score_rate,
    overstability,
)


def test_rates_on_known_scores():
    scores = [0, 0, 1, 3, 3, 3]
    assert adversarial_rejection_rate(scores, 0) == pytest.approx(2 / 6)
    assert full_credit_rate(scores, 3) == pytest.approx(3 / 6)
    assert mean_score_rate(scores, 0, 3) == pytest.approx(10 / 18)
    # per-item ranges: two prompts with different minima
    assert adversarial_rejection_rate([1, 2, 0], [1, 1, 0]) == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    "func, args",
    [
        (adversarial_rejection_rate, ([0.0, np.nan], 0)),
        (full_credit_rate, ([np.nan], 3)),
        (mean_score_rate, ([1.0, np.nan], 0, 3)),
        (attack_success_rate, ([1.0, 2.0], [np.nan, 1.0])),
    ],
)
def test_robustness_metrics_reject_nan(func, args):
    with pytest.raises(ConfigError, match="NaN"):
        func(*args)


def test_overstability_rejects_nan_and_empty_range():
    with pytest.raises(ConfigError, match="NaN"):
        overstability([1, 2], [1, np.nan], min_score=0, max_score=3)
    with pytest.raises(ConfigError, match="range"):
        overstability([1, 2], [1, 2], min_score=3, max_score=3)


def test_overstability_follows_seed_001_table_3():
    original = np.array([4, 4, 4, 4, 4])
    perturbed = np.array([6, 4, 3, 2, 0])  # range 0..10: changes -2, 0, +1, +2, +4 (original - perturbed)
    r = overstability(original, perturbed, min_score=0, max_score=10)
    assert r["n"] == 5
    assert r["n_pos"] == pytest.approx(20.0) and r["n_neg"] == pytest.approx(60.0)
    assert r["mu"] == pytest.approx(np.mean([-2, 0, 1, 2, 4]) * 10)
    assert r["mu_abs"] == pytest.approx(np.mean([2, 0, 1, 2, 4]) * 10)
    assert r["sigma"] == pytest.approx(np.std([-2, 0, 1, 2, 4]) * 10)
    assert r["mu_pos"] == pytest.approx(20.0)
    assert r["mu_neg"] == pytest.approx(np.mean([1, 2, 4]) * 10)


def test_overstability_no_change_gives_nan_conditional_means():
    r = overstability([1, 2], [1, 2], min_score=0, max_score=3)
    assert r["n_pos"] == 0 and r["n_neg"] == 0 and r["mu"] == 0
    assert np.isnan(r["mu_pos"]) and np.isnan(r["mu_neg"])


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=50))
def test_overstability_properties(pairs):
    a, b = np.array(pairs).T
    r = overstability(a, b, min_score=0, max_score=5)
    assert 0 <= r["n_pos"] + r["n_neg"] <= 100 + 1e-9
    assert abs(r["mu"]) <= r["mu_abs"] + 1e-9 <= 100 + 1e-9
    assert r["sigma"] >= 0
    assert r["n_pos"] / 100 == pytest.approx(attack_success_rate(a, b, objective="raise"))
    assert r["n_neg"] / 100 == pytest.approx(attack_success_rate(a, b, objective="lower"))


def test_attack_success_rate_objectives():
    before, after = [2, 2, 2, 2], [1, 2, 3, 3]
    assert attack_success_rate(before, after, objective="lower") == 0.25
    assert attack_success_rate(before, after, objective="raise") == 0.5
    assert attack_success_rate(before, after, objective="change") == 0.75
    with pytest.raises(ConfigError, match="objective"):
        attack_success_rate(before, after, objective="up")


def test_bootstrap_ci_reproducible_and_covers_mean():
    values = np.random.default_rng(1).normal(5.0, 1.0, size=400)
    ci = bootstrap_ci(values, np.mean, rng=np.random.default_rng(7))
    assert ci == bootstrap_ci(values, np.mean, rng=np.random.default_rng(7))
    assert ci[0] < values.mean() < ci[1]
    assert ci[1] - ci[0] < 0.5  # ~ 2 * 1.96 / sqrt(400) = 0.196
    # a statistic without axis= is applied row by row and gives the same interval
    slow = bootstrap_ci(values, lambda x: float(np.mean(x)), rng=np.random.default_rng(7))
    assert slow == pytest.approx(ci)
    narrow = bootstrap_ci(values, np.mean, confidence=0.5, rng=np.random.default_rng(7))
    assert ci[0] < narrow[0] < narrow[1] < ci[1]


def test_bootstrap_ci_requires_generator():
    with pytest.raises(ConfigError, match="Generator"):
        bootstrap_ci([1.0, 2.0], np.mean, rng=0)  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        bootstrap_ci([1.0, 2.0], np.mean, confidence=1.5, rng=np.random.default_rng(0))

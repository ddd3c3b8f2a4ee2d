"""Tests of QWK, accuracy and the per-prompt mean, against scikit-learn where it has them."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

from bluffcheck.errors import ConfigError
from bluffcheck.metrics import accuracy_score, mean_qwk, qwk_score


@st.composite
def rating_pairs(draw):
    high = draw(st.integers(1, 12))
    n = draw(st.integers(1, 60))
    ratings = st.lists(st.integers(0, high), min_size=n, max_size=n)
    return np.array(draw(ratings)), np.array(draw(ratings))


@settings(max_examples=100, deadline=None)
@given(rating_pairs())
def test_qwk_score_matches_sklearn_quadratic_kappa(pair):
    a, b = pair
    low, high = int(min(a.min(), b.min())), int(max(a.max(), b.max()))
    degenerate = low == high
    ours = qwk_score(a, b)
    if degenerate:
        assert ours == 1.0  # documented: sklearn returns NaN here
        return
    # labels= the full contiguous range, so sklearn's weights use the same (i - j) distances
    ref = cohen_kappa_score(a, b, weights="quadratic", labels=np.arange(low, high + 1))
    assert ours == pytest.approx(ref, abs=1e-9)
    assert -1.0 - 1e-9 <= ours <= 1.0 + 1e-9


@settings(max_examples=50, deadline=None)
@given(rating_pairs(), st.integers(1, 3))
def test_qwk_score_unused_range_does_not_change_value(pair, extra):
    a, b = pair
    if min(a.min(), b.min()) == max(a.max(), b.max()):
        return
    wide = qwk_score(a, b, min_rating=0, max_rating=int(max(a.max(), b.max())) + extra)
    assert wide == pytest.approx(qwk_score(a, b), abs=1e-9)


def test_qwk_score_shifted_ratings_agree():
    assert qwk_score([2, 3, 4, 12], [2, 4, 4, 11]) == pytest.approx(
        cohen_kappa_score([2, 3, 4, 12], [2, 4, 4, 11], weights="quadratic", labels=np.arange(2, 13))
    )


def test_qwk_score_one_constant_rater_is_zero():
    assert qwk_score([1, 1, 1, 1], [0, 1, 2, 1]) == pytest.approx(0.0)


def test_qwk_score_rejects_non_integer_nan_and_out_of_range():
    with pytest.raises(ConfigError, match="integer ratings"):
        qwk_score([0, 1], [0.5, 1])
    with pytest.raises(ConfigError, match="NaN"):
        qwk_score([0, 1], [np.nan, 1])
    with pytest.raises(ConfigError, match="outside"):
        qwk_score([0, 4], [0, 1], max_rating=3)
    with pytest.raises(ConfigError, match="same length"):
        qwk_score([0, 1, 2], [0, 1])


def test_accuracy_score_numbers_and_labels():
    assert accuracy_score([0, 1, 2, 3], [0, 1, 0, 0]) == 0.5
    assert accuracy_score(["a", "b"], ["a", "a"]) == 0.5
    with pytest.raises(ConfigError):
        accuracy_score([1.0, float("nan")], [1.0, 1.0])


def test_mean_qwk_plain_fisher_and_weights():
    kappas = {"1": 0.9, "2": 0.5, "3": 0.7}
    assert mean_qwk(kappas) == pytest.approx(0.7)
    fisher = mean_qwk(kappas, method="fisher")
    assert fisher == pytest.approx(math.tanh(np.mean(np.arctanh([0.9, 0.5, 0.7]))))
    assert fisher > 0.7  # Fisher-z averaging favours the high kappas
    assert mean_qwk(kappas, weights={"1": 1, "2": 0, "3": 0}) == pytest.approx(0.9)
    assert mean_qwk({"1": 1.0}, method="fisher") == pytest.approx(0.999)  # clipped, as Kaggle's code does
    with pytest.raises(ConfigError, match="method"):
        mean_qwk(kappas, method="median")
    with pytest.raises(ConfigError):
        mean_qwk({})

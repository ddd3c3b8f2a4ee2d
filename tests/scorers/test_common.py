"""The conformance suite every registered scorer passes (scikit-learn's ``check_estimator`` idea).

Scorers that cannot be built unaided (black-box adapters needing a command, URL or file) declare
``needs_setup = True`` and are left out here: tests/scorers/adapters/ tests them against real servers,
programs and files. ``TEST_PARAMS`` makes heavy scorers small for speed; keys a
scorer does not take are ignored, so an entry never breaks a scorer.
"""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest

from bluffcheck._registry import scorers
from bluffcheck.errors import ConfigError, NotFittedError
from bluffcheck.scorers.persist import load, save
from bluffcheck.types import Dataset, Item

TEST_PARAMS: dict[str, dict[str, Any]] = {
    "neural": {
        "epochs": 1,
        "word_vectors": "random",
        "hidden": 16,
        "char_filters": 8,
        "char_dim": 8,
        "max_len": 40,
        "batch_size": 32,
        "dev_fraction": 0.0,
    },
    "encoder": {"alphas": (1.0,)},
    "features": {"n_estimators": 20, "max_bow_features": 50},
}
NAMES = [name for name in scorers.names() if not getattr(scorers.get(name), "needs_setup", False)]
_FITTED: dict[tuple[str, bool], Any] = {}


def build(name: str) -> Any:
    cls = scorers.get(name)
    valid = set(cls._param_names())
    return cls(**{k: v for k, v in TEST_PARAMS.get(name, {}).items() if k in valid})


def fitted(name: str, toy: Dataset, *, labelled: bool = False) -> Any:
    """One fitted scorer per (name, variant), shared by the tests that only read it."""
    key = (name, labelled)
    if key not in _FITTED:
        _FITTED[key] = build(name).fit(toy)
    return _FITTED[key]


@pytest.mark.parametrize("name", NAMES)
def test_scorer_fit_returns_self_and_scores_in_range(name: str, toy: Dataset) -> None:
    scorer = build(name)
    assert scorer.fit(toy) is scorer
    _FITTED[(name, False)] = scorer
    scores = scorer.score(toy)
    assert isinstance(scores, np.ndarray) and scores.dtype == float and scores.shape == (len(toy),)
    assert not np.isnan(scores).any()
    assert scores.min() >= 0 and scores.max() <= 2  # the toy prompts' score range


@pytest.mark.parametrize("name", NAMES)
def test_scorer_same_params_same_data_same_scores(name: str, toy: Dataset) -> None:
    again = build(name).fit(toy)
    np.testing.assert_array_equal(again.score(toy), fitted(name, toy).score(toy))
    assert again.fingerprint == fitted(name, toy).fingerprint


@pytest.mark.parametrize("name", NAMES)
def test_scorer_clone_is_unfitted_with_equal_params(name: str, toy: Dataset) -> None:
    original = fitted(name, toy)
    copy = original.clone()
    assert type(copy) is type(original) and copy.get_params() == original.get_params()
    assert not hasattr(copy, "models_")
    with pytest.raises(NotFittedError):
        copy.score(toy[:2])


@pytest.mark.parametrize("name", NAMES)
def test_scorer_params_round_trip(name: str) -> None:
    scorer = build(name)
    params = scorer.get_params()
    assert set(params) == set(type(scorer)._param_names())
    assert scorer.set_params(**params) is scorer and scorer.get_params() == params
    assert type(scorer)(**params).get_params() == params
    with pytest.raises(ConfigError, match="no parameter"):
        scorer.set_params(no_such_parameter=1)


@pytest.mark.parametrize("name", NAMES)
def test_scorer_unfitted_or_unknown_prompt_raises(name: str, toy: Dataset) -> None:
    with pytest.raises(NotFittedError):
        build(name).score(toy[:3])
    stranger = Item("x", "no-such-prompt", toy[0].text)
    with pytest.raises(NotFittedError, match="no-such-prompt"):
        fitted(name, toy).score([toy[0], stranger])


@pytest.mark.parametrize("name", NAMES)
def test_scorer_empty_and_one_word_answers(name: str, toy: Dataset) -> None:
    scorer = fitted(name, toy)
    odd = [
        Item(f"odd{i}", pid, text)
        for i, (pid, text) in enumerate([("p1", ""), ("p2", ""), ("p1", "mass"), ("p2", "x")])
    ]
    scores = scorer.score(odd)
    assert scores.shape == (4,) and np.isfinite(scores).all()
    assert scorer.score([]).shape == (0,)


@pytest.mark.parametrize("name", NAMES)
def test_scorer_save_load_round_trip(name: str, toy: Dataset, tmp_path) -> None:
    scorer = fitted(name, toy)
    loaded = load(save(scorer, tmp_path / name))
    assert type(loaded) is type(scorer) and loaded.get_params() == scorer.get_params()
    assert loaded.fingerprint == scorer.fingerprint and loaded.prompts_ == scorer.prompts_
    np.testing.assert_array_equal(loaded.score(toy), scorer.score(toy))


@pytest.mark.parametrize("name", NAMES)
def test_scorer_pickle_round_trip(name: str, toy: Dataset) -> None:
    scorer = fitted(name, toy)
    copy = pickle.loads(pickle.dumps(scorer))  # noqa: S301 - our own bytes
    np.testing.assert_array_equal(copy.score(toy), scorer.score(toy))


@pytest.mark.parametrize("name", NAMES)
def test_scorer_labelled_data_scores_credit(name: str, toy_labelled: Dataset) -> None:
    data = toy_labelled
    scorer = build(name).fit(data)
    scores = scorer.score(data)
    assert scores.shape == (len(data),) and np.isfinite(scores).all()
    assert scores.min() >= 0 and scores.max() <= 1  # the credits of the labels


def test_common_suite_covers_every_built_in_victim() -> None:
    assert {"ngram-svm", "lexical-tree", "neural", "encoder", "features"} <= set(NAMES)
    assert not {"callable", "command", "http", "file"} & set(NAMES)

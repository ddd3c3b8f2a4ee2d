"""Tests of the ``features`` EASE-like feature scorer (seed 001 §2.2)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from bluffcheck.errors import ConfigError
from bluffcheck.scorers.features import HANDCRAFTED_FEATURES, EaseFeatures, _analyse, _handcrafted
from bluffcheck.types import Dataset, Item, Prompt

SMALL = {"n_estimators": 30, "max_bow_features": 50}


def _features(text: str, vocab: set[str] = frozenset(), bigrams: set[str] = frozenset()) -> dict[str, float]:
    return dict(
        zip(HANDCRAFTED_FEATURES, _handcrafted(text, _analyse(text), frozenset(vocab), frozenset(bigrams)), strict=True)
    )


def test_ease_length_and_spelling_features() -> None:
    f = _features("Teh cat sat. It did'nt recieve food, sadly!")
    assert f["chars"] == 43 and f["sentences"] == 2
    assert f["words"] == 8  # Teh cat sat It did'nt recieve food sadly
    assert f["commas"] == 1 and f["apostrophes"] == 1 and f["punctuation"] == 3
    assert f["spelling_errors"] == 3  # teh, did'nt, recieve
    assert f["spelling_error_rate"] == pytest.approx(3 / 8)


def test_ease_anonymised_entities_are_not_spelling_errors() -> None:
    f = _features("Dear @CAPS1, my friend @PERSON2 went to @LOCATION1.")
    assert f["spelling_errors"] == 0 and f["words"] == 5


def test_ease_prompt_overlap_and_pos_features() -> None:
    f = _features("The ribosome reads the codon quickly", vocab={"ribosome", "codon", "mrna"}, bigrams={"DT NN"})
    assert f["prompt_overlap"] == 2 and f["prompt_overlap_rate"] == pytest.approx(2 / 5)
    assert f["pos_DT"] == pytest.approx(2 / 6) and f["pos_RB"] == pytest.approx(1 / 6)
    assert 0 < f["known_pos_bigram_rate"] < 1


def test_ease_empty_text_features_are_zero() -> None:
    assert not any(_features("").values())


def test_ease_learns_toy_and_rounds_into_range(toy, toy_factory) -> None:
    fresh = toy_factory(seed=5)
    model = EaseFeatures(**SMALL).fit(toy)
    pred = model.score(fresh)
    assert set(np.unique(pred)) <= {0.0, 1.0, 2.0}
    assert cohen_kappa_score(fresh.scores(), pred, weights="quadratic") > 0.5
    assert model.features(fresh[:3]).shape == (3, len(HANDCRAFTED_FEATURES) + 50)


def test_ease_clips_to_training_range_without_a_prompt_range() -> None:
    prompt = Prompt("q")  # no score_range
    items = [Item(str(i), "q", "good answer " * (i % 4 + 1), score=float(10 + i % 4)) for i in range(20)]
    model = EaseFeatures(**SMALL).fit(Dataset("d", items, {"q": prompt}))
    scores = model.score([Item("long", "q", "good answer " * 50), Item("e", "q", "")])
    assert scores.min() >= 10 and scores.max() <= 13


def test_ease_without_bag_of_words(toy) -> None:
    model = EaseFeatures(max_bow_features=0, n_estimators=10).fit(toy)
    assert model.models_["p1"]["bow"] is None
    assert model.features(toy[:2]).shape == (2, len(HANDCRAFTED_FEATURES))


@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"n_estimators": 0}, "n_estimators"),
        ({"learning_rate": 2.0}, "learning_rate"),
        ({"max_bow_features": -1}, "max_bow_features"),
    ],
)
def test_ease_rejects_bad_params(toy, params, match) -> None:
    with pytest.raises(ConfigError, match=match):
        EaseFeatures(**params).fit(toy)


@pytest.mark.slow
def test_ease_asap_sas_prompt1_heldout_qwk(shared_data, real_sets) -> None:
    """Real data: ASAP-SAS set 1 public leaderboard, fixed 80/20 split."""
    train, test = real_sets.holdout(real_sets.asap_sas(shared_data, 1))
    pred = EaseFeatures().fit(train).score(test)
    assert cohen_kappa_score(test.scores(), pred, weights="quadratic") > 0.4

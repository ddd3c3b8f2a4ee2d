"""Tests of the ``ngram-svm`` shallow scorer (seed 000 §3.1)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.metrics import cohen_kappa_score
from sklearn.svm import SVC

from bluffcheck.errors import ConfigError
from bluffcheck.scorers.base import class_targets
from bluffcheck.scorers.ngram_svm import NgramSVM, ovo_vote, pairwise_contributions, primal_weights
from bluffcheck.types import Dataset, Item, Prompt


def test_ngram_svm_generalises_on_toy(toy, toy_factory) -> None:
    fresh = toy_factory(seed=99)
    pred = NgramSVM().fit(toy).score(fresh)
    assert cohen_kappa_score(fresh.scores(), pred, weights="quadratic") > 0.6


@pytest.mark.parametrize("labelled", [False, True])
def test_ngram_svm_equals_sklearn_linear_svc(toy_factory, labelled: bool) -> None:
    data = toy_factory(labelled=labelled, n=45)
    model = NgramSVM().fit(data)
    for pid, sub in data.by_prompt().items():
        fitted = model.models_[pid]
        x = model._features(fitted, [it.text for it in sub])
        y, _, _ = class_targets(sub.items)
        ref = SVC(kernel="linear", decision_function_shape="ovo").fit(x, y)
        np.testing.assert_allclose(fitted["coef"], ref.coef_.toarray(), atol=1e-10)
        np.testing.assert_array_equal(model._predict_index(fitted, sub.items), ref.predict(x))


def test_ngram_svm_binary_weights_and_votes_match_sklearn() -> None:
    rng = np.random.default_rng(0)
    x = sp.csr_matrix(rng.random((60, 7)))
    y = (rng.random(60) > 0.5).astype(int)
    svm = SVC(kernel="precomputed").fit((x @ x.T).toarray(), y)
    ref = SVC(kernel="linear").fit(x, y)
    weights = primal_weights(svm, x)
    np.testing.assert_allclose(weights, ref.coef_.toarray(), atol=1e-10)
    np.testing.assert_array_equal(ovo_vote(np.asarray(x @ weights.T) + svm.intercept_, 2), ref.predict(x))


def test_ngram_svm_vote_ties_go_to_lowest_class() -> None:
    # three classes, each wins one pair: libsvm picks the first
    decision = np.asarray([[1.0, -1.0, 1.0]])  # 0 beats 1, 2 beats 0, 1 beats 2
    assert ovo_vote(decision, 3).tolist() == [0]


def test_ngram_svm_predicts_labels_and_scores_their_credit(toy_labelled) -> None:
    model = NgramSVM().fit(toy_labelled)
    labels = model.predict(toy_labelled)
    assert set(labels) <= {"incorrect", "contradictory", "correct"}
    np.testing.assert_array_equal(model.score(toy_labelled), [1.0 if lab == "correct" else 0.0 for lab in labels])
    assert np.mean([a == b for a, b in zip(labels, toy_labelled.labels(), strict=True)]) > 0.9


def _kg_data() -> Dataset:
    """Wrong answers say they do not know; right ones give a mass in kg."""
    rng = np.random.default_rng(3)
    words = "the sample was put in a cup then we wait for some time and look".split()
    shrugs = ("i do not know", "no idea", "i dont know sorry", "not sure what to do")
    items = []
    for i in range(60):
        score = i % 2
        text = f"{' '.join(rng.choice(words, size=3))} {rng.integers(2, 9)} kg" if score else str(rng.choice(shrugs))
        items.append(Item(str(i), "q", text, score=float(score)))
    return Dataset("kg", items, {"q": Prompt("q", score_range=(0, 1))})


def test_ngram_svm_explain_finds_the_bigram_behind_a_bluff() -> None:
    """Seed 000 §4: random characters earn credit through bigrams like 'kg'; explain() shows them."""
    model = NgramSVM(word_ngrams=None, use_length=False).fit(_kg_data())
    bluff = Item("b", "q", "nswvtnvakgxpm")
    assert model.score([bluff]).tolist() == [1.0]
    top = [name for name, _ in model.explain(bluff, top=3)]
    assert "char:kg" in top
    assert all(weight > 0 for _, weight in model.explain(bluff))


def test_ngram_svm_contributions_add_up_to_the_decision(toy) -> None:
    model = NgramSVM().fit(toy)
    fitted = model.models_["p1"]
    item = toy.for_prompt("p1")[4]
    x = model._features(fitted, [item.text])
    predicted = int(model._predict_index(fitted, [item])[0])
    total = pairwise_contributions(fitted["coef"], x, predicted, 3).sum()
    signs = np.asarray(
        [1.0 if predicted == a else -1.0 if predicted == b else 0.0 for a, b in [(0, 1), (0, 2), (1, 2)]]
    )
    decision = model.decision_function([item])[0]
    assert total == pytest.approx(signs @ (decision - fitted["intercept"]))


def test_ngram_svm_feature_groups_can_be_removed(toy) -> None:
    """Seed 000 §5.1 keeps word 2-5-grams and length only."""
    model = NgramSVM(char_ngrams=None, word_ngrams=(2, 5)).fit(toy)
    fitted = model.models_["p1"]
    assert set(fitted["vectorizers"]) == {"word"}
    assert all(len(f.split()) >= 2 for f in fitted["vectorizers"]["word"].get_feature_names_out())
    names = [n for n, _ in model.explain(toy.for_prompt("p1")[2], top=1000)]
    assert not any(n.startswith("char:") for n in names)


def test_ngram_svm_caps_the_vocabulary(toy) -> None:
    model = NgramSVM(max_char_features=30, max_word_features=7).fit(toy)
    fitted = model.models_["p2"]
    assert len(fitted["vectorizers"]["char"].vocabulary_) == 30
    assert len(fitted["vectorizers"]["word"].vocabulary_) == 7
    assert fitted["coef"].shape == (3, 30 + 7 + 1)


def test_ngram_svm_single_class_and_empty_answers() -> None:
    prompt = Prompt("q", score_range=(0, 2))
    same = Dataset("same", [Item(str(i), "q", f"answer {i}", score=1.0) for i in range(5)], {"q": prompt})
    assert NgramSVM().fit(same).score([Item("x", "q", "anything")]).tolist() == [1.0]
    empty = Dataset(
        "empty", [Item(str(i), "q", "" if i % 2 else "   ", score=float(i % 2)) for i in range(6)], {"q": prompt}
    )
    model = NgramSVM(char_ngrams=None).fit(empty)
    assert model.models_["q"]["vectorizers"]["word"] is None  # no word in any answer
    assert model.score([Item("x", "q", "")]).shape == (1,)


@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"char_ngrams": (3, 2)}, "char_ngrams"),
        ({"C": 0}, "'C'"),
        ({"max_word_features": 0}, "max_word_features"),
        ({"char_ngrams": None, "word_ngrams": None, "use_length": False}, "at least one feature group"),
    ],
)
def test_ngram_svm_rejects_bad_params(toy, params, match) -> None:
    with pytest.raises(ConfigError, match=match):
        NgramSVM(**params).fit(toy)


def test_ngram_svm_rejects_fractional_scores() -> None:
    data = Dataset("d", [Item("a", "q", "x", score=0.5), Item("b", "q", "y", score=1.0)], {"q": Prompt("q")})
    with pytest.raises(ConfigError, match="not whole numbers"):
        NgramSVM().fit(data)


@pytest.mark.slow
def test_ngram_svm_asap_sas_prompt1_heldout_qwk(shared_data, real_sets) -> None:
    """Real data: ASAP-SAS set 1 public leaderboard, fixed 80/20 split (the paper's average QWK is 0.673)."""
    train, test = real_sets.holdout(real_sets.asap_sas(shared_data, 1))
    pred = NgramSVM().fit(train).score(test)
    assert cohen_kappa_score(test.scores(), pred, weights="quadratic") > 0.5

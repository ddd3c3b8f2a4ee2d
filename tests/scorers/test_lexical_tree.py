"""Tests of the ``lexical-tree`` SemEval baseline (seed 004 §3.2)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import f1_score

from bluffcheck.errors import ConfigError, NotFittedError
from bluffcheck.scorers.lexical_tree import FEATURE_NAMES, LexicalTree, overlap_scores, phrase_overlaps
from bluffcheck.types import Dataset, Item, Prompt


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("the gap is in the circuit", "a gap in the circuit", [3, 1]),
        ("x y z", "y z x y z", [3]),  # the longest phrase first, then nothing is left in a
        ("a b a b", "a b", [2]),  # each word of b is used once
        ("battery", "bulb", []),
        ("", "anything", []),
    ],
)
def test_lexical_tree_phrase_overlaps_examples(a: str, b: str, expected: list[int]) -> None:
    assert phrase_overlaps(a.split(), b.split()) == expected


words = st.lists(st.sampled_from("a b c d e".split()), max_size=12)


@given(words, words)
def test_lexical_tree_overlap_counts_the_shared_words(a: list[str], b: list[str]) -> None:
    lengths = phrase_overlaps(a, b)
    raw, f1, lesk, cosine = overlap_scores(a, b)
    # greedy phrase matching always ends with every shared word matched once: the multiset intersection
    assert sum(lengths) == raw == sum((Counter(a) & Counter(b)).values())
    assert lengths == sorted(lengths, reverse=True) and all(k >= 1 for k in lengths)
    assert 0 <= f1 <= 1 and 0 <= cosine <= 1 and 0 <= lesk <= 1
    if raw:
        assert lesk * len(a) * len(b) == pytest.approx(sum(k * k for k in lengths))
        assert cosine == pytest.approx(raw / np.sqrt(len(a) * len(b)))


def test_lexical_tree_tokens_follow_text_similarity() -> None:
    """Lower-cased, everything but [a-z0-9] is a space, stop words kept."""
    assert overlap_scores(["the", "bulb", "s", "terminal"], ["the", "bulb", "s", "terminal"])[0] == 4.0
    tree = LexicalTree()
    prompt = Prompt(
        "q", question="Why does the BULB light?", reference_answers=("The bulb's terminal.", "no match here")
    )
    row = tree.features(Dataset("d", [Item("a", "q", "the bulb's terminal")], {"q": prompt}))[0]
    assert row[FEATURE_NAMES.index("question_raw")] == 2.0  # "the", "bulb"
    assert row[FEATURE_NAMES.index("reference_raw")] == 4.0  # best reference: the bulb s terminal
    assert row[FEATURE_NAMES.index("reference_f1")] == pytest.approx(1.0)


def test_lexical_tree_empty_answer_has_zero_features(toy_labelled) -> None:
    row = LexicalTree().features(Dataset("d", [Item("e", "p1", "")], toy_labelled.prompts))
    assert row.shape == (1, 8) and not row.any()


def test_lexical_tree_classifier_api(toy_labelled) -> None:
    tree = LexicalTree().fit(toy_labelled)
    labels = tree.predict(toy_labelled)
    proba = tree.predict_proba(toy_labelled)
    assert proba.shape == (len(toy_labelled), 3) and np.allclose(proba.sum(axis=1), 1)
    assert [tree.classes_[i] for i in proba.argmax(axis=1)] == labels
    np.testing.assert_array_equal(tree.score(toy_labelled), [float(lab == "correct") for lab in labels])
    assert np.mean([a == b for a, b in zip(labels, toy_labelled.labels(), strict=True)]) > 0.6


def test_lexical_tree_scored_data_predicts_integer_scores(toy) -> None:
    tree = LexicalTree().fit(toy)
    assert set(tree.predict(toy)) <= {0, 1, 2}
    assert tree.score(toy).tolist() == [float(v) for v in tree.predict(toy)]


def test_lexical_tree_unseen_question_needs_its_prompt(toy_labelled) -> None:
    tree = LexicalTree().fit(toy_labelled)
    new_prompt = Prompt(
        "p3",
        question="Why is the sky blue?",
        reference_answers=("light scatters",),
        labels=toy_labelled.prompts["p1"].labels,
    )
    answer = Item("n", "p3", "because light scatters in the air")
    with pytest.raises(NotFittedError, match="p3"):
        tree.score([answer])
    unseen = Dataset("unseen", [answer], {"p3": new_prompt})
    assert tree.score(unseen).shape == (1,)
    assert tree.features(unseen)[0, FEATURE_NAMES.index("reference_raw")] == 2.0


@pytest.mark.parametrize(
    ("params", "match"), [({"min_samples_leaf": 0}, "min_samples_leaf"), ({"ccp_alpha": -1.0}, "ccp_alpha")]
)
def test_lexical_tree_rejects_bad_params(toy, params, match) -> None:
    with pytest.raises(ConfigError, match=match):
        LexicalTree(**params).fit(toy)


def test_lexical_tree_beats_majority_on_beetle(shared_data, real_sets) -> None:
    """Real data: SemEval-2013 Beetle 3-way train, fixed 80/20 split, macro-F1 vs always 'correct'."""
    train, test = real_sets.holdout(real_sets.beetle(shared_data))
    gold = test.labels()
    pred = LexicalTree().fit(train).predict(test)
    majority = Counter(train.labels()).most_common(1)[0][0]
    baseline = f1_score(gold, [majority] * len(gold), average="macro")
    assert f1_score(gold, pred, average="macro") > baseline + 0.15

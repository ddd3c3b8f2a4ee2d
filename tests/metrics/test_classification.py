"""Tests of the seed-004 classification report against scikit-learn."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import f1_score, precision_recall_fscore_support

from bluffcheck.errors import ConfigError
from bluffcheck.metrics import classification_report, corrective_feedback_f1

LABELS = ["correct", "partially_correct_incomplete", "contradictory", "irrelevant", "non_domain"]
label_lists = st.integers(1, 40).flatmap(
    lambda n: st.tuples(*(st.lists(st.sampled_from(LABELS), min_size=n, max_size=n) for _ in range(2)))
)


@settings(max_examples=50, deadline=None)
@given(label_lists)
def test_classification_report_matches_sklearn(pair):
    y_true, y_pred = pair
    report = classification_report(y_true, y_pred, labels=LABELS)
    p, r, f, s = precision_recall_fscore_support(y_true, y_pred, labels=LABELS, average=None, zero_division=0)
    for i, label in enumerate(LABELS):
        got = report["per_class"][label]
        assert (got["precision"], got["recall"], got["f1"], got["support"]) == pytest.approx((p[i], r[i], f[i], s[i]))
    for avg, sk in (("macro", "macro"), ("micro", "weighted")):
        ref = precision_recall_fscore_support(y_true, y_pred, labels=LABELS, average=sk, zero_division=0)
        got = report[avg]
        assert (got["precision"], got["recall"], got["f1"]) == pytest.approx(ref[:3])
    # seed 004: micro-averaged recall is accuracy
    assert report["micro"]["recall"] == pytest.approx(report["accuracy"])
    assert report["accuracy"] == pytest.approx(np.mean(np.array(y_true) == np.array(y_pred)))


def test_classification_report_majority_baseline_matches_seed_004_table_2():
    # Beetle majority baseline: 42% correct; seed 004 reports micro precision 0.18, recall 0.42, macro F1 0.12
    y_true = ["correct"] * 42 + ["partially_correct_incomplete"] * 23 + ["contradictory"] * 24 + ["irrelevant"] * 4 + ["non_domain"] * 7
    report = classification_report(y_true, ["correct"] * 100, labels=LABELS)
    assert round(report["micro"]["precision"], 2) == 0.18
    assert round(report["micro"]["recall"], 2) == 0.42
    assert round(report["macro"]["f1"], 2) == 0.12
    assert corrective_feedback_f1(y_true, ["correct"] * 100)["f1"] == 0.0


def test_classification_report_default_labels_and_errors():
    report = classification_report(["b", "a"], ["a", "a"])
    assert list(report["per_class"]) == ["a", "b"]
    with pytest.raises(ConfigError, match="not in labels"):
        classification_report(["a", "c"], ["a", "a"], labels=["a", "b"])
    with pytest.raises(ConfigError, match="missing"):
        classification_report(["a", None], ["a", "a"])
    with pytest.raises(ConfigError, match="same length"):
        classification_report(["a"], ["a", "a"])


@settings(max_examples=40, deadline=None)
@given(label_lists)
def test_corrective_feedback_f1_matches_binary_sklearn(pair):
    y_true, y_pred = pair
    got = corrective_feedback_f1(y_true, y_pred)
    gold = [t != "correct" for t in y_true]
    pred = [p != "correct" for p in y_pred]
    assert got["f1"] == pytest.approx(f1_score(gold, pred, zero_division=0))
    assert got["support"] == sum(gold)


def test_corrective_feedback_f1_counts_any_noncorrect_pair_as_hit():
    got = corrective_feedback_f1(["contradictory", "irrelevant"], ["irrelevant", "non_domain"])
    assert got == {"precision": 1.0, "recall": 1.0, "f1": 1.0, "support": 2}
    two_way = corrective_feedback_f1(["incorrect", "correct"], ["correct", "correct"], correct_label="correct")
    assert two_way["recall"] == 0.0

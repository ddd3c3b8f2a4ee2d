"""bluffcheck.bluffs: ARR tables on cases with known answers, splits, and explanations of accepted bluffs."""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest

from bluffcheck import bluffs as B
from bluffcheck.errors import ConfigError
from bluffcheck.scorers.base import Scorer
from bluffcheck.types import Dataset, Item, Prompt

PROMPTS = {"a": Prompt("a", score_range=(0, 2)), "b": Prompt("b", score_range=(1, 3))}


class ConstantScorer(Scorer):
    """Gives every answer ``where`` ("min", "max") of its prompt's range, or NaN ("nan")."""

    def __init__(self, *, where: str = "min") -> None:
        self.where = where

    def _fit_prompt(self, items, prompt):
        return prompt

    def _score_prompt(self, model, items, prompt):
        value = {"min": prompt.min_score, "max": prompt.max_score, "nan": np.nan}[self.where]
        return np.full(len(items), value, dtype=float)


class AlternatingScorer(ConstantScorer):
    """Minimum for even-numbered bluffs, maximum for odd ones."""

    def _score_prompt(self, model, items, prompt):
        return np.asarray(
            [prompt.min_score if int(it.metadata["index"]) % 2 == 0 else prompt.max_score for it in items], float
        )


def _train() -> Dataset:
    items = [
        Item(f"{p}{i}", p, f"answer {i}", score=float(PROMPTS[p].min_score + i % 3)) for p in PROMPTS for i in range(30)
    ]
    return Dataset("toy", items, PROMPTS)


def _bluffs(n: int = 40) -> Dataset:
    items = []
    for pid in PROMPTS:
        for label in ("random-chars", "shuffle"):
            meta = {"method": label, "label": label, "params": {}, "index": 0, "seed": 0, "expectation": "min"}
            items += [Item(f"{pid}:{label}:{i}", pid, f"bluff {i}", metadata={**meta, "index": i}) for i in range(n)]
    return Dataset("toy", items, PROMPTS, "bluffs")


def _table(scorer: Scorer, n: int = 40):
    return B.arr_table(B.bluff_records(scorer.fit(_train()), _bluffs(n)), n_boot=200, seed=0)


def test_arr_table_has_one_row_per_scorer_method_prompt_in_method_order():
    table = _table(ConstantScorer(where="min"))
    assert list(table.columns) == list(B.TABLE_COLUMNS)
    assert list(zip(table["method"], table["prompt"], strict=True)) == [
        ("random-chars", "a"), ("random-chars", "b"), ("shuffle", "a"), ("shuffle", "b")]  # fmt: skip
    assert (table["n"] == 40).all() and (table["n_errors"] == 0).all()


def test_arr_table_minimum_scorer_rejects_everything():
    table = _table(ConstantScorer(where="min"))
    assert np.allclose(table["arr"], 1.0) and np.allclose(table["full_credit_rate"], 0.0)
    assert np.allclose(table["mean_pct"], 0.0)
    assert list(table["mean_score"]) == [0.0, 1.0, 0.0, 1.0]  # prompt b's minimum is 1


def test_arr_table_maximum_scorer_accepts_everything_with_full_credit():
    table = _table(ConstantScorer(where="max"))
    assert np.allclose(table["arr"], 0.0) and np.allclose(table["full_credit_rate"], 1.0)
    assert list(table["mean_score"]) == [2.0, 3.0, 2.0, 3.0]


def test_arr_table_half_rejected_has_ci_around_the_estimate():
    table = _table(AlternatingScorer(), n=200)
    assert np.allclose(table["arr"], 0.5) and np.allclose(table["full_credit_rate"], 0.5)
    assert (table["arr_low"] <= table["arr"]).all() and (table["arr"] <= table["arr_high"]).all()
    assert (
        (table["arr_low"] > 0.35).all()
        and (table["arr_high"] < 0.65).all()
        and (table["arr_low"] < table["arr_high"]).all()
    )


def test_bluff_records_nan_scores_are_errors_not_rejections():
    records = B.bluff_records(ConstantScorer(where="nan").fit(_train()), _bluffs(5))
    assert set(records["status"]) == {"nan"} and records["score"].isna().all()
    table = B.arr_table(records, n_boot=50)
    assert (table["n_errors"] == 5).all() and table["arr"].isna().all()


def test_method_summary_gives_mean_min_max_over_prompts():
    records = B.bluff_records(ConstantScorer(where="min").fit(_train()), _bluffs(10))
    records.loc[records["prompt_id"] == "b", "score"] = 3.0  # prompt b: everything accepted
    summary = B.method_summary(B.arr_table(records, n_boot=50)).set_index("method")
    assert summary.loc["shuffle", "arr"] == pytest.approx(0.5)
    assert (summary.loc["shuffle", "arr_min"], summary.loc["shuffle", "arr_max"]) == (0.0, 1.0)


def test_split_dataset_is_stratified_disjoint_and_seeded():
    data = _train()
    train, test = B.split_dataset(data, test_size=0.2, seed=3)
    assert {it.id for it in train}.isdisjoint({it.id for it in test}) and len(train) + len(test) == len(data)
    assert Counter((it.prompt_id, it.score) for it in test) == {
        (p, float(PROMPTS[p].min_score + k)): 2 for p in PROMPTS for k in range(3)
    }
    assert [it.id for it in B.split_dataset(data, seed=3)[1]] == [it.id for it in test]
    assert [it.id for it in B.split_dataset(data, seed=4)[1]] != [it.id for it in test]


def test_cv_splits_put_every_item_in_exactly_one_test_fold():
    folds = B.cv_splits(_train(), k=5, seed=0)
    tested = Counter(it.id for _, test in folds for it in test)
    assert len(folds) == 5 and set(tested.values()) == {1} and len(tested) == 60
    for train, test in folds:
        assert {it.id for it in train}.isdisjoint({it.id for it in test})


def test_split_dataset_rejects_unscored_items():
    data = Dataset("toy", [Item("x", "a", "text")], PROMPTS)
    with pytest.raises(ConfigError, match="no gold score"):
        B.split_dataset(data)


def _present(feature: str, text: str) -> bool:
    group, _, gram = feature.partition(":")
    if group == "char":
        return gram in text.lower()
    if group == "word":
        return re.search(r"(?<!\w)" + re.escape(gram) + r"(?!\w)", text.lower()) is not None
    return feature == "length"


def test_explain_accepted_names_features_present_in_the_answer():
    from bluffcheck.scorers.ngram_svm import NgramSVM

    good, bad = ["kg", "mass", "constant", "investigation"], ["zzq", "qj", "jjz", "zq", "qqz"]
    texts = [(" ".join(good[(i + j) % 4] for j in range(3)), 2) for i in range(20)]
    texts += [(" ".join(bad[(i + j) % 5] for j in range(3)), 0) for i in range(20)]
    data = Dataset("toy", [Item(str(i), "a", t, score=float(s)) for i, (t, s) in enumerate(texts)], {"a": PROMPTS["a"]})
    scorer = NgramSVM().fit(data)
    strings = ["tmassnsgdkgv aiconstan", "zq qj", "vestigatkg onstmas", "qqzj zz", "xmassx kgx constanx"]
    items = [Item(f"a:random-chars:{i}", "a", t, metadata={"method": "random-chars", "label": "random-chars", "index": i})
             for i, t in enumerate(strings)]  # fmt: skip
    scores = scorer.score(items)
    assert (scores > 0).any() and (scores == 0).any()  # character soup is accepted (seed 000 §4), z/q soup is not
    found = B.explain_accepted(scorer, items, scores, top=3, features=5)
    assert len(found) == min(3, int((scores > 0).sum()))
    assert [e["score"] for e in found] == sorted((e["score"] for e in found), reverse=True)
    assert any(e["features"] for e in found)
    for e in found:
        assert e["score"] > 0, e
        assert all(_present(f, e["text"]) and w > 0 for f, w in e["features"]), e


def test_explain_accepted_without_explain_says_so():
    scorer = ConstantScorer(where="max").fit(_train())
    items = list(_bluffs(3))
    with pytest.raises(ConfigError, match="cannot explain"):
        B.explain_accepted(scorer, items, scorer.score(items))


def test_explain_accepted_ignores_other_methods_and_rejected_bluffs():
    class Explaining(AlternatingScorer):
        def explain(self, item, top=10):
            return [("char:bl", 1.0)]

    scorer = Explaining().fit(_train())
    items = list(_bluffs(6))
    found = B.explain_accepted(scorer, items, scorer.score(items), method="shuffle", top=10)
    assert {e["item_id"].split(":")[1] for e in found} == {"shuffle"}
    assert sorted(int(e["item_id"].rsplit(":", 1)[1]) for e in found) == [1, 1, 3, 3, 5, 5]  # the odd (accepted) ones


def test_evaluate_bluffs_fits_generates_and_tabulates():
    table = B.evaluate_bluffs(ConstantScorer(where="min"), _train(), methods=[("random-chars", {})], n=15,
                              train=_train(), n_boot=50)  # fmt: skip
    assert list(table["method"]) == ["random-chars", "random-chars"] and (table["n"] == 15).all()
    assert np.allclose(table["arr"], 1.0)

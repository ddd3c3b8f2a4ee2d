"""Tests of cross-validation and train/test evaluation with small stub scorers."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence

import numpy as np
import pytest

from bluffcheck.errors import ConfigError
from bluffcheck.evaluation import EvaluationResult, assign_folds, cross_validate, evaluate_split
from bluffcheck.scorers.base import Scorer
from bluffcheck.types import Dataset, Item, Prompt

LABELS = ("correct", "contradictory", "incorrect")


class NearestLength(Scorer):
    """Per prompt: the gold score (or label) of the training answer closest in length."""

    is_classifier = True

    def __init__(self, *, offset: int = 0) -> None:
        self.offset = offset

    def _fit_prompt(self, items: Sequence[Item], prompt: Prompt | None):
        seen = getattr(self, "seen_ids_", set())
        seen.update(it.id for it in items)
        self.seen_ids_ = seen
        return [(len(it.text), it.score, it.label) for it in items]

    def _nearest(self, model, item):
        return min(model, key=lambda row: abs(row[0] - len(item.text)))

    def _score_prompt(self, model, items, prompt):
        overlap = {it.id for it in items} & self.seen_ids_
        assert not overlap, f"scored training items {overlap}"
        return np.array([self._nearest(model, it)[1] + self.offset for it in items], dtype=float)

    def predict(self, items):
        return [self._nearest(self.models_[it.prompt_id], it)[2] for it in items]


def _scored(n_per_prompt: int = 40) -> Dataset:
    rng = np.random.default_rng(3)
    prompts = {p: Prompt(p, "q", score_range=(0, 3)) for p in ("1", "2")}
    items = []
    for p in prompts:
        for i in range(n_per_prompt):
            score = int(rng.integers(0, 4))
            items.append(Item(f"{p}-{i}", p, "w " * (5 * score + int(rng.integers(0, 3)) + 1), float(score)))
    return Dataset("toy", tuple(items), prompts, "train")


def _labelled(n: int = 60) -> Dataset:
    prompts = {"q": Prompt("q", "why?", labels=LABELS)}
    items = [
        Item(f"a{i}", "q", "x" * (10 * (i % 3) + i % 4 + 1), float(i % 3 == 0), LABELS[i % 3]) for i in range(n)
    ]
    return Dataset("toy-labels", tuple(items), prompts, "train")


def test_assign_folds_stratified_within_prompt_and_deterministic():
    data = _scored()
    folds = assign_folds(data, folds=5, seed=1)
    assert np.array_equal(folds, assign_folds(data, folds=5, seed=1))
    assert not np.array_equal(folds, assign_folds(data, folds=5, seed=2))
    for pid in ("1", "2"):
        for score in range(4):
            idx = [i for i, it in enumerate(data) if it.prompt_id == pid and it.score == score]
            counts = Counter(folds[idx].tolist())
            per_fold = [counts.get(k, 0) for k in range(5)]
            assert max(per_fold) - min(per_fold) <= 1, (pid, score, per_fold)


def test_assign_folds_rejects_bad_input():
    with pytest.raises(ConfigError, match="folds >= 2"):
        assign_folds(_scored(), folds=1)
    data = _scored()
    broken = data.subset([*data.items[:-1], Item("x", "1", "no score")])
    with pytest.raises(ConfigError, match="no gold score"):
        assign_folds(broken, folds=5)


def test_cross_validate_scores_every_item_out_of_fold():
    data, scorer = _scored(), NearestLength()
    ticks = []
    result = cross_validate(scorer, data, folds=5, seed=0, on_progress=lambda d, t: ticks.append((d, t)))
    assert not hasattr(scorer, "models_")  # clones were fitted, not the scorer itself
    assert not np.isnan(result.scores).any() and len(result.scores) == len(data)
    assert ticks[0] == (0, 10) and ticks[-1] == (10, 10) and len(ticks) == 11
    metrics = result.per_prompt()
    assert metrics["kind"] == "scores" and set(metrics["prompts"]) == {"1", "2"}
    assert metrics["mean_qwk"] > 0.8  # score is a function of length, so nearest length works
    assert metrics["mean_qwk"] == pytest.approx(np.mean([m["qwk"] for m in metrics["prompts"].values()]))
    assert result.n_fit == 4 * len(data)  # each item is in the training part of 4 of the 5 folds


def test_cross_validate_quality_responds_to_a_worse_scorer():
    good = cross_validate(NearestLength(), _scored(), folds=4).per_prompt()["mean_qwk"]
    shifted = cross_validate(NearestLength(offset=1), _scored(), folds=4).per_prompt()
    assert shifted["mean_qwk"] < good
    assert shifted["accuracy"] < 0.5


def test_cross_validate_labelled_reports_seed_004_metrics():
    result = cross_validate(NearestLength(), _labelled(), folds=3)
    metrics = result.per_prompt()
    assert metrics["kind"] == "labels" and result.labelled
    report = metrics["report"]
    assert list(report["per_class"]) == list(LABELS)
    assert report["micro"]["recall"] == pytest.approx(report["accuracy"])
    assert metrics["corrective_feedback"]["support"] == 40


def test_cross_validate_per_prompt_scorer_needs_enough_answers():
    with pytest.raises(ConfigError, match="fewer than"):
        cross_validate(NearestLength(), _scored(3), folds=5)


def test_evaluate_split_fits_clone_and_reports_timing():
    data = _scored()
    train, test = data.subset(data.items[::2], split="train"), data.subset(data.items[1::2], split="test")
    scorer = NearestLength()
    result = evaluate_split(scorer, train, test)
    assert isinstance(result, EvaluationResult)
    assert result.fitted is not None and result.fitted is not scorer and not hasattr(scorer, "models_")
    assert result.protocol == "train -> test"
    timing = result.timing()
    assert timing["n_fit"] == len(train) and timing["n_scored"] == len(test)
    assert timing["fit_seconds"] >= 0 and timing["score_per_second"] > 0
    with pytest.raises(ConfigError, match="empty"):
        evaluate_split(scorer, train, data.subset([]))


def test_evaluation_result_frame_and_dict():
    result = cross_validate(NearestLength(), _labelled(), folds=3)
    frame = result.to_frame()
    assert len(frame) == 60
    assert list(frame.columns) == ["item_id", "prompt_id", "fold", "gold_score", "score", "gold_label", "predicted_label"]
    assert set(frame["fold"]) == {0, 1, 2}
    data = json.loads(json.dumps(result.to_dict()))
    assert data["scorer"] == "NearestLength" and data["params"] == {"offset": 0}
    assert data["metrics"]["report"]["support"] == 60
    assert data["protocol"].startswith("3-fold CV")


class NeedsPrompts(Scorer):
    """One model for all prompts that, like lexical-tree, reads each answer's prompt from the scored Dataset."""

    per_prompt = False

    def __init__(self) -> None:
        pass

    def _fit_prompt(self, items, prompt):
        return None

    def score(self, items):
        assert isinstance(items, Dataset), "evaluation must pass the Dataset so unseen prompts are known"
        return np.array([float(len(items.prompts[it.prompt_id].question) > 1) for it in items])


def test_evaluate_split_scores_unseen_prompts_through_the_dataset():
    data = _scored()
    train = data.for_prompt("1")
    test = data.for_prompt("2")  # a prompt the scorer never saw, as in SemEval's unseen questions
    result = evaluate_split(NeedsPrompts(), train, test)
    assert len(result.scores) == len(test) and set(result.scores) == {0.0}
    assert cross_validate(NeedsPrompts(), data, folds=2).scores.shape == (len(data),)

"""The train, evaluate and list verbs, through Typer's runner on the bundled semeval-demo slice."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from bluffcheck.cli import app
from bluffcheck.errors import ConfigError, UnknownComponentError

runner = CliRunner()


def _invoke(*args: str):
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def test_evaluate_cv_prints_label_table_and_writes_json(tmp_path):
    out = tmp_path / "cv.json"
    result = _invoke("evaluate", "lexical-tree", "--dataset", "semeval-demo", "-o", "ways=3", "--cv", "3", "--json", str(out))
    assert result.exit_code == 0, result.output
    assert "macro average" in result.output and "corrective feedback" in result.output
    data = json.loads(out.read_text())
    assert data["protocol"].startswith("3-fold CV") and data["n_items"] == 496
    report = data["metrics"]["report"]
    assert set(report["per_class"]) == {"correct", "contradictory", "incorrect"}
    assert 0.0 < report["macro"]["f1"] <= 1.0
    assert data["timing"]["n_fit"] == 2 * 496  # each answer trains 2 of the 3 folds


def test_evaluate_test_split_trains_on_train_and_scores_test(tmp_path):
    out = tmp_path / "split.json"
    result = _invoke("evaluate", "lexical-tree", "-d", "semeval-demo", "--test-split", "test-unseen-answers",
                     "-p", "min_samples_leaf=5", "--json", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["protocol"] == "train -> test-unseen-answers"
    assert data["n_items"] == 48 and data["timing"]["n_fit"] == 496
    assert data["params"]["min_samples_leaf"] == 5


def test_evaluate_needs_exactly_one_protocol():
    with pytest.raises(ConfigError, match="exactly one"):
        _invoke("evaluate", "lexical-tree", "-d", "semeval-demo")
    with pytest.raises(ConfigError, match="exactly one"):
        _invoke("evaluate", "lexical-tree", "-d", "semeval-demo", "--cv", "3", "--test-split", "x")


def test_evaluate_unknown_scorer_suggests_names():
    with pytest.raises(UnknownComponentError, match="lexical-tree"):
        _invoke("evaluate", "lexical-trees", "-d", "semeval-demo", "--cv", "3")


@pytest.mark.slow
def test_train_saves_a_loadable_scorer(tmp_path):
    from bluffcheck.datasets import load
    from bluffcheck.scorers import persist

    target = tmp_path / "model"
    result = _invoke("train", "lexical-tree", "-d", "semeval-demo", "-o", "ways=2", "--out", str(target))
    assert result.exit_code == 0, result.output
    assert "saved to" in result.output and target.exists()
    loaded = persist.load(target)
    test = load("semeval-demo", ways=2, split="test-unseen-answers")
    assert set(loaded.predict(test)) <= {"correct", "incorrect"}


@pytest.mark.parametrize("kind, expected", [("scorers", "lexical-tree"), ("datasets", "semeval-demo")])
def test_list_shows_names_and_first_docstring_line(kind, expected):
    result = _invoke("list", kind)
    assert result.exit_code == 0
    assert expected in result.output
    if kind == "datasets":
        from bluffcheck._registry import datasets
        from bluffcheck.cli.list_ import summary_line

        assert summary_line(datasets.get("semeval-demo")) == "Load the bundled SciEntsBank demo slice."
        assert "Load the bundled" in result.output


def test_list_all_kinds_and_rejects_unknown():
    result = _invoke("list")
    assert all(k in result.output for k in ("scorers", "datasets", "generators"))
    with pytest.raises(ConfigError, match="scorers, datasets, generators"):
        _invoke("list", "methods")

"""The file round trip through the run engine: run, export what is pending, score elsewhere, rerun."""

from __future__ import annotations

import csv

import pytest
from helpers_run import records
from typer.testing import CliRunner

from bluffcheck.cli import app
from bluffcheck.errors import ConfigError
from bluffcheck.run.engine import run_suite
from bluffcheck.run.export import export_pending_cases


def _file_suite(tmp_path, fakes, scores):
    import tomllib

    from bluffcheck.run.suite import parse_suite

    scorer = f'name = "file"\n[scorers.params]\nscores_path = "{scores}"\n'
    text = fakes.toy_suite(tmp_path / "run").replace('name = "test-run-overlap"\n[scorers.params]\n', scorer)
    return parse_suite(tomllib.loads(text), source="toy.toml")


def _external(prompt_id: str, text: str) -> int:
    """The external system's score: it depends on the prompt, so equal texts under two prompts differ."""
    return (len(text.split()) + (prompt_id == "p2")) % 3


def _score_cases(cases, scores, *, skip_first: int = 0):
    """Stand-in for the external system: one score per case, leaving the first rows blank."""
    with cases.open(encoding="utf-8", newline="") as fh, scores.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["id", "score", "text_hash"])
        for i, row in enumerate(csv.DictReader(fh)):
            score = "" if i < skip_first else str(_external(row["prompt_id"], row["text"]))
            writer.writerow([row["id"], score, row["text_hash"]])


def test_file_scorer_round_trip_through_run_and_cli(tmp_path, fakes):
    scores, cases = tmp_path / "scores.csv", tmp_path / "cases.csv"
    summary = run_suite(_file_suite(tmp_path, fakes, scores), report=False)
    first = records(tmp_path / "run")
    assert summary.failed_records == len(first) > 0
    assert all(r["status"] == "error" and r["score"] is None for r in first.values())

    result = CliRunner().invoke(app, ["pending", str(tmp_path / "run"), "--out", str(cases)])
    assert result.exit_code == 0, result.output
    n_cases = sum(1 for _ in csv.DictReader(cases.open(encoding="utf-8", newline="")))
    assert n_cases == len({r["item_id"] for r in first.values()})
    assert f"{n_cases} answers to score" in result.output

    _score_cases(cases, scores, skip_first=2)  # the external system leaves two answers for later
    summary = run_suite(_file_suite(tmp_path, fakes, scores), report=False)
    second = records(tmp_path / "run")
    assert len(second) == len(first)
    ok = [r for r in second.values() if r["status"] == "ok"]
    assert ok and all(r["score"] == _external(r["prompt_id"], r["text"]) for r in ok)
    texts = {}
    for r in ok:
        texts.setdefault(r["text"], set()).add(r["prompt_id"])
    assert any(len(p) == 2 for p in texts.values())  # the toy data has equal answers under both prompts
    assert 0 < summary.failed_records < len(first)
    assert export_pending_cases(tmp_path / "run", tmp_path / "left.jsonl", scorer="file") == 2
    assert export_pending_cases(tmp_path / "run", tmp_path / "none.csv", scorer="other") == 0
    assert not (tmp_path / "none.csv").exists()


def test_pending_without_a_run_says_what_to_do(tmp_path):
    with pytest.raises(ConfigError, match="bluffcheck run"):
        export_pending_cases(tmp_path, tmp_path / "cases.csv")

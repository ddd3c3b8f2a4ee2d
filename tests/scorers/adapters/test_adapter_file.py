"""The ``file`` round trip: export the answers, score them elsewhere, import the scores."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bluffcheck.errors import ConfigError, DatasetFormatError, ScorerError
from bluffcheck.scorers.adapters import FileScorer, export_cases, export_pending, import_scores, read_scores, text_hash
from bluffcheck.types import Item


def external_scorer(cases: Path, scores: Path, *, skip: frozenset[str] = frozenset()) -> None:
    """What the other system does: read the cases, write ``id,score`` (here: number of words), reversed."""
    with cases.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    with scores.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["id", "score"])
        writer.writerows([r["id"], len(r["text"].split())] for r in reversed(rows) if r["id"] not in skip)


def test_file_round_trip_returns_scores_in_item_order(answers, tmp_path):
    cases, scores = tmp_path / "cases.csv", tmp_path / "scores.csv"
    export_cases(answers, cases)
    external_scorer(cases, scores)
    scorer = FileScorer(str(scores)).fit()
    assert scorer.score(answers).tolist() == [float(len(it.text.split())) for it in answers]


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".jsonl"])
def test_export_cases_keeps_text_exactly(answers, tmp_path, suffix):
    path = export_cases(answers, tmp_path / f"cases{suffix}")
    with path.open(encoding="utf-8", newline="") as fh:
        if suffix == ".jsonl":
            rows = [json.loads(line) for line in fh]
        else:
            rows = list(csv.DictReader(fh, delimiter="\t" if suffix == ".tsv" else ","))
    assert [(r["id"], r["prompt_id"], r["text"]) for r in rows] == [(it.id, it.prompt_id, it.text) for it in answers]
    assert rows[0]["text_hash"] == text_hash(answers[0].text)


@settings(max_examples=20, deadline=None)
@given(texts=st.lists(st.text(max_size=40), min_size=1, max_size=5))
def test_export_then_import_round_trips_any_text(tmp_path_factory, texts):
    folder = tmp_path_factory.mktemp("rt")
    items = [Item(f'id,{k}"', "p", t) for k, t in enumerate(texts)]
    export_cases(items, folder / "cases.csv")
    with (folder / "cases.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["text"] for r in rows] == texts
    with (folder / "scores.jsonl").open("w", encoding="utf-8") as fh:
        fh.writelines(
            json.dumps({"id": r["id"], "score": len(r["text"]), "text_hash": r["text_hash"]}) + "\n" for r in rows
        )
    assert import_scores(folder / "scores.jsonl", items).tolist() == [float(len(t)) for t in texts]


def test_missing_ids_raise_and_export_pending_writes_only_them(answers, tmp_path):
    cases, scores = tmp_path / "cases.csv", tmp_path / "scores.csv"
    export_cases(answers, cases)
    external_scorer(cases, scores, skip=frozenset({"a1", "a3"}))
    scorer = FileScorer(str(scores)).fit()
    with pytest.raises(ScorerError, match=r"2 of 5 answers have no usable score .*first: 'a1', 'a3'.*export_pending"):
        scorer.score(answers)
    assert [o.status for o in scorer.score_outcomes(answers)] == ["ok", "error", "ok", "error", "ok"]
    assert export_pending(answers, tmp_path / "pending.csv", scores) == 2
    assert [r["id"] for r in csv.DictReader((tmp_path / "pending.csv").open(encoding="utf-8"))] == ["a1", "a3"]


def test_no_scores_file_yet_means_everything_is_pending(answers, tmp_path):
    with pytest.raises(ScorerError, match="does not exist yet"):
        FileScorer(str(tmp_path / "later.csv")).fit().score(answers)
    assert export_pending(answers, tmp_path / "todo.jsonl", tmp_path / "later.csv") == 5


def test_blank_scores_are_pending_and_nan_scores_are_nan(tmp_path):
    path = tmp_path / "s.csv"
    path.write_text("id,score\na,1\nb,\nc,nan\n", encoding="utf-8")
    items = [Item(i, "p", "x") for i in "abc"]
    out = FileScorer(str(path)).fit().score_outcomes(items)
    assert [o.status for o in out] == ["ok", "error", "nan"]
    assert read_scores(path)["b"].score is None


def test_score_for_a_changed_text_is_rejected(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps({"id": "a", "score": 2, "text_hash": text_hash("old text")}) + "\n", encoding="utf-8")
    out = FileScorer(str(path)).fit().score_outcomes([Item("a", "p", "new text")])
    assert out[0].status == "error" and "different text" in out[0].error


@pytest.mark.parametrize(
    ("name", "content", "line", "field"),
    [
        ("s.csv", "id,score\na,1\nb,high\n", 3, "score"),
        ("s.csv", "id,points\na,1\n", 2, "score"),
        ("s.csv", "", 1, None),
        ("s.csv", "id,score\na,1\na,2\n", 3, "id"),
        ("s.jsonl", '{"id": "a", "score": 1}\n{"id": "b", "score": 1\n', 2, None),
        ("s.jsonl", '{"id": "a", "score": 1}\n\n[1, 2]\n', 3, None),
        ("s.jsonl", '{"score": 1}\n', 1, "id"),
        ("s.jsonl", '{"id": "a", "score": true}\n', 1, "score"),
    ],
)
def test_malformed_score_files_name_file_line_and_field(tmp_path, name, content, line, field):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(DatasetFormatError) as info:
        FileScorer(str(path)).fit().score([Item("a", "p", "x")])
    assert (info.value.path, info.value.line, info.value.field) == (str(path), line, field)


def test_file_fingerprint_changes_with_the_scores(tmp_path):
    path = tmp_path / "s.csv"
    path.write_text("id,score\na,1\n", encoding="utf-8")
    scorer = FileScorer(str(path)).fit()
    before = scorer.fingerprint
    path.write_text("id,score\na,2\n", encoding="utf-8")
    assert scorer.fingerprint != before
    assert scorer.score([Item("a", "p", "x")]).tolist() == [2.0]


def test_file_rejects_unknown_formats_and_ambiguous_ids(tmp_path):
    with pytest.raises(ConfigError, match="unknown file type '.xlsx'"):
        FileScorer(str(tmp_path / "s.xlsx")).fit()
    with pytest.raises(ConfigError, match="appears twice with different texts"):
        export_cases([Item("a", "p", "x"), Item("a", "p", "y")], tmp_path / "c.csv")

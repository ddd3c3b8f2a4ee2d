"""Generic CSV/TSV/JSONL loader with a column mapping."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bluffcheck.datasets import load
from bluffcheck.errors import ConfigError, DatasetFormatError

FIXTURES = Path(__file__).parents[1] / "fixtures" / "datasets" / "tabular"


def test_tabular_csv_with_column_mapping_and_inferred_ranges():
    ds = load("tabular", path=FIXTURES / "answers.csv", prompt="question", text="answer", score="points")
    assert [it.id for it in ds] == ["a1", "a2", "a3", "a4"]
    assert ds[2].text == "" and ds[2].score == 0.0 and ds[3].text == 'The moon reflects "sunlight".'
    assert ds.prompts["q1"].score_range == (1, 2) and ds.prompts["q2"].score_range == (0, 2)
    assert "inferred" in ds.metadata["score_ranges"]
    assert ds.prompts["q1"].labels == ("correct", "incorrect", "partial")
    assert ds[1].metadata["source_line"] == 3


def test_tabular_given_ranges_and_labels_are_checked():
    ds = load("tabular", path=FIXTURES / "answers.csv", prompt="question", text="answer", score="points",
              score_ranges=[0, 2], labels=["incorrect", "partial", "correct"])  # fmt: skip
    assert ds.prompts["q1"].score_range == (0, 2) and ds.metadata["score_ranges"] == "given"
    assert ds.prompts["q2"].labels[0] == "incorrect"
    with pytest.raises(DatasetFormatError, match=r"line 2: field 'score'.*outside 0\.\.1"):
        load(
            "tabular",
            path=FIXTURES / "answers.csv",
            prompt="question",
            text="answer",
            score="points",
            score_ranges=[0, 1],
        )
    with pytest.raises(DatasetFormatError, match="'partial' is not one of"):
        load(
            "tabular", path=FIXTURES / "answers.csv", prompt="question", text="answer", labels=["incorrect", "correct"]
        )


def test_tabular_tsv_defaults_and_numbered_ids():
    ds = load("tabular", path=FIXTURES / "answers.tsv")
    assert [it.id for it in ds] == ["2", "3"] and ds[0].score == 1.5 and ds.prompts["q1"].score_range == (0, 2)


def test_tabular_jsonl_skips_blank_lines_keeps_empty_answers():
    ds = load("tabular", path=FIXTURES / "answers.jsonl", name="mine", split="dev")
    assert (ds.name, ds.split, len(ds)) == ("mine", "dev", 3)
    assert ds[1].text == "" and ds[1].metadata["source_line"] == 3 and ds.prompts["p1"].score_range == (0, 3)


@pytest.mark.parametrize(
    ("content", "suffix", "message"),
    [("text,score\nok,high\n", ".csv", r"line 2: field 'score': 'high' is not a number"),
     ("text,score\nok,1,extra\n", ".csv", "line 2: the row has 3 fields"),
     ('{"text": "a"}\n{"text": \n', ".jsonl", "line 2: not valid JSON"),
     ('{"text": null}\n', ".jsonl", "field 'text': the answer text is missing"),
     ("text,id\na,1\nb,1\n", ".csv", "duplicate id '1'"),
     ("answer,score\na,1\n", ".csv", "no column 'text'")],
)  # fmt: skip
def test_tabular_malformed_rows_name_file_line_and_field(tmp_path, content, suffix, message):
    file = tmp_path / f"data{suffix}"
    file.write_text(content)
    with pytest.raises(DatasetFormatError, match=message) as err:
        load("tabular", path=file)
    assert str(file.name) in str(err.value)


def test_tabular_explicit_missing_column_and_unknown_format(tmp_path):
    with pytest.raises(ConfigError, match="needs path="):
        load("tabular")
    with pytest.raises(DatasetFormatError, match="no column 'points'"):
        load("tabular", path=FIXTURES / "answers.tsv", score="points")
    odd = tmp_path / "data.xlsx"
    odd.write_text("x")
    with pytest.raises(ConfigError, match="format="):
        load("tabular", path=odd)


def test_tabular_cache_sees_a_changed_file(tmp_path):
    file = tmp_path / "answers.csv"
    file.write_text("text,score\nfirst,1\n")
    assert load("tabular", path=file)[0].text == "first"
    file.write_text("text,score\nsecond answer,2\n")
    assert load("tabular", path=file)[0].text == "second answer"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    texts=st.lists(
        st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00")), min_size=1, max_size=5
    )
)
def test_tabular_csv_round_trips_any_text(tmp_path, texts):
    file = tmp_path / "answers.csv"
    with file.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "text", "score"])
        writer.writerows([str(i), text, i % 3] for i, text in enumerate(texts))
    ds = load("tabular", path=file)
    assert [it.text for it in ds] == texts and [it.score for it in ds] == [float(i % 3) for i in range(len(texts))]

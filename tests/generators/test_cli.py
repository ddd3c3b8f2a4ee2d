"""``bluffcheck generate`` through Typer's runner."""

from __future__ import annotations

import csv
import json

import pytest
from typer.testing import CliRunner

from bluffcheck.cli import app
from bluffcheck.cli import generate as generate_cli


@pytest.fixture()
def tiny_loader(monkeypatch, small_dataset):
    calls = []

    def load(name, options):
        calls.append((name, options))
        return small_dataset

    monkeypatch.setattr(generate_cli, "load_dataset", load)
    return calls


def test_cli_generate_writes_kaggle_tsv_and_jsonl(tmp_path, tiny_loader):
    result = CliRunner().invoke(
        app,
        [
            "generate",
            "--dataset",
            "tiny",
            "-o",
            "split=train",
            "--methods",
            "random-chars,char-2gram-prompt,shuffle",
            "-p",
            "min_answers=5",
            "--n",
            "4",
            "--seed",
            "5",
            "--out",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    assert tiny_loader == [("tiny", {"split": "train"})]
    with (tmp_path / "bluffs.tsv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    assert len(rows) == 12
    assert set(rows[0]) == {"Id", "EssaySet", "Score1", "Score2", "EssayText"}
    assert {r["Score1"] for r in rows} == {"0"} and {r["EssaySet"] for r in rows} == {"p1"}
    records = [json.loads(line) for line in (tmp_path / "bluffs.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["text"] for r in records] == [r["EssayText"] for r in rows]
    assert {r["label"] for r in records} == {"random-chars", "char-2gram-prompt", "shuffle"}
    assert all("method" in r and "params" in r for r in records)
    two = [r for r in records if r["label"] == "char-2gram-prompt"][0]
    assert two["method"] == "char-ngrams" and two["params"]["n"] == 2 and two["params"]["min_answers"] == 5


def test_cli_generate_is_reproducible(tmp_path, tiny_loader):
    args = ["generate", "-d", "tiny", "-m", "random-words", "--generic", "bundled", "--n", "3", "--out"]
    CliRunner().invoke(app, [*args, str(tmp_path / "a")])
    CliRunner().invoke(app, [*args, str(tmp_path / "b")])
    assert (tmp_path / "a" / "bluffs.tsv").read_bytes() == (tmp_path / "b" / "bluffs.tsv").read_bytes()


def test_cli_generate_unknown_method_suggests_a_name(tmp_path, tiny_loader):
    result = CliRunner().invoke(app, ["generate", "-d", "tiny", "-m", "random-char", "--out", str(tmp_path)])
    assert result.exit_code != 0
    assert "Did you mean 'random-chars'" in str(result.exception)


def test_cli_generate_bad_parameter_is_a_config_error(tmp_path, tiny_loader):
    result = CliRunner().invoke(
        app, ["generate", "-d", "tiny", "-m", "char-ngrams", "-p", "n=9", "--out", str(tmp_path)]
    )
    assert result.exit_code != 0
    assert "must be an integer in 1..5. Got 9 instead" in str(result.exception)


def test_cli_generate_paper_label_with_n_out_of_range_names_the_range(tmp_path, tiny_loader):
    result = CliRunner().invoke(app, ["generate", "-d", "tiny", "-m", "word-6gram-generic", "--out", str(tmp_path)])
    assert result.exit_code != 0
    assert "n-gram methods take n in 1..5, got 6" in str(result.exception)
    assert not (tmp_path / "bluffs.tsv").exists()


@pytest.mark.realdata
def test_cli_generate_on_asap_sas_with_unscored_answers(tmp_path, shared_data, monkeypatch):
    monkeypatch.setenv("BLUFFCHECK_DATA", str(shared_data))
    args = ["generate", "-d", "asap-sas", "--prompt", "3", "-m", "word-2gram-prompt,content-burst", "--unscored"]
    result = CliRunner().invoke(app, [*args, "--n", "5", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    rows = (tmp_path / "bluffs.tsv").read_text(encoding="utf-8").splitlines()
    assert len(rows) == 1 + 10 and all(r.split("\t")[1] == "3" for r in rows[1:])


def test_cli_generate_unscored_is_only_for_asap_sas(tmp_path, tiny_loader):
    result = CliRunner().invoke(app, ["generate", "-d", "tiny", "-m", "shuffle", "--unscored", "--out", str(tmp_path)])
    assert result.exit_code != 0 and "Drop --unscored" in str(result.exception)

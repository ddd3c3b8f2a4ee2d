"""``load``, ``describe``, ``available`` and the ``bluffcheck datasets`` CLI."""

from __future__ import annotations

import doctest
import json
import pickle

import pytest
from typer.testing import CliRunner

from bluffcheck.cli import app
from bluffcheck.datasets import _api, available, describe, load, semeval_demo
from bluffcheck.errors import ConfigError, UnknownComponentError


@pytest.mark.parametrize("module", [_api, semeval_demo])
def test_datasets_docstring_examples_run(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_load_unknown_option_lists_valid_ones():
    with pytest.raises(ConfigError, match="no option 'splt'. Valid options: ways, split"):
        load("semeval-demo", splt="train")


def test_load_unknown_name_suggests_close_ones():
    with pytest.raises(UnknownComponentError, match="semeval-demo"):
        load("semeval-dem")


def test_describe_counts_per_prompt_and_distributions():
    ds = load("semeval-demo")
    summary = describe(ds)
    assert summary["items"] == len(ds) and summary["prompts"] == 12
    assert list(summary["label_counts"]) == ["incorrect", "contradictory", "correct"]  # label-set order
    assert sum(summary["label_counts"].values()) == len(ds)
    assert summary["scores"] == {"0": sum(it.score == 0 for it in ds), "1": sum(it.score == 1 for it in ds)}
    assert sum(p["items"] for p in summary["per_prompt"].values()) == len(ds)
    assert json.loads(json.dumps(summary)) == summary


def test_loaded_dataset_pickles():
    ds = load("semeval-demo", split="test-unseen-answers")
    again = pickle.loads(pickle.dumps(ds))
    assert again.items == ds.items and again[0].metadata == ds[0].metadata


def test_available_without_data_lists_only_the_bundled_demo(tmp_path, monkeypatch):
    monkeypatch.setenv("BLUFFCHECK_DATA", str(tmp_path / "absent"))
    entries = available(counts=True)
    found = [e for e in entries if e["found"]]
    assert {e["name"] for e in found} == {"semeval-demo"} and {e["items"] for e in found} == {496, 48}
    assert any(e["name"] == "asap-sas" and e["found"] is False for e in entries)


def test_available_real_data_counts(shared_data):
    entries = {(e["name"], tuple(sorted(e["options"].items()))): e for e in available(shared_data, counts=True)}
    assert entries[("asap-sas", (("split", "public-leaderboard"),))]["items"] == 5224
    assert entries[("asap-sas", (("split", "train"),))]["found"] is False
    assert entries[("asap-aes", ())]["items"] == 12978
    key = ("semeval2013", (("corpus", "scientsbank"), ("split", "test-unseen-domains"), ("ways", 3)))
    assert entries[key]["items"] == 4562 and entries[key]["prompts"] == 46


def test_cli_datasets_describe_json_and_table():
    runner = CliRunner()
    result = runner.invoke(app, ["datasets", "describe", "semeval-demo", "-o", "ways=2", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["label_counts"] == {"incorrect": 292, "correct": 204}
    table = runner.invoke(app, ["datasets", "describe", "semeval-demo", "-o", "split=test-unseen-answers"])
    assert table.exit_code == 0 and "48 answers, 12 prompts" in table.output and "PS_2a" in table.output


def test_cli_datasets_lists_found_datasets(tmp_path, monkeypatch):
    monkeypatch.setenv("BLUFFCHECK_DATA", str(tmp_path / "absent"))
    result = CliRunner().invoke(app, ["datasets", "--json"])
    assert result.exit_code == 0, result.output
    demo = [e for e in json.loads(result.output) if e["name"] == "semeval-demo"]
    assert [e["items"] for e in demo] == [496, 48]
    table = CliRunner().invoke(app, ["datasets"], env={"COLUMNS": "200"})
    assert table.exit_code == 0 and "semeval-demo" in table.output and "496" in table.output


def test_cli_datasets_describe_bad_option_fails():
    result = CliRunner().invoke(app, ["datasets", "describe", "semeval-demo", "-o", "splt=x"])
    assert result.exit_code != 0 and isinstance(result.exception, ConfigError)

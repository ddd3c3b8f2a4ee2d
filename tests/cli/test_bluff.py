"""``bluffcheck bluff`` on the bundled semeval-demo slice: printed table, run folder, determinism."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from typer.testing import CliRunner

from bluffcheck import bluffs
from bluffcheck.cli import app
from bluffcheck.cli.bluff import table_cells
from bluffcheck.errors import ConfigError
from bluffcheck.report.result import RECORD_FIELDS

runner = CliRunner()
ARGS = ("bluff", "--scorer", "lexical-tree", "--dataset", "semeval-demo", "-o", "ways=2",
        "--methods", "random-chars,shuffle", "--n", "12", "--seed", "7")  # fmt: skip


def _invoke(*args: str):
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def _printed(output: str, methods: list[str]) -> dict[str, list[str]]:
    """Row name -> the numbers printed on its line."""
    rows = {}
    for line in output.splitlines():
        parts = line.split()
        if parts and parts[0] in methods:
            rows[parts[0]] = parts[1:]
    return rows


@pytest.mark.slow
def test_bluff_writes_records_matching_the_printed_table_and_reruns_identically(tmp_path):
    first = _invoke(*ARGS, "--out", str(tmp_path / "a"))
    assert first.exit_code == 0, first.output
    records = pd.read_parquet(tmp_path / "a" / "records.parquet")
    assert set(RECORD_FIELDS) <= set(records.columns)
    bluff_rows = records[records["kind"] == "generator"]
    assert len(bluff_rows) == 12 * 2 * 12 and set(bluff_rows["label"]) == {"random-chars", "shuffle"}
    assert (records["kind"] == "original").sum() > 0  # held-out answers, for the report's QWK

    table = bluffs.arr_table(records, seed=7)
    cells = table_cells(table)
    prompts = sorted(set(table["prompt"]), key=lambda p: list(table["prompt"]).index(p))
    printed = _printed(first.output, ["random-chars", "shuffle", "mean"])
    for method in ("random-chars", "shuffle", "mean"):
        assert printed[method] == [cells[(method, p)] for p in [*prompts, "mean"]], method
    assert (tmp_path / "a" / "arr_figure1.png").read_bytes()[:4] == b"\x89PNG"
    config = json.loads((tmp_path / "a" / "config.json").read_text())
    assert config["n"] == 12 and config["seed"] == 7 and config["split"] == "fixed"

    second = _invoke(*ARGS, "--out", str(tmp_path / "b"))
    assert second.exit_code == 0, second.output
    again = pd.read_parquet(tmp_path / "b" / "records.parquet")
    pd.testing.assert_frame_equal(records.drop(columns="elapsed_s"), again.drop(columns="elapsed_s"))


@pytest.mark.slow
def test_bluff_run_folder_renders_as_a_report(tmp_path):
    from bluffcheck.report import render

    result = _invoke(*ARGS[:-4], "--n", "5", "--methods", "random-chars", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    page = render(tmp_path)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert page.is_file() and {r["method"] for r in summary["adversarial"]} == {"random-chars"}
    assert summary["agreement"] and all(r["scorer"] == "lexical-tree" for r in summary["agreement"])


def test_bluff_explain_with_a_scorer_that_cannot_explain_says_so(tmp_path):
    result = _invoke(*ARGS[:-4], "--n", "3", "--methods", "random-chars", "--explain", "--out", str(tmp_path))
    assert result.exit_code == 0
    assert "cannot explain its scores" in result.output


def test_bluff_rejects_an_unknown_split(tmp_path):
    with pytest.raises(ConfigError, match="--split must be"):
        _invoke(*ARGS, "--split", "random", "--out", str(tmp_path))

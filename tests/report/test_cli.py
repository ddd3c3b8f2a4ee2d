"""``bluffcheck report RUN_DIR [--out FILE]`` through Typer's runner."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bluffcheck.cli import app
from bluffcheck.errors import MissingResourceError

from .conftest import make_records, write_run


def test_cli_report_rerenders_a_run_folder(tmp_path: Path) -> None:
    folder = write_run(tmp_path / "run", make_records(3).head(300), sqlite=False)
    result = CliRunner().invoke(app, ["report", str(folder), "--n-boot", "50"])
    assert result.exit_code == 0, result.output
    assert "report.html" in result.output
    assert (folder / "report.html").is_file() and (folder / "summary.md").is_file()
    assert json.loads((folder / "summary.json").read_text(encoding="utf-8"))["bootstrap"]["n_boot"] == 50


def test_cli_report_out_option(tmp_path: Path) -> None:
    folder = write_run(tmp_path / "run", make_records(4).head(200), parquet=False)
    target = tmp_path / "pages" / "r.html"
    result = CliRunner().invoke(app, ["report", str(folder), "--out", str(target), "--n-boot", "20"])
    assert result.exit_code == 0, result.output
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert not (folder / "report.html").exists()


def test_cli_report_missing_folder_raises_bluffcheck_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["report", str(tmp_path / "missing")])
    assert result.exit_code != 0
    assert isinstance(result.exception, MissingResourceError)
    assert "bluffcheck run" in str(result.exception)

from __future__ import annotations

import json

from helpers_run import toy
from typer.testing import CliRunner

from bluffcheck.cli import app
from bluffcheck.run.engine import run_suite
from bluffcheck.run.gates import evaluate_gates
from bluffcheck.run.suite import GateSpec

runner = CliRunner()


def _suite_file(tmp_path, fakes, gates: str, **kw):
    path = tmp_path / "toy.toml"
    path.write_text(fakes.toy_suite(tmp_path / "run", extra=gates, **kw))
    return path


def test_cli_run_then_check_passes_and_fails_on_thresholds(tmp_path, fakes):
    suite = _suite_file(tmp_path, fakes, "[gates]\nmin_arr = 0.0\nmin_qwk = -1.0\n")
    result = runner.invoke(app, ["run", str(suite), "--no-report"])
    assert result.exit_code == 0, result.output
    assert "3 tasks run, 0 already done" in result.output and "run folder:" in result.output
    ok = runner.invoke(app, ["check", str(tmp_path / "run")])
    assert ok.exit_code == 0 and "PASS min_arr" in ok.output and "PASS min_qwk" in ok.output
    # the same run checked against stricter thresholds given by an edited suite file
    strict = _suite_file(tmp_path, fakes, "[gates]\nmin_arr = 1.0\nmax_n_pos = 5\n")
    bad = runner.invoke(app, ["check", str(strict), "--json"])
    assert bad.exit_code == 1
    report = json.loads(bad.output)
    assert report["passed"] is False
    arr = [g for g in report["gates"] if g["gate"] == "min_arr"]
    assert arr and all(g["passed"] is False and g["value"] < 1.0 for g in arr)
    assert any(g["gate"] == "max_n_pos" and g["passed"] is None and "skipped" in g["note"] for g in report["gates"])


def test_cli_run_quiet_prints_only_the_result_path_and_json_log(tmp_path, fakes):
    suite = _suite_file(tmp_path, fakes, "")
    result = runner.invoke(app, ["run", str(suite), "--quiet", "--no-report"])
    assert result.exit_code == 0 and result.output.strip() == str(tmp_path / "run")
    logged = runner.invoke(app, ["run", str(suite), "--log-json", "--no-report", "--out", str(tmp_path / "other")])
    assert logged.exit_code == 0
    events = [json.loads(line) for line in logged.stderr.splitlines() if line.startswith("{")]
    assert [e["event"] for e in events][0] == "start" and events[-1]["event"] == "end"


def test_gates_fail_when_nothing_was_scored(tmp_path, fakes):
    params = 'fail_marker = " "\nfail_mode = "nan"'  # every generated answer (several words) gets NaN
    # one batch per task, so the circuit breaker (every item of 3 batches failed: stop) stays out of it
    run_suite(toy(tmp_path, fakes, scorer_params=params, run="preflight = false", batch_size=64), report=False)
    results = evaluate_gates(tmp_path / "run", GateSpec(min_arr={"default": 0.0}))
    assert results and all(g.passed is False and g.value is None and "nothing to judge" in g.note for g in results)


def test_check_on_a_folder_without_store_says_what_to_do(tmp_path):
    result = runner.invoke(app, ["check", str(tmp_path)])
    assert result.exit_code != 0
    assert "Run `bluffcheck run SUITE.toml` first" in str(result.exception)


def test_cli_run_bad_suite_names_file_table_and_key(tmp_path, fakes):
    path = tmp_path / "bad.toml"
    path.write_text(fakes.toy_suite(tmp_path / "run").replace("n = 6", 'n = "ten"'))
    result = runner.invoke(app, ["run", str(path)])
    assert result.exit_code != 0
    assert "[[generators]] #1: key 'n' must be a positive integer. Got 'ten' instead." in str(result.exception)

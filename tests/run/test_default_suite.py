"""The shipped default suite with real components, scaled down to a few answers per method."""

from __future__ import annotations

import tomllib

import pytest
from helpers_run import records

from bluffcheck.run.engine import run_suite
from bluffcheck.run.suite import default_suite_path, parse_suite


@pytest.mark.slow
def test_default_suite_runs_with_real_components(tmp_path):
    text = default_suite_path().read_text().replace("n = 100", "n = 3")
    suite = parse_suite(tomllib.loads(text), source="default.toml")
    summary = run_suite(suite, output=tmp_path / "run", workers=1)
    n_gen = len(suite.generators)
    recs = records(tmp_path / "run")
    # 12 questions x generators x 3 answers + 48 held-out answers, for each of the 2 scorers
    assert len(recs) == 2 * (12 * n_gen * 3 + 48) == summary.records
    assert summary.failed_records == 0 and not summary.task_errors
    assert {r["scorer"] for r in recs.values()} == {"lexical-tree", "ngram-svm"}
    assert all(r["score"] in (0.0, 1.0) for r in recs.values())  # 2-way labels: 0 or full credit
    qwk = [g for g in summary.gates if g.gate == "min_qwk"]
    assert len(qwk) == 2 and all(g.value is not None for g in qwk)
    assert summary.report is not None or summary.report_note == "report module not available"
    if summary.report is not None:
        assert summary.report.is_file() and summary.report.name == "report.html"


@pytest.mark.slow
def test_default_suite_scorers_meet_the_same_bluffs_and_reruns_elsewhere_repeat_them(tmp_path):
    text = default_suite_path().read_text().replace("n = 100", "n = 2")
    suite = parse_suite(tomllib.loads(text), source="default.toml")
    run_suite(suite, output=tmp_path / "a", workers=1, report=False)
    run_suite(suite, output=tmp_path / "b", workers=1, report=False)

    def bluffs(run):
        out: dict[str, dict[tuple, str]] = {}
        for r in records(run).values():
            if r["kind"] == "generator":
                out.setdefault(r["scorer"], {})[(r["prompt_id"], r["method"], r["params"], r["item_id"])] = r["text"]
        return out

    a, b = bluffs(tmp_path / "a"), bluffs(tmp_path / "b")
    assert a["lexical-tree"] == a["ngram-svm"]  # one bluff corpus for every scorer, as in seed 000
    assert a == b  # the same suite and seed give the same bytes in another run folder

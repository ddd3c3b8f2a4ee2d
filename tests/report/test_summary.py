"""The report's numbers: ARR cells, QWK, overstability, errors, worst examples, JSON and Markdown."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score

from bluffcheck.report.load import validate_records
from bluffcheck.report.markdown import md_escape, summary_markdown
from bluffcheck.report.summary import SUMMARY_SCHEMA_VERSION, natural_key, prepare, summarize, summary_json

from .conftest import CONFIG, N_BLUFFS, PROMPTS, SCORERS, make_records


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    return validate_records(make_records(0))


@pytest.fixture(scope="module")
def summary(frame: pd.DataFrame) -> dict:
    return summarize(frame, CONFIG, n_boot=300, seed=1)


def test_summary_arr_cells_match_counting_the_records(frame: pd.DataFrame, summary: dict) -> None:
    df = prepare(frame)
    assert len(summary["adversarial"]) == len(SCORERS) * len(PROMPTS) * 4
    for cell in summary["adversarial"]:
        mine = df[(df["scorer"] == cell["scorer"]) & (df["variant"] == cell["method"]) & (df["prompt"] == cell["prompt"])
                  & (df["kind"] == "generator") & (df["status"] == "ok")]
        assert cell["n_ok"] == len(mine) > 0
        assert cell["arr"] == pytest.approx(float((mine["score"] == mine["min_score"]).mean()))
        assert cell["full_credit_rate"] == pytest.approx(float((mine["score"] == mine["max_score"]).mean()))
        assert cell["arr_low"] <= cell["arr"] <= cell["arr_high"]


def test_summary_failed_calls_are_counted_not_scored(summary: dict) -> None:
    cell = next(c for c in summary["adversarial"] if (c["scorer"], c["method"], c["prompt"]) == ("bigru", "word-ngrams", "2"))
    assert (cell["n"], cell["n_ok"], cell["n_errors"]) == (N_BLUFFS + 2, N_BLUFFS, 2)
    statuses = {(e["status"], e["count"]) for e in summary["errors"]}
    assert statuses == {("error", 1), ("timeout", 1)}
    assert summary["counts"]["by_status"] == {"ok": summary["counts"]["records"] - 2, "error": 1, "timeout": 1}


def test_summary_cell_with_only_failures_has_no_arr(frame: pd.DataFrame) -> None:
    broken = frame.copy()
    mask = (broken["scorer"] == "bigru") & (broken["method"] == "random-chars") & (broken["prompt_id"] == "1")
    broken.loc[mask, ["status", "score", "error"]] = ["timeout", np.nan, "slow"]
    out = summarize(broken, n_boot=50)
    cell = next(c for c in out["adversarial"] if (c["scorer"], c["method"], c["prompt"]) == ("bigru", "random-chars", "1"))
    assert cell["arr"] is None and cell["n_errors"] == N_BLUFFS
    method = next(m for m in out["methods"] if (m["scorer"], m["method"]) == ("bigru", "random-chars"))
    assert method["n_prompts"] == 2  # the mean runs over the two prompts that have scores, not a 0 for the third
    assert "| random-chars | n/a (20 err) |" in summary_markdown(out)


def test_summary_bootstrap_is_seeded(frame: pd.DataFrame) -> None:
    a, b, c = (summarize(frame, n_boot=200, seed=s)["adversarial"] for s in (3, 3, 4))
    assert a == b
    assert [r["arr_low"] for r in a] != [r["arr_low"] for r in c]


def test_summary_qwk_matches_sklearn(frame: pd.DataFrame, summary: dict) -> None:
    df = prepare(frame)
    for row in summary["agreement"]:
        mine = df[(df["scorer"] == row["scorer"]) & (df["kind"] == "original")]
        if row["prompt"] != "(all)":  # the pooled row takes every prompt of the scorer
            mine = mine[mine["prompt"] == row["prompt"]]
        expected = cohen_kappa_score(mine["gold"].astype(int), mine["score"].astype(int), weights="quadratic")
        assert row["qwk"] == pytest.approx(expected)
        assert row["accuracy"] == pytest.approx(float(np.mean(mine["gold"] == mine["score"])))
    assert {r["scorer"] for r in summary["scorers"]} == set(SCORERS)
    for row in summary["scorers"]:
        mine = [r for r in summary["agreement"] if r["scorer"] == row["scorer"]]
        assert [r["prompt"] for r in mine].count("(all)") == 1 and mine[-1]["prompt"] == "(all)"
        assert row["qwk"] == pytest.approx(float(np.mean([r["qwk"] for r in mine[:-1]])))
        assert row["qwk_pooled"] == pytest.approx(mine[-1]["qwk"])


def test_summary_qwk_of_non_integer_scores_is_explained_not_fatal(frame: pd.DataFrame) -> None:
    floaty = frame.copy()
    floaty.loc[floaty["kind"] == "original", "score"] += 0.25
    rows = summarize(floaty, n_boot=20)["agreement"]
    assert all(r["qwk"] is None and r["qwk_error"] for r in rows)


def test_summary_overstability_counts_rises(frame: pd.DataFrame, summary: dict) -> None:
    df = prepare(frame)
    assert summary["overstability"], "the fixture has perturbed answers"
    for row in summary["overstability"]:
        mine = df[(df["scorer"] == row["scorer"]) & (df["variant"] == row["method"]) & (df["prompt"] == row["prompt"])
                  & (df["kind"] == "perturbation")]
        assert row["n_pos"] == pytest.approx(100.0 * float((mine["score"] > mine["source_score"]).mean()))
        assert row["n_neg"] == pytest.approx(100.0 * float((mine["score"] < mine["source_score"]).mean()))
    pooled = {(r["scorer"], r["method"]) for r in summary["overstability_methods"]}
    assert pooled == {(s, m) for s in SCORERS for m in ("shuffle-words", "add-song", "homoglyphs")}


def test_summary_labels_method_variants_by_their_varying_params(summary: dict) -> None:
    methods = {m["method"] for m in summary["methods"]}
    assert methods == {"random-chars", "char-ngrams n=2", "char-ngrams n=4", "word-ngrams"}


def test_summary_uses_task_labels_when_present(frame: pd.DataFrame) -> None:
    labelled = frame.assign(label=frame["method"].str.upper())
    methods = {m["method"] for m in summarize(labelled, n_boot=20)["methods"]}
    assert methods == {"RANDOM-CHARS", "CHAR-NGRAMS", "WORD-NGRAMS"}


def test_summary_worst_bluffs_are_accepted_and_sorted(summary: dict) -> None:
    worst = summary["worst_bluffs"]
    assert worst
    assert all(e["score"] > e["min_score"] for e in worst)
    for scorer in SCORERS:
        norms = [e["norm"] for e in worst if e["scorer"] == scorer]
        assert norms == sorted(norms, reverse=True)
    per_method = pd.Series([(e["scorer"], e["method"]) for e in worst]).value_counts()
    assert per_method.max() <= 3


def test_summary_largest_shifts_go_against_expectation(summary: dict) -> None:
    shifts = summary["largest_shifts"]
    assert shifts
    for e in shifts:
        assert (e["score"] != e["source_score"]) if e["expectation"] == "same" else (e["score"] > e["source_score"])
        assert e["source_text"] and e["text"]


def test_natural_key_orders_prompt_ids() -> None:
    assert sorted(["10", "2", "1", "b", "a3", "a10"], key=natural_key) == ["1", "2", "10", "a3", "a10", "b"]


def test_summary_json_is_strict_and_versioned(summary: dict) -> None:
    text = summary_json(summary)
    data = json.loads(text, parse_constant=lambda c: pytest.fail(f"non-standard JSON constant {c}"))
    assert data["schema_version"] == SUMMARY_SCHEMA_VERSION
    assert data["run"]["name"] == CONFIG["name"] and data["run"]["versions"] == CONFIG["versions"]
    # shuffle-words on prompt 1 for bigru has no answer scored lower: mu_neg is null, not NaN or 0
    row = next(r for r in data["overstability"] if (r["scorer"], r["method"], r["prompt"]) == ("bigru", "shuffle-words", "1"))
    assert row["n_neg"] == 0.0 and row["mu_neg"] is None


def test_summary_markdown_has_a_table_per_scorer(summary: dict) -> None:
    md = summary_markdown(summary)
    for scorer in SCORERS:
        assert f"## Scorer {scorer}" in md
    assert md.count("| method | prompt 1 | prompt 2 | prompt 10 | mean |") == len(SCORERS)
    assert "# bluffcheck report: demo &lt;suite&gt; &amp; co" in md
    assert "| word-ngrams | error | 1 |" in md


def test_md_escape_keeps_cells_intact() -> None:
    assert md_escape("a|b\nc <i>") == "a\\|b c &lt;i&gt;"
    assert md_escape("x" * 300, limit=10) == "x" * 9 + "…"


def test_summary_markdown_lists_gate_results(summary: dict) -> None:
    gated = summary | {"gates": [{"gate": "min_arr", "subject": "bigru / random-chars", "value": 0.42,
                                  "threshold": 0.9, "passed": False, "note": "60 scored"}]}
    assert "| min_arr | bigru / random-chars | FAIL | 0.42 | 0.9 | 60 scored |" in summary_markdown(gated)


def test_summary_methods_follow_the_papers_order(summary: dict) -> None:
    from bluffcheck.generators._paper import paper_order

    for scorer in SCORERS:
        methods = [m["method"] for m in summary["methods"] if m["scorer"] == scorer]
        assert methods == paper_order(methods) and len(methods) == 4


def test_paper_order_ranks_labels_then_names_then_unknown_methods() -> None:
    import doctest

    from bluffcheck.generators import _paper

    assert doctest.testmod(_paper).failed == 0
    assert _paper.paper_order(["lm-ngram", "char-5gram-prompt", "char-1gram-generic", "zzz"]) == [
        "char-1gram-generic", "char-5gram-prompt", "lm-ngram", "zzz"]
    # a registry name ranks with its first paper method: word-ngrams (word-1gram-generic) before char-5gram-prompt
    assert _paper.paper_order(["word-ngrams", "char-5gram-prompt", "char-ngrams"]) == [
        "char-ngrams", "char-5gram-prompt", "word-ngrams"]

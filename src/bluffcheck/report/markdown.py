"""``summary.md``: the summary as Markdown tables, one section per scorer.

Names and messages from the records are escaped for Markdown tables (``|``, line breaks) and for
the HTML that Markdown renderers pass through (``<``, ``>``, ``&``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .summary import natural_key

__all__ = ["md_escape", "summary_markdown"]


def md_escape(text: Any, limit: int = 120) -> str:
    """One table cell: no line breaks, ``|`` escaped, HTML special characters as entities, shortened."""
    s = " ".join(str(text).split())
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return s.replace("\\", "\\\\").replace("|", "\\|").replace("`", "\\`")


def _pct(value: float | None, digits: int = 1) -> str:
    return "n/a" if value is None else f"{100.0 * value:.{digits}f}"


def _num(value: float | None, digits: int = 3) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]


def _arr_cell(row: dict[str, Any] | None) -> str:
    """ARR in %, with the error count; a cell without any scored answer is "n/a", never 0."""
    if row is None:
        return ""
    text = _pct(row["arr"])
    return text + (f" ({row['n_errors']} err)" if row["n_errors"] else "")


def _arr_section(summary: dict[str, Any], scorer: str) -> list[str]:
    cells = [r for r in summary["adversarial"] if r["scorer"] == scorer]
    if not cells:
        return []
    prompts = sorted({r["prompt"] for r in cells}, key=natural_key)
    by_method = {r["method"]: r for r in summary["methods"] if r["scorer"] == scorer}
    lookup = {(r["method"], r["prompt"]): r for r in cells}
    rows = [[md_escape(m)] + [_arr_cell(lookup.get((m, p))) for p in prompts] + [_pct(by_method[m]["arr"])]
            for m in by_method]  # summary["methods"] is in the paper's order
    header = ["method"] + [f"prompt {md_escape(p)}" for p in prompts] + ["mean"]
    return ["", "ARR (% of bluffs given the minimum score) per method × prompt:", "", *_table(header, rows)]


def _qwk_section(summary: dict[str, Any], scorer: str) -> list[str]:
    rows = [[md_escape(r["prompt"]), _num(r["qwk"]) if r["qwk_error"] is None else "n/a: " + md_escape(r["qwk_error"], 60),
             _pct(r.get("accuracy")), str(r["n_ok"]), str(r["n_errors"])]
            for r in summary["agreement"] if r["scorer"] == scorer]
    header = ["prompt", "QWK", "exact agreement %", "n", "errors"]
    return ["", "QWK on the original answers (per prompt, then pooled as '(all)'):", "", *_table(header, rows)] if rows else []


def _shift_section(summary: dict[str, Any], scorer: str) -> list[str]:
    stats = ("n_pos", "n_neg", "mu", "mu_abs", "sigma", "mu_pos", "mu_neg")
    rows = [[md_escape(r["method"]), md_escape(r["prompt"])] + [_num(r.get(k), 1) for k in stats] + [str(r["n_ok"]), str(r["n_errors"])]
            for r in summary["overstability"] + summary["overstability_methods"] if r["scorer"] == scorer]
    if not rows:
        return []
    header = ["method", "prompt", "N_pos %", "N_neg %", "μ", "μ_abs", "σ", "μ_pos", "μ_neg", "n", "errors"]
    note = "Score changes of perturbed answers (seed 001 Table 3; μ's and σ in % of the score range, prompt (all) pools prompts):"
    return ["", note, "", *_table(header, rows)]


def _header(summary: dict[str, Any]) -> list[str]:
    run = summary["run"]
    name = run.get("name") or ", ".join(run["run_ids"]) or "unnamed run"
    counts = summary["counts"]
    status = ", ".join(f"{k}: {v}" for k, v in counts["by_status"].items())
    lines = [f"# bluffcheck report: {md_escape(name)}", "",
             f"- run: {md_escape(', '.join(run['run_ids']))}", f"- created: {md_escape(run.get('created') or 'unknown')}",
             f"- records: {counts['records']} ({md_escape(status)})", f"- report by bluffcheck {md_escape(run['report_version'])}", ""]
    rows = [[md_escape(r["scorer"]), _pct(r["arr"]), _pct(r["full_credit_rate"]), _num(r.get("qwk_pooled")), _num(r["qwk"]),
             str(r["n_records"]), str(r["n_errors"])]
            for r in summary["scorers"]]
    return lines + _table(["scorer", "mean ARR %", "full credit %", "pooled QWK", "mean QWK", "records", "errors"], rows)


def _errors(summary: dict[str, Any]) -> list[str]:
    rows = [[md_escape(r["scorer"]), md_escape(r["kind"]), md_escape(r["method"]), md_escape(r["status"]), str(r["count"]),
             md_escape(r["example_error"] or "", 80)] for r in summary["errors"]]
    if not rows:
        return ["", "## Errors", "", "No failed scorer calls."]
    note = "Failed scorer calls are counted here and left out of every metric (never scored as 0)."
    return ["", "## Errors", "", note, "", *_table(["scorer", "kind", "method", "status", "count", "example"], rows)]


def _gates(summary: dict[str, Any]) -> list[str]:
    """Gate results as the run engine writes them (``gate, subject, value, threshold, passed, note``)."""
    gates = summary.get("gates")
    if not gates:
        return []
    items = gates if isinstance(gates, list) else [{"gate": k, **(v if isinstance(v, dict) else {"value": v})} for k, v in gates.items()]
    result = {True: "PASS", False: "FAIL", None: "skipped"}
    rows = [[md_escape(g.get("gate", g.get("name", ""))), md_escape(g.get("subject", "")),
             result.get(g.get("passed"), md_escape(g.get("passed"))), _gate(g.get("value")), _gate(g.get("threshold")),
             md_escape(g.get("note", ""), 80)] for g in items if isinstance(g, dict)]
    return ["", "## Gates", "", *_table(["gate", "subject", "result", "value", "threshold", "note"], rows)]


def _gate(value: Any) -> str:
    if value is None:
        return ""
    return f"{value:.3g}" if isinstance(value, int | float) and not isinstance(value, bool) else md_escape(value)


def summary_markdown(summary: dict[str, Any]) -> str:
    """The whole ``summary.md`` text for a :func:`bluffcheck.report.summary.summarize` result."""
    lines = _header(summary) + _gates(summary)
    for row in summary["scorers"]:
        scorer = row["scorer"]
        lines += ["", f"## Scorer {md_escape(scorer)}"]
        lines += _arr_section(summary, scorer) + _qwk_section(summary, scorer) + _shift_section(summary, scorer)
    lines += _errors(summary)
    return "\n".join(lines) + "\n"

"""Render a run folder into one self-contained HTML page, plus ``summary.json`` and ``summary.md``.

The page loads nothing: figures are PNG data URIs, the style sheet is inline, and a
Content-Security-Policy forbids scripts and every remote resource. Every text that comes from the
records or the configuration goes through Jinja2's autoescaping; the template marks nothing
``|safe``.

Optional inputs in the run folder:

* ``gates.json``  pass/fail gate results (a list of ``{"name", "passed", "value", "threshold"}``);
  otherwise ``config["gates"]`` is shown as it is.
* ``curves.json`` filter and trade-off curves: a list of ``{"title", "xlabel", "ylabel", "notes",
  "curves": [{"name", "x": [...], "y": [...]}]}`` (see :class:`bluffcheck.report.plots.CurveSet`).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import DatasetFormatError
from .load import _run_folder, load_config, load_records

if TYPE_CHECKING:
    import pandas as pd

    from .plots import CurveSet

__all__ = ["Figure", "build_figures", "load_curves", "render", "render_html"]

TEMPLATES = Path(__file__).with_name("templates")
CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"


@dataclass(frozen=True)
class Figure:
    """One embedded image: where it goes on the page, its data URI and its text alternative."""

    key: str
    uri: str
    alt: str
    caption: str = ""


def load_curves(run_dir: str | Path) -> list[CurveSet]:
    """The curve sets of ``curves.json`` (``[]`` when the run has none)."""
    from .plots import Curve, CurveSet

    path = _run_folder(run_dir) / "curves.json"
    if not path.is_file():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DatasetFormatError(path, exc.lineno, None, f"is not valid JSON ({exc.msg}).") from exc
    if not isinstance(data, list):
        raise DatasetFormatError(path, None, None, "must hold a JSON list of curve sets.")
    sets = []
    for i, item in enumerate(data, start=1):
        try:
            curves = tuple(Curve(str(c["name"]), c["x"], c["y"]) for c in item["curves"])
            sets.append(CurveSet(str(item.get("title", f"Curves {i}")), curves, str(item.get("xlabel", "")),
                                 str(item.get("ylabel", "")), str(item.get("notes", ""))))
        except (KeyError, TypeError, ValueError) as exc:
            raise DatasetFormatError(path, i, "curves", f"curve set {i} is malformed ({exc}); expected "
                                     '{"title", "curves": [{"name", "x": [...], "y": [...]}]}.') from exc
    return sets


def _load_gates(run_dir: Path, config: dict[str, Any]) -> Any:
    path = run_dir / "gates.json"
    if path.is_file():
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise DatasetFormatError(path, exc.lineno, None, f"is not valid JSON ({exc.msg}).") from exc
    return config.get("gates")


def _distributions(df: pd.DataFrame) -> dict[str, dict[str, list[float]]]:
    ok = df[df["ok"] & df["norm"].notna()]
    groups = {}
    for scorer, mine in ok.groupby("scorer", sort=True):
        groups[str(scorer)] = {
            "real answers": mine.loc[mine["kind"] == "original", "norm"].tolist(),
            "bluffs": mine.loc[mine["bluff"], "norm"].tolist(),
            "perturbed answers": mine.loc[mine["shifted"], "norm"].tolist(),
        }
    return {s: g for s, g in groups.items() if any(g.values())}


def build_figures(summary: dict[str, Any], df: pd.DataFrame, curves: list[CurveSet]) -> dict[str, Any]:
    """The page's figures from the summary, the prepared records and any curve sets."""
    from . import plots

    figures: dict[str, Any] = {"curves": []}
    if any(r["arr"] is not None for r in summary["adversarial"]):
        figures["arr"] = Figure("arr", plots.data_uri(plots.arr_figure(summary["adversarial"])),
                                "Adversarial rejection rate per method; one point per prompt, one colour per scorer.",
                                "ARR per method (seed 000, Figure 1): points are prompts, diamonds the mean over prompts.")
    dist = _distributions(df)
    if dist:
        figures["dist"] = Figure("dist", plots.data_uri(plots.score_distribution_figure(dist)),
                                 "Histograms of scores of real answers, bluffs and perturbed answers per scorer.",
                                 "Scores as % of each prompt's range: a robust scorer keeps bluffs at 0 %.")
    pooled = [r for r in summary["overstability_methods"] if r.get("n_pos") is not None]
    if pooled:
        figures["shift"] = Figure("shift", plots.data_uri(plots.overstability_figure(pooled)),
                                  "Bars of mean score rise and fall per perturbation, with N_pos.",
                                  "μ_pos above and μ_neg below the axis (seed 001, Figures 3-8); numbers are N_pos.")
    for i, curve_set in enumerate(curves):
        figures["curves"].append((curve_set, Figure(f"curves-{i}", plots.data_uri(plots.curves_figure(curve_set)),
                                                    curve_set.title, curve_set.notes)))
    return figures


def _environment() -> Any:
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters.update(pct=_pct, num=_num, vuln=_vulnerability_style, clip=_clip, gatenum=_gate_number)
    return env


def _pct(value: float | None, digits: int = 1) -> str:
    return "n/a" if value is None else f"{100.0 * value:.{digits}f}"


def _num(value: float | None, digits: int = 3) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _gate_number(value: Any) -> str:
    if value is None:
        return ""
    return f"{value:.3g}" if isinstance(value, int | float) and not isinstance(value, bool) else str(value)


def _vulnerability_style(arr: float | None) -> str:
    """Cell shading from a number only: the more bluffs accepted, the deeper the orange."""
    if arr is None:
        return "background:#eeeeee"
    return f"background:rgba(213,94,0,{0.08 + 0.6 * (1.0 - float(arr)):.2f})"


def _clip(text: Any, limit: int = 1500) -> str:
    s = "" if text is None else str(text)
    return s if len(s) <= limit else s[:limit] + f" … [{len(s) - limit} more characters]"


def render_html(summary: dict[str, Any], config: dict[str, Any], figures: dict[str, Any], *, title: str | None = None) -> str:
    """The page as a string (see :func:`render` for the files)."""
    from .summary import natural_key

    run = summary["run"]
    name = title or run.get("name") or ", ".join(run["run_ids"]) or "unnamed run"
    prompts = {s["scorer"]: sorted({r["prompt"] for r in summary["adversarial"] if r["scorer"] == s["scorer"]}, key=natural_key)
               for s in summary["scorers"]}
    return _environment().get_template("report.html.j2").render(
        name=name, summary=summary, run=run, figures=figures, prompts=prompts, csp=CSP,
        cells={(r["scorer"], r["method"], r["prompt"]): r for r in summary["adversarial"]},
        config_json=json.dumps(config, indent=2, sort_keys=True, ensure_ascii=False, default=str),
        rendered=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    )


def _write(path: Path, text: str) -> None:
    """Write atomically: a reader never sees half a report."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def render(run_dir: str | Path, *, out: str | Path | None = None, n_boot: int = 1000, seed: int = 0) -> Path:
    """Re-render a run folder's report from its files alone (nothing is rerun).

    Writes ``summary.json`` and ``summary.md`` into the run folder and the page to ``out``
    (default ``RUN_DIR/report.html``).

    Parameters
    ----------
    run_dir : str or Path
        A folder written by the run engine (``records.parquet`` or ``store.sqlite``, ``config.json``).
    out : str or Path, optional
        Where to write the HTML page.
    n_boot, seed
        Bootstrap resamples and seed for the ARR confidence intervals.

    Returns
    -------
    Path
        The HTML file.
    """
    from .markdown import summary_markdown
    from .summary import prepare, summarize, summary_json

    folder = _run_folder(run_dir)
    records, config = load_records(folder), load_config(folder)
    summary = summarize(records, config, n_boot=n_boot, seed=seed, gates=_load_gates(folder, config))
    figures = build_figures(summary, prepare(records), load_curves(folder))
    target = Path(out) if out is not None else folder / "report.html"
    target.parent.mkdir(parents=True, exist_ok=True)
    _write(folder / "summary.json", summary_json(summary))
    _write(folder / "summary.md", summary_markdown(summary))
    _write(target, render_html(summary, config, figures))
    return target

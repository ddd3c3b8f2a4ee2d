"""The report's figures as PNG bytes (matplotlib, Agg backend), embedded in the page as data URIs.

* :func:`arr_figure` — seed 000 Figure 1: ARR per method, one point per prompt, one colour and
  marker per scorer, the scorer's mean over prompts as a large diamond.
* :func:`overstability_figure` — seed 001 Figures 3-8: μ_pos above and μ_neg below the axis per
  method, N_pos written on the μ_pos bar, one panel per scorer.
* :func:`score_distribution_figure` — scores (as % of the range) of bluffs, perturbed and real answers.
* :func:`curves_figure` — filter and trade-off curves (seed 000 Figures 4-5) from generic
  ``(name, x, y)`` curves, so defenses can plug in their own.

Text in the figures is drawn as pixels; labels are still cleaned so that a ``$`` in a method name
is not parsed as mathtext.
"""

from __future__ import annotations

import base64
import functools
import io
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = [
    "Curve",
    "CurveSet",
    "MARKERS",
    "PALETTE",
    "arr_figure",
    "curves_figure",
    "data_uri",
    "overstability_figure",
    "score_distribution_figure",
]

#: Okabe & Ito's colour-blind-safe palette (black last).
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
MARKERS = ("o", "s", "^", "v", "P", "X", "<", ">")
DPI = 110


@dataclass(frozen=True)
class Curve:
    """One named line: ``y`` against ``x`` (a single point draws as a marker, e.g. a trade-off)."""

    name: str
    x: tuple[float, ...]
    y: tuple[float, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "x", tuple(float(v) for v in self.x))
        object.__setattr__(self, "y", tuple(float(v) for v in self.y))
        if len(self.x) != len(self.y) or not self.x:
            raise ValueError(f"Curve {self.name!r} needs x and y of the same, non-zero length; got {len(self.x)} and {len(self.y)}.")


@dataclass(frozen=True)
class CurveSet:
    """One figure of curves, e.g. a filter's ARR vs. recall of real answers over thresholds."""

    title: str
    curves: tuple[Curve, ...]
    xlabel: str = ""
    ylabel: str = ""
    notes: str = ""
    meta: dict[str, Any] = field(default_factory=dict, compare=False)


def label(text: object, limit: int = 40) -> str:
    """A label safe for matplotlib: ``$`` escaped (no mathtext), no leading ``_`` (legend would hide it), shortened."""
    s = " ".join(str(text).split())
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    s = s.replace("$", r"\$")
    return " " + s if s.startswith("_") else s


STYLE = {"font.size": 10, "axes.titlesize": 11, "axes.spines.top": False, "axes.spines.right": False}


def _ticks(ax: Any, names: Sequence[str]) -> None:
    """Method names under the x axis: wrapped onto up to three lines, slanted only when there are many."""
    many = len(names) > 6
    spaced = [label(n, 60).replace("(", " (").replace(",", ", ").replace(",  ", ", ") for n in names]
    # upright labels sit about 1.1 inches apart: break long names at their hyphens ("char-3gram-" / "prompt")
    width = 18 if many else 12
    wrapped = ["\n".join(textwrap.wrap(n, width, break_on_hyphens=not many)[:3]) for n in spaced]
    ax.set_xticks(range(len(names)), wrapped, rotation=30 if many else 0, ha="right" if many else "center", fontsize=9)


def _figure(width: float, height: float, ncols: int = 1, nrows: int = 1) -> tuple[Any, Any]:
    """A figure without pyplot: no global state, no GUI backend, nothing left open."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height))
    return fig, fig.subplots(nrows, ncols, squeeze=False)


def _styled(func: Any) -> Any:
    """Run a plotting function inside the report's rc style (read when artists are created)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> bytes:
        import matplotlib

        with matplotlib.rc_context(STYLE):
            return func(*args, **kwargs)

    return wrapper


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    return buf.getvalue()


def data_uri(png: bytes) -> str:
    """``data:image/png;base64,...`` for an ``<img src>`` (the page loads nothing from elsewhere)."""
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


@_styled
def arr_figure(cells: Sequence[dict[str, Any]], *, method_order: Sequence[str] | None = None) -> bytes:
    """Seed 000 Figure 1 from ``summary["adversarial"]`` rows (scorer, method, prompt, arr).

    Each prompt is one point (ARR in %); points of one scorer share a colour and marker and are
    shifted sideways so scorers do not hide each other; the diamond is the mean over prompts.
    Methods follow ``method_order`` when given, else the paper's order (unknown methods last).
    """
    from ..generators._paper import paper_order

    rows = [r for r in cells if r.get("arr") is not None]
    present = {r["method"] for r in rows}
    methods = [m for m in method_order if m in present] if method_order else paper_order(present)
    methods += sorted(present - set(methods))
    scorers = sorted({r["scorer"] for r in rows})
    per_method = 1.1 if len(methods) <= 6 else 0.55  # upright labels need room; slanted ones (see _ticks) less
    fig, axes = _figure(min(16.0, max(7.5, per_method * len(methods) + 3.5)), 5.2)
    ax = axes[0][0]
    width = 0.6 / max(len(scorers), 1)
    for k, scorer in enumerate(scorers):
        colour, marker = PALETTE[k % len(PALETTE)], MARKERS[k % len(MARKERS)]
        offset = (k - (len(scorers) - 1) / 2) * width
        for i, method in enumerate(methods):
            ys = [100.0 * r["arr"] for r in rows if r["scorer"] == scorer and r["method"] == method]
            if not ys:
                continue
            ax.scatter(np.full(len(ys), i + offset), ys, s=24, color=colour, marker=marker, alpha=0.75)
            ax.scatter([i + offset], [np.mean(ys)], s=110, color=colour, marker="D", edgecolor="black", linewidth=1.0, zorder=3)
        ax.scatter([], [], s=24, color=colour, marker=marker, label=label(scorer))
    ax.scatter([], [], s=80, color="white", marker="D", edgecolor="black", label="mean over prompts")
    _ticks(ax, methods)
    ax.set_ylim(-3, 103)
    ax.set_ylabel("Adversarial rejection rate (%)")
    ax.set_title("ARR per method: one point per prompt, one colour per scorer")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9, frameon=False)
    return _png(fig)


@_styled
def overstability_figure(rows: Sequence[dict[str, Any]]) -> bytes:
    """Seed 001 style bars from per scorer × method rows (mu_pos, mu_neg, n_pos in %).

    μ_pos (mean rise where the score went up) is drawn above the axis with N_pos (share of answers
    scored higher) written on it; μ_neg (mean fall) below the axis.
    """
    scorers = sorted({r["scorer"] for r in rows})
    methods = sorted({r["method"] for r in rows})
    fig, axes = _figure(max(6.5, 1.1 * len(methods) + 2.0), 3.4 * len(scorers) + 0.6, nrows=len(scorers))
    for k, scorer in enumerate(scorers):
        ax = axes[k][0]
        mine = {r["method"]: r for r in rows if r["scorer"] == scorer}
        pos = [_zero(mine.get(m, {}).get("mu_pos")) for m in methods]
        neg = [_zero(mine.get(m, {}).get("mu_neg")) for m in methods]
        x = np.arange(len(methods))
        ax.bar(x, pos, color=PALETTE[5], label="μ_pos: mean rise (% of range)")
        ax.bar(x, [-v for v in neg], color=PALETTE[0], label="μ_neg: mean fall (% of range)")
        for i, m in enumerate(methods):
            n_pos = mine.get(m, {}).get("n_pos")
            if n_pos is not None:
                ax.annotate(f"{n_pos:.0f}%", (i, pos[i]), xytext=(0, 2), textcoords="offset points", ha="center", fontsize=8)
        ax.axhline(0, color="black", linewidth=0.8)
        _ticks(ax, methods)
        ax.set_ylabel("score change (% of range)")
        ax.set_title(f"{label(scorer)} (numbers: N_pos, % of answers scored higher)")
        ax.grid(axis="y", alpha=0.3)
        if k == 0:
            ax.legend(fontsize=8, loc="lower right")
    return _png(fig)


def _zero(value: Any) -> float:
    """Bar height: a missing μ (no answer moved that way) draws as no bar."""
    return 0.0 if value is None or not np.isfinite(value) else float(value)


@_styled
def score_distribution_figure(groups: dict[str, dict[str, Sequence[float]]]) -> bytes:
    """Histograms of scores as % of the range, one panel per scorer.

    Parameters
    ----------
    groups : dict
        ``{scorer: {"real answers": [...], "bluffs": [...], ...}}`` with scores in [0, 1].
    """
    scorers = sorted(groups)
    ncols = min(len(scorers), 3)
    nrows = -(-len(scorers) // ncols)
    fig, axes = _figure(4.2 * ncols + 0.4, 3.3 * nrows + 0.3, ncols=ncols, nrows=nrows)
    bins = np.linspace(0.0, 100.0, 11)
    for k, scorer in enumerate(scorers):
        ax = axes[k // ncols][k % ncols]
        names = [n for n, v in groups[scorer].items() if len(v)]
        data = [100.0 * np.asarray(groups[scorer][n], dtype=float) for n in names]
        weights = [np.full(len(d), 100.0 / len(d)) for d in data]
        ax.hist(data, bins=bins, weights=weights, label=[f"{label(n)} (n={len(d)})" for n, d in zip(names, data, strict=True)],
                color=[PALETTE[(2 + i) % len(PALETTE)] if n != "bluffs" else PALETTE[5] for i, n in enumerate(names)])
        ax.set_title(label(scorer))
        ax.set_xlabel("score (% of the prompt's range)")
        ax.set_ylabel("% of answers")
        ax.legend(fontsize=8)
    for k in range(len(scorers), nrows * ncols):
        axes[k // ncols][k % ncols].set_visible(False)
    return _png(fig)


@_styled
def curves_figure(curve_set: CurveSet) -> bytes:
    """Draw a :class:`CurveSet`: one colour and marker per curve, a legend, the set's axis labels."""
    fig, axes = _figure(6.4, 4.4)
    ax = axes[0][0]
    for k, curve in enumerate(curve_set.curves):
        style = "-" if len(curve.x) > 1 else "none"
        ax.plot(curve.x, curve.y, linestyle=style, marker=MARKERS[k % len(MARKERS)], color=PALETTE[k % len(PALETTE)],
                label=label(curve.name), markersize=6)
    ax.set_xlabel(label(curve_set.xlabel, 60))
    ax.set_ylabel(label(curve_set.ylabel, 60))
    ax.set_title(label(curve_set.title, 70))
    ax.grid(alpha=0.3)
    ax.legend(fontsize=9)
    return _png(fig)

"""The report's worst examples: the highest-scored bluffs and the largest score shifts.

Both take the frame of :func:`bluffcheck.report.summary.prepare` and return JSON-ready rows that
carry the answer texts as they are; the HTML template escapes them.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["largest_shifts", "worst_bluffs"]


def worst_bluffs(df: pd.DataFrame, *, per_method: int = 3) -> list[dict[str, Any]]:
    """The highest-scored bluffs: up to ``per_method`` per scorer × method, only those above the minimum."""
    accepted = df[df["bluff"] & df["ok"] & (df["score"] > df["min_score"])]
    accepted = accepted.sort_values(["norm", "item_id"], ascending=[False, True], kind="stable")
    top = accepted.groupby(["scorer", "variant"], sort=True).head(per_method)
    top = top.sort_values(["scorer", "norm", "variant"], ascending=[True, False, True], kind="stable")
    cols = ["scorer", "variant", "prompt", "item_id", "score", "min_score", "max_score", "norm", "text"]
    return [_example(r) for r in top[cols].to_dict("records")]


def largest_shifts(df: pd.DataFrame, *, per_scorer: int = 10) -> list[dict[str, Any]]:
    """Perturbed answers whose score moved most against their expectation (up, or at all for "same")."""
    ok = df[df["shifted"] & df["ok"]].copy()
    ok["badness"] = ok["shift"].where(ok["expectation"] != "same", ok["shift"].abs())
    ok = ok[ok["badness"] > 0].sort_values(["badness", "item_id"], ascending=[False, True], kind="stable")
    top = ok.groupby("scorer", sort=True).head(per_scorer).sort_values(["scorer", "badness"], ascending=[True, False], kind="stable")
    cols = ["scorer", "variant", "prompt", "item_id", "expectation", "source_score", "score", "min_score",
            "max_score", "shift", "source_text", "text"]
    return [_example(r) for r in top[cols].to_dict("records")]


def _example(row: dict[str, Any]) -> dict[str, Any]:
    out = {("method" if k == "variant" else k): (_finite(v) if isinstance(v, float) else v) for k, v in row.items()}
    for key in ("text", "source_text"):
        if key in out and not isinstance(out[key], str):
            out[key] = "" if out[key] is None else str(out[key])
    return out


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None

"""Turn run records into the report's numbers: ``summary.json`` and ``summary.md``.

The numbers come from :mod:`bluffcheck.metrics` (ARR and full-credit rate, seed 000 §3.2; QWK;
the overstability statistics N_pos ... μ_neg, seed 001 Table 3). Records whose status is not
``"ok"`` are counted as errors and never enter a metric as a score of 0.
"""

from __future__ import annotations

import json
import math
import re
from typing import TYPE_CHECKING, Any

import numpy as np

from .examples import largest_shifts, worst_bluffs
from .result import SCHEMA_VERSION

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["SUMMARY_SCHEMA_VERSION", "natural_key", "prepare", "summarize", "summary_json"]

#: Version of the layout of ``summary.json``; bumped when a key changes meaning or disappears.
SUMMARY_SCHEMA_VERSION = 1
ALL = "(all)"


def prepare(records: pd.DataFrame) -> pd.DataFrame:
    """Add the report's derived columns to a validated record frame.

    ``prompt`` (``dataset:prompt_id`` when the run spans several datasets), ``variant`` (the method,
    plus the parameters that tell its rows apart when it ran with several), ``ok``, ``norm`` (score
    as a fraction of the prompt's range), ``shift`` (score minus source score, as a fraction of the
    range) and ``bluff`` (a record a robust scorer gives the minimum: generators, ``expectation="min"``).
    """
    df = records.copy()
    several = df["dataset"].nunique(dropna=True) > 1
    df["prompt"] = (df["dataset"].astype(str) + ":" + df["prompt_id"]) if several else df["prompt_id"]
    df["variant"] = _variant_labels(df)
    df["ok"] = (df["status"] == "ok") & df["score"].notna()
    span = (df["max_score"] - df["min_score"]).where(lambda s: s > 0)
    df["norm"] = (df["score"] - df["min_score"]) / span
    df["shift"] = (df["score"] - df["source_score"]) / span
    original = df["kind"] == "original"
    df["bluff"] = ~original & ((df["kind"] == "generator") | (df["expectation"] == "min"))
    df["shifted"] = ~original & ~df["bluff"] & df["source_score"].notna()
    return df


def _variant_labels(df: pd.DataFrame) -> list[str]:
    """The suite's task labels where the store has them; else method names, with ``key=value`` of
    the parameters that vary when a method ran several ways."""
    if "label" in df.columns and df["label"].notna().all():
        return df["label"].astype(str).tolist()
    parsed = [_params(p) for p in df["params"]]
    varying: dict[str, list[str]] = {}
    for method in df["method"].unique():
        rows = [parsed[i] for i in np.flatnonzero(df["method"].to_numpy() == method)]
        keys = sorted({k for r in rows for k in r})
        varying[method] = [k for k in keys if len({json.dumps(r.get(k), sort_keys=True) for r in rows}) > 1]
    labels = []
    for method, params in zip(df["method"], parsed, strict=True):
        extra = " ".join(f"{k}={_compact(params.get(k))}" for k in varying[method])
        labels.append(f"{method} {extra}".strip())
    return labels


def _params(raw: Any) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    if not isinstance(raw, str) or not raw.strip():
        return {}
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        return {"params": raw}
    return value if isinstance(value, dict) else {"params": value}


def _compact(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def natural_key(text: Any) -> tuple[Any, ...]:
    """Sort key that puts prompt "2" before "10" (digit runs compare as numbers)."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", str(text)) if p)


def _sorted(rows: list[dict[str, Any]], *keys: str) -> list[dict[str, Any]]:
    return sorted(rows, key=lambda r: tuple(natural_key(r[k]) for k in keys))


def _num(value: Any) -> float | None:
    """A JSON-safe float: NaN and infinity become ``None``."""
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def _robustness() -> Any:
    from ..metrics import robustness

    return robustness


def _adversarial_row(group: pd.DataFrame, rng: np.random.Generator, *, n_boot: int, confidence: float) -> dict[str, Any]:
    """ARR with its bootstrap CI, full-credit rate and mean score of one scorer × method × prompt cell."""
    rob = _robustness()
    ok = group[group["ok"]]
    row: dict[str, Any] = {"n": int(len(group)), "n_ok": int(len(ok)), "n_errors": int(len(group) - len(ok))}
    if ok.empty:
        return row | {"arr": None, "arr_low": None, "arr_high": None, "full_credit_rate": None, "mean_score": None, "mean_pct": None}
    scores = ok["score"].to_numpy(dtype=float)
    low, high = float(group["min_score"].iloc[0]), float(group["max_score"].iloc[0])
    # ARR is the mean of per-answer rejections, so bootstrapping the 0/1 rejections with a
    # vectorised mean gives ARR's bootstrap CI in one call (the scores take few distinct values).
    distinct, where = np.unique(scores, return_inverse=True)
    rejected = np.array([rob.adversarial_rejection_rate([v], low) for v in distinct])[where]
    ci = rob.bootstrap_ci(rejected, np.mean, n_boot=n_boot, confidence=confidence, rng=rng)
    return row | {
        "arr": _num(rob.adversarial_rejection_rate(scores, low)),
        "arr_low": _num(ci[0]),
        "arr_high": _num(ci[1]),
        "full_credit_rate": _num(rob.full_credit_rate(scores, high)),
        "mean_score": _num(scores.mean()),
        "mean_pct": _num(100.0 * ok["norm"].mean()),
    }


def _check_one_range(df: pd.DataFrame) -> None:
    from ..errors import DatasetFormatError

    ranges = df.groupby("prompt")[["min_score", "max_score"]].nunique()
    bad = ranges[(ranges > 1).any(axis=1)]
    if not bad.empty:
        raise DatasetFormatError(
            "<records>", None, "min_score", f"prompt {bad.index[0]!r} appears with several score ranges; "
            "records of one prompt must share min_score and max_score."
        )


def adversarial_table(df: pd.DataFrame, *, n_boot: int = 1000, confidence: float = 0.95, seed: int = 0) -> list[dict[str, Any]]:
    """One row per scorer × method variant × prompt over the bluff records (``prepare`` output)."""
    _check_one_range(df)
    rng = np.random.default_rng(seed)
    rows = []
    for (scorer, variant, prompt), group in df[df["bluff"]].groupby(["scorer", "variant", "prompt"], sort=True):
        rows.append({"scorer": scorer, "method": variant, "prompt": prompt}
                    | _adversarial_row(group, rng, n_boot=n_boot, confidence=confidence))
    return _sorted(rows, "scorer", "method", "prompt")


def _macro(rows: list[dict[str, Any]], key: str) -> float | None:
    values = [r[key] for r in rows if r.get(key) is not None]
    return _num(np.mean(values)) if values else None


def method_table(cells: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per scorer × method: the mean over prompts of ARR, full-credit rate and mean score (seed 000 Fig. 1 diamonds)."""
    from ..generators._paper import paper_order

    keys = [(scorer, method) for scorer in sorted({r["scorer"] for r in cells})
            for method in paper_order({r["method"] for r in cells if r["scorer"] == scorer})]
    out = []
    for scorer, method in keys:
        sub = [r for r in cells if r["scorer"] == scorer and r["method"] == method]
        out.append({
            "scorer": scorer, "method": method, "n_prompts": sum(r["arr"] is not None for r in sub),
            "n": sum(r["n"] for r in sub), "n_errors": sum(r["n_errors"] for r in sub),
            "arr": _macro(sub, "arr"), "full_credit_rate": _macro(sub, "full_credit_rate"), "mean_pct": _macro(sub, "mean_pct"),
        })
    return out


def agreement_table(df: pd.DataFrame) -> list[dict[str, Any]]:
    """QWK and exact agreement between gold and the scorer on the original answers.

    One row per scorer × prompt, then one per scorer pooled over its prompts (``prompt="(all)"``): a
    per-prompt QWK on a handful of answers is noise, the pooled one is not. A cell whose scores QWK
    cannot take (e.g. a regression scorer's non-integer scores) gets ``qwk=None`` and the reason in
    ``qwk_error``; the rest of the report still renders.
    """
    originals = df[(df["kind"] == "original") & df["gold"].notna()]
    rows = []
    for scorer, mine in originals.groupby("scorer", sort=True):
        per_prompt = [_agreement_row(scorer, prompt, group) for prompt, group in mine.groupby("prompt", sort=True)]
        rows += _sorted(per_prompt, "prompt") + [_agreement_row(scorer, ALL, mine)]
    return rows


def _agreement_row(scorer: str, prompt: str, group: pd.DataFrame) -> dict[str, Any]:
    from ..errors import ConfigError
    from ..metrics.agreement import qwk_score

    ok = group[group["ok"]]
    row = {"scorer": scorer, "prompt": prompt, "n": int(len(group)), "n_ok": int(len(ok)),
           "n_errors": int(len(group) - len(ok)), "qwk": None, "qwk_error": None, "accuracy": None}
    if len(ok):
        gold, score = ok["gold"].to_numpy(float), ok["score"].to_numpy(float)
        row["accuracy"] = _num(float(np.mean(gold == score)))
        try:
            row["qwk"] = _num(qwk_score(gold, score, min_rating=int(ok["min_score"].min()),
                                        max_rating=int(ok["max_score"].max())))
        except ConfigError as exc:
            row["qwk_error"] = str(exc)
    return row


def _shift_stats(ok: pd.DataFrame) -> dict[str, float | None]:
    stats = _robustness().overstability(ok["source_score"].to_numpy(float), ok["score"].to_numpy(float),
                                        min_score=ok["min_score"].to_numpy(float), max_score=ok["max_score"].to_numpy(float))
    return {k: _num(v) for k, v in stats.items() if k != "n"}


def overstability_table(df: pd.DataFrame, *, by_prompt: bool = True) -> list[dict[str, Any]]:
    """N_pos, N_neg, μ, μ_abs, σ, μ_pos, μ_neg (seed 001 Table 3, in %) for records with a source score.

    One row per scorer × method × prompt, or per scorer × method pooled over prompts
    (``by_prompt=False``, ``prompt="(all)"``; the μ's are in % of each answer's own range).
    """
    keys = ["scorer", "variant", "prompt"] if by_prompt else ["scorer", "variant"]
    rows = []
    for key, group in df[df["shifted"]].groupby(keys, sort=True):
        ok = group[group["ok"]]
        row: dict[str, Any] = {"scorer": key[0], "method": key[1], "prompt": key[2] if by_prompt else ALL,
                               "n": int(len(group)), "n_ok": int(len(ok)), "n_errors": int(len(group) - len(ok))}
        rows.append(row | (_shift_stats(ok) if len(ok) else {}))
    return _sorted(rows, "scorer", "method", "prompt")


def error_table(df: pd.DataFrame) -> list[dict[str, Any]]:
    """Counts of records whose status is not ``"ok"``, with the first error message of each group."""
    bad = df[~df["ok"]]
    rows = []
    for (scorer, kind, variant, status), group in bad.groupby(["scorer", "kind", "variant", "status"], sort=True):
        messages = group["error"].dropna().astype(str)
        rows.append({"scorer": scorer, "kind": kind, "method": variant, "status": status, "count": int(len(group)),
                     "prompts": sorted(group["prompt"].unique().tolist()),
                     "example_error": messages.iloc[0] if len(messages) else None})
    return rows


def scorer_table(cells: list[dict[str, Any]], agreement: list[dict[str, Any]], df: pd.DataFrame) -> list[dict[str, Any]]:
    """One headline row per scorer: mean ARR over method × prompt cells, mean QWK over prompts, errors."""
    from ..metrics.agreement import mean_qwk

    out = []
    for scorer in sorted(df["scorer"].unique()):
        mine = [r for r in cells if r["scorer"] == scorer]
        qwk = {r["prompt"]: r["qwk"] for r in agreement
               if r["scorer"] == scorer and r["qwk"] is not None and r["prompt"] != ALL}
        pooled = [r["qwk"] for r in agreement if r["scorer"] == scorer and r["prompt"] == ALL]
        out.append({"scorer": scorer, "arr": _macro(mine, "arr"), "full_credit_rate": _macro(mine, "full_credit_rate"),
                    "qwk": _num(mean_qwk(qwk)) if qwk else None, "qwk_pooled": pooled[0] if pooled else None,
                    "n_records": int((df["scorer"] == scorer).sum()),
                    "n_errors": int(((df["scorer"] == scorer) & ~df["ok"]).sum())})
    return out


def run_info(config: dict[str, Any], df: pd.DataFrame) -> dict[str, Any]:
    """Who, when and with what: run ids, name, date and versions (from ``config.json`` where present)."""
    from .. import __version__

    def first(*keys: str) -> Any:
        for key in keys:
            value = config.get(key)
            if value not in (None, "", {}):
                return value
        return None

    suite = config.get("suite") if isinstance(config.get("suite"), dict) else {}
    return {
        "run_ids": sorted(df["run_id"].dropna().astype(str).unique().tolist()),
        "name": first("name", "run_name") or suite.get("name"),
        "created": first("created", "created_at", "started", "started_at", "date"),
        "versions": first("versions", "component_versions") or {},
        "report_version": __version__,
        "record_schema_version": SCHEMA_VERSION,
    }


def summarize(
    records: pd.DataFrame,
    config: dict[str, Any] | None = None,
    *,
    n_boot: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
    gates: Any = None,
) -> dict[str, Any]:
    """Every number of the report, JSON-ready (NaN becomes ``None``).

    Parameters
    ----------
    records : pandas.DataFrame
        Validated records (:func:`bluffcheck.report.load.load_records`).
    config : dict, optional
        The run's ``config.json``.
    n_boot, confidence, seed
        Bootstrap resamples, CI level and the seed of the bootstrap's ``numpy.random.Generator``.
    gates : any, optional
        Pass/fail gate results of the run, copied as they are.
    """
    df = prepare(records)
    cells = adversarial_table(df, n_boot=n_boot, confidence=confidence, seed=seed)
    agreement = agreement_table(df)
    status = df["status"].value_counts().sort_index()
    return {
        "schema_version": SUMMARY_SCHEMA_VERSION,
        "run": run_info(config or {}, df),
        "bootstrap": {"n_boot": n_boot, "confidence": confidence, "seed": seed},
        "counts": {"records": int(len(df)), "by_status": {k: int(v) for k, v in status.items()},
                   "by_kind": {k: int(v) for k, v in df["kind"].value_counts().sort_index().items()}},
        "scorers": scorer_table(cells, agreement, df),
        "methods": method_table(cells),
        "adversarial": cells,
        "agreement": agreement,
        "overstability": overstability_table(df),
        "overstability_methods": overstability_table(df, by_prompt=False),
        "errors": error_table(df),
        "worst_bluffs": worst_bluffs(df),
        "largest_shifts": largest_shifts(df),
        "gates": gates,
    }


def summary_json(summary: dict[str, Any]) -> str:
    """``summary.json`` text: sorted keys, two-space indent, strict JSON (no NaN)."""
    return json.dumps(summary, indent=2, sort_keys=True, allow_nan=False, ensure_ascii=False, default=str) + "\n"

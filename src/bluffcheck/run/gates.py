"""Gates: the suite's thresholds checked against a run's store, for a scoring team's CI.

* ``min_arr``      minimum adversarial rejection rate per scorer x method (seed 000 §2.4);
* ``max_n_pos``    maximum N_pos (percent of perturbed answers scored higher, seed 001 Table 3);
* ``max_qwk_drop`` maximum QWK lost on perturbed real answers against their originals;
* ``min_qwk``      minimum QWK of each scorer on the held-out real answers.

A gate with no records to judge is reported as skipped (``passed is None``), never as passed; a
gate whose group has records but none scored ``ok`` fails.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ConfigError, MissingResourceError
from .store import STORE_NAME
from .suite import GateSpec

__all__ = ["GateResult", "evaluate_gates", "gates_from_config"]


@dataclass(frozen=True)
class GateResult:
    """One checked threshold."""

    gate: str
    subject: str
    value: float | None
    threshold: float | None
    passed: bool | None
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``name`` = gate and subject, as the report shows it)."""
        return {"name": f"{self.gate} {self.subject}", **asdict(self)}


def gates_from_config(run_dir: Path) -> GateSpec:
    """The gates of the suite stored in a run folder's ``config.json``."""
    path = run_dir / "config.json"
    if not path.is_file():
        raise MissingResourceError(f"{path} does not exist; pass the suite file instead, or rerun the suite.")
    g = json.loads(path.read_text(encoding="utf-8")).get("suite", {}).get("gates", {})
    return GateSpec(min_arr=dict(g.get("min_arr") or {}), max_n_pos=g.get("max_n_pos"),
                    max_qwk_drop=g.get("max_qwk_drop"), min_qwk=g.get("min_qwk"))


def _rows(con: sqlite3.Connection, sql: str) -> list[tuple[Any, ...]]:
    return list(con.execute(sql))


def _group(rows: list[tuple[Any, ...]], nkeys: int) -> dict[tuple[Any, ...], list[tuple[Any, ...]]]:
    out: dict[tuple[Any, ...], list[tuple[Any, ...]]] = {}
    for row in rows:
        out.setdefault(row[:nkeys], []).append(row[nkeys:])
    return out


def _arr(con: sqlite3.Connection, gates: GateSpec) -> list[GateResult]:
    from ..metrics.robustness import adversarial_rejection_rate

    rows = _rows(con, "SELECT r.scorer, t.label, r.method, r.status, r.score, r.min_score FROM records r "
                      "JOIN tasks t ON t.task_id = r.task_id WHERE r.kind = 'generator' ORDER BY r.scorer, t.label")
    out = []
    for (scorer, label, method), recs in _group(rows, 3).items():
        threshold = gates.arr_threshold(label, method)
        if threshold is None:
            continue
        ok = [(s, lo) for status, s, lo in recs if status == "ok"]
        failed = len(recs) - len(ok)
        note = f"{len(ok)} scored, {failed} not scored (error/timeout/nan)" if failed else f"{len(ok)} scored"
        if not ok:
            out.append(GateResult("min_arr", f"{scorer} / {label}", None, threshold, False, note + ": nothing to judge"))
            continue
        value = adversarial_rejection_rate([s for s, _ in ok], [lo for _, lo in ok])
        out.append(GateResult("min_arr", f"{scorer} / {label}", value, threshold, value >= threshold, note))
    return out


def _ratings(values: list[float], low: float, high: float) -> np.ndarray:
    return np.clip(np.rint(np.asarray(values, dtype=float)), low, high)


def _qwk(con: sqlite3.Connection, gates: GateSpec) -> list[GateResult]:
    from ..metrics.agreement import qwk_score

    if gates.min_qwk is None:
        return []
    rows = _rows(con, "SELECT scorer, dataset, gold, score, min_score, max_score FROM records "
                      "WHERE kind = 'original' AND status = 'ok' AND gold IS NOT NULL ORDER BY scorer, dataset")
    out = []
    for (scorer, dataset), recs in _group(rows, 2).items():
        low, high = min(r[2] for r in recs), max(r[3] for r in recs)
        value = qwk_score(_ratings([r[0] for r in recs], low, high), _ratings([r[1] for r in recs], low, high))
        out.append(GateResult("min_qwk", f"{scorer} on {dataset}", value, gates.min_qwk, value >= gates.min_qwk,
                              f"{len(recs)} held-out answers"))
    if not out:
        out.append(GateResult("min_qwk", "(all)", None, gates.min_qwk, None, "skipped: no scored original answers"))
    return out


def _shifted(con: sqlite3.Connection, gates: GateSpec) -> list[GateResult]:
    from ..metrics.agreement import qwk_score
    from ..metrics.robustness import overstability

    rows = _rows(con, "SELECT scorer, source_score, score, min_score, max_score, gold FROM records "
                      "WHERE kind IN ('perturbation', 'attack') AND status = 'ok' AND source_score IS NOT NULL")
    out = []
    for gate, threshold in (("max_n_pos", gates.max_n_pos), ("max_qwk_drop", gates.max_qwk_drop)):
        if threshold is None:
            continue
        groups = _group(rows, 1)
        if not groups:
            out.append(GateResult(gate, "(all)", None, threshold, None, "skipped: no perturbation or attack records"))
        for (scorer,), recs in groups.items():
            if gate == "max_n_pos":
                value = overstability([r[0] for r in recs], [r[1] for r in recs], min_score=[r[2] for r in recs],
                                      max_score=[r[3] for r in recs])["n_pos"]
            else:
                gold = [r for r in recs if r[4] is not None]
                if not gold:
                    out.append(GateResult(gate, scorer, None, threshold, None, "skipped: no gold scores"))
                    continue
                lo, hi = min(r[2] for r in gold), max(r[3] for r in gold)
                g = _ratings([r[4] for r in gold], lo, hi)
                value = qwk_score(g, _ratings([r[0] for r in gold], lo, hi)) - qwk_score(
                    g, _ratings([r[1] for r in gold], lo, hi))
            out.append(GateResult(gate, scorer, value, threshold, value <= threshold, f"{len(recs)} records"))
    return out


def evaluate_gates(run_dir: str | Path, gates: GateSpec | None = None) -> list[GateResult]:
    """Check every threshold of ``gates`` (default: the run's own) against the run's store."""
    run_dir = Path(run_dir)
    store = run_dir / STORE_NAME
    if not store.is_file():
        raise MissingResourceError(
            f"{run_dir} holds no {STORE_NAME}: it is not a run folder, or the suite has not run yet. "
            "Run `bluffcheck run SUITE.toml` first."
        )
    gates = gates if gates is not None else gates_from_config(run_dir)
    con = sqlite3.connect(f"{store.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return _arr(con, gates) + _qwk(con, gates) + _shifted(con, gates)
    except sqlite3.DatabaseError as exc:
        raise ConfigError(f"{store} is not a readable bluffcheck store ({exc}).") from exc
    finally:
        con.close()

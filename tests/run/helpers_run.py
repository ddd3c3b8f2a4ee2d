"""Shared helpers of the run-engine tests (imported by the test modules)."""

from __future__ import annotations

import sqlite3
import tomllib
from pathlib import Path
from typing import Any

from bluffcheck.report.result import RECORD_FIELDS
from bluffcheck.run.suite import Suite, parse_suite

TIMING = ("run_id", "elapsed_s")


def toy(tmp_path: Path, fakes: Any, name: str = "run", **kw: Any) -> Suite:
    """The toy suite writing into ``tmp_path / name``."""
    return parse_suite(tomllib.loads(fakes.toy_suite(tmp_path / name, **kw)), source="toy.toml")


def records(run_dir: Path) -> dict[tuple[str, str], dict[str, Any]]:
    """All records of a run keyed by (task_id, item_id), without the timing columns."""
    con = sqlite3.connect(run_dir / "store.sqlite")
    try:
        cols = ", ".join(f'"{c}"' for c in RECORD_FIELDS)
        rows = con.execute(f"SELECT {cols} FROM records").fetchall()  # noqa: S608
    finally:
        con.close()
    out = {}
    for row in rows:
        rec = dict(zip(RECORD_FIELDS, row, strict=True))
        key = (rec["task_id"], rec["item_id"])
        assert key not in out, f"duplicate record {key}"
        out[key] = {k: v for k, v in rec.items() if k not in TIMING}
    return out


def count_lines(path: Path) -> int:
    """Lines in a file (0 when missing): the counting scorer writes one per scored item."""
    return len(path.read_text().splitlines()) if path.exists() else 0

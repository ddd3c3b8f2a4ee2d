"""The run store: one SQLite file (WAL mode) written by the parent process only.

Tables: ``records`` (the columns of :data:`~bluffcheck.report.result.RECORD_FIELDS`, unique on
``(task_id, item_id)``), ``tasks`` (one row per finished task, with its status), ``answer_cache``
(scorer fingerprint, answer key = sha256 of prompt id and text) -> ok score, and ``meta`` (run id,
schema version). Stores written before the key included the prompt keep an unused ``cache`` table.

Every finished task's records, cache entries and task row are committed in one transaction, so a
process killed at any point (SIGKILL included) loses at most the tasks in flight and never leaves a
partial or duplicated task. Records that were not ok are replaced when their task is rerun.
"""

from __future__ import annotations

import json
import sqlite3
import time
import uuid
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..errors import BluffcheckError
from ..report.result import RECORD_FIELDS, SCHEMA_VERSION
from .work import TaskResult

__all__ = ["STORE_NAME", "Store", "StoreError"]

STORE_NAME = "store.sqlite"

_COLUMNS = ", ".join(f'"{name}"' for name in RECORD_FIELDS)
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records ({_COLUMNS}, PRIMARY KEY (task_id, item_id));
CREATE TABLE IF NOT EXISTS tasks (
    task_id TEXT PRIMARY KEY, status TEXT NOT NULL, label TEXT, description TEXT NOT NULL,
    n_records INTEGER NOT NULL, n_failed INTEGER NOT NULL, error TEXT, finished_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS answer_cache (
    fingerprint TEXT NOT NULL, answer_key TEXT NOT NULL, score REAL NOT NULL, attempts INTEGER NOT NULL,
    PRIMARY KEY (fingerprint, answer_key));
"""
# A rerun replaces a record only when the stored one was not ok (so ok results never change).
_UPSERT = (
    f"INSERT INTO records ({_COLUMNS}) VALUES ({', '.join('?' * len(RECORD_FIELDS))}) "
    "ON CONFLICT (task_id, item_id) DO UPDATE SET "
    + ", ".join(f'"{n}" = excluded."{n}"' for n in RECORD_FIELDS if n not in ("task_id", "item_id"))
    + " WHERE records.status != 'ok'"
)


class StoreError(BluffcheckError, OSError):
    """The store could not be written (disk full, permissions); what was committed is kept."""


def _fail(path: Path, exc: BaseException, doing: str) -> StoreError:
    return StoreError(
        f"Could not {doing} the run store {path}: {exc}. Everything committed before this point is kept; "
        "free disk space or fix the folder's permissions, then rerun the same command to resume."
    )


class Store:
    """The SQLite store of one run folder.

    Parameters
    ----------
    path : Path
        The ``store.sqlite`` file (created with its folder when missing).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.con = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            self.con.execute("PRAGMA journal_mode=WAL")
            self.con.execute("PRAGMA synchronous=NORMAL")
            self.con.executescript(_SCHEMA)
            self.run_id = self._meta("run_id", uuid.uuid4().hex[:12])
            self._meta("schema_version", str(SCHEMA_VERSION))
        except (OSError, sqlite3.Error) as exc:
            raise _fail(self.path, exc, "open") from exc

    def _meta(self, key: str, default: str) -> str:
        row = self.con.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        if row:
            return str(row[0])
        self.con.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (key, default))
        return default

    def close(self) -> None:
        """Checkpoint the WAL into the main file and close, leaving one self-contained ``store.sqlite``."""
        try:
            self.con.execute("PRAGMA journal_mode=DELETE")
        except sqlite3.Error:
            pass  # another reader holds the WAL open; it is checkpointed by the next writer
        self.con.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading ----------------------------------------------------------------------------
    def task_status(self) -> dict[str, str]:
        """``task_id -> status`` of every finished task ("done", "failed-records" or "error")."""
        return dict(self.con.execute("SELECT task_id, status FROM tasks"))

    def count(self, table: str = "records") -> int:
        """Number of rows of a table: ``"records"``, ``"tasks"`` or ``"cache"`` (the answer cache)."""
        tables = {"records": "records", "tasks": "tasks", "cache": "answer_cache"}
        if table not in tables:
            raise ValueError(table)
        return int(self.con.execute(f"SELECT COUNT(*) FROM {tables[table]}").fetchone()[0])  # noqa: S608

    def count_failed(self) -> int:
        """Number of records whose status is not ``ok`` (error, timeout, nan)."""
        return int(self.con.execute("SELECT COUNT(*) FROM records WHERE status != 'ok'").fetchone()[0])

    def iter_records(self, batch: int = 5000) -> Iterator[list[dict[str, Any]]]:
        """All records ordered by (task_id, item_id), in batches of dicts."""
        cur = self.con.execute(f"SELECT {_COLUMNS} FROM records ORDER BY task_id, item_id")  # noqa: S608
        while rows := cur.fetchmany(batch):
            yield [dict(zip(RECORD_FIELDS, row, strict=True)) for row in rows]

    # -- writing ----------------------------------------------------------------------------
    def forget_tasks_except(self, keep: Iterable[str]) -> int:
        """Delete records and task rows of tasks not in ``keep`` (a suite that changed); the cache stays."""
        keep = set(keep)
        stale = [tid for tid in self.task_status() if tid not in keep]
        stale += [r[0] for r in self.con.execute("SELECT DISTINCT task_id FROM records") if r[0] not in keep]
        stale = sorted(set(stale))
        try:
            with self._transaction():
                for tid in stale:
                    self.con.execute("DELETE FROM records WHERE task_id = ?", (tid,))
                    self.con.execute("DELETE FROM tasks WHERE task_id = ?", (tid,))
        except (OSError, sqlite3.Error) as exc:
            raise _fail(self.path, exc, "update") from exc
        return len(stale)

    def commit_task(self, result: TaskResult, *, label: str = "") -> None:
        """Write one finished task (records, cache entries, task row) in a single transaction."""
        failed = sum(1 for r in result.records if r["status"] != "ok")
        status = "error" if result.error else ("failed-records" if failed else "done")
        row = (result.task.task_id, status, label, json.dumps(result.task.describe(), sort_keys=True, default=str),
               len(result.records), failed, result.error or None, time.time())
        try:
            with self._transaction():
                self.con.executemany(_UPSERT, [tuple(r[n] for n in RECORD_FIELDS) for r in result.records])
                self.con.executemany(
                    "INSERT OR IGNORE INTO answer_cache (fingerprint, answer_key, score, attempts) VALUES (?, ?, ?, ?)",
                    result.cache,
                )
                self.con.execute("INSERT OR REPLACE INTO tasks VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)
        except (OSError, sqlite3.Error) as exc:
            raise _fail(self.path, exc, "write to") from exc

    def _transaction(self) -> _Transaction:
        return _Transaction(self.con)


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (or ``ROLLBACK`` on any error)."""

    def __init__(self, con: sqlite3.Connection) -> None:
        self.con = con

    def __enter__(self) -> None:
        self.con.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *rest: object) -> None:
        if exc_type is None:
            self.con.execute("COMMIT")
        else:
            try:
                self.con.execute("ROLLBACK")
            except sqlite3.Error:
                pass

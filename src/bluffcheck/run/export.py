"""Exports of the store: ``records.parquet``, ``records.csv`` and ``records.jsonl``.

Each file is streamed in batches into a temporary file next to it and moved into place with
``os.replace``, so a reader never sees a half-written export and memory stays flat.
"""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

from ..report.result import RECORD_FIELDS
from .store import Store, StoreError

__all__ = ["EXPORTS", "export_pending_cases", "export_records", "remove_exports"]

EXPORTS = ("records.parquet", "records.csv", "records.jsonl")


def remove_exports(folder: Path) -> None:
    """Delete exports of an earlier run so they never disagree with a store being extended."""
    for name in EXPORTS:
        (folder / name).unlink(missing_ok=True)


def _schema():  # type: ignore[no-untyped-def]
    import pyarrow as pa

    text = {"run_id", "task_id", "dataset", "split", "prompt_id", "scorer", "scorer_fingerprint", "kind", "method",
            "params", "item_id", "text", "source_id", "source_text", "status", "error", "expectation",
            "component_version"}
    ints = {"seed", "attempts"}
    return pa.schema(
        [(n, pa.string() if n in text else pa.int64() if n in ints else pa.float64()) for n in RECORD_FIELDS]
    )


def _write_parquet(store: Store, tmp: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = _schema()
    with pq.ParquetWriter(tmp, schema) as writer:
        for batch in store.iter_records():
            writer.write_table(pa.Table.from_pylist(batch, schema=schema))


def _write_csv(store: Store, tmp: Path) -> None:
    with tmp.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=RECORD_FIELDS)
        writer.writeheader()
        for batch in store.iter_records():
            writer.writerows(batch)


def _write_jsonl(store: Store, tmp: Path) -> None:
    with tmp.open("w", encoding="utf-8") as fh:
        for batch in store.iter_records():
            fh.writelines(json.dumps(rec, ensure_ascii=False) + "\n" for rec in batch)


def export_records(store: Store, folder: Path) -> list[Path]:
    """Write the three exports of ``store`` into ``folder``; returns their paths."""
    writers = {"records.parquet": _write_parquet, "records.csv": _write_csv, "records.jsonl": _write_jsonl}
    written = []
    for name, write in writers.items():
        final = folder / name
        tmp = folder / f".{name}.tmp"
        try:
            write(store, tmp)
            os.replace(tmp, final)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise StoreError(
                f"Could not write {final}: {exc}. The records are safe in {store.path}; free disk space or fix "
                "permissions and rerun the command (finished tasks are not recomputed)."
            ) from exc
        written.append(final)
    return written


def export_pending_cases(run_dir: str | os.PathLike[str], cases_path: str | os.PathLike[str], *,
                         scorer: str | None = None) -> int:
    """Write the answers of a run that have no ok score yet (optionally of one ``scorer``) as a cases file.

    The file round trip for a suite's ``file`` scorer: run the suite (its records are "error: no
    score"), export the cases, score them elsewhere into the scorer's ``scores_path``, rerun the
    suite. Returns how many distinct answers were written; 0 writes nothing.
    """
    from ..errors import ConfigError
    from ..scorers.adapters.file_roundtrip import export_cases
    from ..types import Item

    path = Path(run_dir) / "store.sqlite"
    if not path.is_file():
        raise ConfigError(f"{run_dir} holds no run store (store.sqlite); run the suite first with 'bluffcheck run'.")
    items: dict[str, Item] = {}
    with Store(path) as store:
        for batch in store.iter_records():
            for rec in batch:
                if rec["status"] != "ok" and (scorer is None or rec["scorer"] == scorer):
                    items.setdefault(rec["item_id"] + "\0" + rec["text"],
                                     Item(rec["item_id"], rec["prompt_id"], rec["text"]))
    if items:
        export_cases(list(items.values()), cases_path)
    return len({it.id for it in items.values()})

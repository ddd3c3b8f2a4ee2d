"""Read a run folder back: its records (``records.parquet`` or ``store.sqlite``) and ``config.json``.

The report never reruns anything: everything it shows comes from these files, so a report can be
re-rendered from a copied or archived run folder.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import DatasetFormatError, MissingResourceError
from .result import RECORD_FIELDS, STATUSES

if TYPE_CHECKING:  # pandas loads lazily: ``import bluffcheck`` stays light
    import pandas as pd

__all__ = ["NUMERIC_FIELDS", "load_config", "load_records", "validate_records"]

PARQUET = "records.parquet"
SQLITE = "store.sqlite"
CONFIG = "config.json"

#: Columns that must hold numbers (or be empty); checked row by row so an error names the row.
NUMERIC_FIELDS: tuple[str, ...] = ("source_score", "gold", "score", "min_score", "max_score", "attempts", "elapsed_s")


def _run_folder(run_dir: str | Path) -> Path:
    path = Path(run_dir)
    if not path.is_dir():
        raise MissingResourceError(
            f"{path} is not a run folder (it does not exist or is not a directory). "
            "Pass the folder that `bluffcheck run` wrote (it holds store.sqlite or records.parquet)."
        )
    return path


def _read_sqlite(path: Path) -> pd.DataFrame:
    import pandas as pd

    con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        tables = {row[0] for row in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "records" not in tables:
            raise DatasetFormatError(path, None, "records", f"has no table 'records' (tables: {sorted(tables)}).")
        return pd.read_sql_query("SELECT * FROM records", con)
    except sqlite3.DatabaseError as exc:
        raise DatasetFormatError(path, None, None, f"is not a readable SQLite store ({exc}).") from exc
    finally:
        con.close()


def load_records(run_dir: str | Path) -> pd.DataFrame:
    """The records of a run as a DataFrame with (at least) the columns of ``RECORD_FIELDS``.

    Reads ``records.parquet`` when present, else the ``records`` table of ``store.sqlite`` (which
    also holds the records of a run that was interrupted before its exports were written).

    Parameters
    ----------
    run_dir : str or Path
        The run folder.

    Returns
    -------
    pandas.DataFrame
        One row per record; numeric columns as floats (missing values are NaN).

    Raises
    ------
    MissingResourceError
        When the folder or both record files are missing.
    DatasetFormatError
        When a column is missing, a numeric field holds text, or a status is unknown.
    """
    folder = _run_folder(run_dir)
    if (folder / PARQUET).is_file():
        import pandas as pd

        path = folder / PARQUET
        try:
            frame = pd.read_parquet(path)
        except Exception as exc:  # pyarrow raises several unrelated types for a damaged file
            raise DatasetFormatError(path, None, None, f"is not a readable Parquet file ({exc}).") from exc
    elif (folder / SQLITE).is_file():
        path = folder / SQLITE
        frame = _read_sqlite(path)
    else:
        raise MissingResourceError(
            f"{folder} holds neither {PARQUET} nor {SQLITE}, so there are no records to report. "
            "Run the suite first (`bluffcheck run SUITE.toml`) or pass the folder it wrote."
        )
    return _attach_labels(validate_records(frame, source=path), folder / SQLITE)


def _attach_labels(frame: pd.DataFrame, store: Path) -> pd.DataFrame:
    """Add the suite's task labels (``label`` column) from the store's ``tasks`` table, when it has one.

    A suite may run one method twice under two labels (``char-3grams``, ``char-5grams``); the
    records carry only the method name and its parameters, the store also the label.
    """
    if not store.is_file():
        return frame
    con = sqlite3.connect(f"{store.resolve().as_uri()}?mode=ro", uri=True)
    try:
        columns = {row[1] for row in con.execute("PRAGMA table_info(tasks)")}
        labels = dict(con.execute("SELECT task_id, label FROM tasks")) if {"task_id", "label"} <= columns else {}
    except sqlite3.DatabaseError:
        labels = {}  # the labels only name things; the records themselves were already read
    finally:
        con.close()
    if labels:
        frame["label"] = frame["task_id"].map(labels)
    return frame


def validate_records(frame: pd.DataFrame, *, source: str | Path = "<records>") -> pd.DataFrame:
    """Check the columns and values of a record frame; return a copy with numeric columns as floats.

    Raises
    ------
    DatasetFormatError
        Naming the file, the 1-based record number and the field at fault.
    """
    import pandas as pd

    missing = [name for name in RECORD_FIELDS if name not in frame.columns]
    if missing:
        raise DatasetFormatError(
            source,
            None,
            missing[0],
            f"the records lack the column(s) {missing}; expected every field of RECORD_FIELDS "
            f"(bluffcheck.report.result). Was this folder written by an older or foreign tool?",
        )
    out = frame.copy()
    for name in NUMERIC_FIELDS:
        values = pd.to_numeric(out[name], errors="coerce")
        bad = values.isna() & out[name].notna()
        if bad.any():
            row = int(bad.to_numpy().nonzero()[0][0])
            raise DatasetFormatError(source, row + 1, name, f"is {out[name].iloc[row]!r}, expected a number or empty.")
        out[name] = values.astype("float64")
    unknown = ~out["status"].isin(STATUSES)
    if unknown.any():
        row = int(unknown.to_numpy().nonzero()[0][0])
        raise DatasetFormatError(source, row + 1, "status", f"is {out['status'].iloc[row]!r}, expected one of {STATUSES}.")
    for name in ("scorer", "method", "prompt_id", "kind"):
        out[name] = out[name].fillna("").astype(str)
    return out.reset_index(drop=True)


def load_config(run_dir: str | Path) -> dict[str, Any]:
    """The resolved configuration of a run (``config.json``); ``{}`` when the run wrote none.

    Raises
    ------
    DatasetFormatError
        When ``config.json`` is not valid JSON or not a JSON object (with the line of the error).
    """
    path = _run_folder(run_dir) / CONFIG
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DatasetFormatError(path, exc.lineno, None, f"is not valid JSON ({exc.msg}).") from exc
    except UnicodeDecodeError as exc:
        raise DatasetFormatError(path, None, None, f"is not UTF-8 text ({exc}).") from exc
    if not isinstance(data, dict):
        raise DatasetFormatError(path, None, None, f"holds a JSON {type(data).__name__}, expected an object.")
    return data

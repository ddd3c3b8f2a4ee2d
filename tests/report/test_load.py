"""Reading run folders back: parquet or sqlite, validated against RECORD_FIELDS."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bluffcheck.errors import DatasetFormatError, MissingResourceError
from bluffcheck.report.load import load_config, load_records
from bluffcheck.report.result import RECORD_FIELDS

from .conftest import CONFIG, write_run, write_sqlite


def test_load_records_parquet_and_sqlite_agree(tmp_path: Path, records: pd.DataFrame) -> None:
    from_parquet = load_records(write_run(tmp_path / "a", records, sqlite=False))
    from_sqlite = load_records(write_run(tmp_path / "b", records, parquet=False))
    assert list(from_parquet.columns[: len(RECORD_FIELDS)]) == list(RECORD_FIELDS)
    assert len(from_parquet) == len(records) == len(from_sqlite)
    for name in ("score", "source_score", "gold", "min_score"):
        np.testing.assert_array_equal(from_parquet[name].to_numpy(), from_sqlite[name].to_numpy())
    assert (from_parquet["text"] == from_sqlite["text"]).all()
    assert from_sqlite["score"].dtype == np.float64
    assert from_sqlite.loc[from_sqlite["status"] != "ok", "score"].isna().all()


def test_load_records_prefers_parquet(tmp_path: Path, records: pd.DataFrame) -> None:
    folder = write_run(tmp_path / "run", records.iloc[:10])
    (folder / "store.sqlite").unlink()
    write_sqlite(records.iloc[:25], folder / "store.sqlite")
    assert len(load_records(folder)) == 10


def test_load_records_missing_folder_and_files(tmp_path: Path) -> None:
    with pytest.raises(MissingResourceError, match="not a run folder"):
        load_records(tmp_path / "nope")
    with pytest.raises(MissingResourceError, match="neither records.parquet nor store.sqlite"):
        load_records(tmp_path)


def test_load_records_names_missing_column(tmp_path: Path, records: pd.DataFrame) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    records.drop(columns=["expectation"]).to_parquet(folder / "records.parquet")
    with pytest.raises(DatasetFormatError, match="expectation") as info:
        load_records(folder)
    assert info.value.field == "expectation" and "records.parquet" in info.value.path


def test_load_records_names_row_of_non_numeric_score(tmp_path: Path, records: pd.DataFrame) -> None:
    bad = records.copy()
    bad["score"] = bad["score"].astype(object)
    bad.loc[5, "score"] = "three"
    folder = tmp_path / "run"
    folder.mkdir()
    write_sqlite(bad, folder / "store.sqlite")
    with pytest.raises(DatasetFormatError, match="'three'") as info:
        load_records(folder)
    assert (info.value.line, info.value.field) == (6, "score")


def test_load_records_rejects_unknown_status(tmp_path: Path, records: pd.DataFrame) -> None:
    bad = records.copy()
    bad.loc[3, "status"] = "maybe"
    with pytest.raises(DatasetFormatError, match="status") as info:
        load_records(write_run(tmp_path / "run", bad, sqlite=False))
    assert info.value.line == 4


def test_load_records_sqlite_without_records_table(tmp_path: Path) -> None:
    sqlite3.connect(tmp_path / "store.sqlite").execute("CREATE TABLE other (x)").connection.close()
    with pytest.raises(DatasetFormatError, match="no table 'records'"):
        load_records(tmp_path)


def test_load_records_attaches_task_labels_from_store(tmp_path: Path, records: pd.DataFrame) -> None:
    folder = write_run(tmp_path / "run", records)
    con = sqlite3.connect(folder / "store.sqlite")
    con.execute("CREATE TABLE tasks (task_id TEXT PRIMARY KEY, label TEXT)")
    con.executemany("INSERT INTO tasks VALUES (?, ?)", [(t, "L-" + t) for t in records["task_id"].unique()])
    con.commit()
    con.close()
    loaded = load_records(folder)
    assert (loaded["label"] == "L-" + loaded["task_id"]).all()


def test_load_config_roundtrip_missing_and_malformed(tmp_path: Path, records: pd.DataFrame) -> None:
    folder = write_run(tmp_path / "run", records, sqlite=False)
    assert load_config(folder) == json.loads(json.dumps(CONFIG))
    (folder / "config.json").unlink()
    assert load_config(folder) == {}
    (folder / "config.json").write_text('{\n  "name": "x",\n  oops\n}', encoding="utf-8")
    with pytest.raises(DatasetFormatError) as info:
        load_config(folder)
    assert info.value.line == 3
    (folder / "config.json").write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(DatasetFormatError, match="expected an object"):
        load_config(folder)

"""Record frames and run folders shaped like the run engine's, built in the tests.

2 scorers x 3 prompts x 4 method variants x 20 bluffs, plus original answers (gold and score, for
QWK), perturbed answers with a source score (for the overstability statistics) and a few failed
scorer calls (status "error" / "timeout", score None).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from bluffcheck.report.result import RECORD_FIELDS

SCORERS = {"ngram-svm": 0.8, "bigru": 0.5}  # share of bluffs each scorer rejects on average
PROMPTS = {"1": (0, 3), "2": (0, 3), "10": (0, 2)}
METHODS = [
    ("random-chars", {"length": 12}),
    ("char-ngrams", {"n": 2}),
    ("char-ngrams", {"n": 4}),
    ("word-ngrams", {"n": 3}),
]
PERTURBATIONS = [("shuffle-words", "lower"), ("add-song", "lower"), ("homoglyphs", "same")]
N_BLUFFS = 20
N_ORIGINALS = 30
N_PERTURBED = 12
RUN_ID = "run-2026-11-22-demo"


def _base(scorer: str, prompt: str, kind: str, method: str, params: dict[str, Any], item_id: str) -> dict[str, Any]:
    low, high = PROMPTS[prompt]
    return {
        "run_id": RUN_ID, "task_id": f"t-{scorer}-{prompt}-{method}", "dataset": "asap-sas", "split": "test",
        "prompt_id": prompt, "scorer": scorer, "scorer_fingerprint": f"fp-{scorer}", "kind": kind, "method": method,
        "params": json.dumps(params, sort_keys=True), "seed": 7, "item_id": item_id, "text": "", "source_id": None,
        "source_text": None, "source_score": None, "gold": None, "score": None, "status": "ok", "error": None,
        "attempts": 1, "min_score": low, "max_score": high, "expectation": "min", "component_version": "1",
        "elapsed_s": 0.001,
    }


def _bluffs(rng: np.random.Generator, scorer: str, prompt: str) -> list[dict[str, Any]]:
    rows = []
    low, high = PROMPTS[prompt]
    for m, (method, params) in enumerate(METHODS):
        reject = float(np.clip(SCORERS[scorer] + rng.normal(0, 0.12) - 0.08 * m, 0.05, 1.0))
        for i in range(N_BLUFFS):
            row = _base(scorer, prompt, "generator", method, params, f"{prompt}:{method}:{m}:{i}")
            row["text"] = "".join(rng.choice(list("abcdefghijklmnopqrstuvwxyz "), size=int(rng.integers(5, 40))))
            row["score"] = float(low if rng.random() < reject else rng.integers(low + 1, high + 1))
            rows.append(row)
    return rows


def _originals(rng: np.random.Generator, scorer: str, prompt: str) -> list[dict[str, Any]]:
    rows = []
    low, high = PROMPTS[prompt]
    for i in range(N_ORIGINALS):
        row = _base(scorer, prompt, "original", "original", {}, f"{prompt}:orig:{i}")
        gold = int(rng.integers(low, high + 1))
        row.update(text=f"Real answer {i} about prompt {prompt}.", gold=float(gold), expectation="same",
                   score=float(np.clip(gold + rng.choice([-1, 0, 0, 0, 1]), low, high)))
        rows.append(row)
    return rows


def _perturbed(rng: np.random.Generator, scorer: str, prompt: str) -> list[dict[str, Any]]:
    rows = []
    low, high = PROMPTS[prompt]
    for method, expectation in PERTURBATIONS:
        for i in range(N_PERTURBED):
            row = _base(scorer, prompt, "perturbation", method, {"c1": 0.2}, f"{prompt}:{method}:{i}")
            source = float(rng.integers(low, high + 1))
            row.update(source_id=f"{prompt}:orig:{i}", source_text=f"Real answer {i} about prompt {prompt}.",
                       source_score=source, expectation=expectation, text=f"answer {i} real about {prompt} prompt",
                       score=float(np.clip(source + rng.choice([-1, 0, 1]), low, high)))
            rows.append(row)
    return rows


def make_records(seed: int = 0, *, payload: str | None = None) -> pd.DataFrame:
    """The full record frame; ``payload`` replaces the text of the best-scored bluff (for escaping tests)."""
    rng = np.random.default_rng(seed)
    rows: list[dict[str, Any]] = []
    for scorer in SCORERS:
        for prompt in PROMPTS:
            rows += _bluffs(rng, scorer, prompt) + _originals(rng, scorer, prompt) + _perturbed(rng, scorer, prompt)
    failed = _base("bigru", "2", "generator", "word-ngrams", {"n": 3}, "2:word-ngrams:fail:0")
    rows += [failed | {"status": "error", "error": "RuntimeError: CUDA out of memory", "attempts": 3},
             failed | {"item_id": "2:word-ngrams:fail:1", "status": "timeout", "error": "timed out after 30 s"}]
    frame = pd.DataFrame(rows, columns=list(RECORD_FIELDS))
    if payload is not None:
        # a full-credit bluff whose id sorts first among ties, so it is a "worst example" on the page
        best = frame[frame["kind"] == "generator"]["score"].idxmax()
        frame.loc[best, ["text", "item_id"]] = [payload, "!payload"]
        frame.loc[best, "score"] = frame.loc[best, "max_score"]
        frame.loc[frame["status"] == "error", "error"] = payload
    return frame


def write_sqlite(frame: pd.DataFrame, path: Path) -> None:
    """The run engine's store layout: a table ``records`` with the RECORD_FIELDS columns."""
    con = sqlite3.connect(path)
    try:
        con.execute(f"CREATE TABLE records ({', '.join(RECORD_FIELDS)})")
        values = [tuple(None if pd.isna(v) else v for v in row) for row in frame[list(RECORD_FIELDS)].itertuples(index=False)]
        con.executemany(f"INSERT INTO records VALUES ({', '.join('?' * len(RECORD_FIELDS))})", values)
        con.commit()
    finally:
        con.close()


CONFIG = {
    "name": "demo <suite> & co",
    "created": "2026-11-22T01:02:03Z",
    "versions": {"bluffcheck": "0.1.0", "numpy": "2.4.6", "scikit-learn": "1.9.1"},
    "seeds": [7],
    "scorers": {"ngram-svm": {"C": 1.0}, "bigru": {"epochs": 3}},
}


def write_run(folder: Path, frame: pd.DataFrame, *, parquet: bool = True, sqlite: bool = True,
              config: dict[str, Any] | None = None) -> Path:
    """A run folder with the given exports and ``config.json``."""
    folder.mkdir(parents=True, exist_ok=True)
    if parquet:
        frame.to_parquet(folder / "records.parquet", index=False)
    if sqlite:
        write_sqlite(frame, folder / "store.sqlite")
    (folder / "config.json").write_text(json.dumps(CONFIG if config is None else config, indent=2), encoding="utf-8")
    return folder


@pytest.fixture(scope="session")
def records() -> pd.DataFrame:
    return make_records(0)


@pytest.fixture()
def run_dir(tmp_path: Path, records: pd.DataFrame) -> Path:
    return write_run(tmp_path / "run", records)

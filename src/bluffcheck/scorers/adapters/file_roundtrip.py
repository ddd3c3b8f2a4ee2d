"""``file``: a round trip through files, for scorers bluffcheck cannot call (Java, remote, manual).

1. :func:`export_pending` (or :func:`export_cases`) writes the answers to score as CSV, TSV or
   JSONL (by suffix) with the columns ``id, prompt_id, text, text_hash``.
2. Your system scores them and writes ``id, score`` (CSV/TSV with a header, or JSONL objects);
   a ``text_hash`` column, when present, is checked against the answer text.
3. :class:`FileScorer` (or :func:`import_scores`) reads the scores back in item order. Items
   without a score are an error that says how many and which; nothing is scored as 0.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..._registry import scorers
from ...errors import ConfigError, DatasetFormatError, ScorerError
from ...types import Dataset, Item
from ..base import as_items
from ._base import BlackBoxScorer
from ._retry import Outcome, RetryPolicy, outcomes_to_scores

__all__ = ["FileScorer", "ScoreRow", "export_cases", "export_pending", "import_scores", "read_scores", "text_hash"]

_FORMATS = {".csv": "csv", ".tsv": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl"}
CASE_COLUMNS = ("id", "prompt_id", "text", "text_hash")


def text_hash(text: str) -> str:
    """First 16 hex digits of the SHA-256 of the answer text (detects scores of edited answers)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _format(path: Path) -> str:
    fmt = _FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise ConfigError(f"{path}: unknown file type {path.suffix!r}. Use one of {sorted(_FORMATS)}.")
    return fmt


@dataclass(frozen=True)
class ScoreRow:
    """One line of a scores file: the score (None when still blank), its text hash, its line."""

    score: float | None
    text_hash: str | None
    line: int


def export_cases(items: Sequence[Item] | Dataset, path: str | os.PathLike[str]) -> Path:
    """Write ``items`` to ``path`` (.csv, .tsv, .jsonl) with id, prompt_id, text and text_hash.

    An id that appears twice with different texts is an error (scores come back by id).
    """
    path = Path(path)
    fmt = _format(path)
    rows: dict[str, dict[str, str]] = {}
    for it in as_items(items):
        row = {"id": it.id, "prompt_id": it.prompt_id, "text": it.text, "text_hash": text_hash(it.text)}
        if it.id in rows and rows[it.id] != row:
            raise ConfigError(
                f"Item id {it.id!r} appears twice with different texts; give each answer its own id before exporting."
            )
        rows[it.id] = row
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8", newline="") as fh:
        if fmt == "jsonl":
            fh.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows.values())
        else:
            writer = csv.DictWriter(fh, fieldnames=CASE_COLUMNS, delimiter="\t" if fmt == "tsv" else ",")
            writer.writeheader()
            writer.writerows(rows.values())
    tmp.replace(path)
    return path


def _records(path: Path, fmt: str) -> Iterator[tuple[int, dict[str, Any]]]:
    with path.open(encoding="utf-8-sig", newline="") as fh:
        if fmt == "jsonl":
            for number, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise DatasetFormatError(
                        path, number, None, f'is not valid JSON ({exc.msg}); expected {{"id": ..., "score": ...}}.'
                    ) from None
                if not isinstance(record, dict):
                    raise DatasetFormatError(
                        path, number, None, f"is {type(record).__name__}; expected a JSON object with id and score."
                    )
                yield number, record
            return
        reader = csv.DictReader(fh, delimiter="\t" if fmt == "tsv" else ",")
        if not reader.fieldnames:
            raise DatasetFormatError(path, 1, None, "is empty; expected a header line such as 'id,score'.")
        for record in reader:
            yield reader.line_num, record


def _parse_score(path: Path, line: int, raw: Any, *, field: str) -> float | None:
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None  # not scored yet
    if isinstance(raw, bool) or not isinstance(raw, int | float | str):
        raise DatasetFormatError(path, line, field, f"is {raw!r}, expected a number (or empty when not scored yet).")
    try:
        return float(raw)
    except ValueError:
        raise DatasetFormatError(
            path, line, field, f"is {raw!r}, expected a number (or empty when not scored yet)."
        ) from None


def read_scores(
    path: str | os.PathLike[str], *, id_column: str = "id", score_column: str = "score"
) -> dict[str, ScoreRow]:
    """``{id: ScoreRow}`` from a CSV/TSV/JSONL scores file; malformed lines raise DatasetFormatError."""
    path = Path(path)
    fmt = _format(path)
    out: dict[str, ScoreRow] = {}
    for line, record in _records(path, fmt):
        if id_column not in record or score_column not in record:
            missing = id_column if id_column not in record else score_column
            raise DatasetFormatError(path, line, missing, f"is missing; the fields are {sorted(record)}.")
        raw_id = record[id_column]
        if isinstance(raw_id, bool) or not isinstance(raw_id, str | int) or not str(raw_id).strip():
            raise DatasetFormatError(path, line, id_column, f"is {raw_id!r}, expected a non-empty answer id.")
        key = str(raw_id).strip()
        if key in out:
            raise DatasetFormatError(
                path, line, id_column, f"{key!r} appears again (first on line {out[key].line}); keep one score per id."
            )
        digest = record.get("text_hash") or None
        out[key] = ScoreRow(_parse_score(path, line, record[score_column], field=score_column), digest, line)
    return out


def _outcome(row: ScoreRow | None, item: Item, path: Path) -> Outcome:
    if row is None or row.score is None:
        return Outcome(None, "error", f"no score for id {item.id!r} in {path}")
    if row.text_hash is not None and row.text_hash != text_hash(item.text):
        return Outcome(
            None, "error", f"{path} line {row.line}: the score was made for a different text (text_hash differs)"
        )
    return Outcome.from_value(row.score)


def _outcomes(path: Path, items: list[Item], **columns: str) -> list[Outcome]:
    rows = read_scores(path, **columns) if path.exists() else {}
    return [_outcome(rows.get(it.id), it, path) for it in items]


def import_scores(
    scores_path: str | os.PathLike[str],
    items: Sequence[Item] | Dataset,
    *,
    id_column: str = "id",
    score_column: str = "score",
) -> np.ndarray:
    """The scores of ``items`` from ``scores_path``, in item order; any missing score is a ScorerError."""
    path, items = Path(scores_path), as_items(items)
    outcomes = _outcomes(path, items, id_column=id_column, score_column=score_column)
    missing = [it.id for it, o in zip(items, outcomes, strict=True) if o.status == "error"]
    if missing:
        first = ", ".join(repr(i) for i in missing[:5])
        where = f"in {path}" if path.exists() else f"because {path} does not exist yet"
        raise ScorerError(
            f"{len(missing)} of {len(items)} answers have no usable score {where} (first: {first}). Export them with "
            f"export_pending(items, 'cases.csv', '{path}'), score them, add the scores to {path} and import again."
        )
    return outcomes_to_scores(outcomes, items, who=f"The scores file {path}")


def export_pending(
    items: Sequence[Item] | Dataset,
    cases_path: str | os.PathLike[str],
    scores_path: str | os.PathLike[str] | None = None,
) -> int:
    """Export the answers that ``scores_path`` does not score yet to ``cases_path``; returns how many."""
    items = as_items(items)
    if scores_path is not None:
        path = Path(scores_path)
        items = [it for it, o in zip(items, _outcomes(path, items), strict=True) if o.status == "error"]
    export_cases(items, cases_path)
    return len({it.id for it in items})


@scorers.register("file")
class FileScorer(BlackBoxScorer):
    """Scores read from a file that another system wrote (see :func:`export_pending`).

    Parameters
    ----------
    scores_path : str
        CSV/TSV (with a header) or JSONL file with one ``id`` and ``score`` per answer.
    id_column, score_column : str
        Names of the id and score columns.
    model_version : str
        Your label for the system that wrote the scores; part of the fingerprint.
    """

    kind = "file"
    preflight = False  # answers not scored yet are the normal state of a round trip, not a broken scorer

    def __init__(
        self, scores_path: str = "", *, id_column: str = "id", score_column: str = "score", model_version: str = ""
    ) -> None:
        self.scores_path = scores_path
        self.id_column = id_column
        self.score_column = score_column
        self.model_version = model_version

    def _validate_params(self) -> None:
        if not self.scores_path:
            raise ConfigError("The 'scores_path' parameter of FileScorer must name a CSV, TSV or JSONL file.")
        _format(Path(self.scores_path))

    def score(self, items: Sequence[Item] | Dataset) -> np.ndarray:
        """The scores in item order; ScorerError naming the answers the file does not score."""
        self._check_fitted()
        return import_scores(self.scores_path, items, id_column=self.id_column, score_column=self.score_column)

    def _outcomes(self, items: list[Item], policy: RetryPolicy) -> list[Outcome]:
        return _outcomes(Path(self.scores_path), items, id_column=self.id_column, score_column=self.score_column)

    def _identity(self) -> dict[str, Any]:
        path = Path(self.scores_path)
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16] if path.is_file() else None
        return {"scores_path": str(path.resolve()), "sha256": digest, "columns": [self.id_column, self.score_column]}

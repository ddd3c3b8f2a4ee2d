"""``tabular``: your own answers from a CSV, TSV or JSONL file, with a column mapping and no code.

Example
-------
A file ``answers.csv`` with columns ``question,answer,points``::

    >>> from bluffcheck.datasets import load
    >>> ds = load("tabular", path="answers.csv", prompt="question", text="answer", score="points")  # doctest: +SKIP

Score ranges per prompt are taken from ``score_ranges`` when given, else inferred from the lowest and
highest observed score of each prompt (``Dataset.metadata["score_ranges"]`` says which).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .._registry import datasets
from ..errors import ConfigError, DatasetFormatError
from ..types import Dataset, Item, Prompt
from ._common import PathLike, check_unique_ids, existing, read_delimited, read_text

__all__ = ["load_tabular"]

_NAME = "tabular"
_FORMATS = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl"}
Record = tuple[int, dict[str, Any]]


def _records(file: Path, fmt: str) -> tuple[list[str], list[Record]]:
    if fmt == "jsonl":
        records = []
        for line, raw in enumerate(read_text(file)[0].split("\n"), 1):  # JSON may hold a raw U+2028
            if not raw.strip():
                continue
            try:
                obj = json.loads(raw)
            except json.JSONDecodeError as exc:
                raise DatasetFormatError(
                    file, line, None, f"not valid JSON ({exc.msg} at column {exc.colno})."
                ) from None
            if not isinstance(obj, dict):
                raise DatasetFormatError(
                    file, line, None, f"expected a JSON object per line, got {type(obj).__name__}."
                )
            records.append((line, obj))
        return sorted({k for _, r in records for k in r}), records
    rows = read_delimited(file, "," if fmt == "csv" else "\t")
    if not rows:
        raise DatasetFormatError(file, 1, None, "the file is empty; expected a header line.")
    header = [h.strip() for h in rows[0][1]]
    out = []
    for line, fields in rows[1:]:
        if len(fields) != len(header):
            raise DatasetFormatError(
                file, line, None, f"the row has {len(fields)} fields, the header has {len(header)}."
            )
        out.append((line, dict(zip(header, fields, strict=True))))
    return header, out


def _number(value: Any, where: tuple[Path, int, str]) -> float | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise DatasetFormatError(*where, f"{value!r} is not a number.") from None
    if not math.isfinite(number) or isinstance(value, bool):
        raise DatasetFormatError(*where, f"{value!r} is not a finite number.")
    return number


def _ranges(
    items: list[Item], given: Mapping[str, Sequence[int]] | Sequence[int] | None
) -> tuple[dict[str, tuple[int, int] | None], str]:
    pids = list(dict.fromkeys(it.prompt_id for it in items))
    if given is not None:
        if isinstance(given, Mapping):
            missing = [p for p in pids if p not in given]
            if missing:
                raise ConfigError(f"Dataset {_NAME!r}: score_ranges has no range for prompts {missing[:5]}.")
            return {p: (int(given[p][0]), int(given[p][1])) for p in pids}, "given"
        return {p: (int(given[0]), int(given[1])) for p in pids}, "given"
    out: dict[str, tuple[int, int] | None] = {}
    for pid in pids:
        scores = [it.score for it in items if it.prompt_id == pid and it.score is not None]
        out[pid] = (math.floor(min(scores)), math.ceil(max(scores))) if scores else None
    return out, "inferred from the lowest and highest observed score of each prompt"


def _check_range(items: list[Item], ranges: dict[str, tuple[int, int] | None]) -> None:
    for it in items:
        bounds = ranges.get(it.prompt_id)
        if it.score is not None and bounds is not None and not bounds[0] <= it.score <= bounds[1]:
            meta = it.metadata
            raise DatasetFormatError(
                meta["source_file"], meta["source_line"], "score", f"{it.score:g} is outside {bounds[0]}..{bounds[1]}."
            )


def _text(value: Any, where: tuple[Path, int, str]) -> str:
    if value is None:
        raise DatasetFormatError(*where, "the answer text is missing (null); use an empty string for an empty answer.")
    return value if isinstance(value, str) else str(value)


@datasets.register(_NAME)
def load_tabular(
    path: PathLike | None = None,
    *,
    text: str = "text",
    prompt: str = "prompt_id",
    score: str = "score",
    label: str = "label",
    id: str = "id",  # noqa: A002 - the column-mapping name users type
    score_ranges: Mapping[str, Sequence[int]] | Sequence[int] | None = None,
    labels: Sequence[str] | None = None,
    format: str | None = None,  # noqa: A002
    name: str = "tabular",
    split: str = "",
) -> Dataset:
    """Load answers from a CSV, TSV or JSONL file.

    Parameters
    ----------
    path : str or Path
        The file. ``format`` defaults from the suffix (.csv, .tsv/.tab, .jsonl/.ndjson).
    text, prompt, score, label, id : str
        Column names. ``text`` must exist. A missing ``prompt`` column puts every answer under prompt
        ``"default"``; a missing ``id`` column numbers the answers by line; missing ``score``/``label``
        columns leave answers unscored/unlabelled. A column you name explicitly must exist.
    score_ranges : mapping of prompt id to (min, max), or one (min, max) for all, optional
        Scores outside the range are errors. Default: inferred per prompt from the observed scores.
    labels : sequence of str, optional
        The label set, "no credit" label first; other labels are errors. Default: the labels seen, sorted.
    name, split : str
        Stored on the returned :class:`~bluffcheck.types.Dataset`.
    """
    if path is None:
        raise ConfigError(f"Dataset {_NAME!r} needs path=... (a .csv, .tsv or .jsonl file of answers).")
    file = existing(path, _NAME)
    fmt = format or _FORMATS.get(file.suffix.lower())
    if fmt not in ("csv", "tsv", "jsonl"):
        raise ConfigError(
            f"Dataset {_NAME!r}: cannot tell the format of {file.name}; pass format='csv', 'tsv' or 'jsonl'."
        )
    header, records = _records(file, fmt)
    defaults = {"text": "text", "prompt": "prompt_id", "score": "score", "label": "label", "id": "id"}
    mapping = {"text": text, "prompt": prompt, "score": score, "label": label, "id": id}
    for role, column in mapping.items():
        if column not in header and (role == "text" or column != defaults[role]) and (records or fmt != "jsonl"):
            raise DatasetFormatError(
                file, 1, column, f"no column {column!r} (the {role} column); the columns are {header}."
            )
    items = [_item(file, line, rec, mapping) for line, rec in records]
    check_unique_ids(items, lambda it: f"line {it.metadata['source_line']}")
    _check_labels(items, labels, file)
    ranges, how = _ranges(items, score_ranges)
    _check_range(items, ranges)
    label_set = (
        tuple(labels)
        if labels is not None
        else tuple(sorted({it.label for it in items if it.label is not None})) or None
    )
    prompts = {pid: Prompt(pid, score_range=rng, labels=label_set) for pid, rng in ranges.items()}
    meta = {"source_file": str(file), "columns": mapping, "score_ranges": how}
    return Dataset(name, tuple(items), prompts, split, metadata=meta)


def _item(file: Path, line: int, rec: dict[str, Any], mapping: dict[str, str]) -> Item:
    body = _text(rec.get(mapping["text"]), (file, line, mapping["text"]))
    pid = rec.get(mapping["prompt"], "default")
    value = _number(rec.get(mapping["score"]), (file, line, mapping["score"]))
    label = rec.get(mapping["label"])
    label = None if label is None or (isinstance(label, str) and not label.strip()) else str(label).strip()
    item_id = rec.get(mapping["id"], line)
    meta = {"source_file": str(file), "source_line": line}
    return Item(str(item_id).strip(), str(pid).strip() or "default", body, value, label, metadata=meta)


def _check_labels(items: list[Item], labels: Sequence[str] | None, file: Path) -> None:
    if labels is None:
        return
    for it in items:
        if it.label is not None and it.label not in labels:
            raise DatasetFormatError(
                file, it.metadata["source_line"], "label", f"{it.label!r} is not one of {list(labels)}."
            )

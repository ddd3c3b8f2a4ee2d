"""Helpers shared by the dataset loaders: finding files, decoding, caching, checked parsing."""

from __future__ import annotations

import csv
import functools
import io
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ..errors import ConfigError, DatasetFormatError, MissingDataError
from ..paths import ENV_VAR, data_root
from ..types import Item

__all__ = [
    "Row",
    "cached_by_file",
    "check_choice",
    "check_unique_ids",
    "decode",
    "default_path",
    "existing",
    "field",
    "header_index",
    "parse_int",
    "read_delimited",
    "read_text",
]

PathLike = str | os.PathLike[str]
Row = tuple[int, list[str]]  # (1-based line where the record starts, fields)

csv.field_size_limit(1 << 30)


def default_path(name: str, *parts: str, root: PathLike | None = None) -> Path:
    """``<data root>/<parts>`` checked to exist; the error says how to point bluffcheck at the data."""
    base = Path(root) if root is not None else data_root()
    assert base is not None  # data_root raises when nothing is found
    return existing(base.joinpath(*parts), name)


def existing(path: PathLike, name: str) -> Path:
    """``path`` itself, or :class:`MissingDataError` naming where it was expected and how to fix it."""
    path = Path(path).expanduser()
    if not path.exists():
        raise MissingDataError(
            f"Dataset {name!r}: {path} does not exist. Set {ENV_VAR} to the data folder that contains it, "
            f"or pass the file or folder explicitly (path=... in Python, -o path=... on the command line)."
        )
    return path


def check_choice(name: str, option: str, value: Any, choices: Sequence[Any]) -> None:
    """ConfigError in the project's template when ``value`` is not one of ``choices``."""
    if value not in choices:
        shown = ", ".join(repr(c) for c in choices)
        raise ConfigError(f"The {option!r} option of dataset {name!r} must be one of {shown}. Got {value!r} instead.")


def decode(data: bytes) -> tuple[str, str]:
    """Text and encoding name: UTF-8 (a BOM is dropped), else cp1252, else latin-1 (never fails)."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8"), "utf-8-sig"
    for encoding in ("utf-8", "cp1252"):
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1"), "latin-1"


_RACY_NS = 2_000_000_000


def _stat_key(path: Path) -> tuple[str, int, int, int]:
    # A file modified in the last two seconds may change again without a visible mtime/size change
    # (coarse timestamps), so such a file gets a one-off key and is never served from the cache.
    st = path.stat()
    racy = time.time_ns() - st.st_mtime_ns < _RACY_NS
    return (str(path.resolve()), st.st_mtime_ns, st.st_size, time.monotonic_ns() if racy else 0)


@functools.lru_cache(maxsize=64)
def _read_text_cached(key: tuple[str, int, int, int]) -> tuple[str, str]:
    return decode(Path(key[0]).read_bytes())


def cached_by_file(func: Callable[[Path], Any]) -> Callable[[PathLike], Any]:
    """Cache ``func(path)`` per (path, mtime, size) within a process (files changed in the last 2 s are re-read); ``func`` must return something immutable."""

    @functools.lru_cache(maxsize=32)
    def by_key(key: tuple[str, int, int, int]) -> Any:
        return func(Path(key[0]))

    @functools.wraps(func)
    def wrapper(path: PathLike) -> Any:
        return by_key(_stat_key(Path(path)))

    wrapper.cache_clear = by_key.cache_clear  # type: ignore[attr-defined]
    return wrapper


def read_text(path: PathLike) -> tuple[str, str]:
    """Decoded text of a file and its encoding, cached per (path, mtime, size) within a process."""
    return _read_text_cached(_stat_key(Path(path)))


@functools.lru_cache(maxsize=64)
def _read_delimited_cached(key: tuple[str, int, int, int], delimiter: str, quoted: bool) -> tuple[Row, ...]:
    text, _ = _read_text_cached(key)
    return tuple(_records(text, delimiter, quoted, key[0]))


def _records(text: str, delimiter: str, quoted: bool, path: str) -> Iterator[Row]:
    if not quoted:  # split on the delimiter only: a stray quote cannot swallow the following lines
        for number, line in enumerate(text.split("\n"), start=1):  # not splitlines(): \x0c, \u2028 are text
            if line.strip():
                yield number, line.removesuffix("\r").split(delimiter)
        return
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    start = 1
    while True:
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise DatasetFormatError(path, reader.line_num, None, f"unreadable quoting ({exc}).") from None
        if any(f.strip() for f in fields):
            yield start, fields
        start = reader.line_num + 1


def read_delimited(path: PathLike, delimiter: str, *, quoted: bool = True) -> tuple[Row, ...]:
    """Records of a CSV/TSV file as ``(line, fields)``; blank lines are skipped, everything else kept.

    ``quoted=True`` follows CSV quoting (``"a ""b"" c"``); ``quoted=False`` splits on the delimiter only.
    Cached per (path, mtime, size) within a process.
    """
    return _read_delimited_cached(_stat_key(Path(path)), delimiter, quoted)


def header_index(path: PathLike, header: Sequence[str], required: Iterable[str]) -> dict[str, int]:
    """Column name -> index; DatasetFormatError naming the first required column that is missing."""
    index = {name.strip(): i for i, name in enumerate(header)}
    for name in required:
        if name not in index:
            raise DatasetFormatError(
                path, 1, name, f"missing column {name!r}; the header has {[h.strip() for h in header]}."
            )
    return index


def field(path: PathLike, row: Row, index: int, name: str) -> str:
    """Field ``index`` of a record, or DatasetFormatError when the record is too short."""
    line, fields = row
    if index >= len(fields):
        raise DatasetFormatError(path, line, name, f"the record has {len(fields)} fields; expected a value here.")
    return fields[index]


def parse_int(value: str, *, where: tuple[PathLike, int, str], low: int | None = None, high: int | None = None) -> int:
    """An integer (``"2"`` or ``"2.0"``) checked against ``low..high``; DatasetFormatError otherwise."""
    path, line, name = where
    expected = (
        f"expected an integer in {low}..{high}" if low is not None and high is not None else "expected an integer"
    )
    try:
        number = float(value)
    except ValueError:
        raise DatasetFormatError(path, line, name, f"{value!r} is not a number, {expected}.") from None
    if not number.is_integer():
        raise DatasetFormatError(path, line, name, f"{value!r} is not a whole number, {expected}.")
    result = int(number)
    if (low is not None and result < low) or (high is not None and result > high):
        raise DatasetFormatError(path, line, name, f"{value!r} is out of range, {expected}.")
    return result


def check_unique_ids(items: Iterable[Item], describe: Callable[[Item], str]) -> None:
    """DatasetFormatError when two items share an id (``describe`` says where an item came from)."""
    seen: dict[str, Item] = {}
    for item in items:
        if item.id in seen:
            first = seen[item.id]
            meta = item.metadata
            raise DatasetFormatError(
                meta.get("source_file", "?"),
                meta.get("source_line"),
                "id",
                f"duplicate id {item.id!r} (first seen at {describe(first)}); ids must be unique.",
            )
        seen[item.id] = item

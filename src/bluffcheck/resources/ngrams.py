"""Frequency tables of character and word n-grams of a corpus, cached per (corpus, level, n).

N-grams are counted inside each unit (sentence or answer) after appending the end-of-sentence
token (``"\\n"`` for characters, ``"</s>"`` for words), so a gram containing EOS has it last.
Tables are built with NumPy (unique codes and counts) and kept in a small LRU cache, so drawing
1,000 answers per method re-uses one table.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

import numpy as np

from ..errors import ConfigError
from .corpora import Corpus

__all__ = ["EOS_CHAR", "EOS_WORD", "NgramTable", "clear_cache", "ngram_table", "vocabulary"]

EOS_CHAR = "\n"
EOS_WORD = "</s>"
Level = Literal["char", "word"]
_CACHE: OrderedDict[tuple[str, str, int], NgramTable] = OrderedDict()
_CACHE_SIZE = 48
_LOCK = threading.Lock()


@dataclass(frozen=True)
class NgramTable:
    """The distinct n-grams of a corpus with their counts.

    Grams are kept as positions in the corpus's symbol stream (``source``: the text for characters,
    the word list for words) and spelled out only when asked for (:meth:`spell`, :attr:`grams`).

    Attributes
    ----------
    counts : ndarray of int64
    eos : ndarray of bool
        Whether the gram ended in the end-of-sentence token.
    cdf : ndarray of float64
        Cumulative relative frequency, for frequency-weighted sampling with ``searchsorted``.
    """

    level: str
    n: int
    counts: np.ndarray
    eos: np.ndarray
    cdf: np.ndarray
    starts: np.ndarray = field(repr=False)
    source: str | list[str] = field(repr=False)

    def sample(self, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
        """Indices of grams drawn with probability proportional to their corpus frequency."""
        idx = np.searchsorted(self.cdf, rng.random(shape), side="right")
        return np.minimum(idx, len(self.cdf) - 1)

    def spell(self, indices: np.ndarray) -> list[Any]:
        """The grams at ``indices`` without their EOS token: strings (char) or tuples of words (word)."""
        lengths = self.n - self.eos[indices]
        src = self.source
        return [
            src[s : s + k] if isinstance(src, str) else tuple(src[s : s + k])
            for s, k in zip(self.starts[indices].tolist(), lengths.tolist(), strict=True)
        ]

    @cached_property
    def grams(self) -> np.ndarray:
        """Every gram, spelled out (for inspection and tests; sampling uses :meth:`spell`)."""
        out = np.empty(len(self.counts), dtype=object)
        out[:] = self.spell(np.arange(len(self.counts)))
        return out


def _char_ids(units: tuple[str, ...]) -> tuple[np.ndarray, str]:
    """Dense symbol ids (EOS ``\\n`` = 0) of all units, each followed by EOS; normalised text is ASCII."""
    text = "".join(u + EOS_CHAR for u in units)
    raw = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    present = np.flatnonzero(np.bincount(raw, minlength=256))  # "\n" (10) sorts first: ids are a-z, 0-9, ' and space
    dense = np.zeros(256, dtype=np.int64)
    dense[present] = np.arange(len(present))
    return dense[raw], text


def _word_ids(units: tuple[tuple[str, ...], ...]) -> tuple[np.ndarray, list[str]]:
    flat = [w for u in units for w in (*u, EOS_WORD)]
    index: dict[str, int] = {EOS_WORD: 0}
    ids = np.fromiter((index.setdefault(w, len(index)) for w in flat), dtype=np.int64, count=len(flat))
    return ids, flat


def _group(ids: np.ndarray, n: int, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Index (into ``starts``) of the first occurrence and the count of each distinct n-gram.

    Grams are packed into as few int64 keys as the alphabet size allows (one key for characters
    and for word n-grams up to n=4 with Brown's vocabulary) and grouped with one sort.
    """
    base = int(ids.max()) + 1
    per_key = max(1, int(np.floor(62 / np.log2(max(base, 2)))))
    span = len(ids) - n + 1
    keys = []
    for lo in range(0, n, per_key):
        key = np.zeros(span, dtype=np.int64)
        for k in range(lo, min(n, lo + per_key)):
            key = key * base + ids[k : k + span]
        keys.append(key[starts])
    if len(keys) == 1 and base**n <= 1 << 22:  # small code space: count without sorting
        counts = np.bincount(keys[0], minlength=base**n)
        where = np.empty(base**n, dtype=np.int64)
        where[keys[0]] = np.arange(len(keys[0]))  # any occurrence represents its gram
        present = np.flatnonzero(counts)
        return where[present], counts[present]
    order = np.argsort(keys[0]) if len(keys) == 1 else np.lexsort(keys[::-1])
    change = np.zeros(len(order), dtype=bool)
    change[0] = True
    for key in keys:
        change[1:] |= key[order][1:] != key[order][:-1]
    first = np.flatnonzero(change)
    return order[first], np.diff(np.append(first, len(order)))


_STREAMS: OrderedDict[tuple[str, str], tuple[np.ndarray, np.ndarray, np.ndarray, Any]] = OrderedDict()


def _stream(corpus: Corpus, level: Level) -> tuple[np.ndarray, np.ndarray, np.ndarray, Any]:
    """Symbol ids, EOS mask, unit number per symbol and the spelled source; shared by n = 1..5."""
    key = (corpus.key, level)
    with _LOCK:
        if key in _STREAMS:
            return _STREAMS[key]
    if level == "char":
        ids, source = _char_ids(corpus.char_units)
        is_eos = ids == 0
    else:
        ids, source = _word_ids(corpus.word_units)
        is_eos = ids == 0
    unit_of = np.concatenate([[0], np.cumsum(is_eos[:-1])])
    with _LOCK:
        _STREAMS[key] = (ids, is_eos, unit_of, source)
        while len(_STREAMS) > 2:
            _STREAMS.popitem(last=False)
    return ids, is_eos, unit_of, source


def _build(corpus: Corpus, level: Level, n: int) -> NgramTable:
    ids, is_eos, unit_of, source = _stream(corpus, level)
    span = max(len(ids) - n + 1, 0)
    starts = np.flatnonzero(unit_of[:span] == unit_of[n - 1 : n - 1 + span])
    if starts.size == 0:
        raise ConfigError(
            f"The corpus {corpus.name!r} has no {level} {n}-grams (every unit is shorter than {n}). "
            "Use a smaller n or a larger corpus."
        )
    first, counts = _group(ids, n, starts)
    reps = starts[first]
    has_eos = is_eos[reps + n - 1]  # EOS can only be the last symbol of a within-unit gram
    cdf = np.cumsum(counts, dtype=np.float64)
    return NgramTable(level, n, counts.astype(np.int64), has_eos, cdf / cdf[-1], reps, source)


def ngram_table(corpus: Corpus, level: Level, n: int) -> NgramTable:
    """The (cached) n-gram table of ``corpus`` at ``level`` (``"char"`` or ``"word"``), ``n`` in 1..5."""
    if level not in ("char", "word"):
        raise ConfigError(f"The level of an n-gram table must be 'char' or 'word'. Got {level!r} instead.")
    if not (isinstance(n, int) and 1 <= n <= 5):
        raise ConfigError(f"The order of an n-gram table must be an integer in 1..5. Got {n!r} instead.")
    corpus.require_text()
    key = (corpus.key, level, n)
    with _LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    table = _build(corpus, level, n)
    with _LOCK:
        _CACHE[key] = table
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return table


_VOCAB: OrderedDict[str, np.ndarray] = OrderedDict()


def vocabulary(corpus: Corpus) -> np.ndarray:
    """The sorted distinct word types of ``corpus`` (cached), for uniform word sampling."""
    corpus.require_text()
    with _LOCK:
        if corpus.key in _VOCAB:
            return _VOCAB[corpus.key]
    vocab = np.array(sorted({w for u in corpus.word_units for w in u}), dtype=object)
    with _LOCK:
        _VOCAB[corpus.key] = vocab
        while len(_VOCAB) > 8:
            _VOCAB.popitem(last=False)
    return vocab


def clear_cache() -> None:
    """Forget every cached table (tests, or to free memory)."""
    with _LOCK:
        _CACHE.clear()
        _VOCAB.clear()
        _STREAMS.clear()

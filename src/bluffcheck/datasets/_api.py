"""``load``, ``describe`` and ``available``: the dataset functions most code and the CLI use."""

from __future__ import annotations

import inspect
from collections import Counter
from pathlib import Path
from typing import Any

from .._registry import datasets
from ..errors import ConfigError
from ..paths import data_root
from ..types import Dataset

__all__ = ["available", "describe", "load"]


def _options(loader: Any) -> list[str]:
    params = inspect.signature(loader).parameters.values()
    return [p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def load(name: str, /, **options: Any) -> Dataset:
    """Load the registered dataset ``name`` with keyword ``options`` (``path=``, ``split=`` ...).

    Raises
    ------
    UnknownComponentError
        For an unknown name (the message suggests close ones).
    ConfigError
        For an option the loader does not take; the message lists the valid ones.

    Examples
    --------
    >>> from bluffcheck.datasets import load
    >>> load("semeval-demo", ways=2)
    Dataset('semeval-demo', split='train', 496 items, 12 prompts)
    """
    loader = datasets.get(name)
    valid = _options(loader)
    unknown = sorted(set(options) - set(valid))
    if unknown:
        raise ConfigError(
            f"Dataset {name!r} has no option {', '.join(repr(u) for u in unknown)}. Valid options: {', '.join(valid)}."
        )
    return loader(**options)


def _distribution(values: list[Any], order: tuple[str, ...] = ()) -> dict[str, int]:
    counts = Counter(v for v in values if v is not None)
    rank = {label: i for i, label in enumerate(order)}
    return {_key(k): counts[k] for k in sorted(counts, key=lambda v: (rank.get(v, len(rank)), isinstance(v, str), v))}


def _key(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _label_order(dataset: Dataset) -> tuple[str, ...]:
    return next((p.labels for p in dataset.prompts.values() if p.labels), ())


def describe(dataset: Dataset) -> dict[str, Any]:
    """Counts per prompt and the score/label distributions, as plain JSON-ready values."""
    per_prompt = {}
    groups = dataset.by_prompt()
    for pid, prompt in dataset.prompts.items():
        if pid not in groups:
            continue
        part = groups[pid]
        per_prompt[pid] = {
            "items": len(part),
            "score_range": list(prompt.score_range) if prompt.score_range else None,
            "labels": list(prompt.labels) if prompt.labels else None,
            "scores": _distribution(part.scores()),
            "label_counts": _distribution(part.labels(), prompt.labels or ()),
            "unscored": sum(s is None for s in part.scores()),
            "empty_answers": sum(not it.text.strip() for it in part),
            "mean_words": round(sum(len(it.text.split()) for it in part) / len(part), 1),
            "has_question": bool(prompt.question),
        }
    return {
        "name": dataset.name,
        "split": dataset.split,
        "items": len(dataset),
        "prompts": len(dataset.prompts),
        "scores": _distribution(dataset.scores()),
        "label_counts": _distribution(dataset.labels(), _label_order(dataset)),
        "unscored": sum(s is None for s in dataset.scores()),
        "empty_answers": sum(not it.text.strip() for it in dataset),
        "per_prompt": per_prompt,
    }


def available(root: str | Path | None = None, *, counts: bool = False) -> list[dict[str, Any]]:
    """Which registered datasets are found under the data folder (``root``, default the usual one).

    Each entry has ``name``, ``options`` (the keyword options that select it), ``path``, ``found`` and,
    with ``counts=True``, ``items`` and ``prompts`` (loading each found dataset once). Loaders without
    a fixed location (``tabular``, plugins without a ``probe``) are listed with ``found=None``.
    """
    base = Path(root) if root is not None else data_root(required=False)
    entries: list[dict[str, Any]] = []
    for name in datasets.names():
        probe = getattr(datasets.get(name), "probe", None)
        if probe is None:
            entries.append({"name": name, "options": {}, "path": None, "found": None})
        elif base is None and not getattr(probe, "bundled", False):
            entries.append({"name": name, "options": {}, "path": None, "found": False})
        else:
            entries.extend({"name": name, **entry} for entry in probe(base))
    for entry in entries:
        how = entry.pop("load", None)
        if counts and entry["found"]:
            ds = load(entry["name"], **(how if how is not None else entry["options"]))
            entry.update(items=len(ds), prompts=len(ds.prompts))
    return entries

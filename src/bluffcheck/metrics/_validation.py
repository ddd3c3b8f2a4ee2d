"""Input checks shared by the metric modules: arrays of finite numbers, equal lengths, no NaN."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import ConfigError

__all__ = ["as_finite", "as_pair", "as_labels"]


def as_finite(values: Any, name: str, *, allow_empty: bool = False) -> np.ndarray:
    """A 1-D float array; NaN, infinity or an empty input raise :class:`ConfigError`."""
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ConfigError(f"{name} must be a sequence of numbers. Got {type(values).__name__} instead.") from None
    if arr.ndim != 1:
        raise ConfigError(f"{name} must be one-dimensional. Got shape {arr.shape} instead.")
    if arr.size == 0 and not allow_empty:
        raise ConfigError(f"{name} is empty; a metric needs at least one value.")
    bad = ~np.isfinite(arr)
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        raise ConfigError(
            f"{name} holds {int(bad.sum())} NaN or infinite values (first at position {first}). "
            "Find out why the scorer returned them; metrics never drop them silently."
        )
    return arr


def as_pair(a: Any, b: Any, names: tuple[str, str]) -> tuple[np.ndarray, np.ndarray]:
    """Two finite 1-D float arrays of the same length."""
    x, y = as_finite(a, names[0]), as_finite(b, names[1])
    if x.shape != y.shape:
        raise ConfigError(f"{names[0]} and {names[1]} must have the same length. Got {x.size} and {y.size} instead.")
    return x, y


def as_labels(values: Any, name: str) -> np.ndarray:
    """A 1-D object array of labels; ``None`` or NaN labels raise :class:`ConfigError`."""
    arr = np.asarray(list(values), dtype=object)
    if arr.size == 0:
        raise ConfigError(f"{name} is empty; a metric needs at least one label.")
    missing = [i for i, v in enumerate(arr) if v is None or (isinstance(v, float) and np.isnan(v))]
    if missing:
        raise ConfigError(f"{name} has {len(missing)} missing labels (first at position {missing[0]}).")
    return arr

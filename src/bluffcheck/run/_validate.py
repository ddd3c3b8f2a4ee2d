"""Strict, message-rich type checks for suite tables (file, table and key in every message)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any, NoReturn

from ..errors import ConfigError

__all__ = ["Checker"]

_MISSING: Any = object()


class Checker:
    """Validates values of one suite file; every error names ``source``, the table and the key."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, key: str, must: str, got: Any) -> NoReturn:
        """Raise the template message: ``file: [table]: key 'k' must be ... Got x instead.``"""
        raise ConfigError(f"{self.source}: {where}: key {key!r} {must}. Got {got!r} instead.")

    def keys(self, table: dict[str, Any], where: str, allowed: Iterable[str], *, kind: str = "key") -> None:
        """Reject keys that are not in ``allowed``, suggesting close names."""
        allowed = list(allowed)
        for key in table:
            if key not in allowed:
                close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
                hint = f" Did you mean {close[0]!r}?" if close else ""
                raise ConfigError(
                    f"{self.source}: {where}: unknown {kind} {key!r}.{hint} Valid {kind}s: {', '.join(allowed)}."
                )

    def as_table(self, value: Any, where: str) -> dict[str, Any]:
        """``value`` if it is a table."""
        if not isinstance(value, dict):
            raise ConfigError(f"{self.source}: {where} must be a table. Got {value!r} instead.")
        return value

    def table(self, parent: dict[str, Any], key: str, where: str) -> dict[str, Any]:
        """A sub-table (``{}`` when absent)."""
        value = parent.get(key, {})
        if not isinstance(value, dict):
            self.fail(where, key, "must be a table", value)
        return value

    def array(self, parent: dict[str, Any], key: str) -> list[Any]:
        """An array of tables (``[]`` when absent)."""
        value = parent.get(key, [])
        if not isinstance(value, list):
            raise ConfigError(
                f"{self.source}: {key!r} must be an array of tables, written [[{key}]]. Got {value!r} instead."
            )
        return value

    def _get(self, table: dict[str, Any], key: str, where: str, default: Any, what: str) -> Any:
        if key in table:
            return table[key]
        if default is None and what:
            raise ConfigError(f"{self.source}: {where}: key {key!r} is required ({what}).")
        return default

    def string(self, table: dict[str, Any], key: str, where: str, default: str | None, *, nonempty: bool = False) -> str:
        """A string value."""
        value = self._get(table, key, where, default, "a string")
        if not isinstance(value, str) or (nonempty and not value.strip()):
            self.fail(where, key, "must be a non-empty string" if nonempty else "must be a string", value)
        return value

    def strings(self, table: dict[str, Any], key: str, where: str) -> list[str]:
        """A list of strings (``[]`` when absent)."""
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fail(where, key, "must be a list of strings", value)
        return value

    def integer(self, table: dict[str, Any], key: str, where: str, default: int | None, *, minimum: int = 0) -> int:
        """An integer >= ``minimum``."""
        value = self._get(table, key, where, default, "an integer")
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            must = {0: "a non-negative integer", 1: "a positive integer"}.get(minimum, f"an integer >= {minimum}")
            self.fail(where, key, f"must be {must}", value)
        return value

    def number(
        self, table: dict[str, Any], key: str, where: str, default: float | None, *, minimum: float | None = None
    ) -> Any:
        """A number (int or float) >= ``minimum``; ``default`` may be ``None`` for optional keys."""
        if key not in table:
            return default
        value = table[key]
        if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
            self.fail(where, key, "must be a number", value)
        if minimum is not None and value < minimum:
            self.fail(where, key, f"must be a number >= {minimum}", value)
        return float(value)

    def fraction(self, table: dict[str, Any], key: str, where: str) -> float:
        """A number in [0, 1]."""
        value = table[key]
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 <= value <= 1.0:
            self.fail(where, key, "must be a number between 0 and 1", value)
        return float(value)

    def boolean(self, table: dict[str, Any], key: str, where: str, default: bool) -> bool:
        """A true/false value."""
        value = table.get(key, default)
        if not isinstance(value, bool):
            self.fail(where, key, "must be true or false", value)
        return value

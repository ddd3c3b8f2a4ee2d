"""Helpers shared by the CLI verbs: console, progress bar, parsing key=value options."""

from __future__ import annotations

import json
from typing import Any

from rich.console import Console

console = Console()
err_console = Console(stderr=True)


def parse_params(pairs: list[str] | None) -> dict[str, Any]:
    """``["C=1.0", "kernel=linear"]`` -> ``{"C": 1.0, "kernel": "linear"}`` (values parsed as JSON when they can be)."""
    from ..errors import ConfigError

    out: dict[str, Any] = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise ConfigError(f"Option {pair!r} must look like key=value.")
        key, raw = pair.split("=", 1)
        try:
            out[key.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            out[key.strip()] = raw
    return out

"""``bluffcheck list``: the registered scorers, datasets and generators, with one line each."""

from __future__ import annotations

import inspect
from typing import Annotated

import typer

from ._common import console

__all__ = ["list_components", "register", "summary_line"]

KINDS = ("scorers", "datasets", "generators")


def summary_line(component: object) -> str:
    """The first line of a component's docstring (empty when it has none)."""
    doc = inspect.getdoc(component) or ""
    return doc.strip().splitlines()[0] if doc.strip() else ""


def list_components(
    kind: Annotated[str | None, typer.Argument(help="scorers, datasets or generators (default: all three).")] = None,
) -> None:
    """List registry names with the first line of their docstring."""
    from .. import _registry
    from ..errors import ConfigError

    if kind is not None and kind not in KINDS:
        raise ConfigError(f"`bluffcheck list` takes one of {', '.join(KINDS)}. Got {kind!r} instead.")
    from rich.table import Table

    for name in [kind] if kind else KINDS:
        registry = getattr(_registry, name)
        table = Table(title=name, show_header=False, title_justify="left")
        table.add_column("name", style="bold")
        table.add_column("description")
        for entry in registry.names():
            table.add_row(entry, summary_line(registry.get(entry)))
        console.print(table)


def register(app: typer.Typer) -> None:
    """Add the ``list`` verb."""
    app.command("list")(list_components)

"""The ``bluffcheck`` command line: thin Typer commands over library functions.

Each module in this package is one verb group and defines ``register(app)``; modules are found
automatically, so adding a verb is one new file. Heavy imports happen inside the commands.
"""

from __future__ import annotations

import importlib
import pkgutil

import typer

__all__ = ["app", "main"]

app = typer.Typer(
    name="bluffcheck",
    help="Call out bluffing against automated scoring: load data, train victims, generate bluffs, measure robustness.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _register_all() -> None:
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(app)


_register_all()


def main() -> None:
    """Console entry point: turns bluffcheck errors into a one-line message and exit code 2."""
    from ..errors import BluffcheckError

    try:
        app()
    except BluffcheckError as exc:
        typer.secho(f"error: {type(exc).__name__}: {exc}", err=True, fg="red")
        raise SystemExit(2) from None

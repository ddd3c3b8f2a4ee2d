"""``bluffcheck report RUN_DIR``: re-render a run folder's report without rerunning anything."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ._common import console

__all__ = ["register", "report"]


def report(
    run_dir: Annotated[Path, typer.Argument(help="The run folder (holds records.parquet or store.sqlite, and config.json).")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Where to write the HTML page (default: RUN_DIR/report.html).")] = None,
    n_boot: Annotated[int, typer.Option("--n-boot", min=1, help="Bootstrap resamples for the ARR confidence intervals.")] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the bootstrap.")] = 0,
) -> None:
    """Write report.html, summary.json and summary.md from a run folder's records (nothing is rerun)."""
    from ..report.html import render

    page = render(run_dir, out=out, n_boot=n_boot, seed=seed)
    console.print(f"report: {page}", soft_wrap=True, highlight=False)
    console.print(f"summary: {Path(run_dir) / 'summary.json'}, {Path(run_dir) / 'summary.md'}", soft_wrap=True, highlight=False)


def register(app: typer.Typer) -> None:
    """Add the ``report`` verb."""
    app.command("report")(report)

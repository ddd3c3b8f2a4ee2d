"""``bluffcheck train``: fit a scorer on a dataset and save it to a folder."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from ._common import console, parse_params

__all__ = ["register", "train"]


def train(
    scorer: Annotated[str, typer.Argument(help="Scorer registry name (see `bluffcheck list scorers`).")],
    dataset: Annotated[str, typer.Option("--dataset", "-d", help="Dataset registry name (see `bluffcheck list datasets`).")],
    out: Annotated[Path, typer.Option("--out", help="Folder to save the fitted scorer in.")],
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Dataset option key=value (repeatable).")] = None,
    param: Annotated[list[str] | None, typer.Option("--param", "-p", help="Scorer parameter key=value (repeatable).")] = None,
) -> None:
    """Fit a scorer on a dataset and save it (load it again with bluffcheck.scorers.persist.load)."""
    from ..scorers.persist import save
    from .evaluate import load_dataset, make_scorer, progress_after

    model = make_scorer(scorer, parse_params(param))
    data = load_dataset(dataset, parse_params(option))
    with progress_after(f"training {scorer} on {len(data)} answers") as update:
        update(0, 1)
        t0 = time.perf_counter()
        model.fit(data)
        seconds = time.perf_counter() - t0
        update(1, 1)
    save(model, out)
    console.print(f"trained {scorer} on {dataset} ({len(data)} answers, {seconds:.2f} s); saved to {out}")


def register(app: typer.Typer) -> None:
    """Add the ``train`` verb."""
    app.command("train")(train)

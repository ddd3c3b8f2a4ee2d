"""``bluffcheck pending RUN_DIR --out cases.csv``: the answers a run could not score yet, for a file round trip."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ._common import console

__all__ = ["pending", "register"]


def pending(
    run_dir: Annotated[Path, typer.Argument(help="The run folder (holds store.sqlite).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Cases file to write: .csv, .tsv or .jsonl.")],
    scorer: Annotated[str | None, typer.Option(help="Only answers this scorer (e.g. 'file') has not scored.")] = None,
) -> None:
    """Export the answers without an ok score (id, prompt_id, text, text_hash) so another system can score them.

    Score them into the ``file`` scorer's ``scores_path`` (columns ``id,score``), then rerun the suite:
    only the unscored records are recomputed.
    """
    from ..run.export import export_pending_cases

    n = export_pending_cases(run_dir, out, scorer=scorer)
    if n:
        console.print(f"{n} answers to score: {out}", soft_wrap=True, highlight=False)
    else:
        console.print("nothing pending: every record of the run has a score", highlight=False)


def register(app: typer.Typer) -> None:
    """Add the ``pending`` verb."""
    app.command("pending")(pending)

"""``bluffcheck datasets``: list the datasets found, and describe one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from ._common import console, parse_params

__all__ = ["register"]

datasets_app = typer.Typer(
    help="List the datasets bluffcheck finds (with counts) and describe one.",
    invoke_without_command=True,
    no_args_is_help=False,
)


@datasets_app.callback()
def list_datasets(
    ctx: typer.Context,
    root: Annotated[
        Path | None, typer.Option(help="Data folder (default: $BLUFFCHECK_DATA or ../shared/data).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """List every registered dataset, where it is looked for, and its size when found."""
    if ctx.invoked_subcommand is not None:
        return
    from rich.table import Table

    from ..datasets import available
    from ..paths import data_root

    entries = available(root, counts=True)
    if as_json:
        typer.echo(json.dumps(entries, indent=2))
        return
    base = Path(root) if root is not None else data_root(required=False)
    table = Table(title="Datasets", caption=f"data folder: {base if base is not None else 'not found'} "
                  "(paths: --json)")
    for column in ("name", "options (-o key=value)", "found", "prompts", "answers"):
        numeric = column in ("prompts", "answers")
        table.add_column(column, justify="right" if numeric else "left", no_wrap=not column.startswith("options"))
    for e in entries:
        found = {True: "[green]yes[/]", False: "[red]no[/]", None: "your file"}[e["found"]]
        options = " ".join(f"{k}={v}" for k, v in e["options"].items())
        table.add_row(e["name"], options, found, str(e.get("prompts", "")), str(e.get("items", "")))
    console.print(table)
    console.print("Describe one: bluffcheck datasets describe NAME -o key=value ...")


@datasets_app.command("describe")
def describe_dataset(
    name: Annotated[str, typer.Argument(help="Dataset name, e.g. semeval-demo, asap-sas, semeval2013.")],
    option: Annotated[
        list[str] | None, typer.Option("-o", "--option", help="Loader option key=value (repeatable).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """Counts per prompt and the score/label distribution of one dataset."""
    from ..datasets import describe, load

    summary = describe(load(name, **parse_params(option)))
    if as_json:
        typer.echo(json.dumps(summary, indent=2))
        return
    _print_summary(summary)


def _dist(counts: dict[str, int]) -> str:
    return "  ".join(f"{k}:{v}" for k, v in counts.items())


def _print_summary(summary: dict[str, Any]) -> None:
    from rich.table import Table

    split = f" ({summary['split']})" if summary["split"] else ""
    console.print(f"[bold]{summary['name']}[/]{split}: {summary['items']} answers, {summary['prompts']} prompts")
    if summary["scores"] and len(summary["scores"]) <= 12:  # wide ranges (essays): see the per-prompt table
        console.print(f"scores: {_dist(summary['scores'])}")
    if summary["label_counts"]:
        console.print(f"labels: {_dist(summary['label_counts'])}")
    console.print(f"unscored: {summary['unscored']}  empty answers: {summary['empty_answers']}")
    table = Table(title="Per prompt")
    for column in ("prompt", "answers", "range / labels", "distribution", "empty", "words"):
        table.add_column(column, justify="right" if column in ("answers", "empty", "words") else "left")
    for pid, p in summary["per_prompt"].items():
        bounds = "-".join(map(str, p["score_range"])) if p["score_range"] else ""
        kinds = f"{bounds} {'/'.join(p['labels'])}" if p["labels"] else bounds
        dist = _dist(p["label_counts"] or p["scores"])
        table.add_row(pid, str(p["items"]), kinds.strip(), dist, str(p["empty_answers"]), str(p["mean_words"]))
    console.print(table)


def register(app: typer.Typer) -> None:
    """Add the ``datasets`` verb group to the ``bluffcheck`` app."""
    app.add_typer(datasets_app, name="datasets")

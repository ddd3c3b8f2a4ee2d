"""``bluffcheck evaluate``: cross-validate a scorer or test it on a named split, and print QWK or F1 tables."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from ._common import console, err_console, parse_params

__all__ = ["evaluate", "load_dataset", "progress_after", "register"]


def load_dataset(name: str, options: dict[str, Any]) -> Any:
    """A dataset through ``bluffcheck.datasets.load(name, **options)``."""
    from ..datasets import load

    return load(name, **options)


def make_scorer(name: str, params: dict[str, Any]) -> Any:
    """A scorer through the registry, with constructor parameters."""
    from .._registry import scorers

    return scorers.create(name, **params)


@contextlib.contextmanager
def progress_after(description: str, *, delay: float = 1.0) -> Iterator[Callable[[int, int], None]]:
    """A progress callback whose Rich bar appears only once the work has run for ``delay`` seconds."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                        TimeElapsedColumn(), console=err_console, transient=True)  # fmt: skip
    task = progress.add_task(description, total=None)
    timer = threading.Timer(delay, progress.start)
    timer.daemon = True
    timer.start()

    def update(done: int, total: int) -> None:
        progress.update(task, completed=done, total=total)

    try:
        yield update
    finally:
        timer.cancel()
        progress.stop()


def _test_options(options: dict[str, Any], test_split: str) -> dict[str, Any]:
    """``--test-split NAME`` sets ``split=NAME``; ``--test-split key=value`` sets that option instead."""
    if "=" in test_split:
        return {**options, **parse_params([test_split])}
    return {**options, "split": test_split}


def _print_scores(metrics: dict[str, Any], title: str) -> None:
    from rich.table import Table

    table = Table(title=title)
    for col in ("prompt", "n", "QWK", "accuracy"):
        table.add_column(col, justify="left" if col == "prompt" else "right")
    for pid, m in metrics["prompts"].items():
        table.add_row(str(pid), str(m["n"]), f"{m['qwk']:.3f}", f"{m['accuracy']:.3f}")
    table.add_section()
    table.add_row("mean", "", f"{metrics['mean_qwk']:.3f}", "")
    table.add_row("mean (Fisher z)", "", f"{metrics['mean_qwk_fisher']:.3f}", "")
    console.print(table)
    console.print(f"mean QWK {metrics['mean_qwk']:.4f}")


def _print_labels(metrics: dict[str, Any], title: str) -> None:
    from rich.table import Table

    report = metrics["report"]
    table = Table(title=title)
    for col in ("label", "precision", "recall", "F1", "support"):
        table.add_column(col, justify="left" if col == "label" else "right")
    for label, m in report["per_class"].items():
        table.add_row(label, f"{m['precision']:.3f}", f"{m['recall']:.3f}", f"{m['f1']:.3f}", str(m["support"]))
    table.add_section()
    rows = [("macro average", report["macro"]), ("micro average", report["micro"])]
    if metrics["corrective_feedback"] is not None:
        rows.append(("corrective feedback", metrics["corrective_feedback"]))
    for name, m in rows:
        table.add_row(name, f"{m['precision']:.3f}", f"{m['recall']:.3f}", f"{m['f1']:.3f}", "")
    console.print(table)
    console.print(f"accuracy {report['accuracy']:.4f}, macro F1 {report['macro']['f1']:.4f}")


def evaluate(
    scorer: Annotated[str, typer.Argument(help="Scorer registry name (see `bluffcheck list scorers`).")],
    dataset: Annotated[str, typer.Option("--dataset", "-d", help="Dataset registry name (see `bluffcheck list datasets`).")],
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Dataset option key=value (repeatable).")] = None,
    param: Annotated[list[str] | None, typer.Option("--param", "-p", help="Scorer parameter key=value (repeatable).")] = None,
    cv: Annotated[int | None, typer.Option("--cv", help="Cross-validate with this many folds (stratified by score per prompt).")] = None,
    test_split: Annotated[str | None, typer.Option("--test-split", help="Train on the dataset as loaded, test on this split (NAME sets split=NAME; key=value sets that option).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the fold assignment.")] = 0,
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write metrics and timing to this JSON file.")] = None,
) -> None:
    """Evaluate a scorer: per-prompt QWK (scored data) or per-class F1 (labelled data)."""
    from ..errors import ConfigError
    from ..evaluation import cross_validate, evaluate_split

    if (cv is None) == (test_split is None):
        raise ConfigError("Give exactly one of --cv FOLDS or --test-split SPLIT.")
    options, model = parse_params(option), make_scorer(scorer, parse_params(param))
    train = load_dataset(dataset, options)
    with progress_after(f"evaluating {scorer} on {dataset}") as update:
        if cv is not None:
            result = cross_validate(model, train, folds=cv, seed=seed, on_progress=update)
        else:
            test = load_dataset(dataset, _test_options(options, test_split))
            result = evaluate_split(model, train, test, on_progress=update)
    metrics = result.per_prompt()
    title = f"{scorer} on {dataset} ({result.protocol})"
    (_print_labels if metrics["kind"] == "labels" else _print_scores)(metrics, title)
    t = result.timing()
    console.print(f"fit {t['fit_seconds']:.2f} s ({t['fit_per_second']:.0f} answers/s), "
                  f"score {t['score_seconds']:.2f} s ({t['score_per_second']:.0f} answers/s)")  # fmt: skip
    if json_out is not None:
        json_out.write_text(json.dumps(result.to_dict(), indent=2), encoding="utf-8")
        console.print(f"wrote {json_out}")


def register(app: typer.Typer) -> None:
    """Add the ``evaluate`` verb."""
    app.command("evaluate")(evaluate)

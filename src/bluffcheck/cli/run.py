"""``bluffcheck run`` / ``check`` / ``demo``: run a suite file, check its gates, run the default suite."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from ._common import console, err_console

__all__ = ["register"]

_Out = Annotated[Path | None, typer.Option("--out", "-o", help="Run folder (default: the suite's [run] output).")]
_Workers = Annotated[int | None, typer.Option("--workers", "-w", min=1, help="Worker processes (overrides [run]).")]
_Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar; print only the result path.")]
_LogJson = Annotated[bool, typer.Option("--log-json", help="One JSON object per finished task on stderr.")]


def _progress(quiet: bool, log_json: bool) -> Any:
    from ..run.progress import make_progress

    return make_progress("json" if log_json else "quiet" if quiet else "bar")


def _print_arr_table(run_dir: Path) -> None:
    """Mean ARR per method and scorer (from the report's summary.json), when the report was written."""
    from rich.table import Table

    path = Path(run_dir) / "summary.json"
    if not path.is_file():
        return
    rows = json.loads(path.read_text(encoding="utf-8")).get("methods", [])
    scorers = sorted({r["scorer"] for r in rows})
    cells = {(r["method"], r["scorer"]): r for r in rows}
    table = Table(title="Adversarial rejection rate (share of bluffs given the minimum score; mean over prompts)")
    table.add_column("method")
    for name in scorers:
        table.add_column(name, justify="right")
    for method in dict.fromkeys(r["method"] for r in rows):
        row = [cells.get((method, name)) for name in scorers]
        table.add_row(method, *("–" if c is None or c["arr"] is None else f"{100 * c['arr']:.1f} %" for c in row))
    console.print(table)


def _print_summary(summary: Any, quiet: bool) -> None:
    target = summary.report or summary.run_dir
    if quiet:
        console.print(str(target), soft_wrap=True, highlight=False)
        return
    console.print(
        f"{summary.tasks_run} tasks run, {summary.tasks_skipped} already done, {summary.records} records "
        f"({summary.failed_records} not scored: error/timeout/nan), {summary.queries} scorer queries, "
        f"{summary.cache_hits} cache hits, {summary.wall_s:.1f} s.", highlight=False)
    _print_arr_table(summary.run_dir)
    for err in summary.task_errors[:5]:
        err_console.print(f"[red]task failed[/red] {err}", highlight=False)
    failed = [g for g in summary.gates if g.passed is False]
    if summary.gates:
        console.print(f"gates: {len(summary.gates) - len(failed)} of {len(summary.gates)} pass "
                      "(`bluffcheck check` for details)", highlight=False)
    console.print(f"run folder: {summary.run_dir}", soft_wrap=True, highlight=False)
    if summary.report:
        console.print(f"report: {summary.report}", soft_wrap=True, highlight=False)
    elif summary.report_note:
        console.print(f"report: not written ({summary.report_note})", highlight=False)


def run(
    suite: Annotated[Path, typer.Argument(help="The suite file (.toml).")],
    out: _Out = None,
    executor: Annotated[str | None, typer.Option(help="'local' or 'dask' (overrides [run]).")] = None,
    workers: _Workers = None,
    scheduler: Annotated[str | None, typer.Option(help="Dask scheduler address, e.g. tcp://10.0.0.5:8786.")] = None,
    quiet: _Quiet = False,
    log_json: _LogJson = False,
    no_report: Annotated[bool, typer.Option("--no-report", help="Do not render report.html.")] = False,
) -> None:
    """Run (or resume) a suite: every finished task is stored at once, so rerunning continues where it stopped."""
    from ..run.engine import run_suite

    try:
        summary = run_suite(suite, output=out, executor=executor, workers=workers, scheduler=scheduler,
                            progress=_progress(quiet, log_json), report=not no_report)
    except KeyboardInterrupt:
        err_console.print("interrupted: every finished task is stored; rerun the same command to resume.")
        raise typer.Exit(130) from None
    _print_summary(summary, quiet)
    if summary.task_errors:
        raise typer.Exit(1)


def check(
    target: Annotated[Path, typer.Argument(help="A run folder, or a suite file (its output folder is checked).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the gate results as JSON.")] = False,
) -> None:
    """Check a run against its suite's gates; exit 1 when a threshold fails, 0 when all pass."""
    from ..run.gates import evaluate_gates
    from ..run.suite import load_suite

    if target.is_file():
        suite = load_suite(target)
        results = evaluate_gates(suite.output_dir(), suite.gates)
    else:
        results = evaluate_gates(target)
    failed = [g for g in results if g.passed is False]
    if as_json:
        print(json.dumps({"passed": not failed, "gates": [g.to_dict() for g in results]}, indent=2))
    else:
        if not results:
            console.print("no gates configured in the suite's [gates] table", highlight=False)
        for g in results:
            mark = {True: "[green]PASS[/green]", False: "[red]FAIL[/red]", None: "[yellow]SKIP[/yellow]"}[g.passed]
            value = "n/a" if g.value is None else f"{g.value:.3f}"
            op = ">=" if g.gate.startswith("min") else "<="
            console.print(f"{mark} {g.gate} {g.subject}: {value} {op} {g.threshold} ({g.note})", highlight=False)
    if failed:
        raise typer.Exit(1)


def demo(
    out: Annotated[Path, typer.Option("--out", "-o", help="Run folder.")] = Path("runs/demo"),
    workers: _Workers = None,
    quiet: _Quiet = False,
) -> None:
    """Run the default suite (bundled SemEval-2013 slice) and print where its report is."""
    from ..run.engine import run_suite
    from ..run.suite import default_suite_path

    summary = run_suite(default_suite_path(), output=out, workers=workers, progress=_progress(quiet, False))
    _print_summary(summary, quiet)


def register(app: typer.Typer) -> None:
    """Add the verbs to the ``bluffcheck`` app."""
    app.command("run")(run)
    app.command("check")(check)
    app.command("demo")(demo)

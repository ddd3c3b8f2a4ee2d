"""Run a suite: prepare bundles, expand the task grid, skip finished tasks, execute the rest, store
every task's records as it completes, export, check gates and render the report.

Rerunning a finished suite recomputes nothing; rerunning an interrupted one (Ctrl-C, SIGKILL, a
full disk) runs only the tasks that were not committed, and tasks whose records failed (scorer
error, timeout, NaN) are retried: answers already scored come from the query cache.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .executor import make_executor
from .export import export_records, remove_exports
from .gates import GateResult, evaluate_gates
from .prepare import package_versions, prepare
from .progress import Progress, QuietProgress
from .store import STORE_NAME, Store, StoreError
from .suite import Suite, load_suite
from .tasks import Task, expand_tasks

__all__ = ["RunSummary", "run_suite", "write_json_atomic"]


@dataclass
class RunSummary:
    """What a call to :func:`run_suite` did."""

    run_dir: Path
    run_id: str
    tasks_total: int = 0
    tasks_run: int = 0
    tasks_skipped: int = 0
    records: int = 0
    failed_records: int = 0
    task_errors: list[str] = field(default_factory=list)
    queries: int = 0
    cache_hits: int = 0
    wall_s: float = 0.0
    gates: list[GateResult] = field(default_factory=list)
    report: Path | None = None
    report_note: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        out = {k: v for k, v in self.__dict__.items() if k not in ("gates", "run_dir", "report")}
        out.update(run_dir=str(self.run_dir), report=str(self.report) if self.report else None,
                   gates=[g.to_dict() for g in self.gates])
        return out


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON through a temporary file and ``os.replace`` (never a half-written file)."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(json.dumps(data, indent=2, sort_keys=True, default=str) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise StoreError(f"Could not write {path}: {exc}. Free disk space or fix permissions, then rerun.") from exc


def _config(suite: Suite, prepared: Any, tasks: list[Task], run_id: str) -> dict[str, Any]:
    generators = {t.label: {"name": t.method, "version": str(t.generator.version), "params": t.generator.params}
                  for t in tasks if t.generator is not None}
    return {
        "schema_version": 1,
        "name": suite.run.name,
        "run_id": run_id,
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "suite": suite.resolved(),
        "versions": package_versions(),
        "component_versions": {**prepared.components, **{f"generator:{k}": v for k, v in generators.items()}},
        "data_checksums": prepared.checksums,
        "seeds": {"suite": suite.run.seed, "tasks": "SeedSequence(suite, spawn_key=(int(task_id[:8], 16),))"},
        "tasks": len(tasks),
    }


def _render(run_dir: Path, suite: Suite) -> tuple[Path | None, str]:
    try:
        from ..report import render  # type: ignore[attr-defined]
    except ImportError:
        return None, "report module not available"
    return Path(render(run_dir, n_boot=suite.metrics.bootstrap, seed=suite.run.seed)), ""


def _execute(store: Store, todo: list[Task], bundles: dict[str, Any], executor: Any, progress: Progress,
             summary: RunSummary) -> None:
    labels = {t.task_id: t.label for t in todo}
    stream = executor.run(todo, bundles, cache_path=str(store.path), run_id=store.run_id)
    with contextlib.closing(stream):
        for result in stream:
            store.commit_task(result, label=labels[result.task.task_id])
            summary.tasks_run += 1
            summary.queries += result.queries
            summary.cache_hits += result.cache_hits
            if result.error:
                summary.task_errors.append(f"{result.task.label} on prompt {result.task.prompt_id!r}: {result.error}")
            progress.advance(result)


def run_suite(
    suite: Suite | str | Path,
    *,
    output: str | Path | None = None,
    executor: str | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Progress | None = None,
    report: bool = True,
) -> RunSummary:
    """Run (or resume) a suite and return what happened.

    Parameters
    ----------
    suite : Suite or path
        A loaded suite or the path of its TOML file.
    output : path, optional
        The run folder (default: ``[run] output``, else ``runs/<name>``).
    executor, workers, scheduler : optional
        Override the ``[run]`` table.
    progress : Progress, optional
        A reporter from :mod:`bluffcheck.run.progress` (default: silent).
    report : bool
        Render the HTML report at the end (when the report module is installed).
    """
    t0 = time.perf_counter()
    suite = suite if isinstance(suite, Suite) else load_suite(suite)
    progress = progress or QuietProgress()
    run_dir = Path(output) if output is not None else suite.output_dir()
    prepared = prepare(suite)
    tasks = expand_tasks(prepared.bundles, suite.generators, suite.run.seed)
    with Store(run_dir / STORE_NAME) as store:
        summary = RunSummary(run_dir, store.run_id, tasks_total=len(tasks))
        store.forget_tasks_except(t.task_id for t in tasks)
        remove_exports(run_dir)
        write_json_atomic(run_dir / "config.json", _config(suite, prepared, tasks, store.run_id))
        finished = {tid for tid, status in store.task_status().items() if status == "done"}
        todo = [t for t in tasks if t.task_id not in finished]
        summary.tasks_skipped = len(tasks) - len(todo)
        ex = make_executor(executor or suite.run.executor, workers=workers or suite.run.workers,
                           scheduler=scheduler if scheduler is not None else suite.run.scheduler)
        progress.start(len(tasks), summary.tasks_skipped)
        try:
            if todo:
                _execute(store, todo, {b.key: b for b in prepared.bundles}, ex, progress, summary)
        finally:
            progress.close()
        summary.records = store.count("records")
        summary.failed_records = store.count_failed()
        export_records(store, run_dir)
    summary.gates = evaluate_gates(run_dir, suite.gates)
    write_json_atomic(run_dir / "gates.json", [g.to_dict() for g in summary.gates])
    if report:
        summary.report, summary.report_note = _render(run_dir, suite)
    summary.wall_s = time.perf_counter() - t0
    return summary

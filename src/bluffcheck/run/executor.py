"""Executors run tasks and yield their results as they complete; the parent writes them to the store.

* :class:`LocalExecutor` — ``workers=1`` runs in-process; more workers use a process pool. Each
  worker process receives the bundles (fitted scorers, contexts) once, through its initializer.
* :class:`DaskExecutor` — a ``dask.distributed`` cluster: a scheduler address, or a LocalCluster on
  127.0.0.1 when none is given. Bundles are scattered to every worker once.

Tasks carry their own seeds, so every executor yields the same records (only timing differs).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from ..errors import ConfigError
from .tasks import Bundle, Task
from .work import TaskResult, execute

__all__ = ["DaskExecutor", "LocalExecutor", "make_executor"]

_BUNDLES: dict[str, Bundle] = {}


def _watch_parent(main_pid: int, interval: float = 0.5) -> None:
    """Exit this worker when the run's process is gone (e.g. SIGKILLed): a pool worker blocked on its
    task queue would otherwise wait forever, because it holds both ends of that queue itself."""
    first_parent = os.getppid()

    def loop() -> None:
        while True:
            time.sleep(interval)
            try:
                os.kill(main_pid, 0)
            except ProcessLookupError:
                os._exit(1)
            except PermissionError:  # pragma: no cover - the pid was reused by another user's process
                os._exit(1)
            if os.getppid() != first_parent:
                os._exit(1)

    threading.Thread(target=loop, name="bluffcheck-parent-watch", daemon=True).start()


def _install(bundles: dict[str, Bundle], main_pid: int) -> None:
    _BUNDLES.clear()
    _BUNDLES.update(bundles)
    _watch_parent(main_pid)


def _execute_here(task: Task, cache_path: str, run_id: str) -> TaskResult:
    return execute(task, _BUNDLES[task.bundle], cache_path=cache_path, run_id=run_id)


def _context() -> multiprocessing.context.BaseContext:
    """forkserver on Linux (no fork of a threaded parent), with the components imported once in the
    server so each worker starts without re-importing them; spawn elsewhere."""
    if not sys.platform.startswith("linux"):
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["bluffcheck.run.work", "bluffcheck.scorers", "bluffcheck.generators"])
    return ctx


class LocalExecutor:
    """Run tasks on this machine.

    Parameters
    ----------
    workers : int
        1 runs tasks in this process; N > 1 uses N worker processes.
    """

    def __init__(self, workers: int = 1) -> None:
        if workers < 1:
            raise ConfigError(f"LocalExecutor needs workers >= 1. Got {workers} instead.")
        self.workers = workers

    def run(self, tasks: list[Task], bundles: dict[str, Bundle], *, cache_path: str = "",
            run_id: str = "") -> Iterator[TaskResult]:
        """Yield one :class:`TaskResult` per task, in completion order."""
        if self.workers == 1 or len(tasks) <= 1:
            for task in tasks:
                yield execute(task, bundles[task.bundle], cache_path=cache_path, run_id=run_id)
            return
        pool = ProcessPoolExecutor(self.workers, mp_context=_context(), initializer=_install,
                                   initargs=(bundles, os.getpid()))
        try:
            # keep a bounded window in flight so memory stays flat however many tasks there are
            queue = iter(tasks)
            running: set[Future[TaskResult]] = set()
            for task in queue:
                running.add(pool.submit(_execute_here, task, cache_path, run_id))
                if len(running) >= 4 * self.workers:
                    break
            while running:
                done, running = wait(running, return_when=FIRST_COMPLETED)
                for fut in done:
                    nxt = next(queue, None)
                    if nxt is not None:
                        running.add(pool.submit(_execute_here, nxt, cache_path, run_id))
                    yield fut.result()
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


class DaskExecutor:
    """Run tasks on a Dask distributed cluster.

    Parameters
    ----------
    scheduler : str or None
        Address of a running scheduler (``tcp://host:8786``); ``None`` starts a LocalCluster of
        ``workers`` single-threaded processes on 127.0.0.1 (no dashboard).
    workers : int
        Worker processes of the LocalCluster (ignored with a scheduler address).
    connect_timeout : float
        Seconds to wait for the scheduler before failing.
    """

    def __init__(self, scheduler: str | None = None, workers: int = 2, *, connect_timeout: float = 10.0) -> None:
        self.scheduler = scheduler or None
        self.workers = workers
        self.connect_timeout = connect_timeout

    def _client(self) -> tuple[Any, Any]:
        from dask.distributed import Client, LocalCluster

        if self.scheduler is None:
            cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                                   host="127.0.0.1", dashboard_address=None, silence_logs=logging.ERROR)
            return Client(cluster), cluster
        try:
            return Client(self.scheduler, timeout=self.connect_timeout), None
        except (OSError, TimeoutError) as exc:
            raise ConfigError(
                f"Could not reach the Dask scheduler at {self.scheduler!r} within {self.connect_timeout:g} s ({exc}). "
                "Start it (`dask scheduler`) and check the address, or leave [run] scheduler empty for a local cluster."
            ) from None

    def run(self, tasks: list[Task], bundles: dict[str, Bundle], *, cache_path: str = "",
            run_id: str = "") -> Iterator[TaskResult]:
        """Yield one :class:`TaskResult` per task, in completion order."""
        from dask.distributed import as_completed

        client, cluster = self._client()
        try:
            shared = {key: client.scatter(b, broadcast=True, hash=False) for key, b in bundles.items()}
            futures = [
                client.submit(execute, t, shared[t.bundle], cache_path=cache_path, run_id=run_id, pure=False,
                              key=f"bluffcheck-task-{t.task_id}")
                for t in tasks
            ]
            for fut in as_completed(futures):
                result = fut.result()
                fut.release()
                yield result
        finally:
            client.close()
            if cluster is not None:
                cluster.close()


def make_executor(kind: str, *, workers: int = 1, scheduler: str = "") -> LocalExecutor | DaskExecutor:
    """The executor named in ``[run] executor``."""
    if kind == "local":
        return LocalExecutor(workers)
    if kind == "dask":
        return DaskExecutor(scheduler or None, workers)
    raise ConfigError(f"Unknown executor {kind!r}. Use 'local' or 'dask'.")

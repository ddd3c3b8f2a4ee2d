"""Throughput of the black-box adapters against the local test scorers (a ``bench/bench_*.py`` script).

Runs the ``http`` adapter against the tests' ThreadingHTTPServer on 127.0.0.1 (with and without a
simulated 20 ms model latency), the ``command`` adapter against the tests' JSON-lines program and
the ``callable`` adapter, and writes a Markdown section. Usage: ``python bench/run.py blackbox``
(after copying this file to ``bench/bench_blackbox.py``) or ``python tests/scorers/adapters/bench_blackbox.py``.
"""

from __future__ import annotations

import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np


def _tests_dir() -> Path:
    here = Path(__file__).resolve()
    root = next(p for p in here.parents if (p / "pyproject.toml").exists())
    return root / "tests" / "scorers" / "adapters"


def _items(n: int) -> list:
    from bluffcheck.types import Item

    rng = np.random.default_rng(0)
    words = "the acid rain mass vinegar container sample rinse dry measure result because".split()
    return [Item(f"b{i}", "p1", " ".join(rng.choice(words, size=40))) for i in range(n)]


def _rate(score: Callable[[list], np.ndarray], items: list, repeats: int = 5) -> float:
    score(items[:8])  # warm-up: connections, imports, process start
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        values = score(items)
        best = min(best, time.perf_counter() - t0)
        if len(values) != len(items) or not np.isfinite(values).all():
            raise RuntimeError("benchmark scorer failed")
    return len(items) / best


def _http_rows(n: int) -> list[tuple[str, float]]:
    from bbx_server import ScorerServer

    from bluffcheck.scorers.adapters import HttpScorer

    rows = []
    for delay, batch, label in ((0.0, 32, "no latency"), (0.0, 1, "no latency"), (0.02, 32, "20 ms per request")):
        items = _items(n if batch > 1 else n // 4)
        for concurrency in (1, 4):
            with ScorerServer() as server:
                server.delay = delay
                with HttpScorer(server.url, batch_size=batch, concurrency=concurrency).fit() as scorer:
                    rate = _rate(scorer.score, items)
            rows.append((f"http, {label}, batch_size={batch}, concurrency={concurrency}", rate))
    return rows


def _command_rows(n: int) -> list[tuple[str, float]]:
    from bluffcheck.scorers.adapters import CommandScorer

    script = _tests_dir() / "bbx_scorer_script.py"
    t0 = time.perf_counter()
    scorer = CommandScorer([sys.executable, str(script)]).fit()
    scorer.score(_items(1))
    start = time.perf_counter() - t0
    rate = _rate(scorer.score, _items(n))
    scorer.close()
    return [(f"command (Python JSON-lines child; start + first answer {start * 1000:.0f} ms)", rate)]


def _callable_rows(n: int) -> list[tuple[str, float]]:
    from bluffcheck.scorers.adapters import CallableScorer

    scorer = CallableScorer(lambda texts, pids: [float(len(t.split())) for t in texts]).fit()
    return [("callable (batch_size=64, worker-thread timeout)", _rate(scorer.score, _items(n)))]


def main(out: Path) -> None:
    sys.path.insert(0, str(_tests_dir()))
    n = 2000
    rows = _http_rows(n) + _command_rows(n) + _callable_rows(n)
    lines = [
        "## Black-box adapters: throughput against local test scorers",
        "",
        "Command: `python bench/run.py blackbox`. Machine: 2 CPU cores shared by client and scorer "
        f"({platform.machine()}, Python {platform.python_version()}, {os.cpu_count()} cores seen). "
        f"{n} synthetic 40-word answers ({n // 4} for batch_size=1); best of 5 runs after a warm-up call. "
        "The scorers are the ones the tests use: a ThreadingHTTPServer on 127.0.0.1 that counts words "
        "(optionally sleeping per request) and a Python program speaking JSON lines. These figures measure "
        "the adapters' overhead; a real scorer's own time adds to it. No peer tool publishes comparable "
        "figures for its remote-model wrappers (TextAttack, CheckList).",
        "",
        "| adapter and setting | answers/s |",
        "|---|---:|",
        *[f"| {name} | {rate:,.0f} |" for name, rate in rows],
        "",
    ]
    out.write_text("\n".join(lines))


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("blackbox.md")
    main(target)
    print(target.read_text())

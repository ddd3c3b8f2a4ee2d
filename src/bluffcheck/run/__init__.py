"""The run engine: suite files, the task grid, a resumable store, executors, gates and progress.

>>> from bluffcheck.run import load_suite, run_suite  # doctest: +SKIP
>>> summary = run_suite(load_suite("suite.toml"))      # doctest: +SKIP

Submodules load on first use, so ``import bluffcheck.run`` stays light.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "DaskExecutor",
    "GateResult",
    "LocalExecutor",
    "RunSummary",
    "Store",
    "Suite",
    "default_suite_path",
    "evaluate_gates",
    "load_suite",
    "run_suite",
]

_WHERE = {
    "DaskExecutor": "executor",
    "LocalExecutor": "executor",
    "GateResult": "gates",
    "evaluate_gates": "gates",
    "RunSummary": "engine",
    "run_suite": "engine",
    "Store": "store",
    "Suite": "suite",
    "default_suite_path": "suite",
    "load_suite": "suite",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

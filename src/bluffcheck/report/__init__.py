"""Results and reports: the record schema, summaries, plots, and the self-contained HTML page.

``render(run_dir)`` re-renders ``report.html``, ``summary.json`` and ``summary.md`` from a run
folder. It is imported on first use, so importing this package stays light.
"""

from __future__ import annotations

from typing import Any

__all__ = ["render"]


def __getattr__(name: str) -> Any:
    if name == "render":
        from .html import render

        return render
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

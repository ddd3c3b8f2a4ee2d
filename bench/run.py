"""Run every benchmark in bench/ and assemble BENCHMARKS.md.

Usage::

    python bench/run.py               # all benchmarks
    python bench/run.py baselines arr # only these (file stems of bench/bench_*.py)

Each ``bench/bench_<name>.py`` is a script with a ``main(out: Path) -> None`` that writes its
Markdown section to ``out`` (``bench/results/<name>.md``). Sections of benchmarks that were not
rerun are kept from the last run, so BENCHMARKS.md always holds every figure with its command.
"""

from __future__ import annotations

import importlib.util
import platform
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def main(argv: list[str]) -> None:
    RESULTS.mkdir(exist_ok=True)
    scripts = sorted(HERE.glob("bench_*.py"))
    wanted = set(argv)
    for script in scripts:
        name = script.stem.removeprefix("bench_")
        if wanted and name not in wanted:
            continue
        print(f"== {name}", flush=True)
        t0 = time.perf_counter()
        _load(script).main(RESULTS / f"{name}.md")
        print(f"   done in {time.perf_counter() - t0:.1f} s", flush=True)
    sections = [p.read_text() for p in sorted(RESULTS.glob("*.md"))]
    header = (
        "# bluffcheck benchmarks\n\n"
        "Every figure below was produced by `python bench/run.py` (or `make bench`) on the machine named in each "
        "section; a section names the exact command that made it. Paper figures are quoted next to ours.\n\n"
        f"Last assembled on {time.strftime('%Y-%m-%d')} ({platform.machine()}, Python {platform.python_version()}).\n\n"
    )
    (HERE.parent / "BENCHMARKS.md").write_text(header + "\n\n".join(sections))


if __name__ == "__main__":
    main(sys.argv[1:])

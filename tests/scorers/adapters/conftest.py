"""Fixtures of the black-box adapter tests: a real local HTTP server and a real scorer program."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from bbx_server import ScorerServer

from bluffcheck.types import Item

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "bbx_scorer_script.py"


@pytest.fixture()
def server():
    with ScorerServer() as srv:
        yield srv


@pytest.fixture()
def answers() -> list[Item]:
    texts = ["one", "two words", "now three words", "", "é ünïcode\nwith a newline 🙂"]
    return [Item(f"a{i}", "p1" if i % 2 else "p2", t) for i, t in enumerate(texts)]


@pytest.fixture()
def script_command():
    """``[python, script, *options]`` for the JSON-lines test scorer."""

    def make(*options: str) -> list[str]:
        return [sys.executable, str(SCRIPT), *options]

    return make


class SleepRecorder:
    """Stands in for ``time.sleep``: records the waits and returns at once."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


@pytest.fixture()
def sleeps() -> SleepRecorder:
    return SleepRecorder()

"""Fixtures of the run-engine tests: the test-only components, registered and cleaned up."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import engine_fakes  # noqa: E402


@pytest.fixture()
def fakes():
    """Register the ``test-run-*`` components for one test, then remove them."""
    engine_fakes.register_fakes()
    yield engine_fakes
    engine_fakes.unregister_fakes()

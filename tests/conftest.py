"""Shared fixtures. Real-data tests run whenever ../shared/data exists and must run in CI."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bluffcheck.paths import data_root


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The real data folder; skips (naming the path) when it is absent, fails in CI."""
    root = data_root(required=False)
    if root is None:
        where = os.environ.get("BLUFFCHECK_DATA") or "../shared/data"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but the real data folder {where} is missing; real-data tests must run in CI.")
        pytest.skip(f"real data not found at {where} (set BLUFFCHECK_DATA to run this test)")
    return root


@pytest.fixture()
def rng():
    import numpy as np

    return np.random.default_rng(12345)

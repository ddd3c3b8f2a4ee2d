"""The metric docstring examples run as tests, and the package exports what it documents."""

from __future__ import annotations

import doctest

import pytest

import bluffcheck.metrics as metrics
from bluffcheck.metrics import agreement, classification, robustness


@pytest.mark.parametrize("module", [agreement, classification, robustness])
def test_metrics_docstring_examples_run(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


def test_metrics_all_lists_public_functions():
    public = {n for n in dir(metrics) if not n.startswith("_") and callable(getattr(metrics, n))}
    assert set(metrics.__all__) == public - {"agreement", "classification", "robustness"}
    assert {"qwk_score", "overstability", "classification_report"} <= set(metrics.__all__)

"""Registers the black-box adapters (``callable``, ``command``, ``http``, ``file``) with the scorer registry.

The adapters live in the :mod:`bluffcheck.scorers.adapters` package; importing it here makes them
registered whenever the built-in scorers are loaded, and gives them a short import path.
"""

from __future__ import annotations

from .adapters import (
    BlackBoxScorer,
    CallableScorer,
    CommandScorer,
    FileScorer,
    HttpScorer,
    Outcome,
    RetryPolicy,
    score_outcomes,
)

__all__ = [
    "BlackBoxScorer",
    "CallableScorer",
    "CommandScorer",
    "FileScorer",
    "HttpScorer",
    "Outcome",
    "RetryPolicy",
    "score_outcomes",
]

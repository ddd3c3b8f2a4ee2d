"""Black-box adapters: wrap scorers bluffcheck did not train.

``callable`` (a Python function), ``command`` (a program speaking JSON lines), ``http`` (a JSON
web service) and ``file`` (export the answers, import the scores later). All are already
trained: ``fit`` records the prompts and checks the target is reachable. ``score_outcomes``
reports one :class:`Outcome` per item (ok, error, timeout, nan) after retries; ``score`` raises
:class:`~bluffcheck.errors.ScorerError` rather than return a made-up score. The wire formats are
in ``docs/blackbox.md``.
"""

from __future__ import annotations

from ._base import BlackBoxScorer
from ._retry import AbortScoring, CallTimeout, NoRetry, Outcome, RetryPolicy, score_outcomes
from .command import CommandScorer
from .file_roundtrip import FileScorer, export_cases, export_pending, import_scores, read_scores, text_hash
from .http import HttpScorer
from .python_callable import CallableScorer

__all__ = [
    "AbortScoring",
    "BlackBoxScorer",
    "CallTimeout",
    "CallableScorer",
    "CommandScorer",
    "FileScorer",
    "HttpScorer",
    "NoRetry",
    "Outcome",
    "RetryPolicy",
    "export_cases",
    "export_pending",
    "import_scores",
    "read_scores",
    "score_outcomes",
    "text_hash",
]

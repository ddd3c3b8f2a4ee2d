"""Metrics: small pure functions on arrays, each returning a float or a dict of named numbers.

* agreement — :func:`qwk_score`, :func:`accuracy_score`, :func:`mean_qwk`
* classification — :func:`classification_report` (per-class, macro, micro P/R/F1),
  :func:`corrective_feedback_f1`
* robustness — :func:`adversarial_rejection_rate`, :func:`full_credit_rate`,
  :func:`mean_score_rate`, :func:`overstability` (N_pos, N_neg, mu...), :func:`attack_success_rate`,
  :func:`bootstrap_ci`
"""

from __future__ import annotations

from .agreement import accuracy_score, mean_qwk, qwk_score
from .classification import classification_report, corrective_feedback_f1
from .robustness import (
    adversarial_rejection_rate,
    attack_success_rate,
    bootstrap_ci,
    full_credit_rate,
    mean_score_rate,
    overstability,
)

__all__ = [
    "accuracy_score",
    "adversarial_rejection_rate",
    "attack_success_rate",
    "bootstrap_ci",
    "classification_report",
    "corrective_feedback_f1",
    "full_credit_rate",
    "mean_qwk",
    "mean_score_rate",
    "overstability",
    "qwk_score",
]

"""Functions the ``callable`` adapter tests name as ``"bbx_functions:..."``."""

from __future__ import annotations

import time

CALLS: list[int] = []  # batch sizes seen by count_words
FLAKY = {"left": 0}


def count_words(texts: list[str], prompt_ids: list[str]) -> list[float]:
    """The reference rule: number of words."""
    CALLS.append(len(texts))
    return [float(len(t.split())) for t in texts]


def one_answer(text: str, prompt_id: str) -> float:
    """Per-answer form (``batch=False``); fails on answers that say 'boom'."""
    if "boom" in text:
        raise ValueError("cannot score 'boom'")
    return float(len(text.split()))


def flaky(texts: list[str], prompt_ids: list[str]) -> list[float]:
    """Raises while ``FLAKY['left']`` > 0, then scores."""
    if FLAKY["left"] > 0:
        FLAKY["left"] -= 1
        raise ConnectionError("model server hiccup")
    return [float(len(t.split())) for t in texts]


def nan_for_empty(texts: list[str], prompt_ids: list[str]) -> list[float]:
    """NaN for empty answers (a scorer that divides by the length)."""
    return [float("nan") if not t else 1.0 for t in texts]


def slow(texts: list[str], prompt_ids: list[str]) -> list[float]:
    time.sleep(2.0)
    return [1.0] * len(texts)


def wrong_length(texts: list[str], prompt_ids: list[str]) -> list[float]:
    return [1.0]


NOT_A_FUNCTION = 3

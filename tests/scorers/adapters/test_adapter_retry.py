"""Outcomes, the retry policy and ``score_outcomes`` for any scorer."""

from __future__ import annotations

import math
import pickle
import time

import numpy as np
import pytest

from bluffcheck._registry import scorers
from bluffcheck.errors import ConfigError, NotFittedError, ScorerError
from bluffcheck.scorers.adapters import (
    AbortScoring,
    CallableScorer,
    CommandScorer,
    FileScorer,
    HttpScorer,
    NoRetry,
    Outcome,
    RetryPolicy,
    score_outcomes,
)
from bluffcheck.scorers.adapters._retry import outcomes_to_scores, retry_items, run_batches
from bluffcheck.scorers.base import Scorer
from bluffcheck.types import Dataset, Item, Prompt


class WordCounter(Scorer):
    """A plain (non-adapter) scorer: NaN for empty answers, can fail or stall on demand."""

    per_prompt = False

    def __init__(self, *, fail_first: int = 0, stall: float = 0.0) -> None:
        self.fail_first = fail_first
        self.stall = stall

    def _fit_prompt(self, items, prompt):
        self.calls_ = 0
        return None

    def _score_prompt(self, model, items, prompt):
        self.calls_ += 1
        if self.calls_ <= self.fail_first:
            raise RuntimeError("GPU fell over")
        if self.stall:
            time.sleep(self.stall)
        return np.array([len(it.text.split()) or math.nan for it in items], dtype=float)


def fitted(scorer: Scorer, items: list[Item]) -> Scorer:
    return scorer.fit(Dataset("t", items, {p: Prompt(p) for p in {it.prompt_id for it in items}}))


@pytest.mark.parametrize(
    ("value", "status"),
    [
        (2, "ok"),
        (1.5, "ok"),
        (np.float32(3.0), "ok"),
        (math.nan, "nan"),
        (math.inf, "nan"),
        (None, "nan"),
        ("2", "error"),
        (True, "error"),
    ],
)
def test_outcome_from_value_classifies(value, status):
    outcome = Outcome.from_value(value)
    assert outcome.status == status
    assert (outcome.score is not None) == (status == "ok")
    assert outcome.ok == (status == "ok")


def test_retry_policy_backoff_is_exponential_and_capped():
    policy = RetryPolicy(backoff=0.5, max_backoff=3.0)
    assert [policy.delay(k) for k in (1, 2, 3, 4, 5)] == [0.5, 1.0, 2.0, 3.0, 3.0]
    assert policy.delay(1, retry_after=2.0) == 2.0


def test_retry_policy_jitter_comes_from_the_given_rng():
    draws = [RetryPolicy(backoff=1.0, rng=np.random.default_rng(3)).delay(3) for _ in range(2)]
    assert draws[0] == draws[1]  # same seed, same wait
    assert 2.0 <= draws[0] <= 4.0 and draws[0] != 4.0


@pytest.mark.parametrize("kwargs", [{"max_attempts": 0}, {"backoff": -1.0}, {"timeout": 0.0}])
def test_retry_policy_rejects_bad_values(kwargs):
    with pytest.raises(ConfigError, match="RetryPolicy"):
        RetryPolicy(**kwargs)


def test_retry_items_retries_only_failed_items(sleeps):
    items = [Item(str(i), "p", f"t{i}") for i in range(4)]
    sent: list[list[str]] = []

    def call(batch):
        sent.append([it.id for it in batch])
        return [Outcome(None, "nan", "nan") if it.id == "2" and len(sent) < 3 else Outcome(1.0) for it in batch]

    out = retry_items(call, items, RetryPolicy(backoff=0.5, sleep=sleeps))
    assert sent == [["0", "1", "2", "3"], ["2"], ["2"]]
    assert [o.attempts for o in out] == [1, 1, 3, 1] and all(o.ok for o in out)
    assert sleeps.waits == [0.5, 1.0]


def test_retry_items_does_not_retry_no_retry_errors(sleeps):
    calls = []

    def call(batch):
        calls.append(1)
        raise NoRetry("HTTP 400: bad request")

    out = retry_items(call, [Item("a", "p", "x")], RetryPolicy(sleep=sleeps))
    assert len(calls) == 1 and out[0].status == "error" and "400" in out[0].error
    assert sleeps.waits == []


def test_run_batches_aborts_a_scorer_that_never_works(sleeps):
    calls = []

    def call(batch):
        calls.append(len(batch))
        raise OSError("no such model")

    items = [Item(str(i), "p", "x") for i in range(50)]
    with pytest.raises(AbortScoring, match="first 3 batches.*no such model"):
        run_batches(call, items, RetryPolicy(max_attempts=2, sleep=sleeps), batch_size=5)
    assert len(calls) == 6  # 3 batches x 2 attempts, not 10 batches


def test_run_batches_keeps_item_order_with_concurrency():
    items = [Item(str(i), "p", "x " * i) for i in range(23)]
    out = run_batches(lambda b: [Outcome(float(it.id)) for it in b], items, RetryPolicy(), batch_size=4, concurrency=3)
    assert [o.score for o in out] == [float(i) for i in range(23)]


def test_score_outcomes_works_for_a_plain_scorer(sleeps):
    items = [Item("a", "p", "one two"), Item("b", "p", ""), Item("c", "p", "three")]
    out = score_outcomes(fitted(WordCounter(), items), items, policy=RetryPolicy(sleep=sleeps))
    assert [o.status for o in out] == ["ok", "nan", "ok"]
    assert out[0].score == 2.0 and out[1].score is None and out[1].attempts == 3


def test_score_outcomes_retries_a_failing_plain_scorer(sleeps):
    items = [Item("a", "p", "one two")]
    scorer = fitted(WordCounter(fail_first=2), items)
    out = score_outcomes(scorer, items, policy=RetryPolicy(sleep=sleeps))
    assert out == [Outcome(2.0, "ok", None, 3)]
    assert len(sleeps.waits) == 2


def test_score_outcomes_records_errors_and_timeouts_of_a_plain_scorer(sleeps):
    items = [Item("a", "p", "one")]
    broken = score_outcomes(fitted(WordCounter(fail_first=99), items), items, policy=RetryPolicy(sleep=sleeps))
    assert broken[0].status == "error" and "GPU fell over" in broken[0].error and broken[0].attempts == 3
    slow = score_outcomes(fitted(WordCounter(stall=1.0), items), items, policy=RetryPolicy(max_attempts=1, timeout=0.1))
    assert slow[0].status == "timeout" and slow[0].score is None


def test_score_outcomes_raises_caller_mistakes():
    with pytest.raises(NotFittedError):
        score_outcomes(WordCounter(), [Item("a", "p", "x")])


def test_outcomes_to_scores_raises_instead_of_scoring_zero():
    items = [Item("a", "p", "x"), Item("b", "p", "y")]
    outcomes = [Outcome(1.0), Outcome(None, "timeout", "no answer within 3 s", attempts=3)]
    with pytest.raises(ScorerError, match=r"1 of 2 items \(1 timeout\).*'b' \(timeout after 3 attempt"):
        outcomes_to_scores(outcomes, items, who="X")
    assert outcomes_to_scores(outcomes[:1], items[:1], who="X").tolist() == [1.0]


@pytest.mark.parametrize(
    ("name", "cls"),
    [("callable", CallableScorer), ("command", CommandScorer), ("http", HttpScorer), ("file", FileScorer)],
)
def test_adapters_are_registered_and_need_setup(name, cls):
    assert scorers.get(name) is cls
    assert cls.needs_setup is True
    scorer = scorers.create(name)
    assert pickle.loads(pickle.dumps(scorer)).get_params() == scorer.get_params()
    assert scorer.set_params(model_version="2024-05").clone().get_params()["model_version"] == "2024-05"
    with pytest.raises(ConfigError, match="no parameter 'token'"):
        scorer.set_params(token="x")
    with pytest.raises(NotFittedError, match="fit"):
        scorer.score([Item("a", "p", "x")])


def test_adapter_fingerprint_follows_target_and_model_version_not_timeouts():
    base = HttpScorer("http://127.0.0.1:1/score", model_version="2024-05")
    assert (
        base.fingerprint
        == HttpScorer("http://127.0.0.1:1/score", model_version="2024-05", timeout=99.0, concurrency=1).fingerprint
    )
    assert base.fingerprint != HttpScorer("http://127.0.0.1:1/score", model_version="2024-06").fingerprint
    assert base.fingerprint != HttpScorer("http://127.0.0.1:2/score", model_version="2024-05").fingerprint
    assert base.clone().get_params() == base.get_params()

"""The ``callable`` adapter against real functions in a test module."""

from __future__ import annotations

import pickle
from pathlib import Path

import bbx_functions
import pytest

from bluffcheck.errors import ConfigError, ScorerError
from bluffcheck.scorers.adapters import CallableScorer
from bluffcheck.types import Item

HERE = Path(__file__).resolve().parent


def words(items: list[Item]) -> list[float]:
    return [float(len(it.text.split())) for it in items]


def test_callable_scores_with_an_imported_function(answers):
    bbx_functions.CALLS.clear()
    scorer = CallableScorer("bbx_functions:count_words", batch_size=2).fit()
    assert scorer.score(answers).tolist() == words(answers)
    assert bbx_functions.CALLS == [2, 2, 1]


def test_callable_loads_a_function_from_a_file_path(answers):
    scorer = CallableScorer(f"{HERE / 'bbx_functions.py'}:count_words").fit()
    assert scorer.score(answers).tolist() == words(answers)


def test_callable_accepts_a_function_object(answers):
    scorer = CallableScorer(lambda texts, pids: [len(p) for p in pids]).fit()
    assert scorer.score(answers).tolist() == [2.0] * len(answers)


def test_callable_per_answer_mode_isolates_a_failing_answer(answers):
    items = [*answers, Item("bad", "p1", "boom goes it")]
    scorer = CallableScorer("bbx_functions:one_answer", batch=False, backoff=0.0).fit()
    out = scorer.score_outcomes(items)
    assert [o.status for o in out] == ["ok"] * len(answers) + ["error"]
    assert "cannot score 'boom'" in out[-1].error and out[-1].attempts == 3
    with pytest.raises(ScorerError, match="'bad'.*ValueError"):
        scorer.score(items)


def test_callable_retries_a_flaky_function_with_backoff(answers, sleeps):
    bbx_functions.FLAKY["left"] = 2
    scorer = CallableScorer("bbx_functions:flaky", backoff=0.25).fit()
    out = scorer.score_outcomes(answers, policy=scorer.retry_policy(sleep=sleeps))
    assert all(o.ok for o in out) and {o.attempts for o in out} == {3}
    assert sleeps.waits == [0.25, 0.5]


def test_callable_reports_nan_as_nan_not_zero(answers, sleeps):
    scorer = CallableScorer("bbx_functions:nan_for_empty").fit()
    out = scorer.score_outcomes(answers, policy=scorer.retry_policy(sleep=sleeps))
    assert [o.status for o in out] == ["ok", "ok", "ok", "nan", "ok"]
    assert out[3].score is None
    with pytest.raises(ScorerError, match="1 nan"):
        scorer.score(answers)


def test_callable_times_out_a_slow_function(answers):
    scorer = CallableScorer("bbx_functions:slow", timeout=0.1, retries=0).fit()
    out = scorer.score_outcomes(answers[:1])
    assert out[0].status == "timeout" and "0.1 s" in out[0].error


def test_callable_rejects_a_wrong_number_of_scores(answers, sleeps):
    scorer = CallableScorer("bbx_functions:wrong_length").fit()
    out = scorer.score_outcomes(answers[:2], policy=scorer.retry_policy(sleep=sleeps))
    assert {o.status for o in out} == {"error"} and "1 scores for 2 answers" in out[0].error


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("no_colon_here", "must look like"),
        ("surely_missing_module_xyz:f", "could not import"),
        ("bbx_functions:missing", "has no attribute"),
        ("bbx_functions:NOT_A_FUNCTION", "not a function"),
        ("/nonexistent/dir/f.py:f", "could not import"),
        ("", "must be"),
    ],
)
def test_callable_bad_target_fails_at_fit(target, message):
    with pytest.raises(ConfigError, match=message):
        CallableScorer(target).fit()


def test_callable_pickles_by_target_name(answers):
    scorer = CallableScorer("bbx_functions:count_words", model_version="v2").fit()
    copy = pickle.loads(pickle.dumps(scorer))
    assert copy.score(answers).tolist() == scorer.score(answers).tolist()
    assert copy.fingerprint == scorer.fingerprint != CallableScorer("bbx_functions:count_words").fit().fingerprint


def test_callable_docstring_example_runs():
    import doctest

    from bluffcheck.scorers.adapters import python_callable

    result = doctest.testmod(python_callable)
    assert result.attempted >= 2 and result.failed == 0

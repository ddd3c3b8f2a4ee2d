"""The ``command`` adapter against a real JSON-lines scorer program started by the tests."""

from __future__ import annotations

import pickle
import shlex
import sys

import pytest

from bluffcheck.errors import ScorerError
from bluffcheck.scorers.adapters import AbortScoring, CommandScorer
from bluffcheck.types import Item


def words(items: list[Item]) -> list[float]:
    return [float(len(it.text.split())) for it in items]


def test_command_scores_over_one_long_running_process(script_command, answers):
    with CommandScorer(script_command()).fit() as scorer:
        assert scorer.score(answers).tolist() == words(answers)  # unicode and a newline in a text
        assert scorer.score(answers[:2]).tolist() == words(answers[:2])
        assert scorer.starts_ == 1
        proc = scorer._proc.popen
    assert proc.poll() is not None  # closed by the with block


def test_command_string_is_split_without_a_shell(script_command, tmp_path, answers):
    marker = tmp_path / "pwned"
    command = shlex.join(script_command()) + f" ; touch {marker}"
    with pytest.raises(AbortScoring, match="3 times in a row"):  # the script rejects ';' and 'touch' as arguments
        CommandScorer(command, retries=0, backoff=0.0).fit().score(answers)
    assert not marker.exists()
    assert CommandScorer(shlex.join(script_command())).argv == script_command()


def test_command_restarts_after_a_crash_and_retries_the_item(script_command, tmp_path, answers, sleeps):
    items = [*answers[:2], Item("x", "p1", "please CRASH now"), answers[2]]
    scorer = CommandScorer(script_command("--crash-on", "CRASH", "--crash-once-file", str(tmp_path / "once"))).fit()
    out = scorer.score_outcomes(items, policy=scorer.retry_policy(sleep=sleeps))
    assert [o.score for o in out] == words(items)
    assert [o.attempts for o in out] == [1, 1, 2, 1]
    assert scorer.starts_ == 2 and len(sleeps.waits) == 1
    scorer.close()


def test_command_crashing_item_is_an_error_with_the_programs_stderr(script_command, answers, sleeps):
    items = [answers[1], Item("x", "p1", "CRASH"), answers[2]]
    scorer = CommandScorer(script_command("--crash-on", "CRASH"), backoff=0.0).fit()
    out = scorer.score_outcomes(items, policy=scorer.retry_policy(sleep=sleeps))
    assert [o.status for o in out] == ["ok", "error", "ok"]
    assert "exited with code 3" in out[1].error and "Exception: cannot score x" in out[1].error
    assert out[1].attempts == 3 and out[1].score is None
    with pytest.raises(ScorerError, match="1 of 3 items"):
        scorer.score(items)
    scorer.close()


def test_command_kills_and_restarts_a_hanging_process(script_command, answers):
    items = [answers[1], Item("h", "p1", "HANG here"), answers[2]]
    scorer = CommandScorer(
        script_command("--hang-on", "HANG"), timeout=0.3, startup_timeout=5.0, retries=1, backoff=0.0
    ).fit()
    out = scorer.score_outcomes(items)
    assert [o.status for o in out] == ["ok", "timeout", "ok"]
    assert out[1].attempts == 2 and "flush stdout" in out[1].error
    assert scorer.starts_ == 2  # the hung process was replaced once, then killed again on the retry
    assert scorer.score(items[:1]).tolist() == [2.0] and scorer.starts_ == 3
    scorer.close()


@pytest.mark.parametrize(
    ("option", "status", "message"),
    [("--nan-on", "nan", "nan"), ("--error-on", "error", "model refused"), ("--bad-id-on", "error", "out of step")],
)
def test_command_records_bad_answers(script_command, answers, sleeps, option, status, message):
    items = [answers[1], Item("w", "p1", "WORD"), answers[2]]
    scorer = CommandScorer(script_command(option, "WORD")).fit()
    out = scorer.score_outcomes(items, policy=scorer.retry_policy(sleep=sleeps))
    assert [o.status for o in out] == ["ok", status, "ok"]
    assert message in out[1].error.lower() and out[1].attempts == 3
    scorer.close()


def test_command_that_dies_at_start_fails_fast_with_its_stderr(script_command, answers, sleeps):
    scorer = CommandScorer(script_command("--die-at-start")).fit()
    with pytest.raises(AbortScoring, match="(?s)exited with code 2.*cannot load model.bin"):
        scorer.score_outcomes(answers, policy=scorer.retry_policy(sleep=sleeps))
    assert scorer.starts_ == 3


def test_command_that_prints_logs_on_stdout_fails_with_a_hint(script_command, answers, sleeps):
    scorer = CommandScorer(script_command("--banner")).fit()
    with pytest.raises(AbortScoring, match="not JSON: 'Loading model... done"):
        scorer.score_outcomes(answers, policy=scorer.retry_policy(sleep=sleeps))


def test_command_missing_program_fails_at_fit():
    with pytest.raises(AbortScoring, match="could not start the scorer command"):
        CommandScorer(["/nonexistent/bin/scorer", "--x"]).fit()


def test_command_pickles_without_its_process(script_command, answers):
    scorer = CommandScorer(script_command(), model_version="7").fit()
    copy = pickle.loads(pickle.dumps(scorer))
    assert "_proc" not in copy.__dict__
    assert copy.score(answers).tolist() == words(answers)
    assert copy._proc.popen.pid != scorer._proc.popen.pid
    assert copy.fingerprint == scorer.fingerprint
    copy.close()
    scorer.close()


def test_command_fingerprint_names_the_program():
    a = CommandScorer([sys.executable, "a.py"])
    assert a.fingerprint == CommandScorer(f"{sys.executable} a.py", timeout=1.0).fingerprint
    assert a.fingerprint != CommandScorer([sys.executable, "b.py"]).fingerprint

"""The ``http`` adapter against a real ThreadingHTTPServer on 127.0.0.1 (see bbx_server.py)."""

from __future__ import annotations

import pickle
import socket

import pytest

from bluffcheck.errors import ConfigError, ScorerError
from bluffcheck.scorers.adapters import AbortScoring, HttpScorer
from bluffcheck.types import Item

TOKEN = "s3cret-t0ken-value"


def words(items: list[Item]) -> list[float]:
    return [float(len(it.text.split())) for it in items]


def many(n: int) -> list[Item]:
    return [Item(f"i{k}", "p", "word " * (k % 7)) for k in range(n)]


def test_http_scores_in_batches_in_item_order(server):
    items = many(23)
    with HttpScorer(server.url, batch_size=5).fit() as scorer:
        assert scorer.score(items).tolist() == words(items)
    assert server.posts == 5 and sorted(server.batch_sizes) == [3, 5, 5, 5, 5]
    assert server.heads == 1  # the reachability check at fit


def test_http_sends_unicode_and_newlines_intact(server, answers):
    assert HttpScorer(server.url).fit().score(answers).tolist() == words(answers)


def test_http_retries_server_errors_with_backoff(server, answers, sleeps):
    server.statuses.extend([500, 503])
    scorer = HttpScorer(server.url, batch_size=100, backoff=0.5).fit()
    out = scorer.score_outcomes(answers, policy=scorer.retry_policy(sleep=sleeps))
    assert [o.score for o in out] == words(answers) and {o.attempts for o in out} == {3}
    assert server.posts == 3 and sleeps.waits == [0.5, 1.0]


def test_http_gives_up_after_retries_and_never_scores_zero(server, answers, sleeps):
    server.statuses.extend([500] * 10)
    scorer = HttpScorer(server.url, batch_size=100, retries=2).fit()
    out = scorer.score_outcomes(answers, policy=scorer.retry_policy(sleep=sleeps))
    assert {o.status for o in out} == {"error"} and {o.score for o in out} == {None}
    assert "HTTP 500" in out[0].error and out[0].attempts == 3 and server.posts == 3
    with pytest.raises(ScorerError, match="could not score 5 of 5 items"):
        HttpScorer(server.url, batch_size=100, retries=0).fit().score(answers)


def test_http_honours_retry_after_on_429(server, answers, sleeps):
    server.statuses.append(429)
    scorer = HttpScorer(server.url, batch_size=100, backoff=0.1).fit()
    out = scorer.score_outcomes(answers, policy=scorer.retry_policy(sleep=sleeps))
    assert all(o.ok for o in out) and sleeps.waits == [2.0]


def test_http_does_not_retry_client_errors(server, answers, sleeps):
    server.statuses.append(400)
    scorer = HttpScorer(server.url, batch_size=100).fit()
    out = scorer.score_outcomes(answers, policy=scorer.retry_policy(sleep=sleeps))
    assert {o.status for o in out} == {"error"} and out[0].attempts == 1
    assert server.posts == 1 and sleeps.waits == []


def test_http_reports_nan_scores_as_nan(server, answers, sleeps):
    server.nan_ids.add("a2")
    scorer = HttpScorer(server.url, batch_size=100, retries=1).fit()
    out = scorer.score_outcomes(answers, policy=scorer.retry_policy(sleep=sleeps))
    assert [o.status for o in out] == ["ok", "ok", "nan", "ok", "ok"]
    assert out[2].score is None and out[2].attempts == 2 and server.batch_sizes == [5, 1]


def test_http_per_item_results_format(server, answers, sleeps):
    server.fmt = "results"
    server.error_ids.add("a1")
    scorer = HttpScorer(server.url, retries=0).fit()
    out = scorer.score_outcomes(answers, policy=scorer.retry_policy(sleep=sleeps))
    assert [o.status for o in out] == ["ok", "error", "ok", "ok", "ok"]
    assert "cannot score this one" in out[1].error and out[0].score == 1.0


def test_http_response_path_must_lead_to_the_scores(server, answers, sleeps):
    assert HttpScorer(server.url, response_path="scores").fit().score(answers).tolist() == words(answers)
    scorer = HttpScorer(server.url, response_path="data.scores", retries=0).fit()
    out = scorer.score_outcomes(answers[:2], policy=scorer.retry_policy(sleep=sleeps))
    assert {o.status for o in out} == {"error"} and "expected 'scores'" in out[0].error


def test_http_times_out_a_slow_server(server, answers):
    server.delay = 0.5
    scorer = HttpScorer(server.url, timeout=0.1, retries=1, backoff=0.0, batch_size=100).fit()
    out = scorer.score_outcomes(answers)
    assert {o.status for o in out} == {"timeout"} and out[0].attempts == 2 and server.posts == 2


@pytest.mark.parametrize("concurrency", [1, 3])
def test_http_concurrency_limit_holds(server, concurrency):
    server.delay = 0.25
    scorer = HttpScorer(server.url, batch_size=1, concurrency=concurrency).fit()
    items = many(6)
    assert scorer.score(items).tolist() == words(items)
    assert server.posts == 6
    assert server.max_in_flight == concurrency  # never more, and the pool really runs that many


def test_http_sends_the_token_from_the_environment_but_never_shows_it(server, answers, monkeypatch):
    server.token = TOKEN
    monkeypatch.setenv("BLUFFCHECK_SCORER_TOKEN", TOKEN)
    scorer = HttpScorer(server.url, model_version="2024-05").fit()
    assert scorer.score(answers).tolist() == words(answers)
    assert server.auth_seen == [f"Bearer {TOKEN}"]
    for shown in (repr(scorer), str(scorer.get_params()), scorer.fingerprint, pickle.dumps(scorer).decode("latin-1")):
        assert TOKEN not in shown


def test_http_reads_the_token_at_call_time(server, answers, monkeypatch, sleeps):
    server.token = TOKEN
    monkeypatch.delenv("BLUFFCHECK_SCORER_TOKEN", raising=False)
    scorer = HttpScorer(server.url).fit()
    out = scorer.score_outcomes(answers, policy=scorer.retry_policy(sleep=sleeps))
    assert {o.status for o in out} == {"error"} and "BLUFFCHECK_SCORER_TOKEN is NOT set" in out[0].error
    assert server.posts == 1  # 401 is not retried
    monkeypatch.setenv("BLUFFCHECK_SCORER_TOKEN", TOKEN)
    assert scorer.score(answers).tolist() == words(answers)
    assert TOKEN not in out[0].error


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_http_unreachable_server_fails_fast_at_fit():
    url = f"http://127.0.0.1:{free_port()}/score"
    with pytest.raises(AbortScoring, match=f"could not connect to {url}: connection refused. Is the scorer running?"):
        HttpScorer(url).fit()


def test_http_server_gone_after_fit_fails_with_a_scorer_error(answers, sleeps):
    from bbx_server import ScorerServer

    with ScorerServer() as srv:
        scorer = HttpScorer(srv.url, batch_size=1, concurrency=1).fit()
    scorer.close()  # drop the kept-alive connection, which the stopped server's handler thread still serves
    with pytest.raises(ScorerError, match="(?i)connect"):
        scorer.score_outcomes(many(10), policy=scorer.retry_policy(sleep=sleeps))
    assert len(sleeps.waits) == 3 * 3  # stopped after three batches of 4 attempts, not ten


def test_http_pickled_copy_opens_its_own_connection(server, answers):
    scorer = HttpScorer(server.url).fit()
    scorer.score(answers)
    copy = pickle.loads(pickle.dumps(scorer))
    assert copy.score(answers).tolist() == words(answers)
    assert server.heads == 2  # the copy checked the server again on first use
    scorer.close()
    copy.close()


@pytest.mark.parametrize("url", ["", "ftp://127.0.0.1/score", "not a url"])
def test_http_rejects_bad_urls(url):
    with pytest.raises(ConfigError, match="url"):
        HttpScorer(url).fit()

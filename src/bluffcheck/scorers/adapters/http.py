"""``http``: score with a web service that takes JSON batches.

Request: ``POST url`` with ``{"items": [{"id": ..., "prompt_id": ..., "text": ...}, ...]}``.
Response: ``{"scores": [2.0, 0.0, ...]}`` (one number per item, in order) or
``{"results": [{"id": ..., "score": 2.0} | {"id": ..., "error": "why"}, ...]}``.
Server errors (5xx), 429, timeouts and dropped connections are retried with exponential backoff;
other 4xx are not. The token comes from an environment variable at call time and is never stored.
"""

from __future__ import annotations

import email.utils
import ipaddress
import os
import threading
import time
from typing import Any

from ..._registry import scorers
from ...errors import ConfigError, ScorerError
from ...types import Item
from ._base import BlackBoxScorer, check_number
from ._retry import AbortScoring, CallTimeout, NoRetry, Outcome, RetryPolicy, run_batches

__all__ = ["HttpScorer"]


class _RetryLater(ScorerError):
    """HTTP 429: retried after the server's ``Retry-After``."""

    def __init__(self, message: str, retry_after: float | None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        try:
            return max(0.0, email.utils.parsedate_to_datetime(value).timestamp() - time.time())
        except (TypeError, ValueError):
            return None


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host == "localhost"


@scorers.register("http")
class HttpScorer(BlackBoxScorer):
    """Score with an HTTP endpoint that takes JSON batches (see ``docs/blackbox.md``).

    Parameters
    ----------
    url : str
        The endpoint, e.g. ``"http://127.0.0.1:8000/score"``. Put no secrets in it (use ``auth_env``).
    timeout : float
        Seconds one request may take.
    connect_timeout : float
        Seconds to wait for a connection; ``fit`` checks the server once with it and fails fast.
    retries, backoff, max_backoff : int, float, float
        Retries after the first request (so 3 means up to 4 requests), exponential backoff in seconds.
    concurrency : int
        Requests in flight at once.
    batch_size : int
        Answers per request.
    auth_env, auth_header, auth_scheme : str
        The token is read from ``$auth_env`` at each request and sent as
        ``{auth_header}: {auth_scheme} {token}`` (no header when the variable is unset).
    response_path : str or None
        Dotted path to the list of scores or results in the response, when it is not at the top.
    model_version : str
        Your label for the model behind the endpoint; part of the fingerprint (cache key).
    """

    kind = "http"

    def __init__(
        self,
        url: str = "",
        *,
        timeout: float = 10.0,
        connect_timeout: float = 3.0,
        retries: int = 3,
        backoff: float = 0.5,
        max_backoff: float = 8.0,
        concurrency: int = 4,
        batch_size: int = 32,
        auth_env: str = "BLUFFCHECK_SCORER_TOKEN",
        auth_header: str = "Authorization",
        auth_scheme: str = "Bearer",
        response_path: str | None = None,
        model_version: str = "",
    ) -> None:
        self.url = url
        self.timeout = timeout
        self.connect_timeout = connect_timeout
        self.retries = retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.concurrency = concurrency
        self.batch_size = batch_size
        self.auth_env = auth_env
        self.auth_header = auth_header
        self.auth_scheme = auth_scheme
        self.response_path = response_path
        self.model_version = model_version

    def _validate_params(self) -> None:
        import httpx

        try:
            url = httpx.URL(self.url)
        except (httpx.InvalidURL, TypeError) as exc:
            raise ConfigError(f"The 'url' parameter of HttpScorer is not a URL: {self.url!r} ({exc}).") from exc
        if url.scheme not in ("http", "https") or not url.host:
            raise ConfigError(
                f"The 'url' parameter of HttpScorer must be an http(s) URL like http://127.0.0.1:8000/score. Got {self.url!r} instead."
            )
        for name in ("timeout", "connect_timeout", "backoff", "max_backoff"):
            check_number(self, name, getattr(self, name))
        check_number(self, "retries", self.retries, integer=True)
        check_number(self, "concurrency", self.concurrency, low=1, integer=True)
        check_number(self, "batch_size", self.batch_size, low=1, integer=True)

    # -- connection ------------------------------------------------------------------------------
    def _client(self) -> Any:
        import httpx

        if getattr(self, "_lock", None) is None:
            self._lock = threading.Lock()
        with self._lock:
            if getattr(self, "_http", None) is None:
                limits = httpx.Limits(max_connections=self.concurrency, max_keepalive_connections=self.concurrency)
                # loopback traffic never goes through a proxy from the environment
                self._http = httpx.Client(limits=limits, trust_env=not _is_loopback(httpx.URL(self.url).host))
            return self._http

    def _setup(self) -> None:
        self._check_reachable()

    def _check_reachable(self) -> None:
        """One HEAD request with a short timeout: any answer will do; no connection fails fast."""
        import httpx

        try:
            self._client().request("HEAD", self.url, timeout=httpx.Timeout(self.connect_timeout))
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            reason = "connection refused" if "refused" in str(exc).lower() else (str(exc) or type(exc).__name__)
            raise AbortScoring(
                f"could not connect to {self.url}: {reason}. Is the scorer running? Start it, check the host and "
                f"port, or pass another url=."
            ) from None
        except httpx.HTTPError:
            pass  # it accepted the connection; slow or odd answers to HEAD are fine
        self._checked = True

    def _headers(self) -> dict[str, str]:
        headers = {"Accept": "application/json"}
        token = os.environ.get(self.auth_env) if self.auth_env else None
        if token:
            headers[self.auth_header] = f"{self.auth_scheme} {token}" if self.auth_scheme else token
        return headers

    # -- scoring ---------------------------------------------------------------------------------
    def _post(self, batch: list[Item], policy: RetryPolicy) -> list[Outcome]:
        import httpx

        payload = {"items": [{"id": it.id, "prompt_id": it.prompt_id, "text": it.text} for it in batch]}
        timeout = httpx.Timeout(
            policy.timeout, connect=min(self.connect_timeout, policy.timeout or self.connect_timeout)
        )
        try:
            resp = self._client().post(self.url, json=payload, headers=self._headers(), timeout=timeout)
        except httpx.TimeoutException as exc:
            raise CallTimeout(
                f"POST {self.url}: no answer within {policy.timeout or self.connect_timeout:g} s ({type(exc).__name__})"
            ) from None
        except httpx.HTTPError as exc:
            raise ScorerError(f"POST {self.url} failed: {type(exc).__name__}: {exc}") from None
        code = resp.status_code
        if code == 429:
            raise _RetryLater(
                f"HTTP 429 (too many requests) from {self.url}", _retry_after(resp.headers.get("Retry-After"))
            )
        if code >= 400:
            msg = f"HTTP {code} from {self.url}: {resp.text[:200]!r}"
            if code in (401, 403):
                state = "is set" if self.auth_env and os.environ.get(self.auth_env) else "is NOT set"
                msg += f". The server refused the credentials; ${self.auth_env} {state} (sent as '{self.auth_header}')."
            raise ScorerError(msg) if code >= 500 else NoRetry(msg)
        try:
            data = resp.json()
        except ValueError:
            raise ScorerError(f"{self.url} answered with something that is not JSON: {resp.text[:200]!r}") from None
        return self._parse(data, batch)

    def _parse(self, data: Any, batch: list[Item]) -> list[Outcome]:
        node = data
        if self.response_path:
            for key in self.response_path.split("."):
                node = node.get(key) if isinstance(node, dict) else None
        elif isinstance(data, dict):
            node = data.get("scores", data.get("results"))
        if not isinstance(node, list) or len(node) != len(batch):
            got = f"a list of {len(node)}" if isinstance(node, list) else type(node).__name__
            raise ScorerError(
                f"{self.url} answered {str(data)[:200]!r}: expected 'scores' (or 'results') with {len(batch)} entries, got {got}."
            )
        return [self._entry(entry, it) for entry, it in zip(node, batch, strict=True)]

    @staticmethod
    def _entry(entry: Any, item: Item) -> Outcome:
        if not isinstance(entry, dict):
            return Outcome.from_value(entry)
        if entry.get("id") != item.id:
            return Outcome(None, "error", f"result out of step: expected id {item.id!r}, got {entry.get('id')!r}")
        if "error" in entry:
            return Outcome(None, "error", f"the server reported: {entry['error']}")
        if "score" not in entry:
            return Outcome(None, "error", f"the result {entry!r} has neither 'score' nor 'error'")
        return Outcome.from_value(entry["score"])

    def _outcomes(self, items: list[Item], policy: RetryPolicy) -> list[Outcome]:
        if not getattr(self, "_checked", False):
            self._check_reachable()
        return run_batches(
            lambda batch: self._post(batch, policy),
            items,
            policy,
            batch_size=self.batch_size,
            concurrency=self.concurrency,
        )

    def _identity(self) -> dict[str, Any]:
        return {"url": self.url, "response_path": self.response_path}

    def close(self) -> None:
        """Close the connection pool."""
        client = self.__dict__.pop("_http", None)
        if client is not None:
            client.close()

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        for key in ("_http", "_lock", "_checked"):
            state.pop(key, None)  # the copy opens its own connections and checks the server again
        return state

"""A real scoring web service for the ``http`` adapter tests: a ThreadingHTTPServer on 127.0.0.1.

It scores an answer by its number of words, and the tests can tell it to fail, slow down, answer
429 or NaN, or demand a token. It counts requests and the most requests it had in flight at once.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def rule(text: str) -> float:
    """The server's scoring rule: the number of words."""
    return float(len(text.split()))


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out as two writes; no 40 ms delayed-ACK stall

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - keep the test output clean
        pass

    def do_HEAD(self) -> None:
        self.server.state.heads += 1
        self._send(405, b"")

    def do_POST(self) -> None:
        state = self.server.state
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
        with state.lock:
            state.posts += 1
            state.in_flight += 1
            state.max_in_flight = max(state.max_in_flight, state.in_flight)
            state.auth_seen.append(self.headers.get("Authorization"))
            state.batch_sizes.append(len(body["items"]))
            status = state.statuses.popleft() if state.statuses else 200
        try:
            if state.delay:
                time.sleep(state.delay)
            self._answer(state, body, status)
        finally:
            with state.lock:
                state.in_flight -= 1

    def _answer(self, state: ScorerServer, body: dict[str, Any], status: int) -> None:
        if state.token is not None and self.headers.get("Authorization") != f"Bearer {state.token}":
            return self._send(401, b'{"detail": "bad token"}')
        if status == 429:
            return self._send(429, b"slow down", {"Retry-After": "2"})
        if status != 200:
            return self._send(status, b"server failure")
        items = body["items"]
        if state.fmt == "results":
            out: Any = {"results": [self._result(state, it) for it in items]}
        else:
            out = {"scores": [float("nan") if it["id"] in state.nan_ids else rule(it["text"]) for it in items]}
        self._send(200, json.dumps(out).encode())  # json writes NaN, as a careless server would

    @staticmethod
    def _result(state: ScorerServer, item: dict[str, Any]) -> dict[str, Any]:
        if item["id"] in state.error_ids:
            return {"id": item["id"], "error": "cannot score this one"}
        return {"id": item["id"], "score": rule(item["text"])}

    def _send(self, status: int, payload: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(payload)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    state: ScorerServer


class ScorerServer:
    """Start with ``with ScorerServer() as server:``; ``server.url`` is the scoring endpoint."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.statuses: deque[int] = deque()  # statuses of the next POSTs (500, 429, ...), then 200
        self.delay = 0.0
        self.nan_ids: set[str] = set()
        self.error_ids: set[str] = set()
        self.token: str | None = None
        self.fmt = "scores"
        self.posts = self.heads = self.in_flight = self.max_in_flight = 0
        self.auth_seen: list[str | None] = []
        self.batch_sizes: list[int] = []
        self._httpd = _Server(("127.0.0.1", 0), _Handler)
        self._httpd.state = self

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/score"

    def __enter__(self) -> ScorerServer:
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

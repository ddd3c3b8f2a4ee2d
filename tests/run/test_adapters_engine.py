"""The black-box adapters (HTTP, command) through the run engine, with real local servers/processes."""

from __future__ import annotations

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from helpers_run import records

from bluffcheck.errors import BluffcheckError
from bluffcheck.run.engine import run_suite

SCRIPT = """
import json, sys
for line in sys.stdin:
    req = json.loads(line)
    print(json.dumps({"id": req["id"], "score": min(2, len(req["text"].split()) % 3)}), flush=True)
"""


def _expected(text: str) -> float:
    return float(min(2, len(text.split()) % 3))


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 - the http.server API
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        out = json.dumps({"scores": [_expected(it["text"]) for it in body["items"]]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def log_message(self, *args):
        pass


@pytest.fixture()
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/score"
    httpd.shutdown()
    httpd.server_close()


def _adapter_suite(tmp_path, fakes, scorer: str, run: str = ""):
    text = fakes.toy_suite(tmp_path / "run", run=run).replace('name = "test-run-overlap"\n[scorers.params]\n', scorer)
    import tomllib

    from bluffcheck.run.suite import parse_suite

    return parse_suite(tomllib.loads(text), source="toy.toml")


def test_http_scorer_through_engine(tmp_path, fakes, server):
    suite = _adapter_suite(tmp_path, fakes, f'name = "http"\n[scorers.params]\nurl = "{server}"\n')
    summary = run_suite(suite, report=False)
    recs = records(tmp_path / "run")
    assert summary.failed_records == 0 and len(recs) == 36
    assert all(r["score"] == _expected(r["text"]) and r["scorer"] == "http" for r in recs.values())


def test_unreachable_http_scorer_fails_fast_with_clear_message(tmp_path, fakes):
    import socket

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    suite = _adapter_suite(tmp_path, fakes, f'name = "http"\n[scorers.params]\nurl = "http://127.0.0.1:{port}/score"\n')
    with pytest.raises(BluffcheckError) as info:
        run_suite(suite, report=False)
    assert f"127.0.0.1:{port}" in str(info.value)
    assert not (tmp_path / "run" / "records.parquet").exists()


@pytest.mark.slow
def test_command_scorer_through_engine_in_worker_processes(tmp_path, fakes):
    script = tmp_path / "scorer.py"
    script.write_text(SCRIPT)
    scorer = f'name = "command"\n[scorers.params]\ncommand = {json.dumps([sys.executable, str(script)])}\n'
    suite = _adapter_suite(tmp_path, fakes, scorer, run="workers = 2")
    summary = run_suite(suite, report=False)
    recs = records(tmp_path / "run")
    assert summary.failed_records == 0 and summary.tasks_run == 3 and len(recs) == 36
    assert all(r["score"] == _expected(r["text"]) for r in recs.values())

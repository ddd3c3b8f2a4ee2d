"""The self-contained page: files written, every text escaped, nothing loaded from elsewhere."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest

from bluffcheck.errors import DatasetFormatError
from bluffcheck.report import render
from bluffcheck.report.html import CSP, TEMPLATES

from .conftest import CONFIG, make_records, write_run

PAYLOAD = "<script>document.title='PWNED'</script><img src=x onerror=\"document.title='PWNED'\">"


class _Tags(HTMLParser):
    """Collects start tags and their attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def _tags(html: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Tags()
    parser.feed(html)
    return parser.tags


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = write_run(tmp_path_factory.mktemp("hostile") / "run", make_records(0, payload=PAYLOAD),
                       config=CONFIG | {"note": PAYLOAD})
    render(folder, n_boot=100)
    return folder


def test_render_writes_page_and_summaries(hostile_run: Path) -> None:
    for name in ("report.html", "summary.json", "summary.md"):
        assert (hostile_run / name).stat().st_size > 1000
    summary = json.loads((hostile_run / "summary.json").read_text(encoding="utf-8"))
    assert summary["bootstrap"]["n_boot"] == 100
    assert not list(hostile_run.glob(".*.tmp"))


def test_render_page_is_self_contained(hostile_run: Path) -> None:
    html = (hostile_run / "report.html").read_text(encoding="utf-8")
    tags = _tags(html)
    assert not [t for t, _ in tags if t in ("script", "link", "iframe", "object", "embed", "base")]
    meta = [a for t, a in tags if t == "meta" and (a.get("http-equiv") or "").lower() == "content-security-policy"]
    assert meta and meta[0]["content"] == CSP and "default-src 'none'" in CSP
    images = [a["src"] for t, a in tags if t == "img"]
    assert len(images) >= 3 and all(src.startswith("data:image/png;base64,") for src in images)
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:|//)""", html)


def test_render_escapes_every_record_and_config_text(hostile_run: Path) -> None:
    html = (hostile_run / "report.html").read_text(encoding="utf-8")
    assert "<script>document.title" not in html and "<img src=x" not in html
    escaped = "&lt;script&gt;document.title=&#39;PWNED&#39;&lt;/script&gt;&lt;img src=x onerror="
    assert html.count(escaped) >= 3  # the bluff's text, the error message, the configuration
    assert "<title>bluffcheck report: demo &lt;suite&gt; &amp; co</title>" in html
    assert not [a for _, a in _tags(html) if any(k.startswith("on") for k in a)]


def test_template_marks_nothing_safe() -> None:
    text = (TEMPLATES / "report.html.j2").read_text(encoding="utf-8")
    assert not re.search(r"\|\s*safe\b", text) and "autoescape false" not in text


def test_render_page_has_sections_and_tables(hostile_run: Path) -> None:
    html = (hostile_run / "report.html").read_text(encoding="utf-8")
    for anchor in ("overview", "arr", "scores", "shifts", "qwk", "examples", "errors", "config"):
        assert f'<section id="{anchor}">' in html
    assert html.count('<table class="arr-table">') == 2
    assert 'id="curves"' not in html  # no curves.json in this run
    assert "CUDA out of memory" not in html and "timed out after 30 s" in html


def test_render_from_store_alone_gives_same_numbers(tmp_path: Path, hostile_run: Path) -> None:
    records = pd.read_parquet(hostile_run / "records.parquet")
    folder = write_run(tmp_path / "sqlite-only", records, parquet=False)
    render(folder, n_boot=100)
    a = json.loads((hostile_run / "summary.json").read_text(encoding="utf-8"))
    b = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    for key in ("adversarial", "agreement", "overstability", "errors", "worst_bluffs", "scorers"):
        assert a[key] == b[key], key


def test_render_to_another_file_and_with_curves_and_gates(tmp_path: Path) -> None:
    folder = write_run(tmp_path / "run", make_records(1))
    curves = [{"title": "Non-word-rate filter", "xlabel": "threshold", "ylabel": "rate",
               "curves": [{"name": "ARR <b>", "x": [0.2, 0.5, 0.8], "y": [0.99, 0.9, 0.6]},
                          {"name": "recall of real answers", "x": [0.2, 0.5, 0.8], "y": [0.5, 0.9, 0.97]}]}]
    (folder / "curves.json").write_text(json.dumps(curves), encoding="utf-8")
    gates = [{"gate": "min_arr", "subject": "bigru / <x>", "value": 0.4, "threshold": 0.9, "passed": False, "note": ""},
             {"gate": "min_qwk", "subject": "(all)", "value": None, "threshold": 0.6, "passed": None, "note": "skipped"}]
    (folder / "gates.json").write_text(json.dumps(gates), encoding="utf-8")
    page = render(folder, out=tmp_path / "elsewhere" / "page.html", n_boot=50)
    assert page == tmp_path / "elsewhere" / "page.html" and not (folder / "report.html").exists()
    html = page.read_text(encoding="utf-8")
    assert '<section id="curves">' in html and html.count('class="fig-curve"') == 1
    assert '<span class="fail">FAIL</span>' in html and "bigru / &lt;x&gt;" in html and ">skipped<" in html


def test_render_rejects_malformed_curves(tmp_path: Path) -> None:
    folder = write_run(tmp_path / "run", make_records(2).head(50))
    (folder / "curves.json").write_text(json.dumps([{"title": "t", "curves": [{"name": "a", "x": [1, 2], "y": [1]}]}]))
    with pytest.raises(DatasetFormatError, match="curve set 1"):
        render(folder, n_boot=20)


def test_render_generators_only_run_skips_shift_sections(tmp_path: Path, records: pd.DataFrame) -> None:
    folder = write_run(tmp_path / "run", records[records["kind"] == "generator"], sqlite=False, config={})
    html = render(folder, n_boot=20).read_text(encoding="utf-8")
    assert '<section id="shifts">' not in html and '<section id="scores">' in html
    assert "no QWK" in html and "Largest score shifts" not in html


def test_render_empty_run_says_so(tmp_path: Path, records: pd.DataFrame) -> None:
    html = render(write_run(tmp_path / "run", records.head(0)), n_boot=10).read_text(encoding="utf-8")
    assert "No bluff answers were scored in this run." in html and "<img" not in html

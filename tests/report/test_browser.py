"""The report in a real headless browser (Debian's chromium): it renders, and hostile answers stay text.

``--dump-dom`` prints the DOM after the page's scripts have run, so a script that executed would
show in the dumped title. Two control pages prove the harness: without our Content-Security-Policy
a script does run (the title changes), and with it the same script does not.
"""

from __future__ import annotations

import io
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

from bluffcheck.report import render
from bluffcheck.report.html import CSP

from .conftest import make_records, write_run

CHROMIUM = os.environ.get("BLUFFCHECK_CHROMIUM", "/usr/bin/chromium")
PAYLOAD = "<script>document.title='PWNED'</script><img src=x onerror=\"document.title='PWNED'\">"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-extensions", "--hide-scrollbars",
         "--virtual-time-budget=3000"]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def chromium() -> str:
    if Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    message = (f"chromium not found at {CHROMIUM}: install Debian's chromium (tools/ensure-chromium.sh, or "
               "apt-get install --no-install-recommends chromium) or set BLUFFCHECK_CHROMIUM")
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true and {message}; the browser test of the report must run in CI.")
    pytest.skip(message)


def _browse(chromium: str, page: Path, profile: Path, *extra: str) -> str:
    """Run headless chromium on a local file (no shell; a fresh profile) and return its stdout."""
    cmd = [chromium, *FLAGS, f"--user-data-dir={profile}", *extra, page.resolve().as_uri()]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.fixture(scope="module")
def hostile_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = write_run(tmp_path_factory.mktemp("browser") / "run", make_records(0, payload=PAYLOAD))
    return render(folder, n_boot=100)


def test_browser_renders_tables_and_figures(chromium: str, hostile_page: Path, tmp_path: Path) -> None:
    dom = _browse(chromium, hostile_page, tmp_path / "profile", "--dump-dom")
    assert "<title>bluffcheck report: demo &lt;suite&gt; &amp; co</title>" in dom
    assert dom.count('<table class="arr-table">') == 2
    for img in ('id="fig-arr"', 'id="fig-dist"', 'id="fig-shift"'):
        assert img in dom
    assert "char-ngrams n=2" in dom and "Worst examples" in dom


def test_browser_screenshot_shows_the_figures(chromium: str, hostile_page: Path, tmp_path: Path) -> None:
    import matplotlib.image as mpimg

    shot = tmp_path / "r.png"
    _browse(chromium, hostile_page, tmp_path / "profile", f"--screenshot={shot}", "--window-size=1280,2400")
    img = mpimg.imread(io.BytesIO(shot.read_bytes()), format="png")[..., :3]
    # Okabe-Ito orange (#E69F00) and green (#009E73) appear only inside the embedded figures, so the
    # data: URIs were allowed by the CSP and decoded.
    for rgb in ((0xE6, 0x9F, 0x00), (0x00, 0x9E, 0x73)):
        close = np.abs(img - np.array(rgb) / 255).max(axis=-1) < 0.04
        assert int(close.sum()) > 200, rgb


def test_browser_hostile_answer_does_not_execute(chromium: str, hostile_page: Path, tmp_path: Path) -> None:
    dom = _browse(chromium, hostile_page, tmp_path / "profile", "--dump-dom")
    assert "PWNED</title>" not in dom and "<title>bluffcheck report" in dom
    assert "<script" not in dom and '<img src="x"' not in dom
    assert "&lt;script&gt;document.title='PWNED'&lt;/script&gt;&lt;img src=x onerror=" in dom


CONTROL = """<!DOCTYPE html><html><head><meta charset="utf-8">{meta}<title>clean</title></head>
<body><p>control</p><script>document.title='PWNED'</script></body></html>"""


def test_browser_harness_sees_a_script_that_runs(chromium: str, tmp_path: Path) -> None:
    page = tmp_path / "control.html"
    page.write_text(CONTROL.format(meta=""), encoding="utf-8")
    assert "<title>PWNED</title>" in _browse(chromium, page, tmp_path / "profile", "--dump-dom")


def test_browser_report_csp_blocks_inline_scripts(chromium: str, tmp_path: Path) -> None:
    page = tmp_path / "csp.html"
    page.write_text(CONTROL.format(meta=f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'), encoding="utf-8")
    dom = _browse(chromium, page, tmp_path / "profile", "--dump-dom")
    assert "<title>clean</title>" in dom and "PWNED</title>" not in dom

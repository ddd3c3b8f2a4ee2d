"""Kill-and-resume: SIGKILL a real `bluffcheck run` process mid-run, rerun it, compare with a fresh run."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from helpers_run import records

from bluffcheck.run.engine import run_suite
from bluffcheck.run.suite import load_suite

HERE = Path(__file__).resolve().parent
DRIVER = f"""
import sys
sys.path.insert(0, {str(HERE)!r})
import engine_fakes

if __name__ == "__main__":
    engine_fakes.register_fakes()
    from bluffcheck.cli import main
    sys.argv = ["bluffcheck", "run", sys.argv[1], "--quiet", "--no-report"]
    main()
"""
# 2 prompts x 10 generator variants + 1 original = 21 tasks of ~0.1 s each (two 0.05 s scorer calls)
GENS = "".join(
    f'[[generators]]\nname = "test-run-salad"\nlabel = "salad-{k}"\nn = 8\n[generators.params]\nlength = {k}\n'
    for k in range(2, 12)
)


def _suite(tmp_path: Path, fakes, name: str) -> Path:
    path = tmp_path / f"{name}.toml"
    text = fakes.toy_suite(tmp_path / name, scorer_params="delay = 0.05", generators_toml=GENS, run="workers = 2")
    path.write_text(text)
    return path


def _done_tasks(store: Path) -> int:
    if not store.exists():
        return 0
    try:
        con = sqlite3.connect(f"{store.as_uri()}?mode=ro", uri=True, timeout=1)
        try:
            return int(con.execute("SELECT COUNT(*) FROM tasks").fetchone()[0])
        finally:
            con.close()
    except sqlite3.Error:
        return 0


def _run(driver: Path, suite: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(driver), str(suite)], capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_run_killed_with_sigkill_resumes_without_lost_or_duplicated_records(tmp_path, fakes):
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER)
    killed_suite = _suite(tmp_path, fakes, "killed")
    store = tmp_path / "killed" / "store.sqlite"
    proc = subprocess.Popen([sys.executable, str(driver), str(killed_suite)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while _done_tasks(store) < 4 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    children = psutil.Process(proc.pid).children(recursive=True)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    partial = _done_tasks(store)
    assert 4 <= partial < 21, "the run finished before it could be killed mid-way"
    # the orphaned workers notice their parent is gone and exit
    _, alive = psutil.wait_procs(children, timeout=15)
    alive = [c for c in alive if c.is_running() and c.status() != psutil.STATUS_ZOMBIE]
    for child in alive:  # pragma: no cover - only when the property above fails
        child.kill()
    assert not alive

    resumed = _run(driver, killed_suite)
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.strip().endswith("killed")
    # the uninterrupted reference run, in this process with one worker (results do not depend on workers)
    run_suite(load_suite(_suite(tmp_path, fakes, "fresh")), workers=1, report=False)

    got, want = records(tmp_path / "killed"), records(tmp_path / "fresh")
    assert len(want) == 24 + 20 * 8
    assert got == want  # same (task_id, item_id) set, same texts and scores, no duplicates (checked in records())
    con = sqlite3.connect(store)
    assert con.execute("SELECT COUNT(*) FROM tasks WHERE status = 'done'").fetchone()[0] == 21
    con.close()

from __future__ import annotations

import io
import json
import sqlite3
import tomllib

import pyarrow.parquet as pq
import pytest
from helpers_run import count_lines, records, toy

from bluffcheck.report.result import RECORD_FIELDS
from bluffcheck.run.engine import run_suite
from bluffcheck.run.progress import JsonLogProgress
from bluffcheck.run.store import Store, StoreError
from bluffcheck.run.suite import parse_suite

SALAD_MARKED = '[[generators]]\nname = "test-run-salad"\nn = 6\n[generators.params]\nlength = 4\nmarker = "ZZZ"\n'


def test_engine_writes_every_record_once_with_exports_and_provenance(tmp_path, fakes):
    suite = toy(tmp_path, fakes)
    summary = run_suite(suite, report=False)
    run_dir = tmp_path / "run"
    recs = records(run_dir)
    # 1 original task (2 prompts x 12 test answers) + 2 prompts x 1 generator x 6 answers
    assert summary.tasks_total == 3 and summary.tasks_run == 3 and len(recs) == 24 + 12
    assert all(r["status"] == "ok" and r["score"] is not None for r in recs.values())
    kinds = {r["kind"] for r in recs.values()}
    assert kinds == {"original", "generator"}
    gen = next(r for r in recs.values() if r["kind"] == "generator")
    assert gen["method"] == "test-run-salad" and json.loads(gen["params"]) == {"length": 4, "marker": ""}
    assert gen["expectation"] == "min" and gen["gold"] is None and (gen["min_score"], gen["max_score"]) == (0, 2)
    orig = next(r for r in recs.values() if r["kind"] == "original")
    assert orig["gold"] is not None and orig["split"] == "test"
    table = pq.read_table(run_dir / "records.parquet")
    assert table.num_rows == len(recs) and tuple(table.column_names) == RECORD_FIELDS
    assert len((run_dir / "records.jsonl").read_text().splitlines()) == len(recs)
    assert len((run_dir / "records.csv").read_text().splitlines()) == len(recs) + 1
    config = json.loads((run_dir / "config.json").read_text())
    assert config["suite"]["run"]["seed"] == 7 and config["versions"]["numpy"]
    assert config["data_checksums"]["test-run-toy"]["train:items"]
    assert config["component_versions"]["generator:test-run-salad[length=4]"]["name"] == "test-run-salad"


def test_engine_rerun_of_finished_suite_recomputes_nothing(tmp_path, fakes):
    counter = tmp_path / "queries.txt"
    suite = toy(tmp_path, fakes, scorer_params=f'count_file = "{counter}"', run="preflight = false")
    first = run_suite(suite, report=False)
    queried = count_lines(counter)
    assert queried > 0 and first.queries == queried
    before = records(tmp_path / "run")
    again = run_suite(suite, report=False)
    assert count_lines(counter) == queried
    assert again.tasks_run == 0 and again.tasks_skipped == 3 and again.queries == 0
    assert records(tmp_path / "run") == before


def test_engine_nan_scores_are_recorded_never_zero_and_retried(tmp_path, fakes):
    heal, counter = tmp_path / "healed", tmp_path / "queries.txt"
    params = f'fail_marker = "ZZZ"\nfail_mode = "nan"\nheal_file = "{heal}"\ncount_file = "{counter}"'
    suite = toy(tmp_path, fakes, scorer_params=params, generators_toml=SALAD_MARKED, run="preflight = false")
    first = run_suite(suite, report=False)
    recs = records(tmp_path / "run")
    marked = {k: r for k, r in recs.items() if "ZZZ" in r["text"]}
    assert len(marked) == 4 and first.failed_records == 4
    for r in marked.values():
        assert r["status"] == "nan" and r["score"] is None and r["attempts"] == 2 and "nan" in r["error"]
    assert all(r["status"] == "ok" for k, r in recs.items() if k not in marked)
    heal.touch()
    before = count_lines(counter)
    second = run_suite(suite, report=False)
    # only the failed answers are queried again; the ok ones come from the cache
    assert second.tasks_run == 2 and count_lines(counter) - before == len({r["text"] for r in marked.values()})
    after = records(tmp_path / "run")
    assert all(after[k]["status"] == "ok" and after[k]["score"] is not None for k in marked)
    assert {k: r for k, r in after.items() if k not in marked} == {k: r for k, r in recs.items() if k not in marked}


def test_engine_scorer_exceptions_become_error_records(tmp_path, fakes):
    params = 'fail_marker = "ZZZ"\nfail_mode = "error"'
    suite = toy(tmp_path, fakes, scorer_params=params, generators_toml=SALAD_MARKED, run="preflight = false")
    run_suite(suite, report=False)
    recs = records(tmp_path / "run")
    errors = [r for r in recs.values() if r["status"] == "error"]
    assert errors and all(r["score"] is None and "crashed" in r["error"] for r in errors)
    # a call that raises fails its whole batch (4 answers); batches without a marked answer score fine
    assert all(r["status"] == "error" for r in recs.values() if "ZZZ" in r["text"])
    assert sum(r["status"] == "ok" for r in recs.values()) >= 24
    assert all(r["score"] is not None for r in recs.values() if r["status"] == "ok")


def test_engine_generator_failure_is_a_task_error_retried_next_run(tmp_path, fakes):
    gens = '[[generators]]\nname = "test-run-salad"\nn = 3\n[[generators]]\nname = "test-run-broken"\nn = 3\n'
    suite = toy(tmp_path, fakes, generators_toml=gens)
    summary = run_suite(suite, report=False)
    assert len(summary.task_errors) == 2 and "broken on purpose" in summary.task_errors[0]
    with Store(tmp_path / "run" / "store.sqlite") as store:
        assert sorted(store.task_status().values()).count("error") == 2
    assert all(r["method"] != "test-run-broken" for r in records(tmp_path / "run").values())
    again = run_suite(suite, report=False)
    assert again.tasks_run == 2 and len(again.task_errors) == 2


def test_engine_full_disk_stops_cleanly_keeping_committed_tasks(tmp_path, fakes, monkeypatch):
    suite = toy(tmp_path, fakes, generators_toml='[[generators]]\nname = "test-run-salad"\nn = 300\n')
    real_commit = Store.commit_task
    calls = {"n": 0}

    def commit_then_fill(self, result, **kw):
        calls["n"] += 1
        if calls["n"] == 2:  # the disk "fills up": SQLite may not grow the file any further
            pages = self.con.execute("PRAGMA page_count").fetchone()[0]
            self.con.execute(f"PRAGMA max_page_count = {pages + 1}")
        return real_commit(self, result, **kw)

    monkeypatch.setattr(Store, "commit_task", commit_then_fill)
    with pytest.raises(StoreError) as info:
        run_suite(suite, report=False)
    assert str(tmp_path / "run" / "store.sqlite") in str(info.value) and "rerun the same command" in str(info.value)
    con = sqlite3.connect(tmp_path / "run" / "store.sqlite")
    done = con.execute("SELECT task_id, n_records FROM tasks").fetchall()
    assert len(done) == 1  # the first task was committed whole, the second not at all
    assert con.execute("SELECT COUNT(*) FROM records").fetchone()[0] == done[0][1]
    con.close()
    monkeypatch.setattr(Store, "commit_task", real_commit)
    resumed = run_suite(suite, report=False)
    assert resumed.tasks_run == 2 and resumed.tasks_skipped == 1 and resumed.records == 24 + 600


def test_engine_unwritable_output_folder_is_a_store_error(tmp_path, fakes):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the run folder's parent should be")
    suite = parse_suite(tomllib.loads(fakes.toy_suite(blocker / "run")), source="toy.toml")
    with pytest.raises(StoreError, match="fix the folder's permissions") as info:
        run_suite(suite, report=False)
    assert str(blocker / "run") in str(info.value)
    assert blocker.read_text().startswith("a file")  # nothing was overwritten


def test_engine_changed_suite_drops_records_of_removed_tasks(tmp_path, fakes):
    run_suite(toy(tmp_path, fakes), report=False)
    gens = '[[generators]]\nname = "test-run-salad"\nn = 2\n'
    summary = run_suite(toy(tmp_path, fakes, generators_toml=gens), report=False)
    recs = records(tmp_path / "run")
    assert summary.tasks_skipped == 1 and len(recs) == 24 + 4  # the original task is unchanged
    assert sum(r["kind"] == "generator" for r in recs.values()) == 4


def test_engine_json_log_reports_each_task(tmp_path, fakes):
    stream = io.StringIO()
    run_suite(toy(tmp_path, fakes), progress=JsonLogProgress(stream), report=False)
    events = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [e["event"] for e in events] == ["start", "task", "task", "task", "end"]
    assert events[0]["tasks_left"] == 3 and events[-2]["tasks_left"] == 0
    assert {e["kind"] for e in events[1:4]} == {"original", "generator"}
    assert all(e["statuses"] == {"ok": e["records"]} for e in events[1:4])

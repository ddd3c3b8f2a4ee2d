from __future__ import annotations

import pytest
from helpers_run import records, toy

from bluffcheck.errors import ConfigError
from bluffcheck.run.engine import run_suite
from bluffcheck.run.executor import DaskExecutor, make_executor

GENS = '[[generators]]\nname = "test-run-salad"\nn = 20\n[[generators]]\nname = "test-run-salad"\nlabel = "long"\nn = 20\n[generators.params]\nlength = 9\n'


@pytest.mark.slow
def test_local_two_workers_equal_in_process(tmp_path, fakes):
    run_suite(toy(tmp_path, fakes, "one", generators_toml=GENS), report=False)
    two = run_suite(toy(tmp_path, fakes, "two", generators_toml=GENS), workers=2, report=False)
    assert two.tasks_run == 5
    assert records(tmp_path / "one") == records(tmp_path / "two")


@pytest.mark.slow
def test_dask_local_cluster_equals_local(tmp_path, fakes):
    run_suite(toy(tmp_path, fakes, "local", generators_toml=GENS), report=False)
    summary = run_suite(toy(tmp_path, fakes, "dask", generators_toml=GENS), executor="dask", workers=2, report=False)
    assert summary.tasks_run == 5
    local, dask = records(tmp_path / "local"), records(tmp_path / "dask")
    assert len(local) == 24 + 80 and local == dask


def test_dask_unreachable_scheduler_fails_fast(tmp_path):
    executor = DaskExecutor("tcp://127.0.0.1:9", connect_timeout=1)
    with pytest.raises(ConfigError, match="Could not reach the Dask scheduler at 'tcp://127.0.0.1:9'"):
        next(executor.run([], {}))


def test_make_executor_rejects_unknown_kind():
    with pytest.raises(ConfigError, match="Unknown executor 'ray'"):
        make_executor("ray")

from __future__ import annotations

from helpers_run import toy

from bluffcheck.run.prepare import prepare
from bluffcheck.run.tasks import expand_tasks, stable_hash, task_rng
from bluffcheck.run.work import execute


def _grid(tmp_path, fakes, seed=7):
    suite = toy(tmp_path, fakes)
    prepared = prepare(suite)
    return prepared, expand_tasks(prepared.bundles, suite.generators, seed)


def test_task_ids_are_stable_and_depend_on_seed_and_config(tmp_path, fakes):
    _, first = _grid(tmp_path, fakes)
    _, again = _grid(tmp_path, fakes)
    _, reseeded = _grid(tmp_path, fakes, seed=8)
    assert [t.task_id for t in first] == [t.task_id for t in again]
    assert len({t.task_id for t in first}) == len(first) == 3
    assert not {t.task_id for t in first} & {t.task_id for t in reseeded}
    assert [t.kind for t in first] == ["original", "generator", "generator"]
    assert stable_hash({"a": 1, "b": [2]}) == stable_hash({"b": [2], "a": 1})


def test_task_results_do_not_depend_on_order(tmp_path, fakes):
    prepared, tasks = _grid(tmp_path, fakes)
    bundle = prepared.bundles[0]
    forward = [execute(t, bundle).records for t in tasks]
    backward = [execute(t, bundle).records for t in reversed(tasks)][::-1]
    strip = [[{k: v for k, v in r.items() if k != "elapsed_s"} for r in recs] for recs in forward]
    assert strip == [[{k: v for k, v in r.items() if k != "elapsed_s"} for r in recs] for recs in backward]
    g1, g2 = tasks[1], tasks[2]
    assert task_rng(g1).integers(1 << 30) != task_rng(g2).integers(1 << 30)
    assert [r["text"] for r in forward[1]] != [r["text"] for r in forward[2]]


def test_holdout_split_when_no_test_split(tmp_path, fakes):
    text = fakes.toy_suite(tmp_path / "run").replace('test_split = "test"', "holdout = 0.25")
    import tomllib

    from bluffcheck.run.suite import parse_suite

    prepared = prepare(parse_suite(tomllib.loads(text), source="toy.toml"))
    bundle = prepared.bundles[0]
    assert len(bundle.test_items) == 6  # 3 of each prompt's 12 answers
    train_ids = {it.id for it in prepared.bundles[0].test_items}
    assert all(i.startswith("train-") for i in train_ids)
    again = prepare(parse_suite(tomllib.loads(text), source="toy.toml")).bundles[0]
    assert [it.id for it in again.test_items] == [it.id for it in bundle.test_items]

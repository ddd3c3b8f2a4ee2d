"""Suite files: one TOML file that names datasets, scorers, generators, metrics, gates, seeds and output.

``load_suite(path)`` parses and validates the file strictly (unknown tables and keys and wrong types
are a :class:`~bluffcheck.errors.ConfigError` that names the file, table and key) and returns a
frozen :class:`Suite`. ``Suite.resolved()`` is the configuration stored with the results.

Tables (see ``bluffcheck/suites/default.toml`` for a commented example)::

    [run]            name, seed, output, executor, workers, scheduler, batch_size, preflight, [run.retry]
    [[datasets]]     name, label, options, train_split, test_split, holdout, prompts
    [[scorers]]      name + params (a registered scorer or adapter), or path + trusted (a saved scorer)
    [[generators]]   name, params, n, label; or methods = "paper" with n
    [metrics]        bootstrap, confidence
    [gates]          min_arr (0..1, or {default = .., <method or label> = ..}), max_n_pos (percent),
                     max_qwk_drop, min_qwk
    [[perturbations]], [[attacks]], [[defenses]]   reserved: must be empty in this version
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ._specs import DatasetSpec, GateSpec, GeneratorSpec, MetricsSpec, RetrySpec, RunSpec, ScorerSpec, Suite
from ._validate import Checker

__all__ = [
    "DatasetSpec",
    "GateSpec",
    "GeneratorSpec",
    "MetricsSpec",
    "RetrySpec",
    "RunSpec",
    "ScorerSpec",
    "Suite",
    "default_suite_path",
    "load_suite",
    "parse_suite",
]

RESERVED = ("perturbations", "attacks", "defenses")


def default_suite_path() -> Path:
    """The default suite shipped with the package (``bluffcheck/suites/default.toml``)."""
    return Path(__file__).resolve().parent.parent / "suites" / "default.toml"


def load_suite(path: str | Path) -> Suite:
    """Read and validate a suite file.

    Raises
    ------
    ConfigError
        The file is missing, is not TOML, or a table/key is unknown or of the wrong type;
        the message names the file, the table and the key.
    """
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"Suite file {path} does not exist. Pass the path of a .toml suite file.") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"Cannot read suite file {path}: {exc}.") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}. Fix the syntax at that position.") from None
    return parse_suite(raw, source=str(path))


def parse_suite(raw: dict[str, Any], *, source: str = "suite.toml") -> Suite:
    """Validate an already-parsed suite mapping (see :func:`load_suite`)."""
    c = Checker(source)
    tables = ("run", "datasets", "scorers", "generators", "metrics", "gates", *RESERVED)
    c.keys(raw, "top level", tables, kind="table")
    for name in RESERVED:
        if raw.get(name):
            raise ConfigError(
                f"{source}: [[{name}]] is not implemented yet in this version of bluffcheck. "
                f"Remove the [[{name}]] entries (generators, scorers and gates are supported)."
            )
    run = _run(c, c.table(raw, "run", "top level"))
    datasets = tuple(_dataset(c, d, f"[[datasets]] #{i}") for i, d in enumerate(c.array(raw, "datasets"), 1))
    scorers = tuple(_scorer(c, s, f"[[scorers]] #{i}") for i, s in enumerate(c.array(raw, "scorers"), 1))
    generators = tuple(g for i, t in enumerate(c.array(raw, "generators"), 1) for g in _generators(c, t, i))
    for what, items in (("datasets", datasets), ("scorers", scorers), ("generators", generators)):
        if not items:
            raise ConfigError(f"{source}: the suite needs at least one [[{what}]] entry.")
        _unique(source, what, [x.label for x in items])
    metrics = _metrics(c, c.table(raw, "metrics", "top level"))
    gates = _gates(c, c.table(raw, "gates", "top level"))
    return Suite(source, run, datasets, scorers, generators, metrics, gates)


def _unique(source: str, what: str, labels: list[str]) -> None:
    seen: set[str] = set()
    for label in labels:
        if label in seen:
            raise ConfigError(
                f"{source}: two [[{what}]] entries are both labelled {label!r}. Give one of them a distinct 'label'."
            )
        seen.add(label)


def _run(c: Checker, t: dict[str, Any]) -> RunSpec:
    where = "[run]"
    c.keys(t, where, ("name", "seed", "output", "executor", "workers", "scheduler", "batch_size", "preflight", "retry"))
    retry_t = c.table(t, "retry", where)
    c.keys(retry_t, "[run.retry]", ("retries", "timeout_s", "backoff_s"))
    retry = RetrySpec(
        retries=c.integer(retry_t, "retries", "[run.retry]", 2, minimum=0),
        timeout_s=c.number(retry_t, "timeout_s", "[run.retry]", 120.0, minimum=0.0),
        backoff_s=c.number(retry_t, "backoff_s", "[run.retry]", 0.5, minimum=0.0),
    )
    executor = c.string(t, "executor", where, "local")
    if executor not in ("local", "dask"):
        c.fail(where, "executor", "must be 'local' or 'dask'", executor)
    return RunSpec(
        name=c.string(t, "name", where, "suite", nonempty=True),
        seed=c.integer(t, "seed", where, 0, minimum=0),
        output=c.string(t, "output", where, ""),
        executor=executor,
        workers=c.integer(t, "workers", where, 1, minimum=1),
        scheduler=c.string(t, "scheduler", where, ""),
        batch_size=c.integer(t, "batch_size", where, 512, minimum=1),
        preflight=c.boolean(t, "preflight", where, True),
        retry=retry,
    )


def _dataset(c: Checker, t: Any, where: str) -> DatasetSpec:
    t = c.as_table(t, where)
    c.keys(t, where, ("name", "label", "options", "train_split", "test_split", "holdout", "prompts"))
    name = c.string(t, "name", where, None, nonempty=True)
    holdout = c.number(t, "holdout", where, 0.25, minimum=0.0)
    if not 0.0 < holdout < 1.0:
        c.fail(where, "holdout", "must be a fraction strictly between 0 and 1", holdout)
    return DatasetSpec(
        name=name,
        label=c.string(t, "label", where, name, nonempty=True),
        options=dict(c.table(t, "options", where)),
        train_split=c.string(t, "train_split", where, ""),
        test_split=c.string(t, "test_split", where, ""),
        holdout=holdout,
        prompts=tuple(c.strings(t, "prompts", where)),
    )


def _scorer(c: Checker, t: Any, where: str) -> ScorerSpec:
    t = c.as_table(t, where)
    c.keys(t, where, ("name", "label", "params", "path", "trusted"))
    name = c.string(t, "name", where, "")
    path = c.string(t, "path", where, "")
    if bool(name) == bool(path):
        raise ConfigError(
            f"{c.source}: {where}: give exactly one of 'name' (a registered scorer or adapter) or 'path' "
            "(a saved scorer file)."
        )
    trusted = c.boolean(t, "trusted", where, False)
    if path and t.get("params"):
        c.fail(where, "params", "cannot be combined with 'path' (a saved scorer keeps its own parameters)", t["params"])
    label = c.string(t, "label", where, name or Path(path).stem, nonempty=True)
    return ScorerSpec(label=label, name=name, params=dict(c.table(t, "params", where)), path=path, trusted=trusted)


def _generators(c: Checker, t: Any, index: int) -> list[GeneratorSpec]:
    where = f"[[generators]] #{index}"
    t = c.as_table(t, where)
    c.keys(t, where, ("name", "label", "params", "n", "methods"))
    n = c.integer(t, "n", where, 100, minimum=1)
    methods = c.string(t, "methods", where, "")
    if methods:
        if methods != "paper":
            c.fail(where, "methods", "must be 'paper' (the 25 methods of Ding et al. 2020)", methods)
        if any(k in t for k in ("name", "params", "label")):
            c.fail(where, "methods", "cannot be combined with 'name', 'params' or 'label'", methods)
        return [GeneratorSpec(name, method_label(name, params), n, dict(params)) for name, params in _paper_methods()]
    name = c.string(t, "name", where, None, nonempty=True)
    params = dict(c.table(t, "params", where))
    label = c.string(t, "label", where, method_label(name, params), nonempty=True)
    return [GeneratorSpec(name, label, n, params)]


def _paper_methods() -> list[tuple[str, dict[str, Any]]]:
    from ..generators._paper import PAPER_METHODS

    return [(name, dict(params)) for name, params in PAPER_METHODS]


def method_label(name: str, params: dict[str, Any]) -> str:
    """The generators' short label for a method and its parameters (``char-3gram-prompt``)."""
    from ..generators._paper import method_label as label

    return label(name, dict(params))


def _metrics(c: Checker, t: dict[str, Any]) -> MetricsSpec:
    c.keys(t, "[metrics]", ("bootstrap", "confidence"))
    confidence = c.number(t, "confidence", "[metrics]", 0.95, minimum=0.0)
    if not 0.0 < confidence < 1.0:
        c.fail("[metrics]", "confidence", "must be a number strictly between 0 and 1", confidence)
    return MetricsSpec(bootstrap=c.integer(t, "bootstrap", "[metrics]", 1000, minimum=1), confidence=confidence)


def _gates(c: Checker, t: dict[str, Any]) -> GateSpec:
    where = "[gates]"
    c.keys(t, where, ("min_arr", "max_n_pos", "max_qwk_drop", "min_qwk"))
    raw = t.get("min_arr")
    if raw is None:
        min_arr: dict[str, float] = {}
    elif isinstance(raw, dict):
        min_arr = {str(k): c.fraction(raw, k, "[gates.min_arr]") for k in raw}
    else:
        min_arr = {"default": c.fraction(t, "min_arr", where)}
    return GateSpec(
        min_arr=min_arr,
        max_n_pos=c.number(t, "max_n_pos", where, None, minimum=0.0),
        max_qwk_drop=c.number(t, "max_qwk_drop", where, None, minimum=0.0),
        min_qwk=c.number(t, "min_qwk", where, None, minimum=-1.0),
    )

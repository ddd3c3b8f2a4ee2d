"""The frozen dataclasses a suite file parses into (see :mod:`bluffcheck.run.suite`)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["DatasetSpec", "GateSpec", "GeneratorSpec", "MetricsSpec", "RetrySpec", "RunSpec", "ScorerSpec", "Suite"]


@dataclass(frozen=True)
class RetrySpec:
    """How often a failed scorer query is retried, and its time limit (seconds, 0 = none)."""

    retries: int = 2
    timeout_s: float = 120.0
    backoff_s: float = 0.5


@dataclass(frozen=True)
class RunSpec:
    """The ``[run]`` table."""

    name: str = "suite"
    seed: int = 0
    output: str = ""
    executor: str = "local"
    workers: int = 1
    scheduler: str = ""
    batch_size: int = 512
    preflight: bool = True
    retry: RetrySpec = field(default_factory=RetrySpec)


@dataclass(frozen=True)
class DatasetSpec:
    """One ``[[datasets]]`` entry: a registered dataset, loader options and how to split it."""

    name: str
    label: str
    options: dict[str, Any] = field(default_factory=dict, hash=False)
    train_split: str = ""
    test_split: str = ""
    holdout: float = 0.25
    prompts: tuple[str, ...] = ()


@dataclass(frozen=True)
class ScorerSpec:
    """One ``[[scorers]]`` entry: a registry name with parameters, or a saved scorer file."""

    label: str
    name: str = ""
    params: dict[str, Any] = field(default_factory=dict, hash=False)
    path: str = ""
    trusted: bool = False


@dataclass(frozen=True)
class GeneratorSpec:
    """One generator with its parameters and how many answers to make per prompt."""

    name: str
    label: str
    n: int
    params: dict[str, Any] = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class MetricsSpec:
    """The ``[metrics]`` table."""

    bootstrap: int = 1000
    confidence: float = 0.95


@dataclass(frozen=True)
class GateSpec:
    """Thresholds for ``bluffcheck check``; ``None`` means no gate."""

    min_arr: dict[str, float] = field(default_factory=dict, hash=False)
    max_n_pos: float | None = None
    max_qwk_drop: float | None = None
    min_qwk: float | None = None

    def arr_threshold(self, label: str, method: str) -> float | None:
        """The minimum ARR for a method label (exact label, then method name, then ``default``)."""
        for key in (label, method, "default"):
            if key in self.min_arr:
                return self.min_arr[key]
        return None


@dataclass(frozen=True)
class Suite:
    """A validated suite file."""

    source: str
    run: RunSpec
    datasets: tuple[DatasetSpec, ...]
    scorers: tuple[ScorerSpec, ...]
    generators: tuple[GeneratorSpec, ...]
    metrics: MetricsSpec = field(default_factory=MetricsSpec)
    gates: GateSpec = field(default_factory=GateSpec)

    def resolved(self) -> dict[str, Any]:
        """The configuration as plain JSON data (paper shorthands expanded, defaults filled in)."""
        out = asdict(self)
        out["datasets"] = [dict(d, prompts=list(d["prompts"])) for d in out["datasets"]]
        return json.loads(json.dumps(out, sort_keys=True, default=str))

    def output_dir(self, base: Path | None = None) -> Path:
        """The run folder: ``[run] output`` (relative to ``base``, default the working directory) or ``runs/<name>``."""
        out = Path(self.run.output) if self.run.output else Path("runs") / self.run.name
        return out if out.is_absolute() or base is None else base / out

"""Turn a suite into bundles: load and split each dataset, fit each scorer once (in the parent),
build the generators' per-prompt contexts, and collect provenance (checksums, versions).

Fitted scorers stay in memory and travel to each worker once (pool initializer or Dask scatter):
nothing is unpickled from disk, and a resumed run refits deterministically to the same fingerprint.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from .._registry import scorers as scorer_registry
from ..errors import ConfigError, ScorerError
from ..generators.base import GenerationContext
from ..types import Dataset, Item
from .suite import DatasetSpec, ScorerSpec, Suite
from .tasks import Bundle

__all__ = ["Prepared", "package_versions", "prepare"]

_PACKAGES = ("bluffcheck", "numpy", "scipy", "scikit-learn", "pandas", "pyarrow", "dask", "distributed", "torch",
             "sentence-transformers", "skops")


@dataclass
class Prepared:
    """Bundles plus the provenance stored in ``config.json``."""

    bundles: list[Bundle] = field(default_factory=list)
    checksums: dict[str, dict[str, str]] = field(default_factory=dict)
    components: dict[str, Any] = field(default_factory=dict)


def package_versions() -> dict[str, str]:
    """Installed versions of bluffcheck and the libraries results depend on (absent ones omitted)."""
    import platform

    out = {"python": platform.python_version()}
    for name in _PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def checksums(data: Dataset) -> dict[str, str]:
    """sha256 of the files the loader read (as named in item metadata) and of the items themselves."""
    files = {str(it.metadata[k]) for it in data.items for k in ("source_file", "solution_file") if k in it.metadata}
    out = {f: _sha256_file(Path(f)) for f in sorted(files) if Path(f).is_file()}
    h = hashlib.sha256()
    for it in data.items:
        h.update(f"{it.id}\x1f{it.prompt_id}\x1f{it.score}\x1f{it.label}\x1f{it.text}\x1e".encode())
    out["items"] = h.hexdigest()
    return out


def _load(spec: DatasetSpec, split: str) -> Dataset:
    from ..datasets import load

    options = dict(spec.options)
    if split:
        options["split"] = split
    return load(spec.name, **options)


def _holdout(data: Dataset, fraction: float, rng: np.random.Generator) -> tuple[Dataset, Dataset]:
    """A per-prompt random split: ``fraction`` of each prompt's answers (at least one) are held out."""
    train: list[Item] = []
    test: list[Item] = []
    for sub in data.by_prompt().values():
        order = rng.permutation(len(sub))
        k = max(1, round(fraction * len(sub))) if len(sub) > 1 else 0
        held = set(order[:k].tolist())
        for i, it in enumerate(sub.items):
            (test if i in held else train).append(it)
    return data.subset(train), data.subset(test, split=f"{data.split or 'all'}-holdout")


def _restrict(data: Dataset, spec: DatasetSpec, source: str) -> Dataset:
    if not spec.prompts:
        return data
    unknown = [p for p in spec.prompts if p not in data.prompts]
    if unknown:
        raise ConfigError(
            f"{source}: [[datasets]] {spec.label!r}: key 'prompts' names {unknown}, which dataset {spec.name!r} does "
            f"not have. Its prompts: {data.prompt_ids[:20]}."
        )
    keep = set(spec.prompts)
    return Dataset(data.name, tuple(it for it in data.items if it.prompt_id in keep),
                   {p: data.prompts[p] for p in spec.prompts}, data.split, data.metadata)


def load_splits(spec: DatasetSpec, seed: int, source: str) -> tuple[Dataset, Dataset]:
    """The (train, test) pair of a dataset entry."""
    train = _restrict(_load(spec, spec.train_split), spec, source)
    if spec.test_split:
        return train, _restrict(_load(spec, spec.test_split), spec, source)
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(int(hashlib.sha256(spec.label.encode())
                                                                          .hexdigest()[:8], 16),)))
    return _holdout(train, spec.holdout, rng)


def contexts(train: Dataset) -> dict[str, GenerationContext]:
    """Per prompt with answers: its training answers and those with the top score (the generators' context)."""
    from ..generators._api import context_for

    return {pid: context_for(train, pid) for pid in train.by_prompt()}


def _scorer(spec: ScorerSpec, train: Dataset) -> Any:
    if spec.path:
        from ..scorers.persist import load

        return load(spec.path, trusted=spec.trusted)
    return scorer_registry.create(spec.name, **spec.params).fit(train)


def _preflight(scorer: Any, label: str, test: Dataset, suite: Suite) -> None:
    from ..scorers.adapters._retry import RetryPolicy, score_outcomes

    if not suite.run.preflight or not getattr(scorer, "preflight", True) or not len(test):
        return
    timeout = suite.run.retry.timeout_s or None
    out = score_outcomes(scorer, [test.items[0]], policy=RetryPolicy(max_attempts=1, backoff=0.0, timeout=timeout))
    if out[0].status in ("error", "timeout"):
        raise ScorerError(
            f"Scorer {label!r} failed on the first held-out answer ({out[0].status}: {out[0].error}). Check that it is "
            "reachable and working, or set [run] preflight = false to record failures per answer instead."
        )


def prepare(suite: Suite) -> Prepared:
    """Load every dataset, fit every scorer on it, and build the bundles of the task grid."""
    prepared = Prepared()
    for dspec in suite.datasets:
        train, test = load_splits(dspec, suite.run.seed, suite.source)
        prepared.checksums[dspec.label] = {**{f"train:{k}": v for k, v in checksums(train).items()},
                                          **{f"test:{k}": v for k, v in checksums(test).items()}}
        ctx = contexts(train)
        # content only: the same data gives the same task ids wherever it lives on disk
        data_sha = hashlib.sha256(repr(sorted(prepared.checksums[dspec.label].values())).encode()).hexdigest()[:16]
        for sspec in suite.scorers:
            scorer = _scorer(sspec, train)
            _preflight(scorer, sspec.label, test, suite)
            key = f"{dspec.label}/{sspec.label}"
            prepared.components[f"scorer:{key}"] = {
                "class": f"{type(scorer).__module__}.{type(scorer).__qualname__}",
                "version": str(getattr(scorer, "version", "")),
                "fingerprint": scorer.fingerprint,
            }
            prepared.bundles.append(Bundle(
                key=key, dataset=dspec.label, scorer_label=sspec.label, scorer=scorer, fingerprint=scorer.fingerprint,
                contexts={p: c for p, c in ctx.items() if p in test.prompts}, test_items=test.items,
                prompts={**train.prompts, **test.prompts}, split=test.split, train_split=train.split,
                data_sha256=data_sha, batch_size=suite.run.batch_size, retry=suite.run.retry,
            ))
    return prepared

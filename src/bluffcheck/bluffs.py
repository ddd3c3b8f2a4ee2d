"""Bluff answers against a trained scorer: the adversarial rejection rate (ARR) and why bluffs pass.

Seed 000 (Ding et al., 2020) §3.2: ARR is the share of adversarial answers a scorer gives the
minimum score; §4 explains the worst case ("nswvtnvakgxpm" accepted because of the character
bigrams "ns", "nv", "kg"). This module glues the pieces together:

* :func:`split_dataset` — a seeded per-prompt 80/20 split stratified by gold score (or label);
* :func:`bluff_records` — score generated bluffs and return records in the run schema
  (:mod:`bluffcheck.report.result`) plus a ``label`` column (the method label);
* :func:`arr_table` — one row per scorer × method × prompt: ARR with its bootstrap CI, share of
  full credit, mean score (the same numbers ``bluffcheck report`` shows);
* :func:`evaluate_bluffs` — generate, score and tabulate in one call;
* :func:`explain_accepted` — the most-accepted bluffs of one method with the features that drove
  their score (scorers with an ``explain(item, top)`` method, e.g. ``ngram-svm``).

>>> from bluffcheck import bluffs  # doctest: +SKIP
>>> table = bluffs.evaluate_bluffs(scorer, data, methods=[("random-chars", {})], n=100, train=train)  # doctest: +SKIP
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import ConfigError
from .types import Dataset, Item

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "TABLE_COLUMNS",
    "arr_table",
    "bluff_records",
    "cv_splits",
    "evaluate_bluffs",
    "explain_accepted",
    "heldout_qwk",
    "method_summary",
    "original_records",
    "split_dataset",
]

#: Columns of :func:`arr_table`, in order.
TABLE_COLUMNS: tuple[str, ...] = (
    "scorer", "method", "prompt", "n", "n_ok", "n_errors", "arr", "arr_low", "arr_high",
    "full_credit_rate", "mean_score", "mean_pct",
)  # fmt: skip


def _stratum(item: Item) -> str:
    if item.label is not None:
        return f"label:{item.label}"
    if item.score is None:
        raise ConfigError(f"Item {item.id!r} (prompt {item.prompt_id!r}) has no gold score or label; "
                          "the split needs scored answers. Load the scored part of the dataset.")  # fmt: skip
    return f"score:{float(item.score):g}"


def split_dataset(dataset: Dataset, *, test_size: float = 0.2, seed: int = 0) -> tuple[Dataset, Dataset]:
    """A per-prompt split stratified by gold score (or label): ``(train, test)``.

    Within each prompt and score, the items are shuffled by ``numpy.random.default_rng(seed)`` and
    ``round(test_size * count)`` of them go to the test part. Item order is kept in both parts.
    """
    if not 0.0 < test_size < 1.0:
        raise ConfigError(f"test_size must be between 0 and 1 (exclusive). Got {test_size!r}.")
    rng = np.random.default_rng(seed)
    groups: dict[tuple[str, str], list[int]] = {}
    for i, it in enumerate(dataset.items):
        groups.setdefault((it.prompt_id, _stratum(it)), []).append(i)
    test: set[int] = set()
    for key in sorted(groups):
        idx = np.asarray(groups[key])
        take = int(round(test_size * len(idx)))
        test.update(int(i) for i in rng.permutation(idx)[:take])
    train_items = [it for i, it in enumerate(dataset.items) if i not in test]
    test_items = [it for i, it in enumerate(dataset.items) if i in test]
    return dataset.subset(train_items, split="train80"), dataset.subset(test_items, split="test20")


def cv_splits(dataset: Dataset, *, k: int = 5, seed: int = 0) -> list[tuple[Dataset, Dataset]]:
    """``k`` folds per prompt, stratified by gold score (or label): a list of ``(train, test)`` pairs.

    Within each prompt and score the items are shuffled by ``numpy.random.default_rng(seed)`` and
    dealt to the folds in turn, so every item is in exactly one test part.
    """
    if int(k) < 2:
        raise ConfigError(f"Cross-validation needs k >= 2 folds. Got {k!r}.")
    rng = np.random.default_rng(seed)
    groups: dict[tuple[str, str], list[int]] = {}
    for i, it in enumerate(dataset.items):
        groups.setdefault((it.prompt_id, _stratum(it)), []).append(i)
    fold = np.zeros(len(dataset), dtype=np.int64)
    for key in sorted(groups):
        for j, i in enumerate(rng.permutation(np.asarray(groups[key]))):
            fold[int(i)] = j % int(k)
    out = []
    for f in range(int(k)):
        train = [it for i, it in enumerate(dataset.items) if fold[i] != f]
        test = [it for i, it in enumerate(dataset.items) if fold[i] == f]
        out.append((dataset.subset(train, split=f"cv{k}-train{f}"), dataset.subset(test, split=f"cv{k}-test{f}")))
    return out


def heldout_qwk(scorer: Any, test: Dataset) -> dict[str, float]:
    """QWK of a fitted scorer per prompt on held-out answers (scores rounded), plus ``"mean"``."""
    from .metrics.agreement import qwk_score

    out: dict[str, float] = {}
    for pid, part in test.by_prompt().items():
        gold = np.asarray([float(it.score) for it in part.items if it.score is not None])
        if len(gold) != len(part):
            raise ConfigError(f"Held-out answers of prompt {pid!r} lack gold scores; QWK needs them.")
        pred = np.rint(np.asarray(scorer.score(part.items), dtype=float))
        prompt = test.prompts[pid]
        out[pid] = float(qwk_score(np.rint(gold), pred, min_rating=prompt.min_score, max_rating=prompt.max_score))
    out["mean"] = float(np.mean(list(out.values()))) if out else float("nan")
    return out


def bluff_records(
    scorer: Any, bluffs: Dataset, *, scorer_name: str | None = None, run_id: str = "", seed: int = 0
) -> pd.DataFrame:
    """Score ``bluffs`` (from :func:`~bluffcheck.generators._api.generate_bluffs`) and return records.

    One row per bluff with every column of ``RECORD_FIELDS`` (``kind="generator"``,
    ``expectation="min"``) plus ``label`` (the method label, e.g. ``char-3gram-prompt``). A NaN
    score becomes ``status="nan"``; it never counts as a rejection.
    """
    import pandas as pd

    from .report.result import RECORD_FIELDS

    items = list(bluffs.items)
    t0 = time.perf_counter()
    scores = np.asarray(scorer.score(items), dtype=float) if items else np.zeros(0)
    per_item = (time.perf_counter() - t0) / max(len(items), 1)
    name = scorer_name or getattr(scorer, "registry_name", "") or type(scorer).__name__
    fingerprint = str(getattr(scorer, "fingerprint", ""))
    rows = [_record(it, float(s), bluffs, name=name, fingerprint=fingerprint, run_id=run_id, seed=seed, elapsed=per_item)
            for it, s in zip(items, scores, strict=True)]  # fmt: skip
    frame = pd.DataFrame(rows, columns=[*RECORD_FIELDS, "label"])
    for col in ("seed", "attempts"):
        frame[col] = frame[col].astype("int64")
    return frame


def original_records(
    scorer: Any, test: Dataset, *, scorer_name: str | None = None, run_id: str = "", seed: int = 0
) -> pd.DataFrame:
    """Records of real held-out answers (``kind="original"``, ``gold`` = gold score, ``score`` rounded),
    so ``bluffcheck report`` shows the scorer's QWK next to its ARR."""
    items = list(test.items)
    meta = {"method": "original", "label": "original", "expectation": "same", "seed": seed}
    as_bluffs = test.subset([Item(it.id, it.prompt_id, it.text, metadata=meta) for it in items])
    frame = bluff_records(scorer, as_bluffs, scorer_name=scorer_name, run_id=run_id, seed=seed)
    frame["kind"] = "original"
    frame["gold"] = [float(it.score) if it.score is not None else None for it in items]
    frame["score"] = np.rint(frame["score"].astype(float))
    return frame


def _record(item: Item, score: float, bluffs: Dataset, **ctx: Any) -> dict[str, Any]:
    prompt = bluffs.prompts[item.prompt_id]
    meta = dict(item.metadata)
    params = {k: v for k, v in dict(meta.get("params") or {}).items() if k != "generic" or isinstance(v, str)}
    ok = bool(np.isfinite(score))
    method = str(meta.get("method", ""))
    return {
        "run_id": ctx["run_id"], "task_id": f"{ctx['name']}|{item.prompt_id}|{meta.get('label', method)}",
        "dataset": bluffs.name, "split": bluffs.split, "prompt_id": item.prompt_id, "scorer": ctx["name"],
        "scorer_fingerprint": ctx["fingerprint"], "kind": "generator", "method": method,
        "params": json.dumps(params, sort_keys=True, default=str), "seed": int(meta.get("seed", ctx["seed"])),
        "item_id": item.id, "text": item.text, "source_id": None, "source_text": None, "source_score": None,
        "gold": None, "score": score if ok else None, "status": "ok" if ok else "nan",
        "error": None if ok else "the scorer returned NaN", "attempts": 1,
        "min_score": float(prompt.min_score), "max_score": float(prompt.max_score),
        "expectation": str(meta.get("expectation", "min")), "component_version": str(meta.get("version", "1")),
        "elapsed_s": ctx["elapsed"], "label": str(meta.get("label", method)),
    }  # fmt: skip


def arr_table(records: pd.DataFrame, *, n_boot: int = 1000, confidence: float = 0.95, seed: int = 0) -> pd.DataFrame:
    """One row per scorer × method × prompt of bluff records (:data:`TABLE_COLUMNS`).

    ``arr`` is the share given the minimum score, ``arr_low``/``arr_high`` its percentile-bootstrap
    CI (``n_boot`` resamples, ``numpy.random.default_rng(seed)``), ``full_credit_rate`` the share
    given the maximum, ``mean_score`` the mean raw score and ``mean_pct`` the mean in % of the range.
    Computed by the report's own code (:func:`bluffcheck.report.summary.adversarial_table`), so the
    table and ``bluffcheck report`` agree. Methods keep their first-seen order; prompts sort naturally.
    """
    import pandas as pd

    from .report.load import validate_records
    from .report.summary import adversarial_table, natural_key, prepare

    df = prepare(validate_records(records))
    rows = adversarial_table(df, n_boot=n_boot, confidence=confidence, seed=seed)
    table = pd.DataFrame(rows, columns=list(TABLE_COLUMNS))
    order = {m: i for i, m in enumerate(dict.fromkeys(df.loc[df["bluff"], "variant"]))}
    table["_m"] = table["method"].map(order)
    table["_p"] = table["prompt"].map(natural_key)
    return table.sort_values(["scorer", "_m", "_p"], kind="stable").drop(columns=["_m", "_p"]).reset_index(drop=True)


def method_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per scorer × method: mean, min and max over prompts of ARR, mean full-credit share and mean score %."""
    grouped = table.groupby(["scorer", "method"], sort=False)
    out = grouped.agg(arr=("arr", "mean"), arr_min=("arr", "min"), arr_max=("arr", "max"),
                      full_credit_rate=("full_credit_rate", "mean"), mean_pct=("mean_pct", "mean"),
                      n=("n", "sum"), n_prompts=("prompt", "nunique"))  # fmt: skip
    return out.reset_index()


def evaluate_bluffs(
    scorer: Any,
    dataset: Dataset,
    *,
    methods: Iterable[tuple[str, Mapping[str, Any]]] | None = None,
    n: int = 1000,
    seed: int = 0,
    train: Dataset | None = None,
    generic: Any = None,
    extra_answers: Mapping[str, Sequence[str]] | None = None,
    n_boot: int = 1000,
) -> pd.DataFrame:
    """Generate ``n`` bluffs per prompt and method from ``dataset``, score them, return :func:`arr_table`.

    ``dataset`` holds the real answers the generators draw on (prompt corpora, the correct answers
    ``shuffle`` starts from). When ``train`` is given the scorer is fitted on it first; otherwise it
    must already be fitted. ``methods`` defaults to seed 000's 25 methods.
    """
    from .generators._api import generate_bluffs
    from .generators._paper import PAPER_METHODS

    if train is not None:
        scorer.fit(train)
    chosen = list(methods) if methods is not None else list(PAPER_METHODS)
    bluffs = generate_bluffs(dataset, chosen, n=n, seed=seed, generic=generic, extra_answers=extra_answers)
    return arr_table(bluff_records(scorer, bluffs, seed=seed), n_boot=n_boot, seed=seed)


def explain_accepted(
    scorer: Any,
    bluff_items: Sequence[Item],
    scores: Sequence[float],
    *,
    method: str = "random-chars",
    top: int = 5,
    features: int = 10,
    prompt: str | None = None,
) -> list[dict[str, Any]]:
    """The ``top`` highest-scored bluffs of ``method`` (above the minimum) and what drove their score.

    ``method`` matches an item's method label or registry name (its ``metadata``). Each dict holds
    ``item_id``, ``prompt_id``, ``text``, ``score``, ``min_score``, ``max_score`` and ``features``:
    the scorer's ``explain(item, top=features)`` as ``(feature, weight)`` pairs. Ties keep item order.

    Raises
    ------
    ConfigError
        When the scorer has no ``explain`` method, or ``scores`` and ``bluff_items`` differ in length.
    """
    explain = getattr(scorer, "explain", None)
    if not callable(explain):
        name = getattr(scorer, "registry_name", "") or type(scorer).__name__
        raise ConfigError(f"The scorer {name!r} cannot explain its scores: it has no explain(item, top) method. "
                          "Use a scorer that has one (e.g. 'ngram-svm') to see which features accept a bluff.")  # fmt: skip
    items, values = list(bluff_items), np.asarray(scores, dtype=float)
    if len(items) != len(values):
        raise ConfigError(f"explain_accepted got {len(items)} items but {len(values)} scores; pass one score per item.")
    chosen = []
    for i, (it, s) in enumerate(zip(items, values, strict=True)):
        meta = it.metadata
        if method not in (meta.get("label"), meta.get("method")) or (prompt is not None and it.prompt_id != prompt):
            continue
        p = scorer.prompt_for(it) if hasattr(scorer, "prompt_for") else None
        low = float(p.min_score) if p is not None else 0.0
        if np.isfinite(s) and s > low:
            chosen.append((-float(s), i, it, low, float(p.max_score) if p is not None else float("nan")))
    chosen.sort(key=lambda c: (c[0], c[1]))
    return [{"item_id": it.id, "prompt_id": it.prompt_id, "text": it.text, "score": -neg, "min_score": low,
             "max_score": high, "features": [(str(f), float(w)) for f, w in explain(it, top=features)]}
            for neg, _, it, low, high in chosen[:top]]  # fmt: skip

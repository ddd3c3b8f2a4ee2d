"""Generate bluff answers for every prompt of a dataset with many methods: :func:`generate_bluffs`."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from .._registry import generators
from ..errors import ConfigError
from ..types import Dataset, Item
from ._paper import PAPER_METHODS, method_label
from .base import GenerationContext

__all__ = ["child_rng", "context_for", "generate_bluffs"]


def context_for(dataset: Dataset, prompt_id: str, *, extra_answers: Sequence[str] = ()) -> GenerationContext:
    """The generation context of one prompt.

    ``answers``: the dataset's answers to the prompt plus ``extra_answers`` (e.g. unscored ones).
    ``correct_answers``: the answers with the prompt's maximum score; when none reached it, those with
    the highest score present (unscored items are ignored).
    """
    prompt = dataset.prompts[prompt_id]
    items = [it for it in dataset.items if it.prompt_id == prompt_id]
    scored = [it for it in items if it.score is not None]
    correct: list[str] = []
    if scored:
        top = max(float(it.score) for it in scored)  # type: ignore[arg-type]
        best = float(prompt.max_score) if any(float(it.score) == prompt.max_score for it in scored) else top  # type: ignore[arg-type]
        correct = [it.text for it in scored if float(it.score) == best]  # type: ignore[arg-type]
    return GenerationContext(prompt, tuple([it.text for it in items] + list(extra_answers)), tuple(correct))


def child_rng(seed: int, prompt_id: str, name: str, params: Mapping[str, Any]) -> np.random.Generator:
    """A generator for one (prompt, method): seeded from ``seed`` and a hash of the pair, so adding or
    reordering methods or prompts never changes another pair's output."""
    tag = f"{prompt_id}\x1f{method_label(name, dict(params))}\x1f{sorted(params.items())!r}"
    words = np.frombuffer(hashlib.sha256(tag.encode("utf-8")).digest(), dtype=np.uint32)
    return np.random.default_rng(np.random.SeedSequence([int(seed), *words.tolist()]))


def generate_bluffs(
    dataset: Dataset,
    methods: Iterable[tuple[str, Mapping[str, Any]]] = PAPER_METHODS,
    *,
    n: int = 1000,
    seed: int = 0,
    generic: Any = None,
    prompts: Sequence[str] | None = None,
    extra_answers: Mapping[str, Sequence[str]] | None = None,
) -> Dataset:
    """``n`` bluff answers per prompt and method, as a dataset of unscored items.

    Parameters
    ----------
    dataset : Dataset
        Real answers (their scores pick the correct answers the ``shuffle`` method starts from).
    methods : iterable of (name, params)
        Registry names and parameters; default: the paper's 25 methods.
    n : int
        Answers per prompt and method (1,000 in the paper).
    seed : int
        Master seed; each (prompt, method) gets its own child generator (:func:`child_rng`).
    generic : str, path or GenericCorpus, optional
        Generic corpus for every method that takes one (overrides their ``generic`` parameter).
    prompts : sequence of str, optional
        Prompt ids to generate for (default: every prompt with answers).
    extra_answers : mapping of prompt id to answers, optional
        More real answers per prompt (e.g. unscored ones) for prompt corpora and length statistics.

    Item metadata holds ``method``, ``params``, ``label`` (see :func:`method_label`) and ``seed``.
    """
    methods = [(name, dict(params)) for name, params in methods]
    built = []
    for name, params in methods:
        cls = generators.get(name)
        if generic is not None and "generic" in getattr(cls, "__dataclass_fields__", {}):
            params = {**params, "generic": generic}
        built.append((name, params, cls(**params)))
    wanted = list(prompts) if prompts is not None else list(dataset.by_prompt())
    for pid in wanted:
        if pid not in dataset.prompts:
            raise ConfigError(f"Dataset {dataset.name!r} has no prompt {pid!r}; it has {dataset.prompt_ids}.")
    items: list[Item] = []
    for pid in wanted:
        context = context_for(dataset, pid, extra_answers=(extra_answers or {}).get(pid, ()))
        for name, params, gen in built:
            label = method_label(name, params)
            rng_params = {k: v for k, v in params.items() if k != "generic"}
            for it in gen.generate(context, n, child_rng(seed, pid, name, rng_params)):
                meta = {**it.metadata, "label": label, "seed": seed}
                items.append(Item(f"{pid}:{label}:{meta['index']}", pid, it.text, score=None, metadata=meta))
    split = "bluffs" if not dataset.split else f"{dataset.split}+bluffs"
    return Dataset(dataset.name, tuple(items), dataset.prompts, split, {"generator_seed": seed})

"""generate_bluffs, the paper's method list and labels."""

from __future__ import annotations

import pytest

from bluffcheck._registry import generators
from bluffcheck.errors import ConfigError
from bluffcheck.generators._api import child_rng, context_for, generate_bluffs
from bluffcheck.generators._paper import PAPER_METHODS, method_label
from bluffcheck.types import Dataset, Item

FAST = [("random-chars", {}), ("word-ngrams", {"n": 2, "corpus": "prompt", "min_answers": 5}), ("shuffle", {})]


def test_paper_methods_are_the_25_of_section_3_3():
    labels = [method_label(name, params) for name, params in PAPER_METHODS]
    assert len(PAPER_METHODS) == 25 == len(set(labels))
    assert {"char-1gram-generic", "char-5gram-prompt", "word-3gram-generic", "content-burst", "lm-ngram"} <= set(labels)
    for name, params in PAPER_METHODS:
        generators.get(name)(**params)  # every entry builds


def test_method_label_names_extra_parameters():
    assert (
        method_label("word-ngrams", {"n": 2, "corpus": "prompt", "length": "sample"})
        == "word-2gram-prompt[length=sample]"
    )
    assert method_label("random-words", {"corpus": "prompt"}) == "random-words-prompt"


def test_context_uses_max_score_answers_as_correct(small_dataset):
    ctx = context_for(small_dataset, "p1", extra_answers=["unscored extra"])
    assert len(ctx.answers) == len(small_dataset) + 1
    assert ctx.correct_answers and all(it.score == 2 for it in small_dataset if it.text in ctx.correct_answers)


def test_context_falls_back_to_the_top_score_present(small_dataset):
    low = small_dataset.subset(it for it in small_dataset if it.score < 2)
    ctx = context_for(low, "p1")
    assert {it.score for it in low if it.text in ctx.correct_answers} == {1.0}


def test_generate_bluffs_gives_n_unscored_items_per_method(small_dataset):
    bluffs = generate_bluffs(small_dataset, FAST, n=7, seed=3)
    assert isinstance(bluffs, Dataset) and len(bluffs) == 21
    assert all(isinstance(it, Item) and it.score is None for it in bluffs)
    assert len({it.id for it in bluffs}) == 21
    assert {it.metadata["label"] for it in bluffs} == {"random-chars", "word-2gram-prompt", "shuffle"}
    assert all(it.metadata["seed"] == 3 for it in bluffs)


def test_generate_bluffs_is_reproducible_and_methods_do_not_interfere(small_dataset):
    both = generate_bluffs(small_dataset, FAST, n=5, seed=11)
    alone = generate_bluffs(small_dataset, FAST[1:2], n=5, seed=11)
    again = generate_bluffs(small_dataset, FAST, n=5, seed=11)
    other = generate_bluffs(small_dataset, FAST, n=5, seed=12)
    texts = lambda d, label: [it.text for it in d if it.metadata["label"] == label]  # noqa: E731
    assert texts(both, "word-2gram-prompt") == texts(alone, "word-2gram-prompt")
    assert [it.text for it in both] == [it.text for it in again]
    assert [it.text for it in both] != [it.text for it in other]


def test_child_rngs_differ_per_prompt_and_method():
    draws = {(p, m): child_rng(0, p, m, {}).integers(0, 2**31) for p in ("1", "2") for m in ("random-chars", "shuffle")}
    assert len(set(draws.values())) == 4


def test_generate_bluffs_rejects_unknown_prompts(small_dataset):
    with pytest.raises(ConfigError, match="no prompt 'p9'"):
        generate_bluffs(small_dataset, FAST, n=1, prompts=["p9"])

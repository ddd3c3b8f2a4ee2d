"""Real data: the Brown corpus and ASAP-SAS prompt 3 (pandas, koalas, pythons) from ../shared/data."""

from __future__ import annotations

import numpy as np
import pytest

from bluffcheck.generators._api import context_for, generate_bluffs
from bluffcheck.generators._paper import PAPER_METHODS, method_label
from bluffcheck.resources.corpora import GenericCorpus, PromptCorpus, char_text, word_tokens

pytestmark = pytest.mark.realdata


def test_brown_reads_the_tagged_zip(brown_path, monkeypatch):
    corpus = GenericCorpus.brown(brown_path)
    assert corpus.name == "brown" and len(corpus.sentences) == 57340
    assert corpus.sentences[0].startswith("The Fulton County Grand Jury said Friday an investigation of Atlanta's")
    assert 1_000_000 < sum(len(u) for u in corpus.word_units) < 1_050_000
    monkeypatch.setenv("BLUFFCHECK_BROWN", str(brown_path))
    assert GenericCorpus.resolve("auto") is corpus  # the env variable wins, and the read is cached


def test_asap_unscored_answers_add_the_training_set(asap3, shared_data):
    from bluffcheck.datasets import load

    unscored = load(
        "asap-sas", split="unscored-train", path=shared_data / "asap-sas" / "ltl-ude-adversarials" / "train+test"
    )
    extra = [it.text for it in unscored if it.prompt_id == "3"]
    assert len(extra) == 1808  # Table 1: 1,808 training answers to prompt 3
    corpus = PromptCorpus.from_dataset(asap3, "3", extra_answers=extra)
    assert len(corpus.word_units) > 2214


SUBSET = [
    "random-chars",
    "char-5gram-generic",
    "char-5gram-prompt",
    "word-5gram-generic",
    "word-5gram-prompt",
    "content-burst",
    "shuffle",
]


@pytest.mark.slow
def test_paper_methods_on_prompt_3_with_brown(asap3, brown_path):
    methods = [(name, p) for name, p in PAPER_METHODS if method_label(name, p) in SUBSET]  # all 25: bench/
    bluffs = generate_bluffs(asap3, methods, n=40, seed=0, generic=str(brown_path))
    assert len(bluffs) == len(SUBSET) * 40
    by_label: dict[str, list[str]] = {}
    for it in bluffs:
        by_label.setdefault(it.metadata["label"], []).append(it.text)
    ctx = context_for(asap3, "3")
    mean_chars = np.mean([len(char_text(a)) for a in ctx.answers if char_text(a)])
    assert all(len(t) == round(mean_chars) for t in by_label["random-chars"])
    # §2.1: prompt-specific n-grams carry the prompt's words, generic (Brown) ones rarely do
    topical = lambda texts: np.mean([any(w in t for w in ("panda", "koala", "python")) for t in texts])  # noqa: E731
    for level in ("char", "word"):
        assert topical(by_label[f"{level}-5gram-prompt"]) > topical(by_label[f"{level}-5gram-generic"]) + 0.3
    assert topical(by_label["content-burst"]) > 0.8
    assert all(set(word_tokens(t)) <= set(word_tokens(" ".join(ctx.correct_answers))) for t in by_label["shuffle"])
    assert {it.metadata["corpus_name"] for it in bluffs if it.metadata["label"].endswith("generic")} == {"brown"}

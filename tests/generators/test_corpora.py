"""Corpora and n-gram tables."""

from __future__ import annotations

import gzip
import pickle

import numpy as np
import pytest

from bluffcheck.resources.corpora import Corpus, GenericCorpus, PromptCorpus, char_text, word_tokens
from bluffcheck.resources.ngrams import EOS_CHAR, ngram_table, vocabulary
from bluffcheck.types import Prompt


def test_word_tokens_drop_punctuation_and_fold_case():
    assert word_tokens("Pandas' FOOD: bamboo -- don't it? Café 3") == [
        "pandas",
        "food",
        "bamboo",
        "don't",
        "it",
        "cafe",
        "3",
    ]
    assert char_text("  A  b.\n") == "a b"


def test_generic_default_is_bundled_and_needs_no_data(monkeypatch, tmp_path):
    monkeypatch.setenv("BLUFFCHECK_DATA", str(tmp_path))
    monkeypatch.delenv("BLUFFCHECK_BROWN", raising=False)
    monkeypatch.setenv("NLTK_DATA", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    corpus = GenericCorpus.resolve("auto")
    assert corpus.name == "bundled-public-domain"
    assert len(corpus.sentences) == 13766
    assert 300_000 < sum(len(u) for u in corpus.word_units) < 330_000


def test_generic_corpus_from_a_text_file(tmp_path):
    path = tmp_path / "mine.txt.gz"
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.write("First sentence here.\n\nSecond one!\n")
    corpus = GenericCorpus.resolve(str(path))
    assert corpus.sentences == ("First sentence here.", "Second one!")
    assert corpus.word_units == (("first", "sentence", "here"), ("second", "one"))


def test_prompt_corpus_holds_material_and_answers(small_dataset):
    corpus = PromptCorpus.from_dataset(small_dataset, "p1", extra_answers=["Extra answer about bamboo."], min_answers=5)
    assert "Pandas eat bamboo." in corpus.sentences  # a sentence of the passage
    assert corpus.sentences[-1] == "Extra answer about bamboo."
    assert len(corpus.sentences) == 1 + 3 + len(small_dataset) + 1  # question, 3 passage sentences, answers, extra


def test_prompt_corpus_unknown_prompt(small_dataset):
    with pytest.raises(ValueError, match="no prompt 'p9'"):
        PromptCorpus.from_dataset(small_dataset, "p9")


def test_ngram_counts_stay_inside_units():
    corpus = Corpus("t", ("ab", "cde"))
    table = ngram_table(corpus, "char", 2)
    got = dict(zip(table.grams.tolist(), table.counts.tolist(), strict=True))
    # "ab\n" and "cde\n": ab, b+EOS, cd, de, e+EOS; no gram spans "b\nc"
    assert got == {"ab": 1, "b": 1, "cd": 1, "de": 1, "e": 1}
    assert table.eos.sum() == 2 and table.counts.sum() == 5
    assert EOS_CHAR not in "".join(table.grams)


def test_word_ngram_counts_match_a_python_count():
    units = ("the cat sat on the mat", "the cat ran", "a cat sat")
    corpus = Corpus("w", units)
    table = ngram_table(corpus, "word", 2)
    expect: dict[tuple, int] = {}
    for u in units:
        toks = (*u.split(), None)
        for i in range(len(toks) - 1):
            key = tuple(t for t in toks[i : i + 2] if t is not None)
            expect[key] = expect.get(key, 0) + 1
    assert dict(zip(table.grams.tolist(), table.counts.tolist(), strict=True)) == expect
    assert np.isclose(table.cdf[-1], 1.0)


def test_tables_are_cached_per_corpus_level_and_n():
    corpus = Corpus("c", ("some text here", "more text"))
    assert ngram_table(corpus, "word", 2) is ngram_table(Corpus("c", ("some text here", "more text")), "word", 2)
    assert ngram_table(corpus, "word", 2) is not ngram_table(corpus, "word", 3)
    assert list(vocabulary(corpus)) == ["here", "more", "some", "text"]


def test_corpus_pickles_without_caches():
    corpus = Corpus("c", ("a b",))
    assert corpus.key and corpus.word_units
    back = pickle.loads(pickle.dumps(corpus))
    assert back == corpus and back.key == corpus.key


def test_prompt_material_is_split_into_sentences():
    prompt = Prompt("x", question="What? Explain.", passage="One sentence. Two sentences here!\n\nA third.")
    corpus = PromptCorpus.from_texts(prompt, ["answer"], min_answers=1)
    assert corpus.sentences == ("What?", "Explain.", "One sentence.", "Two sentences here!", "A third.", "answer")

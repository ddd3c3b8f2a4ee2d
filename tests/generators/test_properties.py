"""Properties of n-gram concatenation over arbitrary small corpora (Hypothesis)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bluffcheck.generators._sampling import concatenate_ngrams
from bluffcheck.resources.corpora import Corpus
from bluffcheck.resources.ngrams import clear_cache, ngram_table

WORD = st.text(alphabet="abcz'9", min_size=1, max_size=4).filter(lambda w: w.strip("'") == w)
UNIT = st.lists(WORD, min_size=5, max_size=9).map(" ".join)


@settings(max_examples=40, deadline=None)
@given(
    units=st.lists(UNIT, min_size=1, max_size=6), n=st.integers(1, 5), cap=st.integers(1, 40), seed=st.integers(0, 99)
)
def test_concatenation_respects_cap_and_corpus_symbols(units, n, cap, seed):
    clear_cache()
    corpus = Corpus("h", tuple(units))
    words = {w for u in corpus.word_units for w in u}
    for level in ("char", "word"):
        table = ngram_table(corpus, level, n)
        assert np.isclose(table.cdf[-1], 1.0) and table.counts.sum() > 0
        for text in concatenate_ngrams(table, np.full(5, cap), np.random.default_rng(seed)):
            if level == "char":
                assert len(text) <= cap and set(text) <= set(" ".join(corpus.char_units))
            else:
                assert len(text.split()) <= cap and set(text.split()) <= words

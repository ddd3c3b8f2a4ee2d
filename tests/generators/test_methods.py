"""Method-specific behaviour of the seed-000 generators."""

from __future__ import annotations

import string

import numpy as np

from bluffcheck.generators._sampling import concatenate_ngrams
from bluffcheck.generators.char_ngrams import CharNgrams
from bluffcheck.generators.content_burst import ContentBurst, prompt_nouns
from bluffcheck.generators.lm import LanguageModel
from bluffcheck.generators.random_chars import RandomCharacters
from bluffcheck.generators.random_words import RandomWords
from bluffcheck.generators.shuffle import WordShuffle, shuffle_tokens
from bluffcheck.generators.word_ngrams import WordNgrams
from bluffcheck.resources.corpora import Corpus, GenericCorpus, PromptCorpus, char_text
from bluffcheck.resources.ngrams import ngram_table, vocabulary


def _gen(gen, ctx, n=30, seed=0):
    return [it.text for it in gen.generate(ctx, n, np.random.default_rng(seed))]


def test_random_chars_uses_lowercase_letters_and_space(small_context):
    texts = _gen(RandomCharacters(length=200), small_context)
    assert set("".join(texts)) <= set(string.ascii_lowercase + " ")
    assert all(len(t) == 200 for t in texts)
    assert len(set("".join(texts))) == 27  # 6,000 uniform draws hit every symbol


def test_random_chars_sample_length_follows_real_answers(small_context):
    real = {len(char_text(a)) for a in small_context.answers}
    lengths = {len(t) for t in _gen(RandomCharacters(length="sample"), small_context, n=60)}
    assert len(lengths) > 1 and lengths <= real


def test_random_words_draw_from_the_vocabulary_uniformly(small_context):
    vocab = set(vocabulary(GenericCorpus.default()))
    words = " ".join(_gen(RandomWords(generic="bundled", length=50), small_context, n=40)).split()
    assert set(words) <= vocab
    assert sum(w == "the" for w in words) < 10  # uniform over ~13k types, unlike a unigram draw


def test_char_ngrams_only_contain_prompt_corpus_characters(small_context):
    corpus = PromptCorpus.from_texts(small_context.prompt, small_context.answers, min_answers=5)
    alphabet = set("".join(corpus.char_units))
    for n in (1, 3, 5):
        texts = _gen(CharNgrams(n=n, corpus="prompt", min_answers=5, length=80), small_context)
        assert set("".join(texts)) <= alphabet
        assert all(len(t) <= 80 for t in texts)


def test_char_ngrams_concatenate_corpus_grams():
    corpus = Corpus("abc", ("abcdefgh",) * 3)
    table = ngram_table(corpus, "char", 3)
    grams = set(table.grams[~table.eos])
    for text in concatenate_ngrams(table, np.full(50, 12), np.random.default_rng(0)):
        chunks = [text[i : i + 3] for i in range(0, len(text), 3)]
        assert all(c in grams for c in chunks[:-1])


def test_word_ngrams_of_n_come_from_the_corpus(small_context):
    corpus = PromptCorpus.from_texts(small_context.prompt, small_context.answers, min_answers=5)
    units = [" ".join(u) for u in corpus.word_units]
    for n in (2, 4):
        for text in _gen(WordNgrams(n=n, corpus="prompt", min_answers=5, length=200), small_context):
            words = text.split()
            chunks = [" ".join(words[i : i + n]) for i in range(0, len(words), n)]
            assert all(any(f" {c} " in f" {u} " for u in units) for c in chunks[:-1])
            # the last gram is whole, cut at the cap, or the words before an end-of-sentence token
            assert any(f" {chunks[-1]} " in f" {u} " for u in units)


def test_word_ngrams_stop_at_the_end_of_sentence_token():
    table = ngram_table(Corpus("xy", ("x y",)), "word", 2)  # grams: "x y" and "y </s>", equally likely
    texts = concatenate_ngrams(table, np.full(200, 1000), np.random.default_rng(0))
    assert all(t.endswith("y") and len(t.split()) < 1000 for t in texts)
    assert len({len(t.split()) for t in texts}) > 3


def test_char_ngrams_stop_at_the_end_of_sentence_token():
    table = ngram_table(Corpus("ab", ("ab",)), "char", 1)  # "a", "b" and EOS, equally likely
    texts = concatenate_ngrams(table, np.full(300, 500), np.random.default_rng(1))
    assert max(len(t) for t in texts) < 100  # P(no EOS in 100 draws) = (2/3)**100


def test_unigrams_follow_corpus_frequency_unlike_random_words():
    table = ngram_table(Corpus("freq", ("the cat the dog the end",) * 5), "word", 1)
    words = " ".join(concatenate_ngrams(table, np.full(200, 20), np.random.default_rng(0))).split()
    assert words.count("the") > 2 * words.count("cat")


def test_shuffle_is_a_permutation_of_a_correct_answer(small_context):
    sources = [shuffle_tokens(a) for a in small_context.correct_answers]
    for text in _gen(WordShuffle(), small_context, n=40):
        tokens = text.split()
        matches = [s for s in sources if sorted(s) == sorted(tokens)]
        assert matches
        assert all(tokens != s for s in matches)


def test_shuffle_uses_each_correct_answer_before_repeating(small_context):
    texts = _gen(WordShuffle(), small_context, n=len(small_context.correct_answers))
    keys = {tuple(sorted(t.split())) for t in texts}
    assert len(keys) == len({tuple(sorted(shuffle_tokens(a))) for a in small_context.correct_answers})


def test_content_burst_emits_only_nouns_of_the_material(small_context):
    nouns, counts = prompt_nouns(small_context.prompt, tuple(small_context.answers))
    assert "bamboo" in nouns and "eat" not in nouns
    for text in _gen(ContentBurst(min_answers=5, length=30), small_context):
        assert set(text.split()) <= set(nouns)


def test_lm_keeps_the_seed_and_the_source_length(small_context):
    sources = {tuple(shuffle_tokens(a)) for a in small_context.answers}
    for text in _gen(LanguageModel(generic="bundled"), small_context, n=20):
        words = text.split()
        assert any(words[0] == s[0] and len(words) == len(s) for s in sources)


def test_lm_seed_fraction_sets_the_seed_length(small_context):
    answer = "one two three four five six seven eight nine ten"
    ctx = type(small_context)(small_context.prompt, answers=(answer,))
    words = _gen(LanguageModel(generic="bundled", seed_fraction=0.5), ctx, n=1)[0].split()
    assert words[:5] == answer.split()[:5] and len(words) == 10

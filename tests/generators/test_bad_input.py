"""Bad parameters and inputs raise typed errors whose messages say what to do."""

from __future__ import annotations

import numpy as np
import pytest

from bluffcheck._registry import generators
from bluffcheck.errors import ConfigError, MissingResourceError, UnknownComponentError
from bluffcheck.generators.base import GenerationContext
from bluffcheck.generators.char_ngrams import CharNgrams
from bluffcheck.generators.content_burst import ContentBurst
from bluffcheck.generators.lm import LanguageModel
from bluffcheck.generators.random_chars import RandomCharacters
from bluffcheck.generators.shuffle import WordShuffle
from bluffcheck.generators.word_ngrams import WordNgrams
from bluffcheck.resources.corpora import Corpus, GenericCorpus, PromptCorpus
from bluffcheck.resources.ngrams import ngram_table
from bluffcheck.types import Prompt


def test_unknown_method_suggests_the_close_name():
    with pytest.raises(UnknownComponentError, match="Did you mean 'random-chars'"):
        generators.get("random-char")


@pytest.mark.parametrize("cls", [CharNgrams, WordNgrams])
@pytest.mark.parametrize("n", [0, 6, 2.0, True, "3"])
def test_ngrams_reject_n_outside_1_to_5(cls, n):
    with pytest.raises(ConfigError, match=rf"The 'n' parameter of {cls.__name__} must be an integer in 1\.\.5\. Got"):
        cls(n=n)


@pytest.mark.parametrize("cls", [CharNgrams, WordNgrams])
def test_ngrams_reject_an_unknown_corpus(cls):
    with pytest.raises(ConfigError, match="The 'corpus' parameter .* must be 'generic' or 'prompt'. Got 'web'"):
        cls(corpus="web")


@pytest.mark.parametrize("length", ["median", 0, -3, 1.5])
def test_length_must_be_mean_sample_or_a_positive_int(length):
    with pytest.raises(ConfigError, match="'length' parameter of RandomCharacters"):
        RandomCharacters(length=length)


def test_prompt_corpus_with_too_few_answers_says_how_many_are_needed():
    ctx = GenerationContext(Prompt("7"), answers=("Pandas eat bamboo.",) * 3)
    with pytest.raises(ConfigError, match="Prompt '7' has 3 non-empty answers.*at least 20.*corpus='generic'"):
        CharNgrams(corpus="prompt").generate(ctx, 5, np.random.default_rng(0))


def test_prompt_corpus_of_punctuation_only_answers_is_refused():
    with pytest.raises(ConfigError, match="0 non-empty answers"):
        PromptCorpus.from_texts(Prompt("7"), ["?!", "...", ""] * 10)


def test_empty_corpus_never_yields_answers():
    with pytest.raises(ConfigError, match="no words after normalisation"):
        ngram_table(Corpus("empty", ("!!!", "--")), "word", 1)


def test_corpus_shorter_than_n_is_refused():
    with pytest.raises(ConfigError, match="no word 5-grams"):
        ngram_table(Corpus("short", ("two words",)), "word", 5)


def test_length_matching_needs_real_answers():
    ctx = GenerationContext(Prompt("7"))
    with pytest.raises(ConfigError, match="no non-empty real answers.*length=50"):
        RandomCharacters().generate(ctx, 2, np.random.default_rng(0))
    assert len(RandomCharacters(length=50).generate(ctx, 2, np.random.default_rng(0))[0].text) == 50


def test_shuffle_without_correct_answers_is_refused():
    ctx = GenerationContext(Prompt("7"), answers=("a b c",), correct_answers=("bamboo", "yes yes"))
    with pytest.raises(ConfigError, match="no correct answer with two or more distinct words"):
        WordShuffle().generate(ctx, 2, np.random.default_rng(0))


def test_content_burst_needs_enough_answers():
    ctx = GenerationContext(Prompt("7"), answers=("Pandas eat bamboo.",))
    with pytest.raises(ConfigError, match="ContentBurst needs at least 20"):
        ContentBurst().generate(ctx, 2, np.random.default_rng(0))


def test_lm_hf_backend_needs_a_local_model_path(tmp_path):
    with pytest.raises(ConfigError, match="'model_path' parameter of LanguageModel is required"):
        LanguageModel(backend="hf")
    ctx = GenerationContext(Prompt("7"), answers=("Pandas eat bamboo every day.",))
    gen = LanguageModel(backend="hf", model_path=str(tmp_path / "missing"))
    with pytest.raises(MissingResourceError, match="never downloads"):
        gen.generate(ctx, 1, np.random.default_rng(0))


@pytest.mark.parametrize("params", [{"seed_fraction": 0.0}, {"seed_fraction": 0.9}, {"backend": "gpt2"}, {"top_k": -1}])
def test_lm_rejects_bad_parameters(params):
    with pytest.raises(ConfigError, match="parameter of LanguageModel"):
        LanguageModel(**params)


def test_generic_corpus_missing_file_says_what_to_do(tmp_path):
    with pytest.raises(MissingResourceError, match="does not exist"):
        GenericCorpus.resolve(str(tmp_path / "nope.txt"))
    with pytest.raises(MissingResourceError, match="BLUFFCHECK_BROWN"):
        GenericCorpus.brown(tmp_path / "brown.zip")


def test_generic_parameter_must_name_a_corpus():
    with pytest.raises(ConfigError, match="'generic' parameter of CharNgrams"):
        CharNgrams(generic=3)

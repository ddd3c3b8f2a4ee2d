"""The common suite: every registered generator, with its default parameters, on a small prompt."""

from __future__ import annotations

import doctest
import importlib
import pickle
from dataclasses import fields

import numpy as np
import pytest

from bluffcheck._registry import generators
from bluffcheck.errors import ConfigError
from bluffcheck.generators.base import BluffGenerator, GenerationContext
from bluffcheck.resources.corpora import char_text, word_tokens

NAMES = generators.names()


def _make(name: str, **params):
    cls = generators.get(name)
    names = {f.name for f in fields(cls)}
    if "generic" in names:
        params.setdefault("generic", "bundled")  # the bundled corpus: fast and present everywhere
    if "min_answers" in names:
        params.setdefault("min_answers", 5)
    return cls(**params)


def _texts(gen: BluffGenerator, ctx: GenerationContext, n: int, seed: int) -> list[str]:
    return [it.text for it in gen.generate(ctx, n, np.random.default_rng(seed))]


def test_generators_registry_has_the_paper_methods():
    assert {"random-chars", "random-words", "char-ngrams", "word-ngrams", "content-burst", "shuffle", "lm"} <= set(
        NAMES
    )


@pytest.mark.parametrize("name", NAMES)
def test_generator_same_seed_same_output(name, small_context):
    gen = _make(name)
    assert _texts(gen, small_context, 8, 1) == _texts(gen, small_context, 8, 1)


@pytest.mark.parametrize("name", NAMES)
def test_generator_different_seeds_differ(name, small_context):
    gen = _make(name)
    assert _texts(gen, small_context, 8, 1) != _texts(gen, small_context, 8, 2)


@pytest.mark.parametrize("name", NAMES)
def test_generator_returns_n_nonempty_answers(name, small_context):
    texts = _texts(_make(name), small_context, 13, 3)
    assert len(texts) == 13
    assert all(isinstance(t, str) and t.strip() for t in texts)


@pytest.mark.parametrize("name", NAMES)
def test_generator_lengths_near_target(name, small_context):
    gen = _make(name)
    measure = (lambda t: len(char_text(t))) if gen.level == "char" else (lambda t: len(word_tokens(t)))
    real = [measure(a) for a in small_context.answers if measure(a)]
    texts = _texts(gen, small_context, 40, 4)
    lengths = [measure(t) for t in texts]
    if any(f.name == "length" for f in fields(gen)):  # capped at the mean real length
        assert max(lengths) <= round(np.mean(real)) + 1
    else:  # shuffle and lm copy the length of their source answer
        assert set(lengths) <= set(real) | {measure(" ".join(a.split())) for a in small_context.correct_answers}
    assert np.mean(lengths) >= 0.2 * np.mean(real)


@pytest.mark.parametrize("name", NAMES)
def test_generator_item_metadata_has_method_and_params(name, small_context):
    gen = _make(name)
    items = gen.generate(small_context, 3, np.random.default_rng(0))
    for i, it in enumerate(items):
        assert it.prompt_id == small_context.prompt.id
        assert it.metadata["method"] == name
        assert it.metadata["params"] == gen.params
        assert it.metadata["index"] == i
        assert it.score is None


@pytest.mark.parametrize("name", NAMES)
def test_generator_pickles(name, small_context):
    gen = _make(name)
    back = pickle.loads(pickle.dumps(gen))
    assert back == gen
    assert _texts(back, small_context, 5, 9) == _texts(gen, small_context, 5, 9)


@pytest.mark.parametrize("name", NAMES)
def test_generator_declares_min_expectation_and_level(name):
    cls = generators.get(name)
    assert cls.expectation == "min"
    assert cls.level in ("char", "word")


@pytest.mark.parametrize("name", NAMES)
def test_generator_docstring_example_runs(name):
    cls = generators.get(name)
    module = importlib.import_module(cls.__module__)
    tests = [t for t in doctest.DocTestFinder().find(cls, module=module, globs=vars(module).copy()) if t.examples]
    assert tests, f"{cls.__name__} has no docstring example"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("n", [0, -1, 2.5])
def test_generator_rejects_a_bad_answer_count(name, n, small_context):
    with pytest.raises(ConfigError, match="positive integer"):
        _make(name).generate(small_context, n, np.random.default_rng(0))

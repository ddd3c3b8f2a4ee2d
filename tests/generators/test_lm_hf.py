"""The Hugging Face backend of ``lm`` with a tiny, randomly initialised GPT-2 saved to a temporary folder."""

from __future__ import annotations

import numpy as np
import pytest

from bluffcheck.generators.base import GenerationContext
from bluffcheck.generators.lm import LanguageModel
from bluffcheck.types import Prompt

WORDS = ["pandas", "eat", "bamboo", "koalas", "leaves", "pythons", "hunt", "the", "and", "in", "china"]


@pytest.fixture(scope="module")
def tiny_gpt2(tmp_path_factory):
    transformers = pytest.importorskip("transformers", reason="backend='hf' needs transformers (the 'encoder' extra)")
    pytest.importorskip("torch")
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = {w: i for i, w in enumerate(["[UNK]", "[EOS]", *WORDS])}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    fast = transformers.PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", eos_token="[EOS]")
    config = transformers.GPT2Config(vocab_size=len(vocab), n_positions=128, n_embd=16, n_layer=1, n_head=2)
    model = transformers.GPT2LMHeadModel(config)
    path = tmp_path_factory.mktemp("tiny-gpt2")
    fast.save_pretrained(path)
    model.save_pretrained(path)
    return path


@pytest.mark.slow
def test_lm_hf_backend_continues_the_seed_from_a_local_model(tiny_gpt2):
    answers = ("pandas eat bamboo and koalas eat leaves in china", "koalas eat leaves and pythons hunt")
    ctx = GenerationContext(Prompt("3"), answers=answers)
    gen = LanguageModel(backend="hf", model_path=str(tiny_gpt2), temperature=1.0, top_k=0)
    items = gen.generate(ctx, 4, np.random.default_rng(0))
    again = gen.generate(ctx, 4, np.random.default_rng(0))
    assert [it.text for it in items] == [it.text for it in again]
    lengths = sorted(len(a.split()) for a in answers)
    for it in items:
        words = it.text.split()
        assert len(words) in lengths
        assert words[0] in ("pandas", "koalas")  # the seed: 5% of the words, at least one
        assert set(words) <= set(WORDS)
        assert it.metadata["corpus_name"] == f"hf:{tiny_gpt2}"
    assert [it.text for it in gen.generate(ctx, 4, np.random.default_rng(1))] != [it.text for it in items]

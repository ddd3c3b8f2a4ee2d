"""Hugging Face causal-LM backend of the ``lm`` generator: a model the user has on disk, never downloaded."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import MissingResourceError

__all__ = ["hf_continue"]


@lru_cache(maxsize=2)
def _load(model_path: str) -> tuple[Any, Any]:
    path = Path(model_path).expanduser()
    if not path.is_dir():
        raise MissingResourceError(
            f"The language model folder {path} does not exist. Pass model_path= a local Hugging Face model folder "
            "(config.json, weights, tokenizer files); bluffcheck never downloads models."
        )
    try:
        from transformers import AutoModelForCausalLM, AutoTokenizer
    except ImportError as exc:  # pragma: no cover - transformers comes with the 'encoder' extra
        raise MissingResourceError("backend='hf' needs transformers: pip install 'bluffcheck[encoder]'.") from exc
    tokenizer = AutoTokenizer.from_pretrained(str(path), local_files_only=True)
    model = AutoModelForCausalLM.from_pretrained(str(path), local_files_only=True)
    model.eval()
    return tokenizer, model


def _next_token(logits: np.ndarray, rng: np.random.Generator, temperature: float, top_k: int) -> int:
    logits = logits.astype(np.float64) / temperature
    if 0 < top_k < len(logits):
        cut = np.partition(logits, -top_k)[-top_k]
        logits = np.where(logits >= cut, logits, -np.inf)
    probs = np.exp(logits - logits.max())
    return int(rng.choice(len(probs), p=probs / probs.sum()))


def hf_continue(
    model_path: str, seed: str, n_words: int, rng: np.random.Generator, *, temperature: float, top_k: int
) -> list[str]:
    """Whitespace words continuing ``seed``, sampled token by token with ``rng`` (no global seeding)."""
    tokenizer, model = _load(model_path)  # first: a missing folder fails before torch is imported
    import torch

    ids = tokenizer(seed, return_tensors="pt").input_ids
    if ids.shape[1] == 0:
        ids = torch.tensor([[tokenizer.bos_token_id or tokenizer.eos_token_id or 0]])
    new: list[int] = []
    past = None
    with torch.no_grad():
        for _ in range(4 * n_words + 16):  # tokens per word is ~1.3 for English BPE; a hard cap all the same
            out = model(input_ids=ids, past_key_values=past, use_cache=True)
            past = out.past_key_values
            token = _next_token(out.logits[0, -1].float().numpy(), rng, temperature, top_k)
            new.append(token)
            ids = torch.tensor([[token]])
            words = tokenizer.decode(new, skip_special_tokens=True).split()
            if len(words) > n_words:  # one more word started, so the n-th is complete
                break
    return tokenizer.decode(new, skip_special_tokens=True).split()[:n_words]

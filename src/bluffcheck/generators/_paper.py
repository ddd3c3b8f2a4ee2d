"""The 25 generation methods of seed 000 (§3.3: 1,000 answers per method, 25,000 in all)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

__all__ = ["PAPER_METHODS", "method_label", "paper_order"]


def _methods() -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = [("random-chars", {}), ("random-words", {})]
    for name in ("char-ngrams", "word-ngrams"):
        for corpus in ("generic", "prompt"):
            out += [(name, {"n": n, "corpus": corpus}) for n in range(1, 6)]
    out += [("content-burst", {}), ("shuffle", {}), ("lm", {})]
    return out


PAPER_METHODS: list[tuple[str, dict[str, Any]]] = _methods()
"""(registry name, parameters) of the paper's 25 methods, in Figure 1's order; other parameters keep their defaults."""


def method_label(name: str, params: dict[str, Any] | None = None) -> str:
    """A short, stable label for a method and its parameters.

    >>> method_label("char-ngrams", {"n": 3, "corpus": "prompt"})
    'char-3gram-prompt'
    >>> method_label("lm", {"backend": "hf", "model_path": "/models/gpt2"})
    'lm-hf'
    >>> method_label("shuffle")
    'shuffle'
    """
    params = dict(params or {})
    if name in ("char-ngrams", "word-ngrams"):
        label = f"{name.split('-')[0]}-{params.pop('n', 1)}gram-{params.pop('corpus', 'generic')}"
    elif name == "lm":
        label = f"lm-{params.pop('backend', 'ngram')}"
        params.pop("model_path", None)
    else:
        label = name
    if name == "random-words" and params.get("corpus", "generic") != "generic":
        label += f"-{params.pop('corpus')}"
    params.pop("corpus", None)
    extras = [f"{k}={params[k]}" for k in sorted(params) if k not in ("generic", "min_answers")]
    return label + (f"[{','.join(extras)}]" if extras else "")


def paper_order(methods: Iterable[str]) -> list[str]:
    """Method labels in seed 000's order (Figure 1); others last.

    A label ranks by itself when it is a paper label, else by its stem (the registry name or paper
    label before a space or ``[``: ``char-ngrams n=2``, ``lm-ngram[order=4]``), so variants of one
    method stay together.

    >>> paper_order(["shuffle", "lm-ngram", "random-chars", "my-method", "char-ngrams n=3", "char-ngrams n=2"])
    ['random-chars', 'char-ngrams n=2', 'char-ngrams n=3', 'shuffle', 'lm-ngram', 'my-method']
    """
    rank = {method_label(name, params): i for i, (name, params) in enumerate(PAPER_METHODS)}
    for i, (name, _params) in enumerate(PAPER_METHODS):
        rank.setdefault(name, i)  # a registry name ranks with its first paper method

    def key(label: str) -> tuple[int, str]:
        stem = re.split(r"[ \[]", label, maxsplit=1)[0]
        return rank.get(label, rank.get(stem, len(rank))), label

    return sorted(methods, key=key)

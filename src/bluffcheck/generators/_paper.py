"""The 25 generation methods of seed 000 (§3.3: 1,000 answers per method, 25,000 in all)."""

from __future__ import annotations

from typing import Any

__all__ = ["PAPER_METHODS", "method_label"]


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

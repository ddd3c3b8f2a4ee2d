"""Tokenisation shared by the shallow scorers (pure regular expressions, no models, no downloads)."""

from __future__ import annotations

import re

__all__ = ["SIMILARITY_TOKEN", "WORD_TOKEN_PATTERN", "sentences", "similarity_tokens", "word_tokens"]

# Word tokens for n-gram features: runs of word characters, and each punctuation mark on its own
# (DKPro's tokenisers, which ESCRITO uses, also keep punctuation as tokens; seed 000 §3.1).
WORD_TOKEN_PATTERN = r"(?u)\b\w+\b|[^\w\s]"

# Text::Similarity's sanitizeString: every run of characters outside [a-zA-Z0-9] becomes a space,
# then the string is lower-cased (seed 004 §3.2 uses the package's defaults).
SIMILARITY_TOKEN = re.compile(r"[a-z0-9]+")

_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?|\d+(?:[.,]\d+)?|[^\w\s]", re.UNICODE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n\s*\n+")


def similarity_tokens(text: str) -> list[str]:
    """Words as Text::Similarity sees them: ASCII letters and digits, lower-cased.

    >>> similarity_tokens("Terminal 1 isn't connected!")
    ['terminal', '1', 'isn', 't', 'connected']
    """
    return SIMILARITY_TOKEN.findall(text.lower())


def word_tokens(text: str) -> list[str]:
    """Words, numbers and punctuation marks, case kept.

    >>> word_tokens("It's 3.5 kg, isn't it?")
    ["It's", '3.5', 'kg', ',', "isn't", 'it', '?']
    """
    return _WORD.findall(text)


def sentences(text: str) -> list[str]:
    """Sentences split after ``.``, ``!`` or ``?`` followed by space, and at blank lines.

    >>> sentences("One. Two?  Three")
    ['One.', 'Two?', 'Three']
    """
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]

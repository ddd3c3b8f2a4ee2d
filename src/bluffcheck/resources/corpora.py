"""Corpora for bluff generation: the generic corpus and prompt-specific corpora (seed 000 §2.1).

A corpus is a tuple of sentences (for prompt corpora: prompt-material sentences and whole answers).
Generators see it normalised the way Ding et al. (2020) preprocessed ASAP-SAS: lower case,
punctuation removed (§2.2 "without punctuation"), one unit per line; the end of each unit is the
end-of-sentence token of the n-gram methods.

* :class:`GenericCorpus` -- the Brown corpus when the user has it (``brown.zip`` in NLTK's layout,
  read directly), else a bundled public-domain corpus (``data/generic/``, see its LICENSE.md).
* :class:`PromptCorpus` -- a prompt's material plus real answers to it.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import unicodedata
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import ConfigError, DatasetFormatError, MissingResourceError

__all__ = [
    "BROWN_ENV",
    "Corpus",
    "GenericCorpus",
    "PromptCorpus",
    "char_text",
    "find_brown",
    "word_tokens",
]

BROWN_ENV = "BLUFFCHECK_BROWN"
_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z0-9]+)*")
_SENT_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")


def word_tokens(text: str) -> list[str]:
    """Lower-cased word tokens without punctuation (inner apostrophes kept: ``don't``).

    >>> word_tokens("Pandas eat bamboo, don't they?")
    ['pandas', 'eat', 'bamboo', "don't", 'they']
    """
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return _TOKEN.findall(folded.lower().replace("\u2019", "'"))


def char_text(text: str) -> str:
    """The character stream of char-level methods: word tokens joined by single spaces.

    >>> char_text("Pandas -- eat  bamboo!")
    'pandas eat bamboo'
    """
    return " ".join(word_tokens(text))


def _split_sentences(text: str) -> list[str]:
    out: list[str] = []
    for para in re.split(r"\n\s*\n|\r\n\s*\r\n|\n", text):
        flat = " ".join(para.split())
        out.extend(s for s in _SENT_END.split(flat) if s.strip())
    return out


@dataclass(frozen=True)
class Corpus:
    """A named tuple of text units (sentences or answers), each ending in an end-of-sentence token.

    Parameters
    ----------
    name : str
        Where it came from (``"brown"``, ``"bundled-public-domain"``, ``"prompt:3"``).
    sentences : tuple of str
        The units, raw text.
    """

    name: str
    sentences: tuple[str, ...] = field(repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sentences", tuple(self.sentences))

    @cached_property
    def key(self) -> str:
        """Content hash: the cache key of n-gram tables built from this corpus."""
        digest = hashlib.sha1("\n".join(self.sentences).encode("utf-8"), usedforsecurity=False)
        return f"{self.name}:{digest.hexdigest()[:16]}"

    @cached_property
    def word_units(self) -> tuple[tuple[str, ...], ...]:
        """Normalised word tokens of each non-empty unit."""
        units = (tuple(word_tokens(s)) for s in self.sentences)
        return tuple(u for u in units if u)

    @cached_property
    def char_units(self) -> tuple[str, ...]:
        """Normalised character stream of each non-empty unit."""
        return tuple(" ".join(u) for u in self.word_units)

    def require_text(self) -> None:
        """Raise when normalisation leaves nothing to sample from (never yield empty answers silently)."""
        if not self.word_units:
            raise ConfigError(
                f"The corpus {self.name!r} has no words after normalisation (lower case, punctuation removed), "
                "so nothing can be sampled from it. Give it text, or use the other corpus."
            )

    def __getstate__(self) -> dict[str, Any]:  # cached properties are rebuilt after unpickling
        return {"name": self.name, "sentences": self.sentences}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


def find_brown(path: str | os.PathLike[str] | None = None) -> Path | None:
    """Where ``brown.zip`` is: ``path``, ``$BLUFFCHECK_BROWN``, the data root's ``nltk_data``, ``$NLTK_DATA``."""
    from ..paths import data_root

    if path is not None:
        return Path(path).expanduser()
    if os.environ.get(BROWN_ENV):
        return Path(os.environ[BROWN_ENV]).expanduser()
    roots = [r / "nltk_data" for r in [data_root(required=False)] if r is not None]
    roots += [Path(p) for p in os.environ.get("NLTK_DATA", "").split(os.pathsep) if p]
    roots += [Path.home() / "nltk_data", Path("/usr/share/nltk_data"), Path("/usr/local/share/nltk_data")]
    for root in roots:
        if (root / "corpora" / "brown.zip").is_file():
            return root / "corpora" / "brown.zip"
    return None


@lru_cache(maxsize=4)
def _read_brown(path: str, mtime: float) -> GenericCorpus:
    sentences: list[str] = []
    with zipfile.ZipFile(path) as zf:
        names = sorted(n for n in zf.namelist() if re.fullmatch(r"brown/c[a-r]\d\d", n))
        if not names:
            raise DatasetFormatError(
                path, None, None, "has no Brown files (brown/ca01 ... brown/cr09); is it brown.zip?"
            )
        for name in names:
            for lineno, line in enumerate(zf.read(name).decode("utf-8").splitlines(), 1):
                if not line.strip():
                    continue
                words = [tok.rsplit("/", 1)[0] for tok in line.split()]
                if any("/" not in tok for tok in line.split()):
                    raise DatasetFormatError(f"{path}:{name}", lineno, None, "expected tagged tokens word/TAG.")
                sentences.append(" ".join(words))
    return GenericCorpus("brown", tuple(sentences))


@lru_cache(maxsize=4)
def _read_lines(path: str, mtime: float, name: str) -> GenericCorpus:
    opener: Any = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return GenericCorpus(name, tuple(line.strip() for line in fh if line.strip()))


class GenericCorpus(Corpus):
    """The generic corpus (seed 000 §2.1 uses Brown). Build it with one of the class methods.

    >>> corpus = GenericCorpus.default()
    >>> corpus.name, len(corpus.sentences) > 10_000
    ('bundled-public-domain', True)
    """

    @classmethod
    def default(cls) -> GenericCorpus:
        """The bundled public-domain corpus (inaugural addresses + three public-domain novels); always available."""
        ref = resources.files("bluffcheck.resources") / "data" / "generic" / "public_domain_sentences.txt.gz"
        with resources.as_file(ref) as path:
            return _read_lines(str(path), path.stat().st_mtime, "bundled-public-domain")

    @classmethod
    def brown(cls, path: str | os.PathLike[str] | None = None) -> GenericCorpus:
        """The Brown corpus from NLTK's ``brown.zip`` (tagged ``word/TAG`` format); not shipped (non-commercial licence)."""
        found = find_brown(path)
        if found is None or not found.is_file():
            raise MissingResourceError(
                f"The Brown corpus was not found{f' at {found}' if found else ''}. Pass path=/path/to/brown.zip, set "
                f"${BROWN_ENV}, put it under <data root>/nltk_data/corpora/, or use generic='bundled'."
            )
        return _read_brown(str(found), found.stat().st_mtime)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> GenericCorpus:
        """A user corpus: ``brown.zip``-style zip, or a text file (``.txt`` / ``.txt.gz``) with one sentence per line."""
        p = Path(path).expanduser()
        if not p.is_file():
            raise MissingResourceError(f"The generic corpus file {p} does not exist. Pass an existing file.")
        if p.suffix == ".zip":
            return cls.brown(p)
        return _read_lines(str(p), p.stat().st_mtime, f"file:{p.name}")

    @classmethod
    def resolve(cls, spec: str | os.PathLike[str] | GenericCorpus = "auto") -> GenericCorpus:
        """``"auto"`` (Brown if found, else bundled), ``"brown"``, ``"bundled"``, a file path, or a corpus."""
        if isinstance(spec, GenericCorpus):
            return spec
        text = str(spec)
        if text == "auto":
            found = find_brown()
            return cls.brown(found) if found is not None and found.is_file() else cls.default()
        if text == "brown":
            return cls.brown()
        if text == "bundled":
            return cls.default()
        return cls.from_file(text)


class PromptCorpus(Corpus):
    """A prompt-specific corpus: the prompt's material (split into sentences) plus real answers (one unit each)."""

    @classmethod
    def from_texts(cls, prompt: Any, answers: Iterable[str], *, min_answers: int = 20) -> PromptCorpus:
        """Build from a :class:`~bluffcheck.types.Prompt` and answer texts.

        Raises
        ------
        ConfigError
            With fewer than ``min_answers`` non-empty answers: too little material to be prompt-specific.
        """
        real = [a for a in answers if word_tokens(a)]
        if len(real) < min_answers:
            raise ConfigError(
                f"Prompt {prompt.id!r} has {len(real)} non-empty answers; a prompt-specific corpus needs at least "
                f"{min_answers}. Add answers (e.g. unscored ones), lower min_answers, or use corpus='generic'."
            )
        corpus = cls(f"prompt:{prompt.id}", (*_split_sentences(prompt.material), *real))
        corpus.require_text()
        return corpus

    @classmethod
    def from_dataset(
        cls, dataset: Any, prompt_id: str, *, extra_answers: Sequence[str] = (), min_answers: int = 20
    ) -> PromptCorpus:
        """The corpus of ``prompt_id``: its material, the dataset's answers to it and ``extra_answers``."""
        if prompt_id not in dataset.prompts:
            raise ConfigError(f"Dataset {dataset.name!r} has no prompt {prompt_id!r}; it has {dataset.prompt_ids}.")
        answers = [it.text for it in dataset.items if it.prompt_id == prompt_id]
        return cls.from_texts(dataset.prompts[prompt_id], [*answers, *extra_answers], min_answers=min_answers)

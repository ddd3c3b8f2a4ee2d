"""Rebuild the bundled public-domain generic corpus (``data/generic/public_domain_sentences.txt.gz``).

Not imported by the package; run by a maintainer who has NLTK's ``inaugural.zip`` and
``gutenberg.zip`` (both public-domain texts)::

    python -m bluffcheck.resources._build_generic /path/to/nltk_data/corpora OUT.txt.gz

The output is one sentence per line, original spelling and case, in a fixed order, so the
file (and every generator seeded on it) is reproducible byte for byte.
"""

from __future__ import annotations

import gzip
import re
import sys
import zipfile
from pathlib import Path

__all__ = ["GUTENBERG_FILES", "build", "split_sentences"]

# Public-domain prose chosen for genre spread next to the (political, 1789-2021) inaugural addresses.
GUTENBERG_FILES = (
    "gutenberg/austen-persuasion.txt",
    "gutenberg/chesterton-brown.txt",
    "gutenberg/carroll-alice.txt",
)

_SENT_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")


def split_sentences(paragraph: str) -> list[str]:
    """Split one paragraph into sentences at ``. ! ?`` followed by a capital (a simple rule, good enough here)."""
    text = " ".join(paragraph.split())
    return [s.strip() for s in _SENT_END.split(text) if len(s.strip().split()) >= 2]


def _paragraphs(raw: str) -> list[str]:
    return [p for p in re.split(r"\n\s*\n", raw.replace("\r\n", "\n")) if p.strip()]


def build(corpora: Path, out: Path) -> int:
    """Write the corpus; returns the number of sentences."""
    sentences: list[str] = []
    with zipfile.ZipFile(corpora / "inaugural.zip") as zf:
        for name in sorted(n for n in zf.namelist() if n.endswith(".txt")):
            for para in _paragraphs(zf.read(name).decode("utf-8", errors="replace")):
                sentences.extend(split_sentences(para))
    with zipfile.ZipFile(corpora / "gutenberg.zip") as zf:
        for name in GUTENBERG_FILES:
            raw = zf.read(name).decode("latin-1")
            for para in _paragraphs(raw)[1:]:  # skip the "[Title by Author Year]" line
                if para.strip().upper().startswith(("CHAPTER", "VOLUME")):
                    continue
                sentences.extend(split_sentences(para))
    with gzip.GzipFile(out, "wb", mtime=0) as fh:
        fh.write(("\n".join(sentences) + "\n").encode("utf-8"))
    return len(sentences)


if __name__ == "__main__":
    print(build(Path(sys.argv[1]), Path(sys.argv[2])), "sentences")

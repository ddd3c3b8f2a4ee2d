"""Frequency-weighted n-gram concatenation (seed 000 §2.2 "N-gram"), vectorised over answers."""

from __future__ import annotations

import numpy as np

from ..resources.ngrams import NgramTable

__all__ = ["concatenate_ngrams"]


def concatenate_ngrams(table: NgramTable, caps: np.ndarray, rng: np.random.Generator) -> list[str]:
    """One answer per cap: n-grams drawn independently by corpus frequency and concatenated.

    Not an n-gram language model: earlier draws do not condition later ones (seed 000, footnote 2).
    An answer ends when it reaches its cap (characters or words; the last gram is cut at the cap)
    or after the first drawn gram that contains the end-of-sentence token (its part before EOS is
    kept). Each row of draws is made at once with ``searchsorted`` on the table's CDF.
    """
    n = table.n
    per_row = np.ceil(caps / n).astype(np.int64)  # draws that reach the cap without EOS
    idx = table.sample((len(caps), int(per_row.max())), rng)
    eos = table.eos[idx]
    first_eos = np.where(eos.any(axis=1), eos.argmax(axis=1), idx.shape[1])
    stop = np.minimum(first_eos + 1, per_row)
    out = []
    for row, k, cap in zip(idx, stop.tolist(), caps.tolist(), strict=True):
        grams = table.spell(row[:k])
        if table.level == "char":
            out.append("".join(grams)[:cap].strip())
        else:
            out.append(" ".join([w for g in grams for w in g][:cap]))
    return out

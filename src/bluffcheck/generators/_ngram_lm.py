"""A small interpolated Kneser-Ney trigram language model in NumPy, for sampling text offline.

This is the default backend of the ``lm`` generator. It is NOT GPT-2 (seed 000 used GPT-2,
whose weights cannot be downloaded here); it is a classical smoothed trigram model trained on
the generic corpus, sampled word by word. Sampling from the interpolated distribution
``P(w|u,v) = max(c(uvw)-D, 0)/c(uv) + gamma(uv) * P_kn(w|v)`` is done as a mixture: with
probability ``1 - gamma`` draw from the discounted trigram counts, otherwise back off to the
continuation-count bigram, and from there to the continuation-count unigram (Chen & Goodman 1998).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from ..resources.corpora import Corpus

__all__ = ["KneserNeyTrigram", "kn_trigram"]

EOS, BOS = 0, 1


@dataclass(frozen=True)
class _Level:
    """Continuations grouped by context: ``nxt[start[i]:start[i+1]]`` follow ``ctx[i]``."""

    ctx: np.ndarray  # sorted context keys
    start: np.ndarray
    nxt: np.ndarray
    cum: np.ndarray  # cumulative discounted weight, restarting per context
    gamma: np.ndarray  # back-off mass per context

    @classmethod
    def from_counts(cls, ctx_of: np.ndarray, nxt: np.ndarray, counts: np.ndarray, discount: float) -> _Level:
        change = np.flatnonzero(np.r_[True, ctx_of[1:] != ctx_of[:-1]])
        start = np.r_[change, len(ctx_of)]
        totals = np.add.reduceat(counts, change).astype(np.float64)
        weights = np.maximum(counts - discount, 0.0)
        cum = np.cumsum(weights)
        cum -= np.repeat(np.r_[0.0, cum[change[1:] - 1]], np.diff(start))
        gamma = np.minimum(1.0, discount * np.diff(start) / totals)
        return cls(ctx_of[change], start, nxt, cum, gamma)

    def draw(self, key: int, rng: np.random.Generator) -> int | None:
        """A continuation of context ``key``, or None to back off (unseen context or back-off draw)."""
        i = int(np.searchsorted(self.ctx, key))
        if i >= len(self.ctx) or self.ctx[i] != key or rng.random() < self.gamma[i]:
            return None
        lo, hi = int(self.start[i]), int(self.start[i + 1])
        seg = self.cum[lo:hi]
        j = int(np.searchsorted(seg, rng.random() * seg[-1], side="right"))
        return int(self.nxt[lo + min(j, hi - lo - 1)])


@dataclass(frozen=True)
class KneserNeyTrigram:
    """Interpolated Kneser-Ney trigram model over the word units of a corpus (build with :func:`kn_trigram`)."""

    vocab: tuple[str, ...]  # id -> word; 0 = </s>, 1 = <s>
    index: dict[str, int]
    tri: _Level
    bi: _Level
    uni_cdf: np.ndarray

    def sample(self, seed: list[str], n_words: int, rng: np.random.Generator) -> list[str]:
        """``n_words`` words continuing ``seed`` (lower-cased tokens); sentence ends start a new sentence."""
        v = len(self.vocab)
        hist = [BOS, BOS] + [self.index.get(w, -1) for w in seed]
        out: list[str] = []
        while len(out) < n_words:
            u, w = hist[-2], hist[-1]
            nxt = self.tri.draw(u * v + w, rng) if u >= 0 and w >= 0 else None
            if nxt is None:
                nxt = self.bi.draw(w, rng) if w >= 0 else None
            if nxt is None:
                nxt = int(min(np.searchsorted(self.uni_cdf, rng.random(), side="right"), v - 1))
            if nxt == EOS:
                hist += [BOS, BOS]
                continue
            hist.append(nxt)
            out.append(self.vocab[nxt])
        return out


def _build(corpus: Corpus, discount: float) -> KneserNeyTrigram:
    units = corpus.word_units
    index: dict[str, int] = {"</s>": EOS, "<s>": BOS}
    ids = np.fromiter(
        (index.setdefault(w, len(index)) for u in units for w in ("<s>", "<s>", *u, "</s>")), dtype=np.int64
    )
    v = len(index)
    ends = np.cumsum([len(u) + 3 for u in units])
    valid = np.ones(len(ids) - 2, dtype=bool)
    valid[np.r_[ends - 2, ends - 1][np.r_[ends - 2, ends - 1] < len(valid)]] = False  # no cross-unit trigrams
    keys = (ids[:-2][valid] * v + ids[1:-1][valid]) * v + ids[2:][valid]
    tri_keys, tri_counts = np.unique(keys, return_counts=True)
    tri = _Level.from_counts(tri_keys // v, tri_keys % v, tri_counts, discount)
    bi_keys, bi_cont = np.unique(tri_keys % (v * v), return_counts=True)  # N1+(. v w)
    bi = _Level.from_counts(bi_keys // v, bi_keys % v, bi_cont, discount)
    uni = np.bincount(bi_keys % v, minlength=v).astype(np.float64)  # N1+(. w)
    uni[BOS] = 0.0
    vocab = tuple(sorted(index, key=index.__getitem__))
    return KneserNeyTrigram(vocab, index, tri, bi, np.cumsum(uni) / uni.sum())


_CACHE: OrderedDict[tuple[str, float], KneserNeyTrigram] = OrderedDict()
_LOCK = threading.Lock()


def kn_trigram(corpus: Corpus, discount: float = 0.75) -> KneserNeyTrigram:
    """The (cached) Kneser-Ney trigram model of ``corpus``."""
    corpus.require_text()
    key = (corpus.key, float(discount))
    with _LOCK:
        if key in _CACHE:
            return _CACHE[key]
    model = _build(corpus, discount)
    with _LOCK:
        _CACHE[key] = model
        while len(_CACHE) > 4:
            _CACHE.popitem(last=False)
    return model

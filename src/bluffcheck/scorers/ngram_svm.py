"""``ngram-svm``: the shallow content scorer of Ding et al. (2020), seed 000 §3.1.

ESCRITO with Weka's SMO (default PolyKernel, exponent 1, so a linear SVM with C = 1) over the top
10,000 character 2–5-grams, the top 10,000 word 1–5-grams and the answer length, one model per
prompt. Here: scikit-learn ``CountVectorizer`` (``max_features`` keeps the most frequent n-grams of
the prompt's training answers), binary presence features (Weka's SMO normalises every attribute to
[0, 1], so n-gram presence is 0/1 either way), the token count divided by the longest training
answer's, and ``SVC(kernel="linear")``, which like SMO trains one-vs-one pairwise classifiers.

>>> from bluffcheck import Dataset, Item, Prompt
>>> p = Prompt("p", score_range=(0, 1))
>>> data = Dataset("toy", [Item(str(i), "p", t, score=s) for i, (t, s) in
...                        enumerate([("acid reacts", 1), ("no idea", 0)] * 5)], {"p": p})
>>> NgramSVM().fit(data).score([Item("x", "p", "the acid reacts")]).tolist()
[1.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from .._registry import scorers
from ..errors import ConfigError
from ..types import Item, Prompt
from ._text import WORD_TOKEN_PATTERN
from .base import Scorer, as_items, class_targets

__all__ = ["NgramSVM"]


@scorers.register("ngram-svm")
class NgramSVM(Scorer):
    """Linear SVM over character n-grams, word n-grams and length (seed 000 §3.1).

    Parameters
    ----------
    char_ngrams, word_ngrams : (int, int) or None
        Inclusive n-gram length ranges; ``None`` drops the feature group (seed 000 §5.1 keeps only
        word 2–5-grams and length: ``NgramSVM(char_ngrams=None, word_ngrams=(2, 5))``).
    max_char_features, max_word_features : int
        How many of the most frequent n-grams of each group to keep (10,000 in the paper).
    use_length : bool
        Add the answer length in word tokens, scaled by the longest training answer.
    C : float
        SVM regularisation (Weka's default 1.0).
    random_state : int
        Unused today (libsvm's fit is deterministic); kept so that every scorer takes a seed.

    Notes
    -----
    Learns integer scores (scored data) or labels (labelled data, scoring each answer with the
    credit of its predicted label). Like Weka's SMO without ``-M``, it has no class probabilities:
    use :meth:`decision_function` for margins.
    """

    is_classifier: ClassVar[bool] = False  # predict and decision_function, but no predict_proba
    version: ClassVar[str] = "1"

    def __init__(
        self,
        *,
        char_ngrams: tuple[int, int] | None = (2, 5),
        word_ngrams: tuple[int, int] | None = (1, 5),
        max_char_features: int = 10000,
        max_word_features: int = 10000,
        use_length: bool = True,
        C: float = 1.0,  # noqa: N803 - the name every SVM uses
        random_state: int = 0,
    ) -> None:
        self.char_ngrams = char_ngrams
        self.word_ngrams = word_ngrams
        self.max_char_features = max_char_features
        self.max_word_features = max_word_features
        self.use_length = use_length
        self.C = C
        self.random_state = random_state

    def _validate_params(self) -> None:
        for name in ("char_ngrams", "word_ngrams"):
            value = getattr(self, name)
            if value is not None and not (len(value) == 2 and 1 <= int(value[0]) <= int(value[1])):
                raise ConfigError(
                    f"The {name!r} parameter of NgramSVM must be (min, max) with 1 <= min <= max or None. Got {value!r} instead."
                )
        for name in ("max_char_features", "max_word_features"):
            if int(getattr(self, name)) < 1:
                raise ConfigError(
                    f"The {name!r} parameter of NgramSVM must be a positive int. Got {getattr(self, name)!r} instead."
                )
        if not self.C > 0:
            raise ConfigError(f"The 'C' parameter of NgramSVM must be a float > 0. Got {self.C!r} instead.")
        if self.char_ngrams is None and self.word_ngrams is None and not self.use_length:
            raise ConfigError(
                "NgramSVM needs at least one feature group: set char_ngrams, word_ngrams or use_length=True."
            )

    # -- features ------------------------------------------------------------------------------
    def _vectorizers(self) -> dict[str, Any]:
        from sklearn.feature_extraction.text import CountVectorizer

        out = {}
        if self.char_ngrams is not None:
            out["char"] = CountVectorizer(
                analyzer="char",
                ngram_range=tuple(self.char_ngrams),
                lowercase=True,
                binary=True,
                max_features=int(self.max_char_features),
                dtype=np.float64,
            )
        if self.word_ngrams is not None:
            out["word"] = CountVectorizer(
                analyzer="word",
                ngram_range=tuple(self.word_ngrams),
                lowercase=True,
                token_pattern=WORD_TOKEN_PATTERN,
                binary=True,
                max_features=int(self.max_word_features),
                dtype=np.float64,
            )
        return out

    @staticmethod
    def _lengths(texts: list[str]) -> np.ndarray:
        import re

        pattern = re.compile(WORD_TOKEN_PATTERN)
        return np.asarray([len(pattern.findall(t)) for t in texts], dtype=float)

    def _features(self, model: dict[str, Any], texts: list[str], blocks: dict[str, Any] | None = None) -> Any:
        """Sparse features: n-gram groups in name order, then length. ``blocks`` holds groups already counted."""
        import scipy.sparse as sp

        blocks = blocks or {}
        parts = [
            blocks[n] if n in blocks else vec.transform(texts)
            for n, vec in sorted(model["vectorizers"].items())
            if vec is not None
        ]
        if model["length_scale"] is not None:
            parts.append(sp.csr_matrix((self._lengths(texts) / model["length_scale"])[:, None]))
        return sp.hstack(parts, format="csr", dtype=np.float64)

    # -- fitting and scoring ----------------------------------------------------------------
    def _fit_prompt(self, items: Sequence[Item], prompt: Prompt | None) -> dict[str, Any]:
        from sklearn.svm import SVC

        texts = [it.text for it in items]
        y, classes, credits = class_targets(items)
        vecs, blocks = {}, {}
        for name, vec in self._vectorizers().items():
            try:
                blocks[name] = vec.fit_transform(texts)  # count once: fit() alone would count, then transform again
                vecs[name] = vec
            except ValueError:  # no n-gram of this size in any training answer: the group has no features
                vecs[name] = None
        if not any(vecs.values()) and not self.use_length:
            raise ConfigError(
                "NgramSVM found no n-grams in the training answers and use_length=False; nothing to learn from."
            )
        scale = max(float(self._lengths(texts).max()), 1.0) if self.use_length else None
        model: dict[str, Any] = {
            "vectorizers": vecs,
            "length_scale": scale,
            "classes": classes,
            "credits": credits,
            "coef": None,
            "intercept": None,
        }
        if len(classes) > 1:
            # A linear SVM trained on the precomputed linear kernel (the same optimisation problem as
            # kernel="linear", much faster on long sparse texts), turned back into primal weights.
            x = self._features(model, texts, blocks)
            svm = SVC(kernel="precomputed", C=float(self.C), decision_function_shape="ovo").fit((x @ x.T).toarray(), y)
            model["coef"], model["intercept"] = primal_weights(svm, x), np.asarray(svm.intercept_, dtype=float)
        return model

    def _decision(self, model: dict[str, Any], texts: list[str]) -> np.ndarray:
        x = self._features(model, texts)
        return np.asarray(x @ model["coef"].T, dtype=float).reshape(len(texts), -1) + model["intercept"]

    def _predict_index(self, model: dict[str, Any], items: Sequence[Item]) -> np.ndarray:
        if model["coef"] is None:
            return np.zeros(len(items), dtype=np.int64)
        return ovo_vote(self._decision(model, [it.text for it in items]), len(model["classes"]))

    def _score_prompt(self, model: dict[str, Any], items: Sequence[Item], prompt: Prompt | None) -> np.ndarray:
        return model["credits"][self._predict_index(model, items)]

    def _per_item(self, items: Any, fn: Any) -> list[Any]:
        items = as_items(items)
        self._check_fitted()
        out: list[Any] = [None] * len(items)
        for key, idx in self._groups(items).items():
            for i, value in zip(idx, fn(self.models_[key], [items[i] for i in idx]), strict=True):
                out[i] = value
        return out

    def predict(self, items: Any) -> list[str | int]:
        """Predicted classes: labels (labelled data) or integer scores (scored data)."""
        return self._per_item(items, lambda m, its: [m["classes"][i] for i in self._predict_index(m, its)])

    def decision_function(self, items: Any) -> list[np.ndarray]:
        """Each item's one-vs-one decision values (as ``SVC.decision_function`` with ``"ovo"``), one array per item.

        Pairs are (0, 1), (0, 2), ..., (1, 2), ... over the model's classes; a positive value votes for
        the pair's first class (with two classes, the single value votes for the second when >= 0).
        """

        def fn(m: dict[str, Any], its: list[Item]) -> list[np.ndarray]:
            if m["coef"] is None:
                return [np.zeros(0) for _ in its]
            return list(self._decision(m, [it.text for it in its]))

        return self._per_item(items, fn)

    def explain(self, item: Item, top: int = 10) -> list[tuple[str, float]]:
        """The features present in ``item`` that push hardest toward its predicted class.

        A feature's weight is the sum of its contributions (weight × value) over the pairwise SVMs
        that involve the predicted class, signed toward that class. Names are ``"char:ns"``,
        ``"word:the acid"`` or ``"length"`` (seed 000 §4 found char bigrams "ns", "nv", "kg" this way).
        """
        self._check_fitted()
        self._groups([item])  # NotFittedError for a prompt it was not trained on
        model = self.models_[item.prompt_id]
        if model["coef"] is None:
            return []
        x = self._features(model, [item.text])
        names = [
            f"{g}:{n}"
            for g, v in sorted(model["vectorizers"].items())
            if v is not None
            for n in v.get_feature_names_out()
        ]
        names += ["length"] if model["length_scale"] is not None else []
        contrib = pairwise_contributions(model["coef"], x, self._predict_index(model, [item])[0], len(model["classes"]))
        present = [(names[j], float(contrib[j])) for j in x.indices if contrib[j] > 0]
        return sorted(present, key=lambda kv: (-kv[1], kv[0]))[:top]


def primal_weights(svm: Any, x: Any) -> np.ndarray:
    """One weight vector per one-vs-one pair of an SVC fitted on the linear kernel of ``x``.

    The same arithmetic as ``SVC(kernel="linear").coef_`` (scikit-learn's ``_one_vs_one_coef``).
    """
    sv = x[svm.support_]
    dual = np.asarray(svm.dual_coef_)
    if len(svm.classes_) == 2:
        return np.asarray(sv.T @ dual[0]).reshape(1, -1)
    locs = np.concatenate([[0], np.cumsum(svm.n_support_)])
    rows = []
    for a in range(len(svm.classes_)):
        for b in range(a + 1, len(svm.classes_)):
            sa, sb = slice(locs[a], locs[a + 1]), slice(locs[b], locs[b + 1])
            rows.append(np.asarray(sv[sa].T @ dual[b - 1, sa] + sv[sb].T @ dual[a, sb]).ravel())
    return np.vstack(rows)


def ovo_vote(decision: np.ndarray, n_classes: int) -> np.ndarray:
    """libsvm's one-vs-one vote: most votes wins, ties go to the lowest class index."""
    if n_classes == 2:  # scikit-learn flips the binary sign: >= 0 means the second class
        return (decision[:, 0] >= 0).astype(np.int64)
    votes = np.zeros((len(decision), n_classes), dtype=np.int64)
    k = 0
    for a in range(n_classes):
        for b in range(a + 1, n_classes):
            win = decision[:, k] > 0
            votes[win, a] += 1
            votes[~win, b] += 1
            k += 1
    return votes.argmax(axis=1)


def pairwise_contributions(coef: np.ndarray, x: Any, predicted: int, n_classes: int) -> np.ndarray:
    """Per-feature contribution of one sample ``x`` (1 × d) toward class index ``predicted``.

    Sums ``coef[k, j] * x[j]`` over the one-vs-one pairs ``k`` that involve the class, signed so
    that positive favours it.
    """
    if n_classes == 2:
        signs = np.asarray([1.0 if predicted == 1 else -1.0])
    else:
        pairs = [(a, b) for a in range(n_classes) for b in range(a + 1, n_classes)]
        signs = np.asarray([1.0 if predicted == a else -1.0 if predicted == b else 0.0 for a, b in pairs])
    xd = np.asarray(x.toarray() if hasattr(x, "toarray") else x).ravel()
    return (signs @ coef) * xd

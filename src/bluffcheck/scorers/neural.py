"""``neural``: the deep victim of seed 000 §3.1 (Riordan et al. 2019), a word + character-CNN BiGRU regressor.

Per token, a word embedding is concatenated with a character CNN encoding (25-dim random character
embeddings, 100 filters each of widths 3, 4, 5, max-pooled over the word); a one-layer bidirectional GRU
(250 per direction) reads the tokens, max pooling over time summarises them, and one fully connected layer
with a sigmoid gives a value scaled to the prompt's score range. MSE loss, Adam, one model per prompt.

Deviation from the papers: GloVe is not obtainable offline, so ``word_vectors="minilm"`` starts from the
bundled MiniLM encoder's *input* word-piece embeddings (a word's vector is the mean of its word pieces,
384-dim; see :mod:`bluffcheck.resources.embeddings`), rescaled to unit standard deviation.
``word_vectors="random"`` needs no encoder. Words seen fewer than ``min_count`` times in training map to a
shared unknown-word vector, so that vector is trained; unseen words rely on it and on the character CNN.
"""

from __future__ import annotations

import re
import zlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._registry import scorers
from ..errors import ConfigError
from ..types import Item, Prompt
from .base import Scorer, as_items, clip_round, gold_scores

__all__ = ["NeuralModel", "NeuralScorer", "tokenize"]

_TOKEN = re.compile(r"\w+|[^\w\s]")
MAX_WORD_CHARS = 20  # longer tokens (URLs, keyboard mashing) are cut for the character CNN
RANDOM_DIM = 100  # dimension of random word vectors (Riordan et al. used 100-dim GloVe in some settings)
_CONFIG_KEYS = ("use_chars", "char_dim", "char_filters", "char_widths", "hidden", "dropout", "max_len")


def tokenize(text: str, max_len: int) -> list[str]:
    """Word and punctuation tokens, at most ``max_len``; an empty answer is one empty token."""
    return _TOKEN.findall(text)[:max_len] or [""]


@dataclass
class NeuralModel:
    """One prompt's fitted network: vocabularies, weights (numpy) and the score scale."""

    words: list[str]
    chars: list[str]
    weights: dict[str, np.ndarray]
    config: dict[str, Any]
    low: float
    high: float
    history: list[dict[str, float]] = field(default_factory=list)
    _net: Any = field(default=None, repr=False, compare=False)

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_net"}  # the torch module is rebuilt lazily

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state, _net=None)

    def encode(self, texts: Sequence[str], max_len: int) -> tuple[list[np.ndarray], list[list[tuple[int, ...]]]]:
        """Word ids and per-token character ids (0 = padding, 1 = unknown)."""
        widx = {w: i for i, w in enumerate(self.words)}
        cidx = {c: i for i, c in enumerate(self.chars)}
        word_ids, char_ids = [], []
        for text in texts:
            toks = tokenize(text, max_len)
            word_ids.append(np.array([widx.get(t.lower(), 1) if t else 0 for t in toks], dtype=np.int64))
            char_ids.append([tuple(cidx.get(c, 1) for c in t[:MAX_WORD_CHARS]) for t in toks])
        return word_ids, char_ids

    def network(self) -> Any:
        """The torch module, built from ``weights`` on first use."""
        if self._net is None:
            import torch

            from ._neural_net import RiordanNet

            net = RiordanNet(word_matrix=self.weights["words.weight"], n_chars=len(self.chars), config=self.config)
            net.load_state_dict({k: torch.from_numpy(np.array(v)) for k, v in self.weights.items()})
            self._net = net.eval()
        return self._net


@scorers.register("neural")
class NeuralScorer(Scorer):
    """Word + character-CNN BiGRU scorer (seed 000 §3.1). See the module docstring for the design.

    Parameters
    ----------
    epochs, batch_size, lr : training length, minibatch size and Adam learning rate.
    hidden : GRU units per direction (250 in the paper).
    char_dim, char_filters, char_widths : character embedding size, CNN filters per width, widths.
    max_len : tokens kept per answer (200 covers >99.5 % of ASAP-SAS answers; use ~300 for essays).
    use_chars : concatenate the character CNN (seed 000 §5.1 removes it as a countermeasure).
    word_vectors : ``"minilm"`` (bundled encoder's word pieces) or ``"random"``.
    min_count : training occurrences a word needs for its own vector.
    dropout : dropout on the pooled representation.
    dev_fraction : share of the training answers held out to pick the best epoch (0 disables; below 10
        answers there is no dev part).
    n_threads : torch CPU threads during fit and scoring (capped at the available cores; restored after).
    random_state : seed for initialisation, dropout, batching and the dev split.

    Examples
    --------
    >>> from bluffcheck.types import Dataset, Item, Prompt
    >>> p = Prompt("q", score_range=(0, 2))
    >>> items = [Item(str(i), "q", t, s) for i, (t, s) in enumerate([("pandas eat bamboo", 2), ("no idea", 0)] * 8)]
    >>> m = NeuralScorer(epochs=2, word_vectors="random", hidden=16).fit(Dataset("toy", items, {"q": p}))
    >>> m.score(items[:2]).shape
    (2,)
    """

    version = "1"

    def __init__(
        self, *, epochs: int = 10, batch_size: int = 32, lr: float = 2e-3, hidden: int = 250, char_dim: int = 25,
        char_filters: int = 100, char_widths: Sequence[int] = (3, 4, 5), max_len: int = 200, use_chars: bool = True,
        word_vectors: str = "minilm", min_count: int = 2, dropout: float = 0.5, dev_fraction: float = 0.1, n_threads: int = 1,
        random_state: int = 0,
    ) -> None:  # fmt: skip
        self.epochs = epochs
        self.batch_size = batch_size
        self.lr = lr
        self.hidden = hidden
        self.char_dim = char_dim
        self.char_filters = char_filters
        self.char_widths = char_widths
        self.max_len = max_len
        self.use_chars = use_chars
        self.word_vectors = word_vectors
        self.min_count = min_count
        self.dropout = dropout
        self.dev_fraction = dev_fraction
        self.n_threads = n_threads
        self.random_state = random_state

    def _validate_params(self) -> None:
        positive = ("epochs", "batch_size", "hidden", "char_dim", "char_filters", "max_len", "min_count", "n_threads")
        for name in positive:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
                raise ConfigError(f"The {name!r} parameter of NeuralScorer must be an int >= 1. Got {value!r} instead.")
        widths = self.char_widths
        if not isinstance(widths, Sequence) or not widths or any(not isinstance(w, int) or w < 1 for w in widths):
            raise ConfigError(f"The 'char_widths' parameter of NeuralScorer must be a non-empty sequence of ints >= 1. Got {widths!r} instead.")
        checks = {
            "lr": (self.lr, "a float > 0", lambda v: v > 0),
            "dropout": (self.dropout, "a float in [0, 1)", lambda v: 0 <= v < 1),
            "dev_fraction": (self.dev_fraction, "a float in [0, 0.5]", lambda v: 0 <= v <= 0.5),
        }
        for name, (value, what, ok) in checks.items():
            if not isinstance(value, int | float) or isinstance(value, bool) or not ok(value):
                raise ConfigError(f"The {name!r} parameter of NeuralScorer must be {what}. Got {value!r} instead.")
        if self.word_vectors not in ("minilm", "random"):
            raise ConfigError(f"The 'word_vectors' parameter of NeuralScorer must be 'minilm' or 'random'. Got {self.word_vectors!r} instead.")
        if not isinstance(self.random_state, int | np.integer):
            raise ConfigError(f"The 'random_state' parameter of NeuralScorer must be an int. Got {self.random_state!r} instead.")

    # -- fitting -------------------------------------------------------------------------------
    def _fit_prompt(self, items: Sequence[Item], prompt: Prompt | None) -> NeuralModel:
        y = gold_scores(items)
        low, high = _scale(y, prompt, items)
        rng = np.random.default_rng([int(self.random_state), zlib.crc32((prompt.id if prompt else "*").encode())])
        texts = [it.text for it in items]
        model = NeuralModel(*_vocabularies(texts, self.max_len, self.min_count), weights={}, low=low, high=high,
                            config={k: getattr(self, k) for k in _CONFIG_KEYS} | {"char_widths": list(self.char_widths)})  # fmt: skip
        matrix = _word_matrix(model.words, self.word_vectors, rng)
        words, chars = model.encode(texts, self.max_len)
        targets = (y - low) / (high - low)
        dev_n = int(round(self.dev_fraction * len(items))) if len(items) >= 10 else 0
        perm = rng.permutation(len(items))
        parts = {"train": perm[dev_n:], "dev": perm[:dev_n]}
        data = {k: ([words[i] for i in p], [chars[i] for i in p], targets[p]) for k, p in parts.items() if len(p)}
        model.weights, model.history = _train(matrix, model, data, self._train_config(), rng)
        return model

    def _train_config(self) -> dict[str, Any]:
        keys = ("epochs", "batch_size", "lr", "use_chars", "n_threads")
        return {k: getattr(self, k) for k in keys} | {"char_widths": list(self.char_widths)}

    # -- scoring -------------------------------------------------------------------------------
    def _continuous(self, model: NeuralModel, items: Sequence[Item]) -> np.ndarray:
        from ._neural_net import predict
        from ._threads import torch_threads

        encoded = model.encode([it.text for it in items], int(model.config["max_len"]))  # as fitted
        min_chars = max(model.config["char_widths"]) if model.config["use_chars"] else 1
        with torch_threads(self.n_threads):
            raw = predict(model.network(), encoded, batch_size=self.batch_size, min_chars=min_chars)
        return model.low + (model.high - model.low) * raw

    def _score_prompt(self, model: NeuralModel, items: Sequence[Item], prompt: Prompt | None) -> np.ndarray:
        return clip_round(self._continuous(model, items), prompt)

    def predict_continuous(self, items: Sequence[Item]) -> np.ndarray:
        """The unrounded network outputs, scaled to each prompt's range, in item order."""
        items = as_items(items)
        self._check_fitted()
        out = np.full(len(items), np.nan)
        for key, idx in self._groups(items).items():
            out[idx] = self._continuous(self.models_[key], [items[i] for i in idx])
        return out

    # -- persistence hooks (see scorers.persist) ------------------------------------------------
    def _get_state(self) -> dict[str, Any]:
        return {"models_": {pid: m.__getstate__() for pid, m in self.models_.items()}}

    def _set_state(self, state: dict[str, Any]) -> None:
        self.models_ = {}
        for pid, s in state["models_"].items():
            fields = {k: s[k] for k in ("words", "chars", "config", "low", "high", "history")}
            weights = {k: np.asarray(v, dtype=np.float32) for k, v in s["weights"].items()}
            self.models_[pid] = NeuralModel(**fields, weights=weights)


def _scale(y: np.ndarray, prompt: Prompt | None, items: Sequence[Item]) -> tuple[float, float]:
    if prompt is not None and prompt.score_range is not None:
        low, high = float(prompt.min_score), float(prompt.max_score)
        bad = np.flatnonzero((y < low) | (y > high))
        if bad.size:
            it = items[int(bad[0])]
            raise ConfigError(f"Item {it.id!r} has gold score {it.score}, outside prompt {prompt.id!r}'s range {prompt.score_range}. Fix the data or the range.")
    else:
        low, high = float(y.min()), float(y.max())
    return low, (high if high > low else low + 1.0)


def _vocabularies(texts: Sequence[str], max_len: int, min_count: int) -> tuple[list[str], list[str]]:
    toks = [t for text in texts for t in tokenize(text, max_len) if t]
    counts = Counter(t.lower() for t in toks)
    words = ["<pad>", "<unk>"] + sorted(w for w, n in counts.items() if n >= min_count)
    chars = ["<pad>", "<unk>"] + sorted({c for t in toks for c in t[:MAX_WORD_CHARS]})
    return words, chars


def _word_matrix(words: list[str], source: str, rng: np.random.Generator) -> np.ndarray:
    if source == "minilm":
        from ..resources.embeddings import word_vectors

        vecs = word_vectors(words[2:]) if len(words) > 2 else np.zeros((0, 384), np.float32)
        vecs = vecs / (vecs.std() or 1.0)
        return np.vstack([np.zeros((2, vecs.shape[1]), np.float32), vecs]).astype(np.float32)
    matrix = rng.standard_normal((len(words), RANDOM_DIM)).astype(np.float32)
    matrix[0] = 0.0
    return matrix


def _train(matrix: np.ndarray, model: NeuralModel, data: dict, config: dict, rng: np.random.Generator) -> tuple[dict, list]:
    import torch

    from ._neural_net import RiordanNet, train
    from ._threads import torch_threads

    with torch_threads(config["n_threads"]), torch.random.fork_rng(devices=[]):  # seed torch here only; the caller's global RNG state is restored
        torch.manual_seed(int(rng.integers(2**62)))
        net = RiordanNet(word_matrix=matrix, n_chars=len(model.chars), config=model.config)
        result = train(net, data, config=config, rng=rng)
    weights = {k: v.detach().numpy().copy() for k, v in net.state_dict().items()}
    return weights, result["epochs"]

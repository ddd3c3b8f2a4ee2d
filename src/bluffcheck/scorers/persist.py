"""Save a fitted scorer to a folder and load it back without running code from the file.

A saved scorer is a directory with two files:

``scorer.json``
    Registry name, class, constructor parameters (tuples kept as ``{"__tuple__": [...]}``),
    scorer version, fingerprint, bluffcheck version, the fitted prompts, and the state's keys.
``state.skops``
    A :mod:`skops.io` dump of the fitted state: by default every attribute in ``vars(scorer)``
    whose name ends in ``_`` (except ``prompts_``, which goes to the JSON file).

Loading looks the class up in the scorer registry (never imports a name read from the file),
rebuilds the scorer from its parameters and asks skops which types in the state it does not trust.
Types this module knows (scikit-learn and SciPy internals our scorers hold, listed in
:data:`KNOWN_TYPES`) are accepted; any other type makes :func:`load` raise
:class:`~bluffcheck.errors.UntrustedFileError` naming them, unless the caller passed
``trusted=True`` or a list that contains them. Nothing in the file runs as code otherwise.

State hook for scorers that skops cannot store as they are (PyTorch modules, tokenisers): define

``_get_state(self) -> dict``
    Every fitted attribute except ``prompts_`` and ``train_fingerprint_`` (saved here), as numpy
    arrays, plain Python data (str, int, float, bool, None, lists, tuples, dicts with str keys) or
    scikit-learn objects — e.g. ``{"models_": {pid: {name: tensor.numpy()}}, "vocab_": [...]}``.
``_set_state(self, state: dict) -> None``
    Called on a freshly constructed (unfitted) scorer with that dict; must restore ``models_`` and
    everything else scoring needs.

>>> import tempfile
>>> from bluffcheck import Dataset, Item, Prompt
>>> from bluffcheck._registry import scorers
>>> data = Dataset("d", [Item(str(i), "p", t, score=s) for i, (t, s) in enumerate([("acid", 1), ("no", 0)] * 4)],
...                {"p": Prompt("p", score_range=(0, 1))})
>>> fitted = scorers.create("ngram-svm").fit(data)
>>> with tempfile.TemporaryDirectory() as tmp:
...     folder = save(fitted, tmp)
...     (load(tmp).score(data) == fitted.score(data)).all()
np.True_
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

from .._registry import scorers
from ..errors import ConfigError, DatasetFormatError, NotFittedError, UntrustedFileError
from ..types import Prompt
from .base import Scorer

__all__ = ["KNOWN_TYPES", "load", "save"]

FORMAT = 1
META_FILE = "scorer.json"
STATE_FILE = "state.skops"
# Types skops does not trust by default but that are plain data inside scikit-learn/SciPy objects
# our scorers hold (sparse matrices, tree structures); none of them can run code when loaded.
KNOWN_TYPES = frozenset(
    {
        "scipy.sparse._csr.csr_matrix",
        "scipy.sparse._csc.csc_matrix",
        "sklearn.tree._tree.Tree",
        "sklearn.ensemble._hist_gradient_boosting.predictor.TreePredictor",
        "sklearn.ensemble._hist_gradient_boosting.binning._BinMapper",
        "sklearn._loss.loss.HalfSquaredError",
        "sklearn._loss.link.IdentityLink",
        "sklearn.dummy.DummyRegressor",
    }
)
_STATE_KEY = re.compile(r"^[A-Za-z][A-Za-z0-9_]*_$")


def _encode(value: Any, where: str) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if hasattr(value, "item") and getattr(value, "shape", None) == ():  # numpy scalar
        return value.item()
    if isinstance(value, tuple):
        return {"__tuple__": [_encode(v, where) for v in value]}
    if isinstance(value, list):
        return [_encode(v, where) for v in value]
    if isinstance(value, dict) and all(isinstance(k, str) for k in value) and "__tuple__" not in value:
        return {k: _encode(v, where) for k, v in value.items()}
    raise ConfigError(
        f"Cannot save {where}={value!r}: only None, bool, int, float, str, lists, tuples and dicts "
        "with str keys go into scorer.json. Pass a plain value (e.g. a path instead of an object)."
    )


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if isinstance(value, dict):
        if set(value) == {"__tuple__"}:
            return tuple(_decode(v) for v in value["__tuple__"])
        return {k: _decode(v) for k, v in value.items()}
    return value


def _prompt_to_json(prompt: Prompt) -> dict[str, Any]:
    out = {
        f.name: _encode(getattr(prompt, f.name), f"prompt {prompt.id!r} {f.name}")
        for f in fields(prompt)
        if f.name != "metadata"
    }
    # metadata is informational: values JSON cannot hold are kept as their str()
    out["metadata"] = json.loads(json.dumps(dict(prompt.metadata), default=str))
    return out


def save(scorer: Scorer, path: str | os.PathLike[str]) -> Path:
    """Write a fitted scorer to the folder ``path`` (created if needed); returns the folder."""
    import skops.io as sio

    from .. import __version__

    if not hasattr(scorer, "models_"):
        raise NotFittedError(f"Cannot save an unfitted {type(scorer).__name__}. Call fit(dataset) first.")
    name = getattr(scorer, "registry_name", "")
    if not name or name not in scorers or scorers.get(name) is not type(scorer):
        raise ConfigError(
            f"Cannot save {type(scorer).__name__}: it is not a registered scorer, and load() only builds "
            "registered ones. Register it with @scorers.register('name')."
        )
    if hasattr(scorer, "_get_state"):
        state = dict(scorer._get_state())
        state["train_fingerprint_"] = scorer.train_fingerprint_
    else:
        state = {k: v for k, v in vars(scorer).items() if k.endswith("_") and k != "prompts_"}
    bad = sorted(k for k in state if not _STATE_KEY.match(k) or k == "prompts_")
    if bad:
        raise ConfigError(
            f"Cannot save state keys {bad}: fitted attributes must look like 'name_' (no leading underscore)."
        )
    meta = {
        "format": FORMAT,
        "registry_name": name,
        "class": f"{type(scorer).__module__}.{type(scorer).__qualname__}",
        "version": scorer.version,
        "bluffcheck_version": __version__,
        "fingerprint": scorer.fingerprint,
        "params": {k: _encode(v, k) for k, v in scorer.get_params().items()},
        "prompts": [_prompt_to_json(p) for p in scorer.prompts_.values()],
        "state_keys": sorted(state),
        "state_hook": hasattr(scorer, "_get_state"),
    }
    folder = Path(path)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / META_FILE).write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    sio.dump(state, folder / STATE_FILE)
    return folder


def _read_meta(folder: Path) -> dict[str, Any]:
    file = folder / META_FILE
    if not file.is_file() or not (folder / STATE_FILE).is_file():
        raise FileNotFoundError(
            f"{folder} is not a saved scorer: it needs {META_FILE} and {STATE_FILE}. Save one with "
            "bluffcheck.scorers.persist.save(scorer, path)."
        )
    try:
        meta = json.loads(file.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise DatasetFormatError(file, getattr(exc, "lineno", None), None, f"not valid JSON ({exc}).") from None
    for key in ("format", "registry_name", "class", "version", "fingerprint", "params", "prompts"):
        if key not in meta:
            raise DatasetFormatError(file, None, key, "missing; the file was not written by bluffcheck's save().")
    if meta["format"] != FORMAT:
        raise DatasetFormatError(file, None, "format", f"is {meta['format']!r}; this bluffcheck reads format {FORMAT}.")
    return meta


def _check_types(state_file: Path, trusted: bool | Sequence[str]) -> list[str]:
    import skops.io as sio

    found = sio.get_untrusted_types(file=state_file)
    allowed = KNOWN_TYPES | (set() if isinstance(trusted, bool) else {str(t) for t in trusted})
    refused = [t for t in found if t not in allowed]
    if refused and trusted is not True:
        raise UntrustedFileError(
            f"{state_file} holds types bluffcheck does not know: {refused}. Loading them could run code. If you trust "
            f"where the file came from, call load(path, trusted={refused!r}) (or trusted=True)."
        )
    return found


def load(path: str | os.PathLike[str], *, trusted: bool | Sequence[str] = False) -> Scorer:
    """Load a scorer saved with :func:`save`; refuses unknown types unless ``trusted`` lists them."""
    import skops.io as sio

    folder = Path(path)
    meta = _read_meta(folder)
    cls = scorers.get(meta["registry_name"])
    qualname = f"{cls.__module__}.{cls.__qualname__}"
    if qualname != meta["class"] or str(cls.version) != str(meta["version"]):
        raise ConfigError(
            f"{folder}: saved by {meta['class']} version {meta['version']}, but {meta['registry_name']!r} is "
            f"now {qualname} version {cls.version}. Retrain and save it again."
        )
    scorer = cls(**_decode(meta["params"]))
    state = sio.load(folder / STATE_FILE, trusted=_check_types(folder / STATE_FILE, trusted))
    bad = sorted(k for k in state if not _STATE_KEY.match(str(k)))
    if bad:
        raise UntrustedFileError(f"{folder / STATE_FILE} sets attributes {bad}; only names like 'models_' are allowed.")
    scorer.prompts_ = {p["id"]: Prompt(**_decode(p)) for p in meta["prompts"]}
    if hasattr(scorer, "_set_state"):
        scorer.train_fingerprint_ = state.pop("train_fingerprint_", None)
        scorer._set_state(state)
    else:
        for key, value in state.items():
            setattr(scorer, key, value)
    if scorer.fingerprint != meta["fingerprint"]:
        raise ConfigError(
            f"{folder}: the loaded scorer's fingerprint {scorer.fingerprint} differs from the saved "
            f"{meta['fingerprint']}; the files were edited or do not belong together. Save it again."
        )
    return scorer

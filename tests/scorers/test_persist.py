"""Tests of scorer save/load: the file format, the trust check, and the state hook."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
import skops.io as sio

from bluffcheck._registry import scorers
from bluffcheck.errors import ConfigError, DatasetFormatError, NotFittedError, UntrustedFileError
from bluffcheck.scorers.base import Scorer, gold_scores
from bluffcheck.scorers.ngram_svm import NgramSVM
from bluffcheck.scorers.persist import load, save
from bluffcheck.types import Dataset, Item, Prompt


class Opaque:
    """A type skops does not know."""


@pytest.fixture(scope="module")
def fitted_svm(toy) -> NgramSVM:
    return NgramSVM(char_ngrams=(2, 3), max_word_features=50).fit(toy)


def test_persist_writes_readable_metadata(fitted_svm, tmp_path) -> None:
    folder = save(fitted_svm, tmp_path / "svm")
    meta = json.loads((folder / "scorer.json").read_text())
    assert meta["registry_name"] == "ngram-svm" and meta["class"] == "bluffcheck.scorers.ngram_svm.NgramSVM"
    assert meta["params"]["char_ngrams"] == {"__tuple__": [2, 3]} and meta["fingerprint"] == fitted_svm.fingerprint
    assert [p["id"] for p in meta["prompts"]] == ["p1", "p2"] and "models_" in meta["state_keys"]
    loaded = load(folder)
    assert loaded.char_ngrams == (2, 3)  # tuples survive JSON
    assert loaded.prompts_ == fitted_svm.prompts_


def test_persist_keeps_prompt_material_and_metadata(tmp_path) -> None:
    prompt = Prompt(
        "q", question="Why?", reference_answers=("because",), score_range=(0, 1), metadata={"src": tmp_path}
    )
    data = Dataset(
        "d", [Item(str(i), "q", "because" if i % 2 else "no", score=float(i % 2)) for i in range(8)], {"q": prompt}
    )
    loaded = load(save(NgramSVM().fit(data), tmp_path / "m"))
    assert loaded.prompts_["q"] == prompt and loaded.prompts_["q"].metadata["src"] == str(tmp_path)


def test_persist_refuses_unknown_types_unless_trusted(fitted_svm, tmp_path) -> None:
    folder = save(fitted_svm, tmp_path / "svm")
    state = sio.load(folder / "state.skops", trusted=sio.get_untrusted_types(file=folder / "state.skops"))
    state["extra_"] = Opaque()
    sio.dump(state, folder / "state.skops")
    name = f"{Opaque.__module__}.Opaque"
    with pytest.raises(UntrustedFileError, match="trusted=") as err:
        load(folder)
    assert name in str(err.value)
    with pytest.raises(UntrustedFileError):
        load(folder, trusted=["something.Else"])
    assert isinstance(load(folder, trusted=[name]).extra_, Opaque)
    assert isinstance(load(folder, trusted=True).extra_, Opaque)


def test_persist_refuses_dunder_state_keys(fitted_svm, tmp_path) -> None:
    folder = save(fitted_svm, tmp_path / "svm")
    sio.dump({"__class__": 1, "models_": {}}, folder / "state.skops")
    with pytest.raises(UntrustedFileError, match="__class__"):
        load(folder)


def test_persist_detects_edited_files(fitted_svm, tmp_path) -> None:
    folder = save(fitted_svm, tmp_path / "svm")
    meta_file = folder / "scorer.json"
    meta = json.loads(meta_file.read_text())
    meta_file.write_text(json.dumps({**meta, "params": {**meta["params"], "C": 5.0}}))
    with pytest.raises(ConfigError, match="fingerprint"):
        load(folder)
    meta_file.write_text(json.dumps({**meta, "version": "0"}))
    with pytest.raises(ConfigError, match="Retrain"):
        load(folder)
    meta_file.write_text(json.dumps({k: v for k, v in meta.items() if k != "params"}))
    with pytest.raises(DatasetFormatError, match="params"):
        load(folder)
    meta_file.write_text("{not json")
    with pytest.raises(DatasetFormatError, match="scorer.json"):
        load(folder)
    with pytest.raises(FileNotFoundError, match="state.skops"):
        load(tmp_path / "nothing-here")


def test_persist_save_errors(toy, tmp_path) -> None:
    with pytest.raises(NotFittedError):
        save(NgramSVM(), tmp_path / "a")

    class Unregistered(NgramSVM):
        pass

    with pytest.raises(ConfigError, match="not a registered scorer"):
        save(Unregistered().fit(toy), tmp_path / "b")
    with pytest.raises(ConfigError, match="C="):
        save(NgramSVM().fit(toy).set_params(C=Opaque()), tmp_path / "c")


class HookScorer(Scorer):
    """A scorer whose fitted state skops could not store as is: it uses the state hook."""

    def __init__(self, *, offset: float = 0.0) -> None:
        self.offset = offset

    def _fit_prompt(self, items, prompt) -> Any:
        return Opaque()

    def _score_prompt(self, model, items, prompt) -> np.ndarray:
        return np.full(len(items), self.mean_[prompt.id] + self.offset)

    def fit(self, data: Dataset) -> HookScorer:
        super().fit(data)
        self.mean_ = {pid: float(gold_scores(sub.items).mean()) for pid, sub in data.by_prompt().items()}
        return self

    def _get_state(self) -> dict[str, Any]:
        return {"mean_": self.mean_}

    def _set_state(self, state: dict[str, Any]) -> None:
        self.mean_ = state["mean_"]
        self.models_ = {pid: Opaque() for pid in self.mean_}


def test_persist_state_hook(toy, tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(scorers._items, "test-hook", HookScorer)
    monkeypatch.setattr(HookScorer, "registry_name", "test-hook", raising=False)
    scorer = HookScorer(offset=0.5).fit(toy)
    folder = save(scorer, tmp_path / "hook")
    assert json.loads((folder / "scorer.json").read_text())["state_keys"] == ["mean_", "train_fingerprint_"]
    loaded = load(folder)  # Opaque is never in the file, so nothing needs trusting
    np.testing.assert_array_equal(loaded.score(toy), scorer.score(toy))
    assert loaded.fingerprint == scorer.fingerprint

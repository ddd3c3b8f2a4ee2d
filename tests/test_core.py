from __future__ import annotations

import pickle
import subprocess
import sys

import pytest

import bluffcheck
from bluffcheck import Dataset, Item, Prompt
from bluffcheck._registry import Registry
from bluffcheck.errors import DatasetFormatError, UnknownComponentError


def test_public_api_all_names_exist():
    for name in bluffcheck.__all__:
        assert hasattr(bluffcheck, name), name


def test_import_is_light():
    code = "import sys, bluffcheck; bad=[m for m in ('torch','sklearn','sentence_transformers','spacy','pandas') if m in sys.modules]; print(bad)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[]"


def test_dataset_groups_items_by_prompt():
    prompts = {"1": Prompt("1", score_range=(0, 3)), "2": Prompt("2", score_range=(0, 2))}
    items = [Item("a", "1", "x", 1), Item("b", "2", "y", 2), Item("c", "1", "z", 0)]
    ds = Dataset("toy", items, prompts)
    groups = ds.by_prompt()
    assert [it.id for it in groups["1"]] == ["a", "c"]
    assert len(ds) == 3 and ds[1].id == "b"


def test_dataset_rejects_items_of_unknown_prompts():
    with pytest.raises(ValueError, match="unknown prompts"):
        Dataset("toy", [Item("a", "9", "x")], {"1": Prompt("1")})


def test_item_and_prompt_pickle_roundtrip():
    item = Item("a", "1", "text", 2.0, metadata={"fold": 3})
    prompt = Prompt("1", question="Q?", reference_answers=["r1"], score_range=(0, 3), metadata={"k": 1})
    assert pickle.loads(pickle.dumps(item)) == item
    assert pickle.loads(pickle.dumps(item)).metadata["fold"] == 3
    assert pickle.loads(pickle.dumps(prompt)).reference_answers == ("r1",)


def test_prompt_rejects_inverted_range():
    with pytest.raises(ValueError, match="min > max"):
        Prompt("1", score_range=(3, 0))


def test_registry_suggests_close_names():
    reg: Registry = Registry("widget", "bluffcheck")
    reg.register("random-chars")(object)
    with pytest.raises(UnknownComponentError, match="Did you mean 'random-chars'"):
        reg.get("random-char")


def test_dataset_format_error_names_file_line_field():
    err = DatasetFormatError("train.tsv", 118, "Score1", "is 'x', expected an integer in 0..3.")
    assert str(err) == "train.tsv line 118: field 'Score1': is 'x', expected an integer in 0..3."
    assert isinstance(err, ValueError)

"""SemEval-2013 Task 7 loader: the release zip, folders, the 5-way layout, bad XML, and the demo slice."""

from __future__ import annotations

import zipfile
from collections import Counter
from pathlib import Path

import pytest

from bluffcheck.datasets import load
from bluffcheck.errors import ConfigError, DatasetFormatError, MissingDataError

FIXTURES = Path(__file__).parents[1] / "fixtures" / "datasets"
FIVE_WAY = ("non_domain", "irrelevant", "contradictory", "partially_correct_incomplete", "correct")


def test_semeval_5way_fixture_labels_scores_and_prompt():
    ds = load("semeval2013", path=FIXTURES / "semeval5", ways=5)
    assert len(ds.prompts) == 2 and len(ds) == 8
    prompt = ds.prompts["Q1"]
    assert prompt.labels == FIVE_WAY and prompt.question == "Why was bulb A on when switch Z was open?"
    assert prompt.reference_answers == ("Bulb A is still in a closed path with the battery", "closed path")
    assert Counter(ds.labels())["partially_correct_incomplete"] == 2
    assert {it.label: it.score for it in ds} == {label: float(label == "correct") for label in FIVE_WAY}
    first = ds[0]
    assert first.metadata["answer_match"] == "answer1" and first.metadata["source_line"] == 9
    assert ds[1].metadata["count"] == 2
    assert ds[5].text == "" and ds[5].label == "correct"  # an empty answer is kept


def test_semeval_reads_zip_and_folder_alike(tmp_path):
    archive = tmp_path / "semeval-5way.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for file in (FIXTURES / "semeval5").rglob("*.xml"):
            zf.write(file, file.relative_to(FIXTURES / "semeval5").as_posix())
    from_zip = load("semeval2013", path=archive, ways=5, split="test-unseen-answers")
    from_dir = load("semeval2013", path=FIXTURES / "semeval5", ways=5, split="test-unseen-answers")
    assert [(it.id, it.label, it.text) for it in from_zip] == [(it.id, it.label, it.text) for it in from_dir]
    assert len(from_zip) == 6 and from_zip[0].id == "Q1.ua1"


def test_semeval_label_outside_the_label_set_is_an_error():
    with pytest.raises(DatasetFormatError, match="field 'accuracy'.*'partially_correct_incomplete' is not one of"):
        load("semeval2013", path=FIXTURES / "semeval5" / "training" / "5way" / "beetle", ways=3)


def test_semeval_bad_xml_names_file_and_line():
    with pytest.raises(DatasetFormatError, match=r"bad\.xml line 6: not well-formed XML"):
        load("semeval2013", path=FIXTURES / "semeval_flat")


@pytest.mark.parametrize(
    ("options", "message"),
    [({"corpus": "beetle", "split": "test-unseen-domains"}, "only for corpus 'scientsbank'"),
     ({"ways": 4}, "'ways' option"), ({"corpus": "ask"}, "'corpus' option"), ({"split": "dev"}, "'split' option")],
)  # fmt: skip
def test_semeval_invalid_combinations_are_config_errors(options, message):
    with pytest.raises(ConfigError, match=message):
        load("semeval2013", path=FIXTURES / "semeval5", **options)


def test_semeval_missing_split_and_5way_release_are_missing_data(tmp_path, monkeypatch):
    with pytest.raises(MissingDataError, match="no 5-way scientsbank 'train' XML files"):
        load("semeval2013", path=FIXTURES / "semeval5", ways=5, corpus="scientsbank")
    monkeypatch.setenv("BLUFFCHECK_DATA", str(tmp_path))
    with pytest.raises(MissingDataError, match="semeval-5way.zip does not exist"):
        load("semeval2013", ways=5)


EXPECTED = [
    ("beetle", "train", 47, 3941), ("beetle", "test-unseen-answers", 47, 439), ("beetle", "test-unseen-questions", 9, 819),
    ("scientsbank", "train", 135, 4969), ("scientsbank", "test-unseen-answers", 135, 540),
    ("scientsbank", "test-unseen-questions", 15, 733), ("scientsbank", "test-unseen-domains", 46, 4562),
]  # fmt: skip


@pytest.mark.parametrize(("corpus", "split", "questions", "answers"), EXPECTED)
def test_semeval_real_counts(shared_data, corpus, split, questions, answers):
    three = load("semeval2013", corpus=corpus, split=split, ways=3)
    two = load("semeval2013", corpus=corpus, split=split, ways=2)
    assert (len(three.prompts), len(three)) == (questions, answers)
    assert [it.id for it in two] == [it.id for it in three]
    assert set(two.labels()) == {"incorrect", "correct"} and set(three.labels()) == {
        "incorrect",
        "contradictory",
        "correct",
    }
    # 2-way merges contradictory into incorrect; "correct" is the same answers in both
    assert [it.label == "correct" for it in two] == [it.label == "correct" for it in three]
    assert all(p.question and p.reference_answers for p in three.prompts.values())


def test_semeval_demo_slice_loads_without_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("BLUFFCHECK_DATA", str(tmp_path / "absent"))
    train = load("semeval-demo")
    test = load("semeval-demo", split="test-unseen-answers", ways=2)
    assert len(train.prompts) == 12 and 400 <= len(train) <= 600 and len(test) == 48
    counts = Counter(train.labels())
    assert set(counts) == {"incorrect", "contradictory", "correct"} and min(counts.values()) >= 100
    assert set(test.prompts) == set(train.prompts)
    with pytest.raises(ConfigError, match="'split' option"):
        load("semeval-demo", split="test-unseen-domains")


def test_semeval_demo_slice_is_a_verbatim_subset_of_the_release(shared_data):
    from bluffcheck.datasets.semeval_demo import slice_folder

    folder = Path(str(slice_folder()))
    files = sorted(p for p in folder.rglob("*.xml"))
    assert len(files) == 48 and (folder / "LICENSE").is_file() and (folder / "ATTRIBUTION.md").is_file()
    with zipfile.ZipFile(shared_data / "semeval2013-task7" / "semeval-3way.zip") as zf:
        for file in files:
            assert zf.read(file.relative_to(folder).as_posix()) == file.read_bytes(), file


def test_semeval_duplicate_question_ids_are_errors(tmp_path):
    source = FIXTURES / "semeval5" / "training" / "5way" / "beetle" / "FaultFinding-Q2.xml"
    for name in ("a.xml", "b.xml"):
        (tmp_path / name).write_bytes(source.read_bytes())
    with pytest.raises(DatasetFormatError, match="question 'Q2' is also in"):
        load("semeval2013", path=tmp_path, ways=5)

"""ASAP-SAS loader: the Kaggle layouts on fixtures, and the real leaderboard and training answers."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from bluffcheck.datasets import load
from bluffcheck.errors import DatasetFormatError, MissingDataError

FIXTURES = Path(__file__).parents[1] / "fixtures" / "datasets"
TRAIN = FIXTURES / "asap_sas_train.tsv"


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_asap_sas_training_layout_reads_bom_crlf_quotes_and_empty_answer():
    ds = load("asap-sas", path=TRAIN)
    assert ds.split == "train"  # inferred from the Score1 column
    assert [it.id for it in ds] == ["1", "2", "3", "4", "5"]
    assert ds[1].text == 'They should say "how much" vinegar, what container, and the size of the samples.'
    assert ds[2].text == "" and ds[2].score == 0.0  # empty answer kept with its score
    assert ds[0].metadata["score2"] == 2 and "score2" not in ds[3].metadata
    assert ds[4].metadata["source_line"] == 6 and ds[4].metadata["source_file"].endswith("asap_sas_train.tsv")
    assert ds.prompts["1"].score_range == (0, 3) and ds.prompts["3"].score_range == (0, 2)


def test_asap_sas_out_of_range_score_names_file_line_and_field(tmp_path):
    bad = _write(tmp_path / "train.tsv", ["Id\tEssaySet\tScore1\tScore2\tEssayText", "7\t1\t4\t3\tToo high"])
    with pytest.raises(
        DatasetFormatError, match=r"train\.tsv line 2: field 'Score1'.*expected an integer in 0\.\.3"
    ) as err:
        load("asap-sas", path=bad, material=False)
    assert err.value.line == 2 and err.value.field == "Score1"


def test_asap_sas_malformed_score_and_set_are_errors(tmp_path):
    bad = _write(tmp_path / "train.tsv", ["Id\tEssaySet\tScore1\tScore2\tEssayText", "7\t3\tx\t1\tWord"])
    with pytest.raises(DatasetFormatError, match="'x' is not a number, expected an integer in 0..2"):
        load("asap-sas", path=bad, material=False)
    bad = _write(tmp_path / "train2.tsv", ["Id\tEssaySet\tScore1\tScore2\tEssayText", "7\t11\t1\t1\tWord"])
    with pytest.raises(DatasetFormatError, match="EssaySet"):
        load("asap-sas", path=bad, material=False)


def test_asap_sas_missing_column_is_reported(tmp_path):
    bad = _write(tmp_path / "train.tsv", ["Id\tEssaySet\tScore2\tEssayText", "7\t1\t1\tWord"])
    with pytest.raises(DatasetFormatError, match="missing column 'Score1'"):
        load("asap-sas", path=bad, split="train", material=False)


def test_asap_sas_duplicate_ids_are_rejected(tmp_path):
    bad = _write(tmp_path / "train.tsv", ["Id\tEssaySet\tScore1\tScore2\tEssayText", "7\t1\t1\t1\tA", "7\t1\t2\t2\tB"])
    with pytest.raises(DatasetFormatError, match="duplicate id '7'"):
        load("asap-sas", path=bad, material=False)


def _kaggle_folder(tmp_path: Path) -> Path:
    """The public-leaderboard fixtures laid out under Kaggle's file names (our own 3-answer files)."""
    folder = tmp_path / "kaggle"
    folder.mkdir()
    src = FIXTURES / "asap_sas_public"
    shutil.copy(src / "answers.fixture.tsv", folder / "public_leaderboard_rel_2.tsv")
    shutil.copy(src / "solution.fixture.csv", folder / "public_leaderboard_solution.csv")
    return folder


def test_asap_sas_public_split_joins_solution_on_id(tmp_path):
    ds = load("asap-sas", path=_kaggle_folder(tmp_path), material=False)
    assert ds.split == "public-leaderboard"
    assert {it.id: it.score for it in ds} == {"10": 3.0, "11": 0.0, "12": 1.0}
    assert [it.id for it in ds] == ["10", "11", "12"]  # answer-file order, not solution order
    assert ds[1].text == "" and ds[0].metadata["solution_line"] == 3 and ds[0].metadata["usage"] == "PublicTest"


def test_asap_sas_public_split_unmatched_ids_are_errors(tmp_path):
    folder = _kaggle_folder(tmp_path)
    solution = folder / "public_leaderboard_solution.csv"
    solution.write_text(solution.read_text() + "99,2,1,1,PublicTest\n")
    with pytest.raises(DatasetFormatError, match="'99' has no text"):
        load("asap-sas", path=folder, material=False)
    solution.write_text("Id,EssaySet,EssayWeights,Score1,Usage\n10,2,1,3,PublicTest\n")
    with pytest.raises(DatasetFormatError, match="2 answers .* have no score"):
        load("asap-sas", path=folder, material=False)


def test_asap_sas_missing_folder_says_how_to_point_to_data(tmp_path, monkeypatch):
    monkeypatch.setenv("BLUFFCHECK_DATA", str(tmp_path))
    with pytest.raises(MissingDataError, match="BLUFFCHECK_DATA") as err:
        load("asap-sas")
    assert str(tmp_path / "asap-sas" / "kaggle") in str(err.value)
    with pytest.raises(MissingDataError, match="path="):
        load("asap-sas", path=tmp_path / "nope.tsv")


def test_asap_sas_real_public_leaderboard_counts_ranges_and_prompts(shared_data):
    ds = load("asap-sas")
    per_set = Counter(it.prompt_id for it in ds)
    assert len(ds) == 5224
    assert [per_set[str(s)] for s in range(1, 11)] == [557, 426, 406, 295, 598, 599, 599, 599, 599, 546]
    for pid, prompt in ds.prompts.items():
        low, high = prompt.score_range
        assert (low, high) == ((0, 3) if pid in "1 2 5 6".split() else (0, 2))
        assert {it.score for it in ds.for_prompt(pid)} == set(map(float, range(low, high + 1)))
        assert prompt.question and prompt.rubric, pid
    assert ds.prompts["3"].passage.startswith("THE WASHINGTON POST") and ds.prompts["8"].passage.startswith("Gifts")
    assert "mRNA" in ds.prompts["5"].question and len(ds.prompts["5"].reference_answers) == 8
    assert len({it.id for it in ds}) == len(ds)


def test_asap_sas_real_join_matches_solution_rows(shared_data):
    ds = load("asap-sas")
    by_id = {it.id: it for it in ds}
    solution = (shared_data / "asap-sas" / "kaggle" / "public_leaderboard_solution.csv").read_text().splitlines()[1:]
    for line in solution[::97]:
        answer_id, essay_set, _, score, _ = line.split(",")
        assert by_id[answer_id].prompt_id == essay_set and by_id[answer_id].score == float(score)
    # Kaggle CSV-quotes texts that contain quotes: "... ""pour vinegar"" ..." reads as ... "pour vinegar" ...
    assert by_id["1723"].text.startswith("In order to replicate") and '""' not in by_id["1723"].text
    assert 'tell us to "pour vinegar" but' in by_id["1723"].text


def test_asap_sas_real_unscored_splits(shared_data):
    train = load("asap-sas", split="unscored-train")
    assert len(train) == 17043 and all(it.score is None for it in train)
    public_ids = {it.id for it in load("asap-sas")}
    assert not public_ids & {it.id for it in train}
    private = load("asap-sas", split="private-leaderboard")
    assert len(private) == 5100 and private.scores().count(None) == 5100

"""ASAP-AES loader: header/no header, quoting, folds, prompt texts, and the real 12,978 essays."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bluffcheck.datasets import load
from bluffcheck.datasets.asap_aes import asap_aes_folds
from bluffcheck.errors import ConfigError, DatasetFormatError

FIXTURES = Path(__file__).parents[1] / "fixtures" / "datasets" / "asap_aes"


@pytest.mark.parametrize("file", ["with_header.tsv", "no_header.tsv"])
def test_asap_aes_reads_with_and_without_header(file):
    ds = load("asap-aes", path=FIXTURES / file, material=False)
    assert [it.id for it in ds] == ["1", "2", "3", "4", "5"]
    assert [it.score for it in ds] == [8.0, 5.0, 1.0, 2.0, 4.0]
    assert ds[0].text == 'Dear @CAPS1, computers help people "learn" and talk.'
    assert ds[1].text == "Computers are bad because people don\u2019t exercise."  # cp1252 file decoded
    # an opening quote that never closes (essay 10534 in the real file) stays literal and swallows nothing
    assert ds[2].text.startswith('"When they come back') and ds[3].text == "The hibiscus gives her hope."
    assert ds[0].metadata["rater1"] == 4 and ds[0].metadata["rater3"] is None
    assert ds[4].metadata["domain2_score"] == 3
    assert ds.prompts["1"].score_range == (2, 12) and ds.prompts["4"].score_range == (0, 3)


def test_asap_aes_fold_part_selects_ids_in_list_order():
    ds = load("asap-aes", path=FIXTURES / "no_header.tsv", fold=0, part="train", material=False)
    assert [it.id for it in ds] == ["1", "3", "5"] and ds.split == "fold0-train"


@pytest.mark.parametrize(
    ("options", "message"),
    [({"fold": 5, "part": "train"}, "'fold' option"), ({"fold": 0}, "needs part="), ({"part": "dev"}, "needs a fold"),
     ({"fold": 0, "part": "valid"}, "'part' option")],
)  # fmt: skip
def test_asap_aes_bad_fold_options_are_config_errors(options, message):
    with pytest.raises(ConfigError, match=message):
        load("asap-aes", path=FIXTURES / "no_header.tsv", material=False, **options)


def _row(score: str, essay_set: str = "3") -> str:
    return "\t".join(["9", essay_set, "An essay.", "1", "1", "", score] + [""] * 21)


def test_asap_aes_out_of_range_and_short_rows_are_errors(tmp_path):
    bad = tmp_path / "rel3.tsv"
    bad.write_text(_row("1") + "\n" + _row("4") + "\n")
    with pytest.raises(DatasetFormatError, match=r"line 2: field 'domain1_score'.*expected an integer in 0\.\.3"):
        load("asap-aes", path=bad, material=False)
    bad.write_text("9\t3\tAn essay.\t1\n")
    with pytest.raises(DatasetFormatError, match="line 1: field 'rater2_domain1'"):
        load("asap-aes", path=bad, material=False)
    bad.write_text(_row("1", essay_set="9"))
    with pytest.raises(DatasetFormatError, match="essay_set"):
        load("asap-aes", path=bad, material=False)


def test_asap_aes_missing_header_column_is_reported(tmp_path):
    bad = tmp_path / "rel3.tsv"
    bad.write_text("essay_id\tessay_set\tessay\n1\t1\tText\n")
    with pytest.raises(DatasetFormatError, match="missing column 'domain1_score'"):
        load("asap-aes", path=bad, material=False)


def test_asap_aes_real_counts_ranges_and_prompts(shared_data):
    ds = load("asap-aes")
    per_set = Counter(it.prompt_id for it in ds)
    assert len(ds) == 12978 and len({it.id for it in ds}) == 12978
    assert [per_set[str(s)] for s in range(1, 9)] == [1783, 1800, 1726, 1772, 1805, 1800, 1569, 723]
    for pid, part in ds.by_prompt().items():
        low, high = ds.prompts[pid].score_range
        assert low <= min(part.scores()) and max(part.scores()) <= high
        assert ds.prompts[pid].question and ds.prompts[pid].rubric, pid
    assert {pid for pid, p in ds.prompts.items() if p.passage} == {"3", "4", "5", "6"}
    assert "Saeng" in ds.prompts["4"].passage and "patience" in ds.prompts["7"].question
    essay = next(it for it in ds if it.id == "10534")
    assert essay.text.startswith('"When they come back') and essay.score == 1.0


def test_asap_aes_real_folds_partition_the_essays(shared_data):
    folds = asap_aes_folds()
    everything = {it.id for it in load("asap-aes")}
    tests = [{it.id for it in test} for _, _, test in folds]
    assert sum(map(len, tests)) == 12978 and set().union(*tests) == everything
    for k, (train, dev, test) in enumerate(folds):
        ids = [{it.id for it in d} for d in (train, dev, test)]
        assert sum(map(len, ids)) == 12978 and set().union(*ids) == everything, k
        assert test.split == f"fold{k}-test"
    assert (len(folds[0][0]), len(folds[0][1]), len(folds[0][2])) == (7787, 2593, 2598)
    direct = load("asap-aes", fold=3, part="dev")
    assert [it.id for it in direct] == [it.id for it in folds[3][1]]


def test_asap_aes_unusual_line_separators_stay_inside_the_essay(tmp_path):
    file = tmp_path / "rel3.tsv"
    essay = "First part.\x0cSecond part.\u2028Third part."
    file.write_text("\t".join(["9", "3", essay, "1", "1", "", "2"] + [""] * 21) + "\r\n", encoding="utf-8")
    ds = load("asap-aes", path=file, material=False)
    assert len(ds) == 1 and ds[0].text == essay and ds[0].score == 2.0

"""ASAP-SAS, the Hewlett short-answer scoring data (ten prompts), in the Kaggle TSV layouts.

Splits
------
``"public-leaderboard"`` (default)
    ``public_leaderboard_rel_2.tsv`` (Id, EssaySet, EssayText) joined on Id with
    ``public_leaderboard_solution.csv`` (Id, EssaySet, EssayWeights, Score1, Usage): 5,224 scored answers.
``"train"``
    ``train_rel_2.tsv`` / ``train.tsv`` (Id, EssaySet, Score1, Score2, EssayText); Score1 is gold, Score2
    (the second rater) goes to metadata. Not in the shared data folder: pass ``path=``.
``"private-leaderboard"``
    ``private_leaderboard.tsv``: 5,100 answers without scores.
``"unscored-train"``
    The 17,043 training answers without scores, from ``ltl-ude-adversarials/train+test/asap_withoutBG_prompt_N.txt``
    (Id, EssayText), minus the public-leaderboard answers those files also hold. Set 10's texts in that
    copy are tokenised (``warmer .``); no answer in any split is empty.

Example
-------
>>> from bluffcheck.datasets import load
>>> ds = load("asap-sas")  # doctest: +SKIP
>>> len(ds), ds.prompts["1"].score_range  # doctest: +SKIP
(5224, (0, 3))
"""

from __future__ import annotations

import re
from pathlib import Path

from .._registry import datasets
from ..errors import DatasetFormatError, MissingDataError
from ..paths import data_root
from ..types import Dataset, Item
from ._asap_sas_prompts import SCORE_RANGES, prompt_for_set
from ._common import (
    PathLike,
    check_choice,
    check_unique_ids,
    default_path,
    existing,
    field,
    header_index,
    parse_int,
    read_delimited,
)

__all__ = ["SPLITS", "load_asap_sas"]

SPLITS = ("public-leaderboard", "train", "private-leaderboard", "unscored-train")
_FILES = {
    "public-leaderboard": ("public_leaderboard_rel_2.tsv",),
    "train": ("train_rel_2.tsv", "train.tsv"),
    "private-leaderboard": ("private_leaderboard.tsv",),
}
_SOLUTION = "public_leaderboard_solution.csv"
_LTL = ("ltl-ude-adversarials", "train+test")
_LTL_FILE = re.compile(r"asap_withoutBG_prompt_(\d+)\.txt$")
_NAME = "asap-sas"
_EXTRA = {"EssayWeights": "essay_weight", "Usage": "usage"}


def _split_file(path: PathLike | None, split: str) -> Path:
    if path is None:
        folder = default_path(_NAME, "asap-sas", "kaggle")
    else:
        folder = existing(path, _NAME)
        if folder.is_file():
            return folder
    for name in _FILES[split]:
        if (folder / name).is_file():
            return folder / name
    raise MissingDataError(
        f"Dataset {_NAME!r} split {split!r}: none of {list(_FILES[split])} is in {folder}. "
        "Pass the file explicitly with path=... (the scored training set is not in the shared data folder)."
    )


def _infer_split(path: PathLike | None, split: str | None) -> str:
    if split is not None:
        return split
    if path is not None and Path(path).is_file():
        rows = read_delimited(path, "\t")
        if rows and "Score1" in [h.strip() for h in rows[0][1]]:
            return "train"
    return "public-leaderboard"


def _where(item: Item) -> str:
    return f"{item.metadata['source_file']} line {item.metadata['source_line']}"


def _essay_set(file: Path, line: int, value: str) -> int:
    return parse_int(value, where=(file, line, "EssaySet"), low=1, high=10)


def _score(file: Path, line: int, column: str, value: str, essay_set: int) -> int:
    low, high = SCORE_RANGES[essay_set]
    return parse_int(value, where=(file, line, column), low=low, high=high)


def _read(file: Path, required: tuple[str, ...]) -> tuple[dict[str, int], tuple]:
    rows = read_delimited(file, "," if file.suffix.lower() == ".csv" else "\t")
    if not rows:
        raise DatasetFormatError(file, 1, None, f"the file is empty; expected a header with {list(required)}.")
    return header_index(file, rows[0][1], required), rows[1:]


def _answers(file: Path, *, scored: bool) -> list[Item]:
    cols = ("Id", "EssaySet", "Score1", "EssayText") if scored else ("Id", "EssaySet", "EssayText")
    idx, rows = _read(file, cols)
    items = []
    for row in rows:
        line = row[0]
        essay_set = _essay_set(file, line, field(file, row, idx["EssaySet"], "EssaySet"))
        meta = {"source_file": str(file), "source_line": line, "essay_set": essay_set}
        score = None
        if scored:
            score = float(_score(file, line, "Score1", field(file, row, idx["Score1"], "Score1"), essay_set))
            if "Score2" in idx and field(file, row, idx["Score2"], "Score2").strip():
                meta["score2"] = _score(file, line, "Score2", row[1][idx["Score2"]], essay_set)
        answer_id = field(file, row, idx["Id"], "Id").strip()
        items.append(
            Item(answer_id, str(essay_set), field(file, row, idx["EssayText"], "EssayText"), score, metadata=meta)
        )
    return items


def _join_solution(file: Path, solution: Path) -> list[Item]:
    texts = _answers(file, scored=False)
    check_unique_ids(texts, _where)
    answers = {it.id: it for it in texts}
    idx, rows = _read(solution, ("Id", "EssaySet", "Score1"))
    items = []
    for row in rows:
        line, answer_id = row[0], field(solution, row, idx["Id"], "Id").strip()
        answer = answers.pop(answer_id, None)
        if answer is None:
            raise DatasetFormatError(solution, line, "Id", f"answer {answer_id!r} has no text in {file}.")
        essay_set = _essay_set(solution, line, field(solution, row, idx["EssaySet"], "EssaySet"))
        if str(essay_set) != answer.prompt_id:
            raise DatasetFormatError(
                solution, line, "EssaySet", f"set {essay_set} disagrees with set {answer.prompt_id} in {file}."
            )
        score = _score(solution, line, "Score1", field(solution, row, idx["Score1"], "Score1"), essay_set)
        extra = {key: row[1][idx[col]] for col, key in _EXTRA.items() if col in idx and idx[col] < len(row[1])}
        meta = {**answer.metadata, "solution_file": str(solution), "solution_line": line, **extra}
        items.append(Item(answer.id, answer.prompt_id, answer.text, float(score), metadata=meta))
    if answers:
        first = next(iter(answers.values()))
        raise DatasetFormatError(
            file,
            first.metadata["source_line"],
            "Id",
            f"{len(answers)} answers (first {first.id!r}) have no score in {solution}.",
        )
    return sorted(items, key=lambda it: it.metadata["source_line"])


def _unscored_train(path: PathLike | None, leaderboard: PathLike | None) -> list[Item]:
    folder = default_path(_NAME, "asap-sas", *_LTL) if path is None else existing(path, _NAME)
    files = sorted((int(m.group(1)), p) for p in folder.iterdir() if (m := _LTL_FILE.search(p.name)))
    if not files:
        raise MissingDataError(
            f"Dataset {_NAME!r}: no asap_withoutBG_prompt_N.txt files in {folder}; pass path=... to them."
        )
    board = _split_file(None, "public-leaderboard") if leaderboard is None else existing(leaderboard, _NAME)
    public = {row[1][0].strip() for row in read_delimited(board, "\t")[1:] if row[1]}
    items = []
    for essay_set, file in files:
        idx, rows = _read(file, ("Id", "EssayText"))
        for row in rows:
            answer_id = field(file, row, idx["Id"], "Id").strip()
            if answer_id not in public:
                meta = {"source_file": str(file), "source_line": row[0], "essay_set": essay_set}
                items.append(
                    Item(answer_id, str(essay_set), field(file, row, idx["EssayText"], "EssayText"), metadata=meta)
                )
    return items


def _material(path: PathLike | None, material: PathLike | bool | None) -> Path | None:
    if material is False:
        return None
    if material is not None and material is not True:
        return existing(material, _NAME)
    start = Path(path).resolve() if path is not None else None
    for parent in [start, *start.parents[:3]] if start is not None else []:
        if (parent / "jjj-readmefirst-txt").is_dir() or (parent / "pjankiewicz-descriptions").is_dir():
            return parent
    root = data_root(required=False)
    return root / "asap-sas" if root is not None and (root / "asap-sas").is_dir() else None


@datasets.register(_NAME)
def load_asap_sas(
    path: PathLike | None = None,
    *,
    split: str | None = None,
    solution: PathLike | None = None,
    leaderboard: PathLike | None = None,
    material: PathLike | bool | None = None,
) -> Dataset:
    """Load ASAP-SAS answers with their prompts (question, passage, rubric, score range 0-3 or 0-2).

    Parameters
    ----------
    path : str or Path, optional
        A Kaggle TSV file or the folder holding it (for ``"unscored-train"``: the folder of
        ``asap_withoutBG_prompt_N.txt`` files). Default: under the data folder.
    split : {"public-leaderboard", "train", "private-leaderboard", "unscored-train"}, optional
        Default ``"public-leaderboard"``, or ``"train"`` when ``path`` is a file with a Score1 column.
    solution : str or Path, optional
        ``public_leaderboard_solution.csv`` for the public split; default: beside the TSV.
    leaderboard : str or Path, optional
        For ``"unscored-train"``: the public-leaderboard TSV whose answers are left out.
    material : str, Path or bool, optional
        The ``asap-sas`` folder holding ``jjj-readmefirst-txt`` (prompt texts); ``False`` skips prompt text.

    Returns
    -------
    Dataset
        Item ids are the Kaggle Ids; prompt ids are the set numbers ``"1"`` .. ``"10"``.
    """
    split = _infer_split(path, split)
    check_choice(_NAME, "split", split, SPLITS)
    if split == "unscored-train":
        items = _unscored_train(path, leaderboard)
    else:
        file = _split_file(path, split)
        if split == "public-leaderboard":
            sol = existing(solution, _NAME) if solution is not None else existing(file.with_name(_SOLUTION), _NAME)
            items = _join_solution(file, sol)
        else:
            items = _answers(file, scored=split == "train")
    check_unique_ids(items, _where)
    folder = _material(path, material)
    sets = sorted({int(it.prompt_id) for it in items})
    prompts = {str(s): prompt_for_set(s, folder) for s in sets}
    meta = {"prompt_material": str(folder) if folder else None, "scored": split in ("public-leaderboard", "train")}
    if split == "unscored-train":
        meta["notes"] = "Set 10 texts in the ltl-ude copy are tokenised (a space before punctuation)."
    return Dataset(_NAME, tuple(items), prompts, split, metadata=meta)


def probe(root: Path) -> list[dict]:
    """Where each split would be read from under ``root`` (for :func:`bluffcheck.datasets.available`)."""
    kaggle = root / "asap-sas" / "kaggle"
    entries = []
    for split in ("public-leaderboard", "private-leaderboard", "train"):
        found = [kaggle / n for n in _FILES[split] if (kaggle / n).is_file()]
        where = found[0] if found else kaggle / _FILES[split][0]
        how = {"path": where, "split": split, "material": root / "asap-sas"}
        entries.append({"options": {"split": split}, "path": str(where), "found": bool(found), "load": how})
    ltl = root / "asap-sas" / Path(*_LTL)
    how = {"path": ltl, "split": "unscored-train", "leaderboard": kaggle / _FILES["public-leaderboard"][0]}
    entries.append({"options": {"split": "unscored-train"}, "path": str(ltl), "found": ltl.is_dir(), "load": how})
    return entries


load_asap_sas.probe = probe  # type: ignore[attr-defined]

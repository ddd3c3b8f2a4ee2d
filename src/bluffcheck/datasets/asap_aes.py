"""ASAP-AES, the Hewlett essay scoring data (eight prompts), in the ``training_set_rel3.tsv`` layout.

The file has 28 tab-separated columns (essay_id, essay_set, essay, rater1_domain1, rater2_domain1,
rater3_domain1, domain1_score, ...), with or without a header line. ``domain1_score`` is the gold score;
the raters' domain-1 scores go to ``Item.metadata``. The standard 5-fold split of Taghipour & Ng (2016)
is selected with ``fold`` and ``part``.

Example
-------
>>> from bluffcheck.datasets import load
>>> train = load("asap-aes", fold=0, part="train")  # doctest: +SKIP
>>> len(train)  # doctest: +SKIP
7787
"""

from __future__ import annotations

from pathlib import Path

from .._registry import datasets
from ..errors import ConfigError, DatasetFormatError, MissingDataError
from ..paths import data_root
from ..types import Dataset, Item, Prompt
from ._common import (
    PathLike,
    cached_by_file,
    check_choice,
    check_unique_ids,
    default_path,
    existing,
    parse_int,
    read_delimited,
    read_text,
)
from ._docx import docx_paragraphs

__all__ = ["COLUMNS", "SCORE_RANGES", "asap_aes_folds", "load_asap_aes"]

COLUMNS = (
    "essay_id", "essay_set", "essay", "rater1_domain1", "rater2_domain1", "rater3_domain1", "domain1_score",
    "rater1_domain2", "rater2_domain2", "domain2_score",
    *(f"rater{r}_trait{t}" for r in (1, 2, 3) for t in range(1, 7)),
)  # fmt: skip
# domain1_score ranges from the Kaggle essay set descriptions (resolved score ranges).
SCORE_RANGES = {1: (2, 12), 2: (1, 6), 3: (0, 3), 4: (0, 3), 5: (0, 4), 6: (0, 4), 7: (0, 30), 8: (0, 60)}
PARTS = ("train", "dev", "test")
_NAME = "asap-aes"
_FOLDS = ("asap-aes", "nea-folds")
_DOCS = ("asap-aes", "kaggle-docs", "Essay_Set_Descriptions")


def _files(path: PathLike | None) -> list[Path]:
    folder = default_path(_NAME, "asap-aes", "training_set_rel3_nea_folds") if path is None else existing(path, _NAME)
    if folder.is_file():
        return [folder]
    for name in ("training_set_rel3.tsv", "training_set_rel3.txt"):
        if (folder / name).is_file():
            return [folder / name]
    files = sorted(folder.glob("fold_*_test.tsv"))
    if not files:
        raise MissingDataError(
            f"Dataset {_NAME!r}: no training_set_rel3.tsv or fold_*_test.tsv in {folder}; pass path=..."
        )
    return files


def _unquote(text: str) -> str:
    # Fields are CSV-quoted when they contain quotes; essay 10534 opens a quote it never closes, so we
    # split on tabs only and unquote a field only when it is wrapped in quotes.
    if len(text) >= 2 and text[0] == '"' and text[-1] == '"':
        return text[1:-1].replace('""', '"')
    return text


def _optional_int(value: str, where: tuple[Path, int, str]) -> int | None:
    return parse_int(value, where=where) if value.strip() else None


@cached_by_file
def _read_file(file: Path) -> tuple[Item, ...]:
    rows = read_delimited(file, "\t", quoted=False)
    columns = {name: i for i, name in enumerate(COLUMNS)}
    if rows and rows[0][1][0].strip().lower() == "essay_id":
        columns = {name.strip().lower(): i for i, name in enumerate(rows[0][1])}
        rows = rows[1:]
        for name in ("essay_id", "essay_set", "essay", "domain1_score"):
            if name not in columns:
                raise DatasetFormatError(file, 1, name, f"missing column {name!r} in the header.")
    need = max(columns[n] for n in ("essay_id", "essay_set", "essay", "domain1_score")) + 1
    items = []
    for line, fields in rows:
        if len(fields) < need:
            raise DatasetFormatError(
                file, line, COLUMNS[len(fields)], f"the row has {len(fields)} fields, expected {len(COLUMNS)}."
            )
        essay_set = parse_int(fields[columns["essay_set"]], where=(file, line, "essay_set"), low=1, high=8)
        low, high = SCORE_RANGES[essay_set]
        score = parse_int(fields[columns["domain1_score"]], where=(file, line, "domain1_score"), low=low, high=high)
        meta: dict = {"source_file": str(file), "source_line": line, "essay_set": essay_set}
        for name in ("rater1_domain1", "rater2_domain1", "rater3_domain1", "domain2_score"):
            if name in columns and columns[name] < len(fields):
                meta[name.replace("_domain1", "")] = _optional_int(fields[columns[name]], (file, line, name))
        essay_id = fields[columns["essay_id"]].strip()
        items.append(Item(essay_id, str(essay_set), _unquote(fields[columns["essay"]]), float(score), metadata=meta))
    return tuple(items)


def _section(paragraphs: tuple[str, ...], start: str, stops: tuple[str, ...]) -> str:
    out: list[str] = []
    inside = False
    for para in paragraphs:
        text = para.strip()
        if inside and text.startswith(stops):
            break
        if inside:
            out.append(para.rstrip())
        elif text.startswith(start):
            inside = True
    return "\n".join(out).strip()


def _prompt(essay_set: int, docs: Path | None) -> Prompt:
    meta: dict = {"essay_set": essay_set, "material": None}
    file = docs / f"Essay Set #{essay_set}--ReadMeFirst.docx" if docs is not None else None
    if file is None or not file.is_file():
        return Prompt(str(essay_set), score_range=SCORE_RANGES[essay_set], metadata=meta)
    paras = docx_paragraphs(file)
    passage = _section(paras, "Source Essay", ("Prompt",))
    question = _section(paras, "Prompt", ("Rubric Guidelines", "Adjudication Rules"))
    rubric = _section(paras, "Rubric Guidelines", ())  # to the end, adjudication rules included
    meta.update(material=str(file), grade=_after(paras, "Grade level:"), essay_type=_after(paras, "Type of essay:"))
    return Prompt(
        str(essay_set), question, passage=passage, rubric=rubric, score_range=SCORE_RANGES[essay_set], metadata=meta
    )


def _after(paragraphs: tuple[str, ...], key: str) -> str:
    for i, para in enumerate(paragraphs[:-1]):
        if para.strip() == key:
            return paragraphs[i + 1].strip()
    return ""


def _locate(explicit: PathLike | None, path: PathLike | None, parts: tuple[str, ...]) -> Path | None:
    if explicit is not None:
        return existing(explicit, _NAME)
    starts = [Path(path).resolve()] if path is not None else []
    for start in starts:
        for parent in [start, *start.parents[:3]]:
            if (parent / parts[-1]).is_dir():
                return parent / parts[-1]
    root = data_root(required=False)
    return root.joinpath(*parts) if root is not None and root.joinpath(*parts).is_dir() else None


def _fold_ids(folds: Path, fold: int, part: str) -> list[tuple[int, str]]:
    file = existing(folds / f"fold_{fold}" / f"{part}_ids.txt", _NAME)
    return [(n, line.strip()) for n, line in enumerate(read_text(file)[0].splitlines(), 1) if line.strip()]


def _select(items: list[Item], folds: Path, fold: int, part: str) -> list[Item]:
    by_id = {it.id: it for it in items}
    file = folds / f"fold_{fold}" / f"{part}_ids.txt"
    out = []
    for line, essay_id in _fold_ids(folds, fold, part):
        if essay_id not in by_id:
            raise DatasetFormatError(file, line, "essay_id", f"essay {essay_id} is not in the essay file(s).")
        out.append(by_id[essay_id])  # the fold and part are in Dataset.split ("fold0-train")
    return out


def _check_fold_args(fold: int | None, part: str | None) -> None:
    if fold is None and part is not None:
        raise ConfigError(
            f"The 'part' option of dataset {_NAME!r} needs a fold (fold=0..4). Got part={part!r} and no fold."
        )
    if fold is not None:
        check_choice(_NAME, "fold", fold, range(5))
        if part is None:
            raise ConfigError(
                f"Dataset {_NAME!r} fold={fold} needs part='train', 'dev' or 'test' (or use asap_aes_folds())."
            )
        check_choice(_NAME, "part", part, PARTS)


@datasets.register(_NAME)
def load_asap_aes(
    path: PathLike | None = None,
    *,
    fold: int | None = None,
    part: str | None = None,
    folds: PathLike | None = None,
    material: PathLike | bool | None = None,
) -> Dataset:
    """Load ASAP-AES essays (domain1_score is gold) with their prompts and source passages.

    Parameters
    ----------
    path : str or Path, optional
        ``training_set_rel3.tsv`` (with or without header), or a folder holding it or ``fold_*_test.tsv``
        files. Default: ``asap-aes/training_set_rel3_nea_folds`` under the data folder (12,978 essays).
    fold : int, optional
        0..4 selects a fold of the standard split; ``None`` loads every essay.
    part : {"train", "dev", "test"}, optional
        The part of ``fold`` (required with ``fold``).
    folds : str or Path, optional
        The ``nea-folds`` folder with ``fold_k/{train,dev,test}_ids.txt``; default: found near ``path`` or in the data folder.
    material : str, Path or bool, optional
        The folder of ``Essay Set #N--ReadMeFirst.docx`` files; ``False`` skips prompt text.
    """
    _check_fold_args(fold, part)
    files = _files(path)
    items = [it for file in files for it in _read_file(file)]
    if len(files) > 1 and all(it.id.isdigit() for it in items):  # the fold files together: original (id) order
        items.sort(key=lambda it: int(it.id))
    check_unique_ids(items, lambda it: f"{it.metadata['source_file']} line {it.metadata['source_line']}")
    split = "all"
    if fold is not None and part is not None:
        where = _locate(folds, path, _FOLDS)
        if where is None:
            raise MissingDataError(
                f"Dataset {_NAME!r}: the nea-folds id lists were not found; pass folds=... or set BLUFFCHECK_DATA."
            )
        items, split = _select(items, where, fold, part), f"fold{fold}-{part}"
    docs = None if material is False else _locate(None if material is True else material, path, _DOCS)  # type: ignore[arg-type]
    prompts = {str(s): _prompt(s, docs) for s in sorted({int(it.prompt_id) for it in items})}
    return Dataset(_NAME, tuple(items), prompts, split, metadata={"prompt_material": str(docs) if docs else None})


def asap_aes_folds(path: PathLike | None = None, **options: object) -> list[tuple[Dataset, Dataset, Dataset]]:
    """The five standard folds as ``(train, dev, test)`` datasets, reading the essays once."""
    everything = load_asap_aes(path, **options)  # type: ignore[arg-type]
    where = _locate(options.get("folds"), path, _FOLDS)  # type: ignore[arg-type]
    if where is None:
        raise MissingDataError(
            f"Dataset {_NAME!r}: the nea-folds id lists were not found; pass folds=... or set BLUFFCHECK_DATA."
        )
    items = list(everything.items)
    return [
        tuple(everything.subset(_select(items, where, k, part), split=f"fold{k}-{part}") for part in PARTS)  # type: ignore[misc]
        for k in range(5)
    ]


def probe(root: Path) -> list[dict]:
    """Where the essays would be read from under ``root`` (for :func:`bluffcheck.datasets.available`)."""
    folder = root / "asap-aes" / "training_set_rel3_nea_folds"
    found = folder.is_dir() and any(folder.glob("fold_*_test.tsv"))
    how = {"path": folder, "folds": root / Path(*_FOLDS), "material": root / Path(*_DOCS)}
    return [{"options": {}, "path": str(folder), "found": found, "load": how}]


load_asap_aes.probe = probe  # type: ignore[attr-defined]

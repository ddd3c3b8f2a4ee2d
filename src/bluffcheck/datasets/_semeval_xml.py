"""Reading SemEval-2013 Task 7 question files (one XML per question) from a zip, a folder or package data."""

from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Callable
from importlib.resources.abc import Traversable
from pathlib import Path, PurePosixPath
from types import MappingProxyType
from typing import Any

from ..errors import DatasetFormatError
from ..types import Item, Prompt
from ._common import cached_by_file

__all__ = ["LABELS", "Member", "members", "parse_question", "select"]

# Label sets, "no credit" first (Dzikovska et al. 2013, Figure 1; the 2- and 3-way collapses of the release).
LABELS: dict[int, tuple[str, ...]] = {
    2: ("incorrect", "correct"),
    3: ("incorrect", "contradictory", "correct"),
    5: ("non_domain", "irrelevant", "contradictory", "partially_correct_incomplete", "correct"),
}
Member = tuple[str, str, Callable[[], bytes]]  # (relative posix name, display name, reader)
_ANSWER_TAG = re.compile(rb"<studentAnswer\b")
_SPLIT_DIRS = {"train": ("train", "training")}


def members(source: Path | Traversable) -> list[Member]:
    """Every ``.xml`` file under a zip file, a folder, or a package-data folder."""
    if isinstance(source, Path) and source.is_file():
        contents = _zip_xml(source)
        return [(n, f"{source}:{n}", functools.partial(contents.__getitem__, n)) for n in sorted(contents)]
    if isinstance(source, Path):
        files = sorted(p for p in source.rglob("*") if p.suffix.lower() == ".xml" and p.is_file())
        return [(p.relative_to(source).as_posix(), str(p), p.read_bytes) for p in files]
    return _walk(source, "")


@cached_by_file
def _zip_xml(path: Path) -> MappingProxyType[str, bytes]:
    try:
        with zipfile.ZipFile(path) as archive:
            return MappingProxyType({n: archive.read(n) for n in archive.namelist() if n.lower().endswith(".xml")})
    except zipfile.BadZipFile as exc:
        raise DatasetFormatError(path, None, None, f"not a readable zip file ({exc}).") from None


def _walk(node: Traversable, prefix: str) -> list[Member]:
    out: list[Member] = []
    for child in sorted(node.iterdir(), key=lambda c: c.name):
        name = f"{prefix}{child.name}"
        if child.is_dir():
            out.extend(_walk(child, name + "/"))
        elif child.name.lower().endswith(".xml"):
            out.append((name, name, child.read_bytes))
    return out


def select(found: list[Member], corpus: str, ways: int, split: str) -> list[Member]:
    """The members of one corpus, label granularity and split, matched on folder names.

    Works for the release's ``training/3way/beetle/`` and ``test/3way/beetle/test-unseen-answers/``
    layout and for folders named ``train``; a flat folder of XML files is taken whole.
    """
    wanted = _SPLIT_DIRS.get(split, (split,))
    chosen = []
    for member in found:
        parts = [p.lower() for p in PurePosixPath(member[0]).parts[:-1]]
        way_dirs = [p for p in parts if re.fullmatch(r"\d+way", p)]
        if way_dirs and way_dirs[0] != f"{ways}way":
            continue
        if corpus in parts and any(w in parts for w in wanted):
            chosen.append(member)
    if not chosen and found and all("/" not in m[0] for m in found):
        return list(found)
    return chosen


def _required(node: ET.Element, attr: str, where: tuple[str, int | None]) -> str:
    value = node.get(attr)
    if value is None or not value.strip():
        raise DatasetFormatError(where[0], where[1], attr, f"<{node.tag}> has no {attr!r} attribute.")
    return value.strip()


def parse_question(member: Member, labels: tuple[str, ...], meta: dict[str, Any]) -> tuple[Prompt, list[Item]]:
    """One question file -> its :class:`Prompt` and the student answers as :class:`Item` s."""
    _, display, read = member
    data = read()
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise DatasetFormatError(display, exc.position[0], None, f"not well-formed XML ({exc}).") from None
    if root.tag != "question":
        raise DatasetFormatError(display, 1, None, f"the root element is <{root.tag}>, expected <question>.")
    qid = _required(root, "id", (display, 1))
    text = root.findtext("questionText")
    if text is None:
        raise DatasetFormatError(display, None, "questionText", "the question has no <questionText>.")
    refs = root.findall("referenceAnswers/referenceAnswer")
    answers = root.find("studentAnswers")
    if answers is None:
        raise DatasetFormatError(display, None, "studentAnswers", "the question has no <studentAnswers>.")
    starts = [m.start() for m in _ANSWER_TAG.finditer(data)]
    nodes = answers.findall("studentAnswer")
    lines = [data.count(b"\n", 0, s) + 1 for s in starts] if len(starts) == len(nodes) else [None] * len(nodes)
    items = [_answer(node, line, qid, display, labels) for node, line in zip(nodes, lines, strict=True)]
    prompt_meta = {**meta, **{k: v for k, v in root.attrib.items() if k != "id"}, "source_file": display}
    prompt_meta["reference_ids"] = tuple(r.get("id", "") for r in refs)
    prompt_meta["reference_categories"] = tuple(r.get("category", "") for r in refs)
    prompt = Prompt(
        qid,
        text.strip(),
        tuple((r.text or "").strip() for r in refs),
        score_range=(0, 1),
        labels=labels,
        metadata=prompt_meta,
    )
    return prompt, items


def _answer(node: ET.Element, line: int | None, qid: str, display: str, labels: tuple[str, ...]) -> Item:
    answer_id = _required(node, "id", (display, line))
    label = _required(node, "accuracy", (display, line))
    if label not in labels:
        raise DatasetFormatError(display, line, "accuracy", f"label {label!r} is not one of {list(labels)}.")
    meta: dict[str, Any] = {"source_file": display, "source_line": line}
    if node.get("count") is not None:
        meta["count"] = int(node.get("count", "1")) if node.get("count", "").isdigit() else node.get("count")
    if node.get("answerMatch") is not None:
        meta["answer_match"] = node.get("answerMatch")
    return Item(answer_id, qid, node.text or "", 1.0 if label == "correct" else 0.0, label, metadata=meta)

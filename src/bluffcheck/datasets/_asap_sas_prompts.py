"""Prompt material of the ten ASAP-SAS sets: question, reading passage and rubric.

Read from the plain-text exports of the Kaggle "Data Set #N--ReadMeFirst" documents
(``jjj-readmefirst-txt``; some files are UTF-8, some cp1252), falling back to the shorter
transcriptions in ``pjankiewicz-descriptions``, whose ``essay_N_key.txt`` scoring keys (sets 1, 5, 6)
become the prompt's reference answers.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..types import Prompt
from ._common import read_text

__all__ = ["SCORE_RANGES", "prompt_for_set"]

# Rubric ranges from the ReadMeFirst documents: 0-3 for sets 1, 2, 5, 6; 0-2 for the others.
SCORE_RANGES: dict[int, tuple[int, int]] = {s: ((0, 3) if s in (1, 2, 5, 6) else (0, 2)) for s in range(1, 11)}

_PASSAGE = "Reading Passage-"
_PROMPT = "Prompt-"
_RUBRIC = ("Rubric for", "Scoring Rubric", "Reading for Information Scoring")
_HEADER_KEYS = {"Type of response:": "response_type", "Grade level:": "grade", "Subject:": "subject"}


def _join(lines: list[str]) -> str:
    return "\n".join(line.strip() for line in lines).strip()


def parse_readme(text: str) -> dict[str, Any]:
    """Split a ReadMeFirst export into header fields, question, passage and rubric."""
    lines = text.splitlines()
    while lines and (not lines[-1].strip() or lines[-1].strip().isdigit()):  # trailing page number
        lines.pop()
    header: dict[str, str] = {}
    sections: list[tuple[str, str, list[str]]] = []
    for i, line in enumerate(lines):
        stripped = line.strip()
        if sections and sections[-1][0] == "rubric":
            sections[-1][2].append(line)
        elif stripped.startswith(_RUBRIC):
            sections.append(("rubric", "", [line]))
        elif stripped.startswith(_PASSAGE):
            sections.append(("passage", stripped[len(_PASSAGE) :], []))
        elif stripped.startswith(_PROMPT):
            sections.append(("prompt", stripped[len(_PROMPT) :], []))
        elif sections:
            sections[-1][2].append(line)
        elif stripped in _HEADER_KEYS and i + 1 < len(lines):
            header[_HEADER_KEYS[stripped]] = lines[i + 1].strip()
    prompts = [s for s in sections if s[0] == "prompt"]
    # Set 8 has the story under a first "Prompt-" heading and the question under a second one.
    question = _join(prompts[-1][2]) if prompts else ""
    passage = "\n\n".join(
        _join(s[2]) for s in sections if s[0] == "passage" or (s[0] == "prompt" and s is not prompts[-1])
    )
    rubric = "\n\n".join(_join(s[2]) for s in sections if s[0] == "rubric")
    title = prompts[-1][1].strip() if prompts else ""
    return {"question": question, "passage": passage.strip(), "rubric": rubric, "title": title, **header}


def _key_answers(folder: Path, essay_set: int) -> tuple[str, ...]:
    key = folder / "pjankiewicz-descriptions" / f"essay_{essay_set}_key.txt"
    if not key.is_file():
        return ()
    return tuple(line.strip() for line in read_text(key)[0].splitlines() if line.strip())


def prompt_for_set(essay_set: int, material: Path | None) -> Prompt:
    """The :class:`Prompt` of one set; ``material`` is the ``asap-sas`` folder (None: no text)."""
    score_range = SCORE_RANGES.get(essay_set)
    meta: dict[str, Any] = {"essay_set": essay_set}
    if material is None:
        return Prompt(str(essay_set), score_range=score_range, metadata={**meta, "material": None})
    readme = material / "jjj-readmefirst-txt" / f"Data Set #{essay_set}--ReadMeFirst.txt"
    description = material / "pjankiewicz-descriptions" / f"essay_{essay_set}_description.txt"
    refs = _key_answers(material, essay_set)
    if readme.is_file():
        text, encoding = read_text(readme)
        parts = parse_readme(text)
        meta.update({k: v for k, v in parts.items() if k not in ("question", "passage", "rubric")})
        meta.update(material=str(readme), encoding=encoding)
        return Prompt(
            str(essay_set), parts["question"], refs, parts["passage"], parts["rubric"], score_range, metadata=meta
        )
    if description.is_file():
        text = re.sub(r"[ \t]+\n", "\n", read_text(description)[0]).strip()
        return Prompt(
            str(essay_set), text, refs, score_range=score_range, metadata={**meta, "material": str(description)}
        )
    return Prompt(str(essay_set), reference_answers=refs, score_range=score_range, metadata={**meta, "material": None})

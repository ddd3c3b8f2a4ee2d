"""The ~17k unscored ASAP-SAS answers (training + leaderboard, no scores) as extra prompt-corpus material.

They come from the ``ltl-ude/adversarials`` release that Ding et al. (2020) built their
prompt-specific corpora from: ``<data root>/asap-sas/ltl-ude-adversarials/train+test/
asap_withoutBG_prompt_<N>.txt`` (TSV with header ``Id``, ``EssayText``). Read directly here, so the
generators do not depend on the dataset loaders.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Collection
from pathlib import Path

from ..errors import DatasetFormatError

__all__ = ["asap_sas_unscored"]


def asap_sas_unscored(
    prompt_id: str, *, exclude_ids: Collection[str] = (), root: str | os.PathLike[str] | None = None
) -> list[str]:
    """Answer texts to ASAP-SAS essay set ``prompt_id``, minus those whose Id is in ``exclude_ids``.

    Pass the Ids of answers you already have (e.g. the scored leaderboard answers) as ``exclude_ids``
    so they are not counted twice.
    """
    from ..paths import find_data

    base = Path(root) if root is not None else find_data("asap-sas", "ltl-ude-adversarials", "train+test")
    path = base / f"asap_withoutBG_prompt_{int(prompt_id)}.txt"
    if not path.is_file():
        raise DatasetFormatError(path, None, None, "is missing; expected one file per essay set 1..10.")
    skip = {str(i) for i in exclude_ids}
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)
        header = next(reader, None)
        if header is None or [h.strip() for h in header[:2]] != ["Id", "EssayText"]:
            raise DatasetFormatError(path, 1, None, f"expected the header Id<TAB>EssayText, got {header!r}.")
        texts = []
        for lineno, row in enumerate(reader, 2):
            if len(row) < 2:
                raise DatasetFormatError(path, lineno, "EssayText", "is missing (expected Id<TAB>EssayText).")
            if row[0].strip() not in skip:
                texts.append("\t".join(row[1:]))
    return texts

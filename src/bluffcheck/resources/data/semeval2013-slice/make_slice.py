"""Rebuild the bundled SemEval-2013 Task 7 demo slice (``semeval-demo``) from the release zip.

What it does
------------
Picks 12 SciEntsBank questions from the 3-way training data: the questions whose three labels
(correct, contradictory, incorrect) are most evenly mixed (highest label entropy, each label at least
5 times), at most two per science module, so the demo covers several topics. It then copies those
questions' XML files, byte for byte, for the 2-way and 3-way training data and the
test-unseen-answers data, keeping the release's folder layout::

    training/{2,3}way/sciEntsBank/<question>.xml
    test/{2,3}way/sciEntsBank/test-unseen-answers/<question>.xml

Usage
-----
From the project root (the data folder is ``$BLUFFCHECK_DATA`` or ``../shared/data``)::

    python src/bluffcheck/resources/data/semeval2013-slice/make_slice.py
    python src/bluffcheck/resources/data/semeval2013-slice/make_slice.py --zip /path/to/semeval-3way.zip

The output replaces the ``training/`` and ``test/`` folders next to this script. Standard library only.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shutil
import zipfile
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
N_QUESTIONS = 12
PER_MODULE = 2
MIN_PER_LABEL = 5
TRAIN_3WAY = "training/3way/sciEntsBank/"


def _default_zip() -> Path:
    root = Path(os.environ.get("BLUFFCHECK_DATA") or Path.cwd() / ".." / "shared" / "data")
    return root / "semeval2013-task7" / "semeval-3way.zip"


def _labels(xml: bytes) -> Counter[str]:
    return Counter(m.decode() for m in re.findall(rb'accuracy="([^"]+)"', xml))


def choose(archive: zipfile.ZipFile) -> list[str]:
    """File names (without folder) of the chosen questions, in a fixed order."""
    scored = []
    for name in archive.namelist():
        if name.startswith(TRAIN_3WAY) and name.endswith(".xml"):
            counts = _labels(archive.read(name))
            total = sum(counts.values())
            if len(counts) == 3 and min(counts.values()) >= MIN_PER_LABEL:
                entropy = -sum(c / total * math.log(c / total) for c in counts.values())
                scored.append((-round(entropy, 9), name.rsplit("/", 1)[1]))
    chosen: list[str] = []
    per_module: defaultdict[str, int] = defaultdict(int)
    for _, file in sorted(scored):
        module = file.split("-", 1)[0]
        if per_module[module] < PER_MODULE and len(chosen) < N_QUESTIONS:
            chosen.append(file)
            per_module[module] += 1
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--zip", type=Path, default=_default_zip(), help="the release's semeval-3way.zip")
    parser.add_argument("--out", type=Path, default=HERE, help="output folder (default: beside this script)")
    args = parser.parse_args()
    with zipfile.ZipFile(args.zip) as archive:
        chosen = choose(archive)
        for top in ("training", "test"):
            shutil.rmtree(args.out / top, ignore_errors=True)
        copied = 0
        for ways in (2, 3):
            for folder in (f"training/{ways}way/sciEntsBank/", f"test/{ways}way/sciEntsBank/test-unseen-answers/"):
                for file in chosen:
                    target = args.out / folder / file
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(archive.read(folder + file))
                    copied += 1
    print(f"copied {copied} files for {len(chosen)} questions: {', '.join(chosen)}")


if __name__ == "__main__":
    main()

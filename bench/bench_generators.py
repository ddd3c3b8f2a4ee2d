"""Throughput of the 25 bluff generators of seed 000 on ASAP-SAS prompt 3 with the Brown corpus.

Run: ``python bench/run.py generators``. For each method: the first call (which builds and caches
its corpus tables) and a second, warm call, 1,000 answers each, as the paper made per method.
nlpaug 1.1.11 is timed side by side for the two operations it shares with us (random characters,
random word order) in its own virtual environment (``.bench-venv-nlpaug``, created on first run
with ``python -m venv`` + ``pip install nlpaug==1.1.11``), in a subprocess.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
NLPAUG_VENV = ROOT / ".bench-venv-nlpaug"
N = 1000

_NLPAUG_SCRIPT = r"""
import json, sys, time
import nlpaug.augmenter.char as nac
import nlpaug.augmenter.word as naw
texts = json.load(sys.stdin)
out = {}
BIG = 10**6
augs = [
    # defaults: about 30 % of the characters of about 30 % of the words (at most 10 each)
    ("RandomCharAug(action='substitute') [defaults]", nac.RandomCharAug(action="substitute")),
    # every character of every word replaced by a random lower-case letter: the same output as our
    # random-chars at the answer's own word lengths (spaces kept), i.e. the equivalent operation
    ("RandomCharAug(action='substitute', aug_char_p=1, aug_word_p=1, min_char=1, lower-case only) [= random-chars]",
     nac.RandomCharAug(action="substitute", aug_char_p=1.0, aug_word_p=1.0, aug_char_max=BIG, aug_word_max=BIG,
                       min_char=1, include_upper_case=False, include_numeric=False, spec_char="")),
    ("RandomWordAug(action='swap') [defaults: 30 % of words, adjacent swaps]", naw.RandomWordAug(action="swap")),
    # every word swapped with a neighbour: the closest nlpaug has to our shuffle (a full random permutation)
    ("RandomWordAug(action='swap', aug_p=1) [~ shuffle]", naw.RandomWordAug(action="swap", aug_p=1.0, aug_max=BIG)),
]
for name, aug in augs:
    aug.augment(texts[:5])
    t = time.perf_counter()
    res = aug.augment(texts)
    out[name] = (len(res), time.perf_counter() - t)
print(json.dumps(out))
"""


def _nlpaug_python() -> Path | None:
    python = NLPAUG_VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(NLPAUG_VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "nlpaug==1.1.11"], check=False)
    probe = subprocess.run([str(python), "-c", "import nlpaug"], capture_output=True)
    return python if probe.returncode == 0 else None


def _nlpaug_times(texts: list[str]) -> dict[str, tuple[int, float]] | None:
    python = _nlpaug_python()
    if python is None:
        return None
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    run = subprocess.run(
        [str(python), "-c", _NLPAUG_SCRIPT], input=json.dumps(texts), capture_output=True, text=True, env=env
    )
    return json.loads(run.stdout.strip().splitlines()[-1]) if run.returncode == 0 else None


def _measure(dataset, extra):
    from bluffcheck.generators._api import generate_bluffs
    from bluffcheck.generators._paper import PAPER_METHODS, method_label
    from bluffcheck.resources.corpora import GenericCorpus, char_text, word_tokens

    t = time.perf_counter()
    brown = GenericCorpus.brown()
    _ = brown.word_units, brown.char_units
    rows = [("(load Brown: read brown.zip, normalise)", time.perf_counter() - t, None, None, "")]
    for name, params in PAPER_METHODS:
        times = []
        for _ in range(2):
            t = time.perf_counter()
            bluffs = generate_bluffs(dataset, [(name, params)], n=N, seed=0, generic=brown, extra_answers=extra)
            times.append(time.perf_counter() - t)
        level = "char" if name in ("random-chars", "char-ngrams") else "word"
        measure = (lambda s: len(char_text(s))) if level == "char" else (lambda s: len(word_tokens(s)))
        mean_len = float(np.mean([measure(it.text) for it in bluffs]))
        rows.append((method_label(name, params), times[0], times[1], mean_len, level))
    return rows


def main(out: Path) -> None:
    from bluffcheck.datasets import load
    from bluffcheck.generators._api import context_for
    from bluffcheck.resources.corpora import char_text, word_tokens

    data = load("asap-sas").for_prompt("3")
    unscored = [it.text for it in load("asap-sas", split="unscored-train") if it.prompt_id == "3"]
    rows = _measure(data, {"3": unscored})
    ctx = context_for(data, "3", extra_answers=unscored)
    real_chars = np.mean([len(char_text(a)) for a in ctx.answers if char_text(a)])
    real_words = np.mean([len(word_tokens(a)) for a in ctx.answers if word_tokens(a)])
    nlp = _nlpaug_times([a for a in ctx.answers[:N]])
    lines = [
        "## Bluff generators (seed 000 §2.2): throughput",
        "",
        "Command: `python bench/run.py generators`. Machine: the 2-core development box (shared with other jobs, "
        "so absolute times vary by about 2x). ASAP-SAS prompt 3 (406 scored + 1,808 unscored answers as the "
        "prompt corpus), generic corpus Brown (`brown.zip`, 57,340 sentences, 1.02M tokens); 1,000 answers per "
        "method as in the paper (§3.3). *First call* includes building and caching the method's n-gram table / "
        "LM / noun list; *warm* re-uses them. Mean length: characters for char methods, words for word methods "
        f"(real answers: {real_chars:.0f} characters, {real_words:.1f} words, punctuation removed; "
        "`length=\"mean\"` caps n-gram output at that mean, so EOS stops make it shorter).",
        "",
        "| method | first call (s) | warm (s) | warm answers/s | mean length |",
        "|---|---:|---:|---:|---:|",
    ]
    for label, first, warm, mean_len, level in rows:
        if warm is None:
            lines.append(f"| {label} | {first:.2f} | | | |")
            continue
        unit = "chars" if level == "char" else "words"
        lines.append(f"| {label} | {first:.2f} | {warm:.2f} | {N / warm:,.0f} | {mean_len:.1f} {unit} |")
    lines += ["", "nlpaug 1.1.11 on the same 1,000 real answers, in the same run, in its own virtual environment "
              "(it perturbs answers, it does not generate them). Each operation is timed twice: with nlpaug's "
              "defaults, and configured to do what our method does (every character substituted = our "
              "random-chars at the answer's word lengths; every word swapped with a neighbour = the closest "
              "nlpaug has to our shuffle, a full random permutation). Compare with the `random-chars` and "
              "`shuffle` rows above:", ""]
    if nlp is None:
        lines.append("nlpaug could not be installed or run here; no comparison.")
    else:
        lines += ["| nlpaug operation | answers | seconds | answers/s |", "|---|---:|---:|---:|"]
        lines += [f"| `{k}` | {n} | {s:.2f} | {n / s:,.0f} |" for k, (n, s) in nlp.items()]
    lines += ["", "The paper reports no generation times. The `lm` row is the built-in Kneser-Ney trigram model, "
              "not GPT-2 (no weights offline).", ""]
    out.write_text("\n".join(lines))


if __name__ == "__main__":
    main(ROOT / "bench" / "results" / "generators.md")

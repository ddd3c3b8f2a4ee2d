"""ARR of ngram-svm, neural and encoder on ASAP-SAS bluffs (seed 000 §4, Figure 1).

Run: ``python bench/run.py arr`` (writes ``bench/results/arr.md`` and ``bench/results/arr_figure1.png``).

* ASAP-SAS, the 5,224 scored answers; per prompt a seeded 80/20 split stratified by score
  (:func:`bluffcheck.bluffs.split_dataset`, seed 0): train on 80 %, QWK on 20 %.
* Bluffs: the 25 paper methods × 10 prompts × ``BENCH_ARR_N`` answers (default 1,000), seed 0,
  prompt corpora from each prompt's training answers + prompt material + the ~17k unscored ASAP-SAS
  answers (minus every scored answer), generic corpus = Brown.
* Each scorer is run in its own step; its ARR table (per method × prompt: counts, rates, intervals) and
  run facts go to ``bench/results/arr_raw/`` (tracked: aggregates only, no answer text of ASAP) so
  scorers can be run at different times: ``BENCH_ARR_SCORERS=ngram-svm`` (comma list; default all
  three) chooses which are (re)run now; the others are read from there. The generated bluffs are
  cached in ``bench/out/arr/`` (ignored: shuffled answers are ASAP text). ``BENCH_ARR_N_<SCORER>`` (e.g.
  ``BENCH_ARR_N_ENCODER=200``) scores only the first n bluffs per prompt × method with that scorer;
  ``BENCH_ARR_THREADS`` sets the torch threads of ``neural`` and ``encoder`` (default 1).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np
import pandas as pd

from bluffcheck import bluffs as B
from bluffcheck._registry import scorers
from bluffcheck.datasets import load
from bluffcheck.generators._api import generate_bluffs
from bluffcheck.generators._paper import PAPER_METHODS, method_label
from bluffcheck.resources.corpora import GenericCorpus

HERE = Path(__file__).resolve().parent
CACHE = HERE / "out" / "arr"  # generated bluffs (ASAP-derived text: never committed)
RAW = HERE / "results" / "arr_raw"  # per-scorer ARR tables and run facts (aggregates: committed)
SCORERS = ("ngram-svm", "neural", "encoder")
SEED = 0
LABELS = [method_label(n, p) for n, p in PAPER_METHODS]
PAPER = {  # seed 000 §4 / Figure 1, read from the text (the figure's per-method values are not printed)
    "mean ARR": "shallow (ESCRITO SVM) ≈ 77 %, deep (BiGRU) ≈ 53 %",
    "generic vs prompt": "prompt-specific n-grams have lower ARR than generic ones (both systems)",
    "shuffle": "lowest mean ARR of all methods for the shallow system",
    "char n": "ARR falls as n grows for prompt-specific character n-grams (both systems)",
    "worst": "shallow prompt 2 and deep prompt 10 accept > 90 % of random characters",
    "QWK": "shallow 0.673, deep 0.7705 (official ASAP-SAS test set)",
}


def _n(scorer: str | None = None) -> int:
    default = int(os.environ.get("BENCH_ARR_N", "1000"))
    if scorer is None:
        return default
    return min(default, int(os.environ.get(f"BENCH_ARR_N_{scorer.upper().replace('-', '_')}", str(default))))


def _data() -> tuple[object, object, object, dict[str, list[str]]]:
    data = load("asap-sas")
    train, test = B.split_dataset(data, test_size=0.2, seed=SEED)
    scored = {it.text for it in data.items}
    extra: dict[str, list[str]] = {}
    for it in load("asap-sas", split="unscored-train"):
        if it.text not in scored:
            extra.setdefault(it.prompt_id, []).append(it.text)
    return data, train, test, extra


def _bluffs(train: object, extra: dict[str, list[str]], n: int) -> tuple[object, float]:
    """The bluffs, generated once per n and cached as Parquet (text + JSON metadata, no pickles)."""
    from bluffcheck.types import Item

    cache, info = CACHE / f"bluffs_n{n}_seed{SEED}.parquet", CACHE / f"bluffs_n{n}_seed{SEED}.json"
    if cache.is_file() and info.is_file():
        frame = pd.read_parquet(cache)
        items = [Item(i, p, t, metadata=json.loads(m)) for i, p, t, m in frame.itertuples(index=False)]
        return train.subset(items, split="train80+bluffs"), float(json.loads(info.read_text())["seconds"])
    t0 = time.perf_counter()
    out = generate_bluffs(train, PAPER_METHODS, n=n, seed=SEED, generic=GenericCorpus.brown(), extra_answers=extra)
    seconds = time.perf_counter() - t0
    CACHE.mkdir(parents=True, exist_ok=True)
    rows = [(it.id, it.prompt_id, it.text, json.dumps(_meta(it.metadata))) for it in out.items]
    pd.DataFrame(rows, columns=["id", "prompt_id", "text", "meta"]).to_parquet(cache, index=False)
    info.write_text(json.dumps({"seconds": seconds, "n": n, "count": len(out)}))
    return out, seconds


def _meta(meta: object) -> dict:
    meta = dict(meta)
    meta["params"] = {k: v for k, v in dict(meta.get("params") or {}).items() if k != "generic" or isinstance(v, str)}
    return meta


def _first(bluffs: object, n: int) -> object:
    return bluffs.subset([it for it in bluffs.items if int(it.metadata["index"]) < n])


def run_scorer(name: str, train: object, test: object, bluffs: object) -> dict[str, object]:
    """Fit, QWK on the held-out 20 %, score the bluffs; cache the ARR table and the explanations."""
    n = _n(name)
    threads = int(os.environ.get("BENCH_ARR_THREADS", "1"))  # torch threads for neural and encoder
    scorer = scorers.create(name, **({"n_threads": threads} if name in ("neural", "encoder") else {}))
    t0 = time.perf_counter()
    scorer.fit(train)
    fit_s = time.perf_counter() - t0
    qwk = B.heldout_qwk(scorer, test)
    subset = _first(bluffs, n)
    t0 = time.perf_counter()
    records = B.bluff_records(scorer, subset, scorer_name=name, seed=SEED)
    score_s = time.perf_counter() - t0
    table = B.arr_table(records, seed=SEED)
    explained = _explain(scorer, subset, records, table) if callable(getattr(scorer, "explain", None)) else []
    meta = {"scorer": name, "n": n, "fit_s": fit_s, "score_s": score_s, "n_scored": len(records), "qwk": qwk,
            "explained": explained, "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}  # fmt: skip
    RAW.mkdir(parents=True, exist_ok=True)
    table.to_csv(RAW / f"{name}.csv", index=False)
    (RAW / f"{name}.json").write_text(json.dumps(meta, indent=1, default=float))
    return meta


def _explain(scorer: object, subset: object, records: pd.DataFrame, table: pd.DataFrame) -> list[dict]:
    rc = table[table["method"] == "random-chars"].sort_values("arr", kind="stable")
    worst = str(rc["prompt"].iloc[0])
    return B.explain_accepted(scorer, subset.items, records["score"].to_numpy(), method="random-chars", top=5,
                              features=5, prompt=worst)  # fmt: skip


def _pct(x: float) -> str:
    return "–" if x is None or not np.isfinite(x) else f"{100 * x:.1f}"


def _method_rows(tables: dict[str, pd.DataFrame]) -> list[str]:
    names = list(tables)
    head = "| method | " + " | ".join(f"{s} ARR % mean (min–max)" for s in names) + " |"
    lines = [head, "|---" * (len(names) + 1) + "|"]
    sums = {s: B.method_summary(t).set_index("method") for s, t in tables.items()}
    for label in LABELS:
        cells = []
        for s in names:
            r = sums[s].loc[label] if label in sums[s].index else None
            cells.append("–" if r is None else f"{_pct(r['arr'])} ({_pct(r['arr_min'])}–{_pct(r['arr_max'])})")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines.append("| **mean** | " + " | ".join(f"**{_pct(tables[s]['arr'].mean())}**" for s in names) + " |")
    lines.append(
        "| full credit, mean | " + " | ".join(_pct(tables[s]["full_credit_rate"].mean()) for s in names) + " |"
    )
    return lines


def _prompt_rows(tables: dict[str, pd.DataFrame], metas: dict[str, dict]) -> list[str]:
    names = list(tables)
    prompts = sorted({p for t in tables.values() for p in t["prompt"]}, key=int)
    lines = [
        "| prompt | " + " | ".join(f"{s} ARR % | {s} QWK" for s in names) + " |",
        "|---" * (2 * len(names) + 1) + "|",
    ]
    for p in prompts:
        cells = []
        for s in names:
            sub = tables[s][tables[s]["prompt"] == p]
            cells += [_pct(sub["arr"].mean()), f"{metas[s]['qwk'].get(p, float('nan')):.3f}"]
        lines.append(f"| {p} | " + " | ".join(cells) + " |")
    lines.append(
        "| mean | "
        + " | ".join(f"{_pct(tables[s]['arr'].mean())} | {metas[s]['qwk']['mean']:.3f}" for s in names)
        + " |"
    )
    return lines


def _findings(tables: dict[str, pd.DataFrame]) -> list[str]:
    out = []
    for s, t in tables.items():
        m = B.method_summary(t).set_index("method")["arr"]
        gen = np.mean([m[f"{k}-{n}gram-generic"] for k in ("char", "word") for n in range(1, 6)])
        pro = np.mean([m[f"{k}-{n}gram-prompt"] for k in ("char", "word") for n in range(1, 6)])
        chars = [m[f"char-{n}gram-prompt"] for n in range(1, 6)]
        falls = [n for n in range(1, 5) if all(chars[i] > chars[i + 1] for i in range(n - 1, 4))]
        rc = t[t["method"] == "random-chars"]
        worst = rc.loc[rc["arr"].idxmin()]
        trend = f"falls steadily from n = {falls[0]} on" if falls else "does not fall steadily"
        shuffle = "" if m.idxmin() == "shuffle" else f"; shuffle {_pct(m['shuffle'])} %"
        out.append(
            f"- **{s}** (ours): mean ARR {_pct(t['arr'].mean())} %; n-grams generic {_pct(gen)} % vs prompt-specific "
            f"{_pct(pro)} % (prompt-specific lower, as in the paper: {'yes' if pro < gen else 'no'}); "
            f"lowest method {m.idxmin()} ({_pct(m.min())} %{shuffle}); prompt char 1–5-grams "
            f"{', '.join(_pct(c) for c in chars)} % ({trend})"
        )
        out[-1] += (f"; most vulnerable to random characters: prompt {worst['prompt']} "
                    f"(ARR {_pct(worst['arr'])} %, {_pct(1 - worst['arr'])} % accepted).")  # fmt: skip
    return out


def _explanations(meta: dict) -> list[str]:
    lines = []
    for e in meta.get("explained", []):
        feats = ", ".join(f"`{f}` ({w:+.3f})" for f, w in e["features"])
        lines.append(f"- prompt {e['prompt_id']}, score {e['score']:g}/{e['max_score']:g}: "
                     f"`{e['text'][:70]}` ← {feats}")  # fmt: skip
    return lines


def write_markdown(out: Path, metas: dict[str, dict], tables: dict[str, pd.DataFrame], gen: dict) -> None:
    from bluffcheck.report.plots import arr_figure

    png = HERE / "results" / "arr_figure1.png"
    cells = [r for t in tables.values() for r in t.to_dict("records")]
    png.write_bytes(arr_figure(cells))
    runs = "; ".join(f"{s}: n = {metas[s]['n']} per prompt × method ({metas[s]['n_scored']:,} bluffs), fit "
                     f"{metas[s]['fit_s']:.0f} s, scoring {metas[s]['score_s']:.0f} s ({metas[s]['when']})" for s in tables)  # fmt: skip
    text = [
        "## Adversarial rejection rate on ASAP-SAS (seed 000 Figure 1)",
        "",
        "Command: `python bench/run.py arr` (per-scorer steps: `BENCH_ARR_SCORERS=ngram-svm python bench/run.py arr`, "
        "`BENCH_ARR_N_NEURAL=… BENCH_ARR_N_ENCODER=…`). Machine: 2 CPU cores shared with other jobs, no GPU.",
        "",
        "Setup: ASAP-SAS 5,224 scored answers, per-prompt 80/20 split stratified by score (seed 0): scorers trained "
        f"on {gen['n_train']:,} answers, QWK on {gen['n_test']:,}. Bluffs: the 25 methods of seed 000 × 10 prompts, "
        f"seed 0; prompt corpora = the prompt's training answers + prompt material + the unscored ASAP-SAS answers "
        f"(`extra_answers`, minus every scored answer); generic corpus = Brown. Generation of {gen['n_bluffs']:,} "
        f"bluffs (25 methods × 10 prompts × {gen['n_bluffs'] // 250:,}, end to end, including loading Brown and "
        f"building every corpus) took {gen['seconds']:.0f} s ({gen['n_bluffs'] / gen['seconds']:,.0f} answers/s). "
        f"Runs: {runs}.",
        "",
        "### ARR per method (mean over the 10 prompts, min–max over prompts)",
        "",
        *_method_rows(tables),
        "",
        "### Per prompt (mean ARR over the 25 methods) and held-out QWK",
        "",
        *_prompt_rows(tables, metas),
        "",
        "### Against seed 000's findings",
        "",
        *[f"- paper, {k}: {v}" for k, v in PAPER.items()],
        *_findings(tables),
        "",
        "![ARR per method, one point per prompt, one colour per scorer](results/arr_figure1.png)",
        "",
        "Figure: `bench/results/arr_figure1.png` (drawn by `bluffcheck.report.plots.arr_figure`).",
        "",
    ]
    for s, m in metas.items():
        if m.get("explained"):
            text += [f"### Why random characters were accepted ({s}, its most vulnerable prompt)", "",
                     "Top 5 highest-scored random-character answers and the features present in them that pushed "
                     "hardest toward the predicted score (seed 000 §4: 'nswvtnvakgxpm' ← 'ns', 'nv', 'kg'):", "",
                     *_explanations(m), ""]  # fmt: skip
    text += GAPS[:-1] + _sample_note(metas) + GAPS[-1:]
    out.write_text("\n".join(text) + "\n")


GAPS = [
    "### Gaps to the paper",
    "",
    "- Training data: our scorers see 80 % of the 5,224 scored answers (≈ 4,180), not the paper's ≈ 17k training "
    "answers; the held-out QWK is on our 20 %, not the official test set.",
    "- Shallow system: scikit-learn `SVC(kernel='linear')` on binary n-gram presence, not Weka SMO in ESCRITO.",
    "- Deep system: `neural` uses MiniLM token embeddings, not GloVe; `encoder` (frozen MiniLM + ridge) has no "
    "counterpart in the paper.",
    "- `lm`: an n-gram language model stands in for GPT-2 (no model download offline).",
    "- Not reproduced: the paper's gap between shallow (≈ 77 %) and deep (≈ 53 %) systems; all three of ours land "
    "near 73 %. Reproduced: prompt-specific below generic, shuffle lowest, ARR falling with n for prompt-specific "
    "character n-grams, and single prompts whose models accept almost every random-character answer.",
    "",
]


def _sample_note(metas: dict[str, dict]) -> list[str]:
    """Say which scorers scored fewer than all the bluffs (the slow encoders on a 2-core box)."""
    full = max(m["n"] for m in metas.values())
    short = [f"`{s}` n = {m['n']:,}" for s, m in metas.items() if m["n"] < full]
    if not short:
        return []
    return [f"- Sample sizes differ by scorer ({', '.join(short)} of the same {full:,} bluffs per prompt × method, the "
            "first n of each; see Runs): MiniLM scoring is the bottleneck on this 2-core CPU box. Their per-cell "
            "bootstrap intervals (in `bench/results/arr_raw/`) are correspondingly wider."]


def main(out: Path) -> None:
    wanted = [s.strip() for s in os.environ.get("BENCH_ARR_SCORERS", ",".join(SCORERS)).split(",") if s.strip()]
    info = RAW / "generation.json"
    if not wanted and info.is_file():  # only re-assemble the section from the stored per-scorer results
        gen = json.loads(info.read_text())
    else:
        data, train, test, extra = _data()
        bluffs, seconds = _bluffs(train, extra, _n())
        gen = {"n_train": len(train), "n_test": len(test), "n_bluffs": len(bluffs), "seconds": seconds}
        RAW.mkdir(parents=True, exist_ok=True)
        info.write_text(json.dumps(gen, indent=1))
    for name in wanted:
        print(f"   scoring with {name} at n={_n(name)}", flush=True)
        run_scorer(name, train, test, bluffs)
    metas = {s: json.loads((RAW / f"{s}.json").read_text()) for s in SCORERS if (RAW / f"{s}.json").is_file()}
    tables = {s: pd.read_csv(RAW / f"{s}.csv", dtype={"prompt": str}) for s in metas}
    write_markdown(out, metas, tables, gen)

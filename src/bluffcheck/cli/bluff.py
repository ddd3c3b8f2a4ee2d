"""``bluffcheck bluff``: train (or load) a scorer, generate bluffs, score them, print the ARR table.

Writes a run folder that ``bluffcheck report OUT`` renders: ``records.parquet`` (the record schema
of :mod:`bluffcheck.report.result` plus a ``label`` column), ``config.json``, ``arr_table.csv`` and
``arr_figure1.png`` (seed 000 Figure 1).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ._common import console, err_console, parse_params

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["register", "table_cells", "write_run"]


def _schema() -> Any:
    import pyarrow as pa

    from ..report.result import RECORD_FIELDS

    numeric = {"source_score", "gold", "score", "min_score", "max_score", "elapsed_s"}
    ints = {"seed", "attempts"}
    fields = [(n, pa.int64() if n in ints else pa.float64() if n in numeric else pa.string()) for n in RECORD_FIELDS]
    return pa.schema([*fields, ("label", pa.string())])


def write_run(out: Path, records: pd.DataFrame, table: pd.DataFrame, config: dict[str, Any]) -> None:
    """``records.parquet``, ``config.json``, ``arr_table.csv`` and ``arr_figure1.png`` into ``out``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from ..report.plots import arr_figure

    out.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pandas(records, schema=_schema(), preserve_index=False), out / "records.parquet")
    (out / "config.json").write_text(json.dumps(config, indent=2, sort_keys=True, default=str) + "\n", encoding="utf-8")
    table.to_csv(out / "arr_table.csv", index=False)
    if len(table):
        (out / "arr_figure1.png").write_bytes(arr_figure(table.to_dict("records")))


def table_cells(table: pd.DataFrame) -> dict[tuple[str, str], str]:
    """``(method, prompt) -> "ARR %"`` strings as printed (one decimal), plus ``(method, "mean")``."""
    from ..report.summary import natural_key

    cells: dict[tuple[str, str], str] = {}
    for method, sub in table.groupby("method", sort=False):
        for row in sub.itertuples():
            cells[(str(method), str(row.prompt))] = _pct(row.arr)
        cells[(str(method), "mean")] = _pct(sub["arr"].mean())
    cells[("mean", "mean")] = _pct(table["arr"].mean())
    for prompt in sorted(set(table["prompt"]), key=natural_key):
        cells[("mean", str(prompt))] = _pct(table.loc[table["prompt"] == prompt, "arr"].mean())
    return cells


def _pct(value: Any) -> str:
    return "-" if value is None or value != value else f"{100.0 * float(value):.1f}"


def _print_table(table: pd.DataFrame, scorer: str, qwk: dict[str, float]) -> None:
    from rich.table import Table

    from ..report.summary import natural_key

    prompts = sorted({str(p) for p in table["prompt"]}, key=natural_key)
    cells = table_cells(table)
    from rich import box

    methods = [*dict.fromkeys(str(m) for m in table["method"]), "mean"]
    grid = Table(title=f"ARR % of {scorer} (share of bluffs given the minimum score); mean QWK on held-out answers "
                       f"{qwk.get('mean', float('nan')):.3f}", box=box.SIMPLE_HEAD, padding=(0, 1))  # fmt: skip
    for col in ["method", *prompts, "mean"]:
        grid.add_column(col, justify="left" if col == "method" else "right", no_wrap=True)
    for method in methods:
        grid.add_row(method, *[cells.get((method, p), "-") for p in [*prompts, "mean"]])
    needed = max(map(len, [*methods, "method"])) + sum(max(len(p), 5) + 3 for p in [*prompts, "mean"]) + 6
    if needed <= console.width:
        console.print(grid)
    else:  # never cut numbers off: a wide table overflows the terminal rather than losing digits
        from rich.console import Console

        Console(file=console.file, width=needed, color_system=console.color_system).print(grid)


def _print_explained(explained: list[dict[str, Any]], method: str) -> None:
    if not explained:
        console.print(f"No {method} bluff got more than the minimum score: nothing to explain.")
        return
    console.print(f"Most accepted {method} bluffs and the features that drove their score:")
    for e in explained:
        feats = ", ".join(f"{f} ({w:+.3f})" for f, w in e["features"]) or "(no positive feature present)"
        console.print(
            f"  prompt {e['prompt_id']} score {e['score']:g}/{e['max_score']:g}: {e['text'][:80]!r}", markup=False
        )
        console.print(f"      <- {feats}", markup=False)


def _scorer(name: str, params: dict[str, Any], model: Path | None, trusted: bool) -> Any:
    if model is None:
        from .._registry import scorers

        return scorers.create(name, **params)
    from ..scorers.persist import load

    return load(model, trusted=trusted)


def _folds(data: Any, split: str, seed: int) -> list[tuple[Any, Any]]:
    from .. import bluffs
    from ..errors import ConfigError

    if split == "fixed":
        return [bluffs.split_dataset(data, test_size=0.2, seed=seed)]
    if split == "cv":
        return bluffs.cv_splits(data, k=5, seed=seed)
    raise ConfigError(f"--split must be 'fixed' (one 80/20 split per prompt) or 'cv' (5 folds). Got {split!r}.")


def _run_fold(scorer: Any, train: Any, test: Any, opts: dict[str, Any]) -> tuple[Any, Any, Any, dict[str, float]]:
    """Fit (unless loaded), QWK on ``test``, generate and score bluffs: (records, bluffs, scores, qwk)."""
    import pandas as pd

    from .. import bluffs
    from ..generators._api import generate_bluffs

    if opts["model"] is None:
        scorer.fit(train)
    qwk = bluffs.heldout_qwk(scorer, test)
    made = generate_bluffs(train, opts["methods"], n=opts["n"], seed=opts["seed"], generic=opts["generic"],
                           extra_answers=opts["extra"])  # fmt: skip
    name, run_id = opts["scorer_name"], opts["run_id"]
    recs = bluffs.bluff_records(scorer, made, scorer_name=name, run_id=run_id, seed=opts["seed"])
    orig = bluffs.original_records(scorer, test, scorer_name=name, run_id=run_id, seed=opts["seed"])
    return pd.concat([recs, orig], ignore_index=True), made, recs["score"].to_numpy(), qwk


def _config(opts: dict[str, Any], dataset: str, split: str, qwk: list[dict[str, float]]) -> dict[str, Any]:
    from .. import __version__

    return {"schema_version": 1, "name": f"bluff {opts['scorer_name']} on {dataset}", "run_id": opts["run_id"],
            "command": "bluffcheck bluff", "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "versions": {"bluffcheck": __version__}, "dataset": dataset, "scorer": opts["scorer_name"],
            "model": str(opts["model"]) if opts["model"] else None, "split": split, "n": opts["n"], "seed": opts["seed"],
            "methods": [[m, {k: v for k, v in p.items() if k != "generic"}] for m, p in opts["methods"]],
            "qwk_heldout": qwk}  # fmt: skip


def bluff(
    scorer: Annotated[
        str, typer.Option("--scorer", "-s", help="Scorer registry name (see `bluffcheck list scorers`).")
    ],
    dataset: Annotated[str, typer.Option("--dataset", "-d", help="Dataset registry name, e.g. asap-sas.")],
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Dataset option key=value (repeatable).")
    ] = None,
    param: Annotated[
        list[str] | None, typer.Option("--param", "-p", help="Scorer parameter key=value (repeatable).")
    ] = None,
    methods: Annotated[
        str, typer.Option("--methods", "-m", help="'paper' (seed 000's 25) or names/labels, comma-separated.")
    ] = "paper",
    n: Annotated[int, typer.Option("--n", min=1, help="Bluffs per prompt and method.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the split, the generators and the bootstrap.")] = 0,
    split: Annotated[
        str, typer.Option("--split", help="'fixed': one stratified 80/20 split per prompt; 'cv': 5 folds.")
    ] = "fixed",
    out: Annotated[
        Path, typer.Option("--out", help="Run folder to write (render it with `bluffcheck report`).")
    ] = Path("runs/bluff"),
    model: Annotated[
        Path | None, typer.Option("--model", help="Load a scorer saved by `bluffcheck train` instead of training.")
    ] = None,
    trusted: Annotated[
        bool, typer.Option("--trusted", help="Allow --model files with types bluffcheck does not know.")
    ] = False,
    generic: Annotated[
        str, typer.Option("--generic", help="Generic corpus: auto, brown, bundled or a file path.")
    ] = "auto",
    unscored: Annotated[
        bool, typer.Option("--unscored", help="ASAP-SAS: add the unscored answers to prompt corpora.")
    ] = False,
    explain: Annotated[
        bool, typer.Option("--explain", help="Show the most accepted random-character bluffs and why.")
    ] = False,
    explain_method: Annotated[
        str, typer.Option("--explain-method", help="Method label whose bluffs --explain shows.")
    ] = "random-chars",
) -> None:
    """Generate bluffs (seed 000), score them with a trained scorer and print the ARR table."""
    import pandas as pd

    from .. import bluffs
    from .evaluate import load_dataset
    from .generate import _unscored, parse_methods

    data = load_dataset(dataset, parse_params(option))
    model_obj = _scorer(scorer, parse_params(param), model, trusted)
    opts = {"model": model, "n": n, "seed": seed, "generic": generic, "scorer_name": scorer,
            "methods": parse_methods("all" if methods == "paper" else methods),
            "extra": _unscored(data, None) if unscored else None,
            "run_id": f"bluff-{scorer}-{dataset}-{split}-s{seed}"}  # fmt: skip
    if model is not None:
        err_console.print(f"note: {model} may have been trained on the held-out answers; its QWK can be optimistic.")
    parts, qwks, last = [], [], None
    folds = _folds(data, split, seed)
    for k, (train, test) in enumerate(folds):
        fold_scorer = model_obj if model is not None else model_obj.clone()
        records, made, scores, qwk = _run_fold(fold_scorer, train, test, opts)
        if len(folds) > 1:  # each fold generates its own bluffs from its own training answers
            records["item_id"] = records["item_id"] + f"@fold{k}"
        parts.append(records)
        qwks.append(qwk)
        last = (fold_scorer, made, scores)
    records = pd.concat(parts, ignore_index=True)
    table = bluffs.arr_table(records, seed=seed)
    qwk_mean = {"mean": float(sum(q["mean"] for q in qwks) / len(qwks))}
    _print_table(table, scorer, qwk_mean)
    write_run(out, records, table, _config(opts, dataset, split, qwks))
    console.print(f"records, config.json, arr_table.csv and arr_figure1.png -> {out} (render: bluffcheck report {out})")
    if explain and last is not None:
        from ..errors import ConfigError

        try:
            found = bluffs.explain_accepted(last[0], last[1].items, last[2], method=explain_method)
        except ConfigError as exc:
            err_console.print(f"--explain: {exc}", markup=False)
            return
        _print_explained(found, explain_method)


def register(app: typer.Typer) -> None:
    """Add the ``bluff`` verb."""
    app.command("bluff")(bluff)

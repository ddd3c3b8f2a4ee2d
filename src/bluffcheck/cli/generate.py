"""``bluffcheck generate``: bluff answers for a dataset's prompts, written as ASAP-SAS TSV and JSONL."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated, Any

import typer

__all__ = ["load_dataset", "parse_methods", "register", "write_bluffs"]


def parse_methods(spec: str, params: dict[str, Any] | None = None) -> list[tuple[str, dict[str, Any]]]:
    """``"all"`` (the paper's 25), or comma-separated registry names or paper labels (``char-3gram-prompt``).

    ``params`` are added to every selected method that has such a parameter.
    """
    from .._registry import generators
    from ..generators._paper import PAPER_METHODS, method_label

    by_label = {method_label(name, p): (name, p) for name, p in PAPER_METHODS}
    chosen: list[tuple[str, dict[str, Any]]] = []
    for part in [s.strip() for s in spec.split(",") if s.strip()] or ["all"]:
        if part == "all":
            chosen += [(name, dict(p)) for name, p in PAPER_METHODS]
        elif part in by_label and part not in generators:
            name, p = by_label[part]
            chosen.append((name, dict(p)))
        else:
            _reject_bad_paper_label(part)
            generators.get(part)  # unknown names raise with "did you mean"
            chosen.append((part, {}))
    for name, p in chosen:
        fields = getattr(generators.get(name), "__dataclass_fields__", {})
        p.update({k: v for k, v in (params or {}).items() if k in fields})
    return chosen


def _reject_bad_paper_label(part: str) -> None:
    """``char-7gram-prompt`` looks like a paper label with an n the paper does not have: say so."""
    from ..errors import ConfigError

    match = re.fullmatch(r"(char|word)-(\d+)gram-(generic|prompt)", part)
    if match:
        raise ConfigError(f"Method {part!r}: n-gram methods take n in 1..5, got {match.group(2)}. "
                          f"Use {match.group(1)}-1gram-{match.group(3)} .. {match.group(1)}-5gram-{match.group(3)}, "
                          f"or '-m {match.group(1)}-ngrams -p n=N -p corpus={match.group(3)}'.")


def load_dataset(name: str, options: dict[str, Any]) -> Any:
    """A dataset by registry name: ``bluffcheck.datasets.load`` when it exists, else the registered loader."""
    from .. import datasets as package
    from .._registry import datasets
    from ..types import Dataset

    loader = getattr(package, "load", None)
    if callable(loader):
        return loader(name, **options)
    result = datasets.get(name)(**options)
    if not isinstance(result, Dataset) and callable(getattr(result, "load", None)):
        result = result.load()
    return result


def write_bluffs(bluffs: Any, out: Path) -> tuple[Path, Path]:
    """``bluffs.tsv`` (Kaggle ASAP-SAS training layout, scores 0) and ``bluffs.jsonl`` (text + provenance)."""
    out.mkdir(parents=True, exist_ok=True)
    tsv, jsonl = out / "bluffs.tsv", out / "bluffs.jsonl"
    with tsv.open("w", encoding="utf-8", newline="") as ft, jsonl.open("w", encoding="utf-8") as fj:
        ft.write("Id\tEssaySet\tScore1\tScore2\tEssayText\n")
        for row, it in enumerate(bluffs, 1):
            text = re.sub(r"[\t\r\n]", " ", it.text)  # the TSV has no quoting: no tabs or newlines inside a field
            ft.write(f"{row}\t{it.prompt_id}\t0\t0\t{text}\n")
            meta = dict(it.metadata)
            record = {"tsv_id": row, "id": it.id, "prompt_id": it.prompt_id, "text": it.text, **meta}
            fj.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
    return tsv, jsonl


def register(app: typer.Typer) -> None:
    """Add the ``generate`` command."""

    @app.command("generate")
    def generate(
        dataset: Annotated[str, typer.Option("--dataset", "-d", help="Dataset registry name, e.g. asap-sas.")],
        out: Annotated[Path, typer.Option("--out", help="Output folder (bluffs.tsv, bluffs.jsonl).")],
        option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Dataset option key=value.")] = None,
        methods: Annotated[
            str, typer.Option("--methods", "-m", help="'all' (the paper's 25) or names/labels.")
        ] = "all",
        param: Annotated[list[str] | None, typer.Option("--param", "-p", help="Generator parameter key=value.")] = None,
        n: Annotated[int, typer.Option("--n", help="Answers per prompt and method.")] = 1000,
        seed: Annotated[int, typer.Option("--seed", help="Master seed.")] = 0,
        prompt: Annotated[
            list[str] | None, typer.Option("--prompt", help="Prompt id (repeatable); default all.")
        ] = None,
        generic: Annotated[
            str, typer.Option("--generic", help="Generic corpus: auto, brown, bundled or a path.")
        ] = "auto",
        unscored: Annotated[
            bool, typer.Option("--unscored", help="ASAP-SAS: add unscored answers to corpora.")
        ] = False,
    ) -> None:
        """Generate bluff answers (seed 000 §2.2) for the prompts of a dataset; -o and -p repeat."""
        from ..generators._api import generate_bluffs
        from ._common import console, parse_params

        chosen = parse_methods(methods, parse_params(param))
        data = load_dataset(dataset, parse_params(option))
        extra = _unscored(data, prompt or None) if unscored else None
        bluffs = generate_bluffs(
            data, chosen, n=n, seed=seed, generic=generic, prompts=prompt or None, extra_answers=extra
        )
        tsv, jsonl = write_bluffs(bluffs, out)
        console.print(f"{len(bluffs)} bluff answers ({len(chosen)} methods) -> {tsv} and {jsonl}")


def _unscored(data: Any, prompts: list[str] | None) -> dict[str, list[str]]:
    """The unscored ASAP-SAS training answers per prompt (helper ``load("asap-sas", split="unscored-train")``)."""
    from ..datasets import load
    from ..errors import ConfigError

    if data.name != "asap-sas":
        raise ConfigError(f"--unscored adds unscored ASAP-SAS answers; the dataset is {data.name!r}. Drop --unscored.")
    texts = {it.text for it in data.items}  # count an answer present in both releases once
    extra: dict[str, list[str]] = {}
    for it in load("asap-sas", split="unscored-train"):
        if (prompts is None or it.prompt_id in prompts) and it.text not in texts:
            extra.setdefault(it.prompt_id, []).append(it.text)
    return extra

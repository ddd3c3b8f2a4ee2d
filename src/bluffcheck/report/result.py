"""The record schema shared by the run engine (writer) and the report (reader).

One *record* is one scored answer of one task. A run folder holds:

* ``store.sqlite``   the embedded store (records written as they complete; resumable)
* ``records.parquet`` / ``records.csv`` / ``records.jsonl``  exports of the same rows
* ``config.json``    the resolved suite configuration, package and component versions, data checksums, seeds
* ``report.html``    the self-contained report; ``summary.json`` / ``summary.md``

Columns (``RECORD_FIELDS``), all scalars so every export format holds them:

run_id, task_id           run and task identifiers (task_id is a stable hash of the task's config)
dataset, split, prompt_id where the answer's prompt comes from
scorer, scorer_fingerprint  registry name (or adapter name) and :attr:`Scorer.fingerprint`
kind                      "generator" | "perturbation" | "attack" | "original"
method, params            component registry name and its parameters as JSON
seed                      the integer seed of the task
item_id, text             the (adversarial) answer
source_id, source_text, source_score   the real answer it came from and the scorer's score for it (None for generators)
gold                      gold score of the source answer, when known
score                     the scorer's score (None unless status == "ok")
status                    "ok" | "error" | "timeout" | "nan"
error                     the error message when status != "ok"
attempts                  how many times the scorer was queried for this record
min_score, max_score      the prompt's score range
expectation               "min" | "lower" | "not-higher" | "same" (what a robust scorer should do)
component_version         version string of the method
elapsed_s                 seconds spent scoring this record's batch, per record
"""

from __future__ import annotations

SCHEMA_VERSION = 1

RECORD_FIELDS: tuple[str, ...] = (
    "run_id",
    "task_id",
    "dataset",
    "split",
    "prompt_id",
    "scorer",
    "scorer_fingerprint",
    "kind",
    "method",
    "params",
    "seed",
    "item_id",
    "text",
    "source_id",
    "source_text",
    "source_score",
    "gold",
    "score",
    "status",
    "error",
    "attempts",
    "min_score",
    "max_score",
    "expectation",
    "component_version",
    "elapsed_s",
)

STATUSES = ("ok", "error", "timeout", "nan")

"""A real JSON-lines scorer program for the ``command`` adapter tests (run with ``sys.executable``).

Scores an answer by its number of words. Options make it misbehave when a text contains a word:
``--crash-on W`` exits with code 3 (after a line on stderr), ``--crash-once-file F`` does that only
the first time (it creates F), ``--hang-on W`` sleeps, ``--nan-on W`` answers NaN, ``--error-on W``
answers an error, ``--bad-id-on W`` answers with another id. ``--die-at-start`` exits at once and
``--banner`` prints a line that is not JSON before the first answer.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time


def main() -> None:
    ap = argparse.ArgumentParser()
    for opt in ("--crash-on", "--crash-once-file", "--hang-on", "--nan-on", "--error-on", "--bad-id-on"):
        ap.add_argument(opt)
    ap.add_argument("--die-at-start", action="store_true")
    ap.add_argument("--banner", action="store_true")
    args = ap.parse_args()
    if args.die_at_start:
        print("fatal: cannot load model.bin", file=sys.stderr, flush=True)
        sys.exit(2)
    if args.banner:
        print("Loading model... done", flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        words = request["text"].split()
        print(json.dumps(answer(args, request, words)), flush=True)


def answer(args: argparse.Namespace, request: dict, words: list[str]) -> dict:
    if args.crash_on in words:
        once = args.crash_once_file
        if once is None or not os.path.exists(once):
            if once is not None:
                open(once, "w").close()
            print(f"Exception: cannot score {request['id']}", file=sys.stderr, flush=True)
            sys.exit(3)
    if args.hang_on in words:
        time.sleep(60)
    if args.nan_on in words:
        return {"id": request["id"], "score": float("nan")}
    if args.error_on in words:
        return {"id": request["id"], "error": "model refused this answer"}
    if args.bad_id_on in words:
        return {"id": "someone-else", "score": 1.0}
    return {"id": request["id"], "score": float(len(words))}


if __name__ == "__main__":
    main()

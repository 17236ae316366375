"""Held-out answers judged as a candidate's are: verdicts, names and time.

    python tools/heldout.py DIR [DIR ...] [--jobs 1]

Each DIR holds answers to one exercise written from its README and starter
alone, outside this repository: ``right*.py`` (must pass), ``wrong_*.py``
(one mistake each) and ``pair_*.py`` (two each), and a ``manifest.json``
that describes each file's mistakes in words.  Every file is checked as a
candidate checks it (``python -m kata check FILE --all --json CARD``, the
module in a process of its own); the card, the output and the seconds on
the clock are kept beside the file (``FILE.card.json``, ``FILE.out``), and
``results.json`` lists, per file, the exit code, the failed points and the
mistakes named with their titles, for a reader to set against the manifest.

Whether a name is the file's own mistake is a judgement of words against
words, so it is not made here: ``results.json`` is what that judgement reads.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def judge(answer: Path) -> dict[str, object]:
    """One candidate's check of `answer`: exit code, seconds, failed points, names."""
    card = answer.with_name(answer.name + ".card.json")
    card.unlink(missing_ok=True)
    command = [sys.executable, "-m", "kata", "check", str(answer), "--all", "--json", str(card)]
    started = time.perf_counter()
    run = subprocess.run(command, cwd=answer.parent, capture_output=True, text=True, check=False)
    seconds = round(time.perf_counter() - started, 1)
    answer.with_name(answer.name + ".out").write_text(run.stdout + run.stderr)
    found = json.loads(card.read_text()) if card.exists() else {}
    points = found.get("points", {})
    return {
        "exit": run.returncode,
        "seconds": seconds,
        "failed": sorted(p for p, v in points.items() if v.get("result") in ("failed", "partial")),
        "named": {m["id"]: m["title"] for m in found.get("mistakes", [])},
    }


def examine(folder: Path, jobs: int) -> None:
    """Judge every answer in `folder`; write results.json; print one line each."""
    manifest = json.loads((folder / "manifest.json").read_text())
    answers = sorted(folder.glob("right*.py")) + sorted(folder.glob("wrong_*.py"))
    answers += sorted(folder.glob("pair_*.py"))
    with ThreadPoolExecutor(jobs) as pool:
        judged = dict(zip(answers, pool.map(judge, answers), strict=True))
    results = {}
    for answer, verdict in judged.items():
        results[answer.name] = {**verdict, "intended": manifest.get(answer.name, {})}
        names = ", ".join(verdict["named"]) or "-"  # type: ignore[arg-type]
        print(f"{answer.name:14} exit {verdict['exit']} {verdict['seconds']:6}s  {names}")
    (folder / "results.json").write_text(json.dumps(results, indent=1) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path, metavar="DIR")
    parser.add_argument("--jobs", type=int, default=1, help="answers judged at once")
    args = parser.parse_args()
    for folder in args.folders:
        print(f"# {folder}")
        examine(folder.resolve(), args.jobs)


if __name__ == "__main__":
    main()

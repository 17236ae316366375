"""Cost verdicts under load: the same verdict, run after run, whatever runs beside them.

    python tools/cost_verdicts.py [--rounds 20] [--load 2] [--points P ...] [--workdir DIR]

Runs the kata's cost points (every rubric point marked costly) on every
gallery mistake that fails one of them, on every right answer and on the
reference (`--points` narrows them: the timed ones are `monitor_cost` and
`credits_scaling`), `--rounds` times each, with `--load` CPU-bound processes spinning
beside them the whole time.  A cost mistake must fail its point every time;
a right answer must pass every cost point it attempts every time.  Prints
each module's verdicts and the count of verdicts that differed from the
expected one; exits 1 if any did.

Each run is a candidate's run (`--impl`, the module judged in a process of
its own), so the figures are the ones a candidate's verdict rests on.  Slow
by nature (about a minute a round on two cores): not part of CI.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kata.exercises import POINTS  # noqa: E402 (after the path is set)
from tests.support.subprocess_kata import run_kata  # noqa: E402

COSTLY = sorted(point for point, (_, kind) in POINTS.items() if kind.costly)


def cases(points: list[str]) -> list[tuple[str, str | None]]:
    """(module, the cost point it must fail, or None: it must pass every one)."""
    wrong = []
    for path in sorted(ROOT.glob("gallery/*/wrong_*.py")):
        declared = re.search(r'^FAILS = "(\w+)"$', path.read_text(), re.MULTILINE)
        if declared and declared.group(1) in points:
            wrong.append((str(path.relative_to(ROOT)), declared.group(1)))
    costly = {POINTS[point][0].name for point in points}  # the exercises with a cost point
    right = [
        (str(path.relative_to(ROOT)), None)
        for path in sorted(ROOT.glob("gallery/*/right_*.py"))
        if path.parent.name in costly
    ]
    return [("reference", None), *right, *wrong]


def verdicts(module: str, points: list[str], workdir: Path) -> dict[str, str]:
    """Each cost point's result for `module`, from one run of the kata."""
    card = workdir / (module.replace("/", "_") + ".json")
    card.unlink(missing_ok=True)
    run_kata(
        "--impl", module, "-m", " or ".join(points), "--rubric-json", str(card),
        profile="examples",
    )  # fmt: skip
    if not card.exists():
        return {"(run)": "no scorecard"}
    scores = json.loads(card.read_text())["points"]
    return {p: s["result"] for p, s in scores.items() if p in points}


def expected(results: dict[str, str], fails: str | None) -> bool:
    if fails is not None:
        return results.get(fails) == "failed"
    return bool(results) and all(r in ("passed", "not attempted") for r in results.values())


def spin() -> None:
    while True:
        pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--load", type=int, default=2, help="CPU-bound processes beside")
    parser.add_argument("--points", nargs="+", choices=COSTLY, default=COSTLY)
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args()
    checked = cases(args.points)
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="cost-verdicts-"))
    workdir.mkdir(parents=True, exist_ok=True)
    spinners = [multiprocessing.Process(target=spin, daemon=True) for _ in range(args.load)]
    for spinner in spinners:
        spinner.start()
    tally: dict[str, Counter[bool]] = {module: Counter() for module, _ in checked}
    try:
        for round_ in range(1, args.rounds + 1):
            for module, fails in checked:
                results = verdicts(module, args.points, workdir)
                tally[module][expected(results, fails)] += 1
                if not expected(results, fails):
                    print(f"round {round_}: {module} changed its verdict: {results}", flush=True)
            print(f"round {round_} of {args.rounds} done", flush=True)
    finally:
        for spinner in spinners:
            spinner.terminate()
    changed = sum(counts[False] for counts in tally.values())
    for module, fails in checked:
        want = f"fails {fails}" if fails else "passes every cost point"
        print(f"{module:60} {want:28} {tally[module][True]:3} as expected, "
              f"{tally[module][False]} changed")  # fmt: skip
    print(f"{changed} verdicts changed in {args.rounds} rounds at load {args.load}")
    return 1 if changed else 0


if __name__ == "__main__":
    raise SystemExit(main())

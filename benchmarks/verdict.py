"""Time to verdict: how long a candidate waits for the kata's scorecard, measured.

    python3 benchmarks/verdict.py                  # every exercise: right, starter, gallery sample
    python3 benchmarks/verdict.py --gallery all    # every gallery answer (about half an hour)
    python3 benchmarks/verdict.py --against ../old # beside another checkout's, exercise by exercise
    python3 benchmarks/verdict.py --smoke          # one exercise's reference, for CI

Each verdict is a fresh ``python -m pytest --impl FILE --rubric`` on the
exercise's tests, as a candidate runs it: the module judged in a process of
its own, hypothesis deterministic.  Measured on the clock (what the
candidate waits), so the machine must be quiet; a verdict's content never
depends on it.  Printed per exercise: the reference's verdict (a right
answer), the untouched starter's (nothing attempted), the median of the
gallery's answers (most are wrong, each naming its mistake), the ratio of
that median to the right answer's, and each step's tests alone on the
reference (what `python -m kata check` costs while a step is being written).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))

from kata.exercises import EXERCISES  # noqa: E402 (after the path it needs)


def verdict(root: Path, exercise: str, module: str, *marks: str) -> float:
    """Seconds from the command to the scorecard (the exit status is the verdict's)."""
    command = [sys.executable, "-m", "pytest", "-c", str(root / "pyproject.toml"), "-q"]
    command += ["-p", "no:cacheprovider", f"--impl={module}", "--rubric", f"tests/{exercise}"]
    if marks:
        command += ["-m", " or ".join(marks)]
    begun = time.perf_counter()
    subprocess.run(command, cwd=root, capture_output=True, check=False)
    return time.perf_counter() - begun


def sample(gallery: Path, count: str) -> list[Path]:
    """The gallery's answers, or `count` of them spread evenly (first, middle, last, ...)."""
    answers = sorted(gallery.glob("*.py"))
    if count == "all" or len(answers) <= int(count):
        return answers
    step = (len(answers) - 1) / max(int(count) - 1, 1)
    return [answers[round(i * step)] for i in range(int(count))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--root", type=Path, default=HERE, help="the checkout whose suite runs")
    parser.add_argument(
        "--against", type=Path, help="another checkout, measured beside it, exercise by exercise"
    )
    parser.add_argument("--gallery", default="3", help="answers per exercise, or 'all'")
    parser.add_argument("--exercise", action="append", choices=EXERCISES, help="only these")
    parser.add_argument("--no-steps", action="store_true", help="skip the steps' timings")
    parser.add_argument("--smoke", action="store_true", help="one reference verdict, for CI")
    arguments = parser.parse_args()
    root = arguments.root.resolve()
    if arguments.smoke:
        seconds = verdict(root, "diagnosis", EXERCISES["diagnosis"].reference)
        print(f"diagnosis, the reference: {seconds:.1f} s")
        return
    roots = [root] + ([arguments.against.resolve()] if arguments.against else [])
    print(
        f"{'exercise':<10} {'checkout':<9} {'right':>7} {'starter':>8} {'gallery':>8} {'ratio':>6}"
    )
    for name in arguments.exercise or list(EXERCISES):
        exercise = EXERCISES[name]
        for which, checkout in zip(("this", "against"), roots, strict=False):
            if not (checkout / "tests" / name).is_dir():
                print(f"{name:<10} {which:<9} (no such exercise there)")
                continue
            right = verdict(checkout, name, exercise.reference)
            starter = verdict(checkout, name, str(checkout / "starters" / f"{name}.py"))
            answers = [
                verdict(checkout, name, str(path))
                for path in sample(checkout / "gallery" / name, arguments.gallery)
            ]
            middle = statistics.median(answers)
            print(
                f"{name:<10} {which:<9} {right:>7.1f} {starter:>8.1f} {middle:>8.1f} "
                f"{middle / right:>6.2f}  (gallery: {len(answers)}, "
                f"{min(answers):.1f}-{max(answers):.1f} s)",
                flush=True,
            )
        if arguments.no_steps:
            continue
        from kata.plan import plan

        for step in plan(name).steps:
            if not step.interview:
                seconds = verdict(root, name, exercise.reference, *step.points)
                print(f"{'':<10} step {step.number} {step.name}: {seconds:.1f} s", flush=True)


if __name__ == "__main__":
    main()

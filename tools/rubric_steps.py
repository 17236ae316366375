"""RUBRIC.md's step tables, written from the plans (kata/steps/*.toml), never by hand.

    python tools/rubric_steps.py           # exit 1 and say which table differs
    python tools/rubric_steps.py --write   # write them

Each table sits between ``<!-- plan: EXERCISE -->`` and ``<!-- /plan -->``
in its exercise's section, and a follow-up ladder between ``<!-- ladder:
EXERCISE -->`` and ``<!-- /ladder -->``; tests/reference/test_plans.py fails
when one differs from its plan.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kata.exercises import EXERCISES  # noqa: E402 (after the path it needs)
from kata.plan import ladder, markdown, plan  # noqa: E402

RUBRIC = ROOT / "RUBRIC.md"
BLOCK = re.compile(r"<!-- (plan|ladder): (\w+) -->\n.*?<!-- /\1 -->", re.S)


def block(kind: str, exercise: str) -> str:
    shown = markdown(plan(exercise)) if kind == "plan" else ladder(plan(exercise))
    return f"<!-- {kind}: {exercise} -->\n{shown}\n<!-- /{kind} -->"


def written(text: str) -> str:
    """`text` with every plan table and ladder as its plan says."""
    return BLOCK.sub(lambda found: block(found.group(1), found.group(2)), text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--write", action="store_true", help="write RUBRIC.md's tables")
    arguments = parser.parse_args()
    text = RUBRIC.read_text()
    missing = [name for name in EXERCISES if f"<!-- plan: {name} -->" not in text]
    if missing:
        print(f"RUBRIC.md has no table for {', '.join(missing)}", file=sys.stderr)
        return 1
    if arguments.write:
        RUBRIC.write_text(written(text))
        return 0
    if written(text) != text:
        print("RUBRIC.md's step tables differ from kata/steps: run with --write", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

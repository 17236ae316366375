"""RUBRIC.md's cards, step tables, ladders and contents, written from the plans, never by hand.

    python tools/rubric_steps.py           # exit 1 and say which block differs
    python tools/rubric_steps.py --write   # write them

Each exercise's interview card sits between ``<!-- card: EXERCISE -->`` and
``<!-- /card -->`` at the top of its section, its step table between
``<!-- plan: EXERCISE -->`` and ``<!-- /plan -->``, and a follow-up ladder
between ``<!-- ladder: EXERCISE -->`` and ``<!-- /ladder -->``: each is
written from ``kata/steps/EXERCISE.toml``.  The contents, between
``<!-- contents -->`` and ``<!-- /contents -->``, list every ``## `` heading
in order, with the card each section holds.  tests/reference/test_plans.py
fails when a block differs from what this writes.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kata.card import anchor, card  # noqa: E402 (after the path it needs)
from kata.exercises import EXERCISES  # noqa: E402
from kata.plan import ladder, markdown, plan  # noqa: E402
from tools.contents import sections  # noqa: E402

RUBRIC = ROOT / "RUBRIC.md"
BLOCK = re.compile(r"<!-- (plan|ladder|card): (\w+) -->\n.*?<!-- /\1 -->", re.S)
CONTENTS = re.compile(r"<!-- contents -->\n.*?<!-- /contents -->", re.S)
RENDER = {"plan": markdown, "ladder": ladder, "card": card}


def block(kind: str, exercise: str) -> str:
    return f"<!-- {kind}: {exercise} -->\n{RENDER[kind](plan(exercise))}\n<!-- /{kind} -->"


def headings(text: str) -> list[tuple[str, str, str]]:
    """Each ``## `` heading outside code blocks: (title, anchor, the card its section holds)."""
    found = []
    for title, link, body in sections(text):
        cards = re.findall(r"<!-- card: (\w+) -->", body)
        found.append((title, link, cards[0] if cards else ""))
    return found


def contents(text: str) -> str:
    """The contents: a link to each section, in order, and to the card it holds."""
    lines = [
        "<!-- contents -->",
        "**Contents.** Each exercise's section opens with its interview card: everything a "
        "session needs, on a page.",
        "",
    ]
    for title, link, exercise in headings(text):
        card_link = f" · [interview card: {exercise}](#{anchor(exercise)})" if exercise else ""
        lines.append(f"- [{title}](#{link}){card_link}")
    lines.append("<!-- /contents -->")
    return "\n".join(lines)


def written(text: str) -> str:
    """`text` with every card, plan table, ladder and the contents as the plans say."""
    blocks = BLOCK.sub(lambda found: block(found.group(1), found.group(2)), text)
    return CONTENTS.sub(lambda _: contents(blocks), blocks)


def missing(text: str) -> list[str]:
    """The blocks RUBRIC.md must hold and does not: each exercise's table and card."""
    wanted = [f"<!-- {kind}: {name} -->" for name in EXERCISES for kind in ("plan", "card")]
    return [marker for marker in [*wanted, "<!-- contents -->"] if marker not in text]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--write", action="store_true", help="write RUBRIC.md's blocks")
    arguments = parser.parse_args()
    text = RUBRIC.read_text()
    absent = missing(text)
    if absent:
        print(f"RUBRIC.md has no {', '.join(absent)}", file=sys.stderr)
        return 1
    if arguments.write:
        RUBRIC.write_text(written(text))
        return 0
    if written(text) != text:
        print("RUBRIC.md's generated blocks differ from kata/steps: --write them", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The contents lists of the long pages, written from their headings, never by hand.

    python -m tools.contents           # exit 1 and say which page's list differs
    python -m tools.contents --write   # write them

A list sits between ``<!-- contents -->`` and ``<!-- /contents -->``: one
link per ``## `` heading, in order, each to the anchor a Markdown renderer
gives it (GitHub's rule: lower case, punctuation dropped, spaces to
hyphens).  tests/reference/test_docs.py fails when a list differs.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = ("WRITEUP.md",)  # RUBRIC.md's list also links its cards: tools/rubric_steps.py
BLOCK = re.compile(r"(<!-- contents -->\n).*?(<!-- /contents -->)", re.S)


def sections(text: str) -> list[tuple[str, str, str]]:
    """Each ``## `` heading outside fenced code: (its title, its anchor, its section's text).

    An anchor is the one a renderer gives the heading (GitHub's rule: lower
    case, punctuation dropped, spaces to hyphens; a repeated one gets -1, -2...).
    """
    found: list[tuple[str, list[str]]] = []
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if not fenced and line.startswith("## "):
            found.append((line.removeprefix("## ").strip(), []))
        elif found:
            found[-1][1].append(line)
    taken: dict[str, int] = {}
    return [(title, _anchor(title, taken), "\n".join(body)) for title, body in found]


def _anchor(heading: str, taken: dict[str, int]) -> str:
    slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
    seen = taken.get(slug, 0)
    taken[slug] = seen + 1
    return f"{slug}-{seen}" if seen else slug


def contents(text: str) -> str:
    return "".join(f"- [{title.replace('`', '')}](#{link})\n" for title, link, _ in sections(text))


def rewritten(text: str) -> str:
    """`text` with its contents list as its headings give it."""
    return BLOCK.sub(lambda m: m.group(1) + contents(text) + m.group(2), text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the lists")
    arguments = parser.parse_args(argv)
    stale = []
    for page in PAGES:
        path = ROOT / page
        text = path.read_text()
        if BLOCK.search(text) is None:
            continue
        if rewritten(text) != text:
            stale.append(page)
            if arguments.write:
                path.write_text(rewritten(text))
    if stale and not arguments.write:
        print(
            f"{', '.join(stale)}: contents differ from the headings; "
            "python -m tools.contents --write"
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

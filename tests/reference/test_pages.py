"""README.md and the pages behind it (docs/): every link lands, every table renders, and
what a page shows a command printing is what it prints."""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.reference

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def headings(page: Path) -> set[str]:
    """The anchors a Markdown renderer gives the page's headings (GitHub's rule)."""
    found, fenced = set(), False
    for line in page.read_text().splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            found.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_lands_on_a_file_and_a_heading(page: Path) -> None:
    """A section moved to a page of its own leaves no link behind pointing at nothing."""
    dead = []
    for target in LINK.findall(page.read_text()):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:: not this project's to check
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists() or (anchor and file.suffix == ".md" and anchor not in headings(file)):
            dead.append(target)
    assert not dead, f"{page.relative_to(ROOT)} links to what is not there: {dead}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_table_has_a_header(page: Path) -> None:
    """A blank line inside a table splits it, and the second part renders as text."""
    lines = page.read_text().splitlines()
    for number, (before, line) in enumerate(itertools.pairwise(["", *lines]), start=1):
        if line.startswith("|") and not before.startswith("|"):
            following = lines[number] if number < len(lines) else ""
            assert set(following) <= set("|-: "), f"{page.name}:{number}: a row with no header"


def test_the_command_line_page_shows_the_demo_as_it_prints() -> None:
    """docs/command-line.md shows the demo's whole screen, the timeline's legend included."""
    page = (ROOT / "docs" / "command-line.md").read_text()
    shown = re.search(r"```text\n(A simulated job:.*?)```", page, re.S)
    assert shown, "docs/command-line.md shows no demo"
    printed = subprocess.run(
        [sys.executable, "-m", "solution", "demo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    assert shown.group(1) == printed, "run: python3 -m solution demo, and paste its output"

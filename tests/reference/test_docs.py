"""The docs name only tests and files that exist: RUBRIC.md and WRITEUP.md cannot drift."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from kata.exercises import POINTS

pytestmark = pytest.mark.reference

ROOT = Path(__file__).resolve().parents[2]
RUBRIC = (ROOT / "RUBRIC.md").read_text()
WRITEUP = (ROOT / "WRITEUP.md").read_text()
TEST_SOURCES = "\n".join(path.read_text() for path in (ROOT / "tests").rglob("test_*.py"))


def test_every_test_named_in_the_rubric_exists() -> None:
    named = re.findall(r"`(test_\w+\.py)(?:::(test_\w+))?`", RUBRIC)
    assert named
    for filename, function in named:
        files = list((ROOT / "tests").rglob(filename))
        assert files, f"RUBRIC.md names {filename}, which does not exist"
        if function:
            assert any(f"def {function}(" in f.read_text() for f in files), function


def test_every_test_function_named_in_the_writeup_exists() -> None:
    named = set(re.findall(r"`(test_\w+)`", WRITEUP))
    assert named
    for function in named:
        assert f"def {function}(" in TEST_SOURCES, f"WRITEUP.md names {function}, which is no test"


def test_every_wrong_answer_in_the_gallery_is_in_the_rubric_table() -> None:
    for module in ROOT.glob("gallery/*/wrong_*.py"):
        assert f"`{module.name}`" in RUBRIC, f"RUBRIC.md does not list {module.name}"


def test_every_rubric_point_is_explained() -> None:
    for point in POINTS:
        assert f"### {point} " in RUBRIC, f"RUBRIC.md does not explain {point}"


def test_ci_runs_the_readme_test_command_word_for_word() -> None:
    """The gate and the README cannot drift apart: CI runs what a reader is told to run."""
    readme = (ROOT / "README.md").read_text()
    command = re.search(r"```sh\n(python3 -m venv .*)\n```", readme)
    assert command, "README.md has no test command in a sh block"
    assert command.group(1) in (ROOT / ".ci" / "run").read_text()


@pytest.mark.parametrize("page", ["README.md", "RUBRIC.md", "WRITEUP.md"])
def test_every_table_in_the_docs_has_a_header(page: str) -> None:
    """A blank line inside a table splits it, and the second part renders as text."""
    lines = (ROOT / page).read_text().splitlines()
    for number, (before, line) in enumerate(itertools.pairwise(["", *lines]), start=1):
        if line.startswith("|") and not before.startswith("|"):
            following = lines[number] if number < len(lines) else ""
            assert set(following) <= set("|-: "), f"{page}:{number}: a table row with no header"


def test_the_writeups_contents_list_its_headings() -> None:
    """A section added, renamed or moved shows in the contents, or this fails."""
    from tools.contents import rewritten

    assert rewritten(WRITEUP) == WRITEUP, "run: python -m tools.contents --write"


def test_the_writeups_links_to_its_own_sections_resolve() -> None:
    """A reading path or a cross-reference to a section that was renamed is a dead link."""
    from tools.contents import sections

    anchors = {link for _, link, _ in sections(WRITEUP)}
    dead = sorted(set(re.findall(r"\]\(#([\w-]+)\)", WRITEUP)) - anchors)
    assert not dead, f"WRITEUP.md links to sections it does not have: {dead}"

"""CHANGELOG.md holds every contract revision and the kata's version the scorecards record."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from kata.exercises import EXERCISES, ROOT
from kata.version import UNKNOWN, version

pytestmark = pytest.mark.reference

CHANGELOG = ROOT / "CHANGELOG.md"


def _section(heading: str) -> str:
    text = CHANGELOG.read_text()
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def test_each_contract_revision_has_its_entry_with_a_date() -> None:
    contracts = _section("Contracts")
    for name, exercise in EXERCISES.items():
        heading = f"\n### {name} ({exercise.contract})\n"
        assert heading in contracts, f"CHANGELOG.md has no {heading.strip()!r}"
        entries = contracts.split(heading)[1].split("\n### ")[0]
        found = re.findall(r"^- \*\*Revision (\d+)\*\* \((\d{4}-\d\d-\d\d)\b", entries, re.M)
        numbers = [int(number) for number, _ in found]
        assert numbers == list(range(exercise.revision, 0, -1)), (
            f"{name} is at revision {exercise.revision}: CHANGELOG.md lists {numbers}, newest first"
        )
        dates = [date for _, date in found]
        assert dates == sorted(dates, reverse=True), f"{name}: dates out of order: {dates}"


def test_the_kata_version_is_pyprojects_and_has_its_entry() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert version() == declared
    assert re.search(
        rf"^### {re.escape(declared)} \(\d{{4}}-\d\d-\d\d\)$", _section("The kata"), re.M
    )


def test_outside_a_clone_the_version_is_the_installed_metadata(tmp_path: Path) -> None:
    try:
        installed = metadata.version("heartbeat-kata")
    except metadata.PackageNotFoundError:
        installed = UNKNOWN
    assert version(tmp_path) == installed


def test_a_revision_is_an_int_from_1() -> None:
    for wrong in (0, -1, True, 2.0, "3"):
        changes: dict[str, Any] = {"revision": wrong}
        with pytest.raises(ValueError, match="revision"):
            dataclasses.replace(EXERCISES["detector"], **changes)

"""The scorecard an interviewer keeps: the page, and what every scorecard records.

One real run of a known mistake (a fast one: the detector's inclusive
boundary) writes the text, the JSON and the page; the tests read them.  The
clock is fixed (SOURCE_DATE_EPOCH), so the page says when exactly.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import tomllib
from dataclasses import dataclass
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from kata import page
from kata.exercises import EXERCISES, ROOT
from kata.impl import Kata
from kata.scorecard import Scorecard, system_clock
from kata.version import version
from tests.support.subprocess_kata import run_kata, run_kata_command

pytestmark = pytest.mark.reference

MISTAKE = "gallery/detector/wrong_inclusive_boundary.py"
FIXED = "1764633600"  # SOURCE_DATE_EPOCH: 2025-12-02 00:00:00 UTC
FIXED_ISO = "2025-12-02T00:00:00+00:00"
SCRIPT = "<script>alert(1)</script>"


@dataclass(frozen=True)
class Judged:
    stdout: str
    card: dict[str, Any]
    html: str


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> Judged:
    folder = tmp_path_factory.mktemp("card")
    card, html = folder / "card.json", folder / "card.html"
    result = run_kata(
        "--impl", MISTAKE, "--rubric", f"--rubric-json={card}", f"--rubric-page={html}",
        env={"SOURCE_DATE_EPOCH": FIXED},
    )  # fmt: skip
    assert result.returncode == 1, result.stdout[-2000:] + result.stderr[-2000:]
    return Judged(result.stdout, json.loads(card.read_text()), html.read_text())


def test_the_page_names_the_mistake_and_its_witness(judged: Judged) -> None:
    mistake = judged.card["mistakes"][0]
    assert mistake["id"] == "detector/inclusive_boundary"
    assert mistake["meaning"].startswith("With timeout = k * interval")
    witness = mistake["witness_failure"]
    assert witness.startswith("detect([Heartbeat(0, 3, 3)], world_size=1, start=0, now=8")
    assert "expected: []" in witness
    assert "got: [Stopped(rank=0, last_heard=3, silence=5)]" in witness
    text = judged.html
    assert "<h3>detector/inclusive_boundary: `&gt;=` at the boundary reports" in text
    assert "With timeout = k * interval" in text
    assert f"Witness: {mistake['witness']}" in text
    assert "       got: [Stopped(rank=0, last_heard=3, silence=5)]" in text  # as the test said it
    row = re.search(r"<tr><td class=\"failed\">failed</td><td>boundary</td>.*?</tr>", text)
    assert row is not None
    assert "mistake detector/inclusive_boundary" in row.group()
    assert "explained by detector/inclusive_boundary (see boundary)" in text


def test_every_scorecard_records_the_version_and_the_revisions(judged: Judged) -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert version() == pyproject
    revision = EXERCISES["detector"].revision
    assert f"heartbeat-kata {pyproject}; contracts: detector revision {revision}" in judged.stdout
    assert judged.card["kata_version"] == pyproject
    assert judged.card["contracts"] == {
        name: {"file": e.contract, "revision": e.revision} for name, e in EXERCISES.items()
    }
    assert f"heartbeat-kata {pyproject}" in judged.html
    assert f"detector: README.md, revision {revision}" in judged.html


def test_the_card_says_what_was_judged_when_and_how_long_each_point_took(judged: Judged) -> None:
    digest = hashlib.sha256((ROOT / MISTAKE).read_bytes()).hexdigest()
    assert judged.card["files"] == [{"path": str((ROOT / MISTAKE).resolve()), "sha256": digest}]
    assert judged.card["judged_at"] == FIXED_ISO
    tested = {n: p for n, p in judged.card["points"].items() if "seconds" in p}
    assert set(tested) == {p.name for p in EXERCISES["detector"].points if p.scored_by == "tests"}
    assert all(p["seconds"] >= 0 for p in tested.values())
    assert sum(p["seconds"] for p in tested.values()) == pytest.approx(
        judged.card["seconds"], abs=0.01
    )
    assert f"SHA-256 {digest}" in judged.html
    assert FIXED_ISO in judged.html
    boundary = f"<td>{tested['boundary']['seconds']:.2f}</td>"
    assert boundary in judged.html


def test_the_page_is_the_json_rendered_and_a_document_of_its_own(judged: Judged) -> None:
    assert page.render_html(judged.card) == judged.html  # one source
    assert re.search(r"<(script|link|img|iframe)\b|https?://|\bsrc=", judged.html) is None
    checked = _Balanced()
    checked.feed(judged.html)
    assert checked.open == [], checked.open
    assert "@media print" in judged.html


def test_the_markdown_page(judged: Judged, tmp_path: Path) -> None:
    path = tmp_path / "card.md"
    page.write(path, judged.card)
    text = path.read_text()
    assert text.startswith(f"# Rubric scorecard: {MISTAKE.replace('_', chr(92) + '_')}")
    assert "| failed | boundary | The exact boundary" in text  # one exercise: no column for it
    assert "### detector/inclusive\\_boundary: \\`&gt;=\\` at the boundary" in text
    assert "```\ndetect([Heartbeat(0, 3, 3)], world_size=1, start=0, now=8, timeout=5)\n" in text
    assert f"- **Kata**: heartbeat-kata {version()}" in text
    assert f"revision {EXERCISES['detector'].revision}" in text
    assert f"- **Judged at**: {FIXED_ISO}" in text


def test_a_candidates_names_and_answers_are_escaped(tmp_path: Path) -> None:
    """A module named, and answering, with markup: the page shows it, never runs it."""
    module = tmp_path / "x<script>y.py"
    module.write_text(
        f"def detect(heartbeats, *, world_size, start, now, timeout):\n    return [{SCRIPT!r}]\n"
    )
    card, html = tmp_path / "card.json", tmp_path / "card.html"
    run_kata(
        f"--impl={module}", f"--rubric-json={card}", f"--rubric-page={html}",
        "-k", "test_rank_exactly_timeout_late_is_not_reported",
    )  # fmt: skip
    data, text = json.loads(card.read_text()), html.read_text()
    assert SCRIPT in data["points"]["boundary"]["unexplained"]["failure"]
    assert "<script" not in text.lower()
    assert "x&lt;script&gt;y.py" in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    data["mistakes"] = [
        {"id": SCRIPT, "title": SCRIPT, "meaning": SCRIPT, "point": "boundary",
         "failed_tests": 1, "witness": SCRIPT, "witness_failure": SCRIPT},
    ]  # fmt: skip
    data["limits"] = [
        {"kind": SCRIPT, "count": 1, "test": SCRIPT, "question": SCRIPT, "detail": SCRIPT}
    ]
    assert "<script" not in page.render_html(data).lower()
    markdown = page.render_markdown(data)
    outside_code = re.sub(r"^(`{3,})\n.*?\n\1$", "", markdown, flags=re.S | re.M)
    assert "<script" not in outside_code.lower()
    assert "&lt;script&gt;" in outside_code


def test_kata_check_writes_the_page_with_the_hints_taken(tmp_path: Path) -> None:
    assert _kata(tmp_path, "start", "detector").returncode == 0
    shutil.copyfile(ROOT / MISTAKE, tmp_path / "my_detector.py")
    assert _kata(tmp_path, "hint").returncode == 0
    result = _kata(tmp_path, "check", "--page", "card.html")
    assert result.returncode == 1, result.stdout[-2000:] + result.stderr[-2000:]
    text = (tmp_path / "card.html").read_text()
    assert "<h3>detector/inclusive_boundary:" in text
    assert "detector, step 1 (compare): hint 1 of 3 (a question): its points capped at strong" in (
        text
    )
    assert f"heartbeat-kata {version()}" in text
    assert FIXED_ISO in text
    assert "my_detector.py" in text
    refused = _kata(tmp_path, "check", "--page", "no/such/folder/card.html")
    assert refused.returncode == 2
    assert "does not exist" in refused.stderr


def test_a_module_that_does_not_load_still_gets_its_page(tmp_path: Path) -> None:
    broken, markdown = tmp_path / "broken.py", tmp_path / "card.md"
    broken.write_text("def detect(:\n")
    run_kata(f"--impl={broken}", f"--rubric-page={markdown}", env={"SOURCE_DATE_EPOCH": FIXED})
    text = markdown.read_text()
    assert "- **Not loaded**: cannot import" in text
    assert hashlib.sha256(broken.read_bytes()).hexdigest() in text
    assert f"- **Kata**: heartbeat-kata {version()}" in text


def test_the_clock_is_injected(monkeypatch: pytest.MonkeyPatch) -> None:
    fixed = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)
    nothing = Kata("nothing.py", {}, (), kata_mode=True)
    card = Scorecard(nothing, print_card=False, json_path=None, clock=lambda: fixed).card()
    assert card["judged_at"] == "2025-01-02T03:04:05+00:00"
    assert "2025-01-02T03:04:05+00:00" in page.render_html(card)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", FIXED)
    assert system_clock().isoformat() == FIXED_ISO
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    assert system_clock().utcoffset() is not None  # the local time, with its offset


def _kata(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The kata as a candidate runs it, with the clock fixed."""
    return run_kata_command(folder, *args, env={"SOURCE_DATE_EPOCH": FIXED})


class _Balanced(HTMLParser):
    """Every element the page opens, it closes (void elements aside)."""

    VOID = frozenset({"meta", "br", "hr"})

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open, tag
        assert self.open[-1] == tag, (tag, self.open)
        self.open.pop()

"""Every gallery answer judged by the page and by the command line: do the verdicts agree?

    python tools/web_parity.py [--exercise NAME ...] [--limit N] [--site DIR] [--json PATH]

For each exercise (all by default): the untouched starter, the reference and every
module of its gallery (right answers and known mistakes), each judged by
``python -m kata check FILE --json`` and by the kata's page in headless Chromium
(tools/build_site.py builds it, unless --site names a built one; it is served on
localhost with the COOP and COEP headers), the command line's first, then the page's, so
that neither runs beside the other.  Two scorecards agree when every rubric point has the
same result and names the same known mistakes; those named in another order (another
named first) are counted apart.  Prints each disagreement, then
the counts by exercise, and the seconds each side took; --json writes them all.  The
gate runs a subset of this (tests/web/test_site.py); this runs outside it: about an
hour for the whole gallery on a 2-core machine.  Exit status 1 if any disagree.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kata.exercises import EXERCISES  # noqa: E402 (after the path is set)
from tests.web import parity  # noqa: E402
from tests.web.browser import BrowserError, Chromium, serve  # noqa: E402
from tools import build_site  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--exercise", action="append", choices=EXERCISES, help="default: all")
    parser.add_argument("--limit", type=int, help="at most N modules an exercise")
    parser.add_argument("--site", type=Path, help="a site tools/build_site.py built")
    parser.add_argument("--json", type=Path, help="also write every verdict as JSON")
    arguments = parser.parse_args(argv)
    cases = [
        case
        for name in arguments.exercise or list(EXERCISES)
        for case in parity.every_case(name)[: arguments.limit]
    ]
    with tempfile.TemporaryDirectory(prefix="kata-parity-site-") as folder:
        site = arguments.site
        if site is None:
            site = Path(folder) / "site"
            build_site.main(["--out", str(site)])
        rows = compare(site, cases)
    if arguments.json:
        arguments.json.write_text(json.dumps(rows, indent=2) + "\n")
    return report(rows)


def compare(site: Path, cases: list[parity.Case]) -> list[dict[str, Any]]:
    """Each case judged both ways: every command line's first, then every page's, so that
    neither runs beside the other (the page times its cost points on the clock)."""
    rows: list[dict[str, Any]] = []
    clis = [parity.cli_card(case) for case in cases]
    print(f"the command line's {len(clis)} scorecards: done", flush=True)
    with serve(site) as url, Chromium() as browser:
        opened = ""
        for case, cli in zip(cases, clis, strict=True):
            if opened != case.exercise:  # each exercise's page: its warm-up is its own
                browser.open(f"{url}{case.exercise}.html", "window.kata && crossOriginIsolated")
                browser.evaluate("kata.ready", 120)
                opened = case.exercise
            row: dict[str, Any] = {"case": case.id, "exercise": case.exercise}
            try:
                page_card, row["page_seconds"], _ = parity.page_card(browser, case)
            except (BrowserError, AssertionError) as error:
                page_card, row["error"] = None, str(error)[:500]
                browser.open(f"{url}{case.exercise}.html", "window.kata && crossOriginIsolated")
                browser.evaluate("kata.ready", 120)
            cli_card, row["cli_seconds"] = cli
            row["differences"] = (
                parity.differences(cli_card, page_card) if page_card else ["no page verdict"]
            )
            row["reordered"] = parity.reordered(cli_card, page_card) if page_card else []
            row["failed_points"] = sum(
                1 for result, _ in parity.verdicts(cli_card).values() if result == "failed"
            )
            rows.append(row)
            mark = "agree" if not row["differences"] else "DIFFER"
            order = f" (named in another order: {', '.join(row['reordered'])})"
            detail = "; ".join(row["differences"]) + (order if row["reordered"] else "")
            print(f"{mark:6} {case.id}: {detail}", flush=True)
    return rows


def report(rows: list[dict[str, Any]]) -> int:
    print()
    header = f"{'exercise':10} {'modules':>7} {'agree':>6} {'differ':>6} {'reordered':>9}"
    print(f"{header} {'page s':>8} {'cli s':>8}")
    for name in dict.fromkeys(row["exercise"] for row in rows):
        mine = [row for row in rows if row["exercise"] == name]
        agree = sum(1 for row in mine if not row["differences"])
        order = sum(1 for row in mine if row.get("reordered"))
        page = sum(row.get("page_seconds", 0) for row in mine)
        cli = sum(row["cli_seconds"] for row in mine)
        counts = f"{len(mine):7} {agree:6} {len(mine) - agree:6} {order:9}"
        print(f"{name:10} {counts} {page:8.0f} {cli:8.0f}")
    agree = sum(1 for row in rows if not row["differences"])
    order = sum(1 for row in rows if row.get("reordered"))
    print(
        f"{len(rows)} modules: {agree} agree, {len(rows) - agree} differ; {order} name the "
        "same mistakes in another order"
    )
    return 0 if agree == len(rows) else 1


if __name__ == "__main__":
    began = time.monotonic()
    status = main()
    print(f"({time.monotonic() - began:.0f} s)")
    sys.exit(status)

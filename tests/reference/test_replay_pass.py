"""The log replay's one pass, against an oracle that reads the log the slow, obvious way.

`solution.replay` reads plain lines with one regular expression over each
megabyte and hands the first line it does not take, and all after it, to
the csv module.  Whatever the mix (quoted fields, leading zeros, CRLF, a
byte-order mark, a last line without its newline, a bad field anywhere),
what it keeps must be what reading every row with `csv` keeps, and an
error must name the same line.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solution.logfile import InputError
from solution.replay import CHUNK, replay

pytestmark = pytest.mark.reference

Row = tuple[str, str, str]


def oracle(text: str, now: int | None) -> tuple[dict[int, int], int | None, int | None, int]:
    """What a pass keeps, read row by row with csv; ValueError naming the first bad line."""
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline="")))
    latest: dict[int, int] = {}
    received_all = []
    for line, row in enumerate(rows[1:], 2):
        if len(row) != 3 or not all(_plain(field) for field in row) or row[0].startswith("-"):
            raise ValueError(line)
        rank, received = int(row[0]), int(row[2])
        received_all.append(received)
        if now is None or received <= now:
            latest[rank] = max(latest.get(rank, received), received)
    ranks = [int(row[0]) for row in rows[1:]]
    return (
        latest,
        min(received_all, default=None),
        max(received_all, default=None),
        max(ranks, default=-1),
    )


def _plain(field: str) -> bool:
    digits = field.removeprefix("-")
    return digits.isascii() and digits.isdigit()


def _field(value: int, style: str) -> str:
    return {"plain": str(value), "zeros": f"{value:03d}", "quoted": f'"{value}"'}[style]


lines = st.lists(
    st.tuples(
        st.integers(0, 6),
        st.integers(-30, 30),
        st.integers(-30, 30),
        st.sampled_from(["plain", "plain", "plain", "zeros", "quoted", "+", "space"]),
    ),
    max_size=30,
)


def _line(rank: int, sent: int, received: int, style: str) -> str:
    if style == "+":
        return f"{rank},{sent},+{abs(received)}"
    if style == "space":
        return f"{rank}, {sent},{received}"
    return ",".join(_field(v, style) for v in (rank, sent, received))


@given(
    lines,
    st.sampled_from(["\n", "\r\n"]),
    st.booleans(),
    st.booleans(),
    st.none() | st.integers(-30, 30),
)
def test_a_pass_keeps_what_reading_every_row_with_csv_keeps(
    tmp_path_factory: pytest.TempPathFactory,
    rows: list[tuple[int, int, int, str]],
    newline: str,
    last_newline: bool,
    bom: bool,
    now: int | None,
) -> None:
    body = newline.join(["rank,sent_at,received_at", *(_line(*row) for row in rows)])
    text = ("\ufeff" if bom else "") + body + (newline if last_newline else "")
    path = tmp_path_factory.mktemp("log") / "log.csv"
    path.write_text(text, newline="")
    try:
        expected = oracle(text, now)
    except ValueError as bad:
        with pytest.raises(InputError, match=f"log.csv:{bad.args[0]}: "):
            replay(path, now=now, rank_limit=100)
        return
    kept = replay(path, now=now, rank_limit=100)
    assert (kept.latest, kept.earliest, kept.last, kept.top_rank) == expected
    assert kept.lines == len(rows)


def test_a_line_across_the_megabyte_boundary_is_read_whole(tmp_path: Path) -> None:
    """The fast path reads a megabyte at a time: a line cut by the boundary is joined."""
    line = b"3,1000000000,1000000000\n"
    count = CHUNK // len(line) + 2
    path = tmp_path / "log.csv"
    path.write_bytes(b"rank,sent_at,received_at\n" + line * count + b"4,5,2000000000")
    kept = replay(path, rank_limit=100)
    assert (kept.latest, kept.lines) == ({3: 1_000_000_000, 4: 2_000_000_000}, count + 1)


def test_a_bad_line_after_the_first_megabyte_is_named_by_its_number(tmp_path: Path) -> None:
    line = b"3,10,10\n"
    count = CHUNK // len(line) + 5
    path = tmp_path / "log.csv"
    path.write_bytes(b"rank,sent_at,received_at\n" + line * count + b"3,10,1_0\n")
    with pytest.raises(InputError, match=f"log.csv:{count + 2}: '1_0' is not an integer time"):
        replay(path, rank_limit=100)

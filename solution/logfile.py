"""Reading a heartbeat log: CSV with the header ``rank,sent_at,received_at``.

Times are integer ticks of one clock (ns, ms, ...), or, when ``seconds`` is
asked for, decimal seconds such as ``12.000000001``, converted exactly to
integer nanoseconds: the text is split at the point, never passed through a
float, so a boundary a nanosecond wide survives.  Every problem is an
`InputError` naming the file and line; no line is silently skipped.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from pathlib import Path

from solution.detector import Heartbeat

HEADER = ("rank", "sent_at", "received_at")
NS_PER_SECOND = 10**9
_INTEGER = re.compile(r"[+-]?[0-9]+")
_DECIMAL_SECONDS = re.compile(r"([+-]?)([0-9]+)(?:\.([0-9]{1,9}))?")


class InputError(Exception):
    """Input the tools refuse, with a message naming where and why."""


def parse_time(text: str, *, seconds: bool = False) -> int:
    """Return integer ticks, or exact nanoseconds for decimal `seconds`.

    >>> parse_time("8640000000000001")
    8640000000000001
    >>> parse_time("8640000.000000001", seconds=True)
    8640000000000001
    """
    text = text.strip()
    if not seconds:
        if not _INTEGER.fullmatch(text):
            raise ValueError(f"{text!r} is not an integer time")
        return int(text)
    match = _DECIMAL_SECONDS.fullmatch(text)
    if match is None:
        raise ValueError(f"{text!r} is not decimal seconds with at most 9 decimals")
    sign, whole, fraction = match.groups()
    magnitude = int(whole) * NS_PER_SECOND + int((fraction or "").ljust(9, "0"))
    return -magnitude if sign == "-" else magnitude


def format_time(ticks: int, *, seconds: bool = False) -> str:
    """The inverse of `parse_time`, for reports.

    >>> format_time(1_500_000_000, seconds=True)
    '1.5'
    """
    if not seconds:
        return str(ticks)
    whole, fraction = divmod(abs(ticks), NS_PER_SECOND)
    text = f"{whole}.{fraction:09d}".rstrip("0").rstrip(".")
    return f"-{text}" if ticks < 0 else text


def read_log(path: Path, *, seconds: bool = False) -> list[tuple[int, Heartbeat]]:
    """Every heartbeat in the log at `path`, with its line number, in file order.

    Raises InputError, naming the file and line, for a missing or empty file,
    a wrong header, a line without exactly three fields, or a time or rank
    that does not parse.  Ranks are checked against the world size by `detect`.
    """
    try:
        with path.open(newline="", encoding="utf-8") as log:
            return list(_heartbeats(path, log, seconds=seconds))
    except OSError as error:
        raise InputError(f"{path}: cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a UTF-8 text file") from None


def _heartbeats(
    path: Path, lines: Iterator[str], *, seconds: bool
) -> Iterator[tuple[int, Heartbeat]]:
    rows = csv.reader(lines)
    header = next(rows, None)
    if header is None:
        raise InputError(f"{path}: empty file: expected the header {','.join(HEADER)}")
    if tuple(field.strip() for field in header) != HEADER:
        raise InputError(
            f"{path}:1: expected the header {','.join(HEADER)}, got {','.join(header)}"
        )
    for row in rows:
        where = f"{path}:{rows.line_num}"
        if not row:
            raise InputError(f"{where}: blank line: expected {','.join(HEADER)}")
        if len(row) != len(HEADER):
            raise InputError(f"{where}: expected 3 fields ({','.join(HEADER)}), got {len(row)}")
        rank, sent_at, received_at = row
        try:
            if not _INTEGER.fullmatch(rank.strip()):
                raise ValueError(f"rank {rank!r} is not an integer")
            sent, received = (parse_time(t, seconds=seconds) for t in (sent_at, received_at))
            yield rows.line_num, Heartbeat(int(rank), sent, received)
        except ValueError as error:
            raise InputError(f"{where}: {error}") from None

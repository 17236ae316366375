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
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

from solution.detector import Heartbeat

HEADER = ("rank", "sent_at", "received_at")
NS_PER_SECOND = 10**9
_INTEGER = re.compile(r"[+-]?[0-9]+")
T = TypeVar("T")
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

    def heartbeat(fields: list[str]) -> Heartbeat:
        rank, sent_at, received_at = fields
        sent, received = (parse_time(t, seconds=seconds) for t in (sent_at, received_at))
        return Heartbeat(parse_integer("rank", rank), sent, received)

    return read_csv(path, HEADER, heartbeat)


def parse_integer(name: str, text: str) -> int:
    """`text` as an int, or ValueError naming the field."""
    if not _INTEGER.fullmatch(text.strip()):
        raise ValueError(f"{name} {text!r} is not an integer")
    return int(text)


def read_csv(
    path: Path, header: tuple[str, ...], parse: Callable[[list[str]], T]
) -> list[tuple[int, T]]:
    """`parse` applied to each data row of the CSV file at `path`, with its line number.

    Raises InputError naming the file (and line) for a missing, unreadable or
    empty file, a wrong header, a blank line, a wrong number of fields, or a
    ValueError from `parse`.
    """
    try:
        with path.open(newline="", encoding="utf-8") as lines:
            return list(_rows(path, lines, header, parse))
    except OSError as error:
        raise InputError(f"{path}: cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a UTF-8 text file") from None


def _rows(
    path: Path, lines: Iterator[str], header: tuple[str, ...], parse: Callable[[list[str]], T]
) -> Iterator[tuple[int, T]]:
    expected = ",".join(header)
    rows = csv.reader(lines)
    first = next(rows, None)
    if first is None:
        raise InputError(f"{path}: empty file: expected the header {expected}")
    if tuple(field.strip() for field in first) != header:
        raise InputError(f"{path}:1: expected the header {expected}, got {','.join(first)}")
    for row in rows:
        where = f"{path}:{rows.line_num}"
        if not row:
            raise InputError(f"{where}: blank line: expected {expected}")
        if len(row) != len(header):
            raise InputError(f"{where}: expected {len(header)} fields ({expected}), got {len(row)}")
        try:
            yield rows.line_num, parse(row)
        except ValueError as error:
            raise InputError(f"{where}: {error}") from None

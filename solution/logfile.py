"""Reading CSV logs, from a file or standard input (``-``), with every problem named.

Times are integer ticks of one clock (ns, ms, ...), or, when ``seconds`` is
asked for, decimal seconds such as ``12.000000001``, converted exactly to
integer nanoseconds: the text is split at the point, never passed through a
float, so a boundary a nanosecond wide survives.  A number is ASCII digits
with an optional leading minus, nothing else: not ``+5``, ``1_000``, `` 5``
or another script's digits (``int()`` takes all of those), and a time fits
in 64 bits, as the collector's clock and the wire's fields do.  A value
quoted in a message is shortened: a 100,000-digit field is not a 100 KB line.  Every problem is an
`InputError` naming the file and line, invisible characters shown (``repr``);
no line is silently skipped.  A UTF-8 byte-order mark, as some editors write,
is read as nothing; bytes that are not UTF-8 are kept as they are
(``surrogateescape``) so that the line they are on can be named.
"""

from __future__ import annotations

import csv
import io
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypeVar

if TYPE_CHECKING:
    from _csv import Reader

HEADER = ("rank", "sent_at", "received_at")
STDIN = Path("-")
NS_PER_SECOND = 10**9
T = TypeVar("T")
_INTEGER = re.compile(r"-?[0-9]+", re.ASCII)
_DECIMAL_SECONDS = re.compile(r"(-?)([0-9]+)(?:\.([0-9]{1,9}))?", re.ASCII)
TIME_LIMIT = 2**63  # a time is a signed 64-bit number of ticks
SHOWN = 64  # characters of a value quoted in a message, at most


class InputError(Exception):
    """Input the tools refuse, with a message naming where and why."""


def parse_time(text: str, *, seconds: bool = False) -> int:
    """Return integer ticks, or exact nanoseconds for decimal `seconds`.

    >>> parse_time("8640000000000001")
    8640000000000001
    >>> parse_time("8640000.000000001", seconds=True)
    8640000000000001
    """
    if not seconds:
        if _INTEGER.fullmatch(text) is None:
            raise ValueError(f"{shown(text)} is not an integer time (ASCII digits, maybe a minus)")
        value = _int(text)
    else:
        match = _DECIMAL_SECONDS.fullmatch(text)
        if match is None:
            raise ValueError(f"{shown(text)} is not decimal seconds with at most 9 decimals")
        sign, whole, fraction = match.groups()
        magnitude = _int(whole) * NS_PER_SECOND + int((fraction or "").ljust(9, "0"))
        value = -magnitude if sign == "-" else magnitude
    if not -TIME_LIMIT <= value < TIME_LIMIT:
        raise ValueError(f"{shown(text)} is out of range: a time fits in 64 bits")
    return value


def _int(digits: str) -> int:
    """ASCII digits as an int; past 40 digits only the size matters (int() may refuse them)."""
    return int(digits) if len(digits) <= 40 else (-1 if digits[0] == "-" else 1) * 10**40


def shown(text: str) -> str:
    """`text` quoted for a message, invisible characters shown, at most SHOWN characters."""
    if len(text) <= SHOWN:
        return repr(text)
    return f"{text[: SHOWN - 8]!r}... ({len(text):,} characters)"


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


def parse_integer(name: str, text: str) -> int:
    """`text` as an int (ASCII digits, maybe a minus), or ValueError naming the field."""
    if _INTEGER.fullmatch(text) is None:
        raise ValueError(f"{name} {shown(text)} is not an integer (ASCII digits, maybe a minus)")
    return _int(text)


def name_of(path: Path) -> str:
    return "<stdin>" if path == STDIN else str(path)


@contextmanager
def opened(path: Path) -> Iterator[TextIO]:
    """The text of `path` (``-``: standard input) as UTF-8, for the csv module."""
    if path == STDIN:
        if sys.stdin is None:  # started with standard input closed (<&-)
            raise InputError("<stdin>: standard input is closed")
        yield io.TextIOWrapper(
            sys.stdin.buffer, encoding="utf-8-sig", errors="surrogateescape", newline=""
        )
        return
    try:
        lines = path.open(encoding="utf-8-sig", errors="surrogateescape", newline="")
    except OSError as error:
        raise InputError(f"{path}: cannot read: {error.strerror or error}") from None
    with lines:
        yield lines


@contextmanager
def csv_rows(path: Path, header: tuple[str, ...]) -> Iterator[Reader]:
    """The data rows of the CSV log at `path`, after its header, with errors made InputErrors.

    The reader's ``line_num`` is the current line number; a malformed line
    (undecodable text, a NUL byte, a field too long) raised while reading
    becomes an InputError naming it.
    """
    with opened(path) as lines, rows_of(lines, name_of(path), header) as reader:
        yield reader


@contextmanager
def rows_of(lines: TextIO, name: str, header: tuple[str, ...]) -> Iterator[Reader]:
    """`csv_rows` of text already open, named `name` in messages."""
    expected = ",".join(header)
    reader = csv.reader(lines)
    try:
        first = next(reader, None)
        if first is None:
            raise InputError(f"{name}: empty file: expected the header {expected}")
        if tuple(field.strip() for field in first) != header:
            problem = text_problem(first) or f"expected the header {expected}"
            raise InputError(f"{name}:1: {problem}, got {shown(','.join(first))}")
        yield reader
    except csv.Error as error:
        raise InputError(f"{name}:{max(reader.line_num, 1)}: not CSV: {error}") from None
    except OSError as error:
        raise InputError(f"{name}: cannot read: {error.strerror or error}") from None


def row_problem(row: list[str], header: tuple[str, ...]) -> str | None:
    """What is wrong with a row's shape or text, if anything."""
    expected = ",".join(header)
    if not row:
        return f"blank line: expected {expected}"
    if len(row) != len(header):
        return f"expected {len(header)} fields ({expected}), got {len(row)}"
    return text_problem(row)


def text_problem(row: list[str]) -> str | None:
    """Bytes that are not UTF-8 (kept as surrogates), or a NUL, in a row; None if none."""
    if any("\udc80" <= character <= "\udcff" for field in row for character in field):
        return "not UTF-8 text"
    nul = next((field for field in row if "\x00" in field), None)
    return None if nul is None else f"a NUL byte in {nul!r}"


def read_csv(
    path: Path, header: tuple[str, ...], parse: Callable[[list[str]], T]
) -> list[tuple[int, T]]:
    """`parse` applied to each data row of the CSV log at `path`, with its line number.

    Raises InputError naming the file (and line) for a missing, unreadable or
    empty file, a wrong header, a blank line, a wrong number of fields, or a
    ValueError from `parse`.
    """
    parsed = []
    with csv_rows(path, header) as rows:
        for row in rows:
            where = f"{name_of(path)}:{rows.line_num}"
            problem = row_problem(row, header)
            if problem:
                raise InputError(f"{where}: {problem}")
            try:
                parsed.append((rows.line_num, parse(row)))
            except ValueError as error:
                raise InputError(f"{where}: {error}") from None
    return parsed

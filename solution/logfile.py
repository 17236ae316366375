"""Reading CSV logs, from a file or standard input (``-``), with every problem named.

Times are integer ticks of one clock (ns, ms, ...), or, when ``seconds`` is
asked for, decimal seconds such as ``12.000000001``, converted exactly to
integer nanoseconds: the text is split at the point, never passed through a
float, so a boundary a nanosecond wide survives.  Every problem is an
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
    if not seconds:
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"{text!r} is not an integer time") from None
    match = _DECIMAL_SECONDS.fullmatch(text.strip())
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


def parse_integer(name: str, text: str) -> int:
    """`text` as an int, or ValueError naming the field."""
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{name} {text!r} is not an integer") from None


def name_of(path: Path) -> str:
    return "<stdin>" if path == STDIN else str(path)


@contextmanager
def opened(path: Path) -> Iterator[TextIO]:
    """The text of `path` (``-``: standard input) as UTF-8, for the csv module."""
    if path == STDIN:
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
    name, expected = name_of(path), ",".join(header)
    with opened(path) as lines:
        reader = csv.reader(lines)
        try:
            first = next(reader, None)
            if first is None:
                raise InputError(f"{name}: empty file: expected the header {expected}")
            if tuple(field.strip() for field in first) != header:
                problem = text_problem(first) or f"expected the header {expected}"
                raise InputError(f"{name}:1: {problem}, got {','.join(first)!r}")
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

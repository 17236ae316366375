"""Replaying a heartbeat log in one streaming pass: memory O(ranks), never O(lines).

A week of a 1,024-rank job at 1 Hz is 600 million lines; the report needs
only each rank's latest heartbeat as of `now`.  So the log is read once,
line by line, keeping for each rank the greatest ``received_at`` that counts
(at or before `now` if it is given; every one if not, since `now` is then the
latest), plus what the defaults need: the earliest and latest receipt and the
largest rank.  `detect` is then asked about one heartbeat per rank, which is
the same question: it reads only each rank's greatest receipt up to `now`.

Every line is checked as it is read, and an error names its line.  The
common case, lines of plain ASCII digits (`logfile`'s rule for numbers),
is matched by one regular expression over each megabyte, in C, which also
proves the line well formed; the first line it does not match, and every
line after it, go the way of the csv module, field by field, where any
valid CSV (quoted fields, say) is read and every problem is named.
"""

from __future__ import annotations

import csv
import io
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from solution.logfile import (
    HEADER,
    STDIN,
    InputError,
    csv_rows,
    name_of,
    parse_integer,
    parse_time,
    row_problem,
    rows_of,
    shown,
)

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

CHUNK = 1 << 20
# A line the fast path takes: a rank and two times of plain digits, 18 at most (always
# inside 64 bits).  Anything else, valid or not, is left to the csv path.
_LINE = re.compile(rb"([0-9]{1,10}),(-?[0-9]{1,18}),(-?[0-9]{1,18})\r?\n")
_HEADER = b"rank,sent_at,received_at"


@dataclass
class Replay:
    """What one pass over a log keeps."""

    latest: dict[int, int] = field(default_factory=dict)  # rank -> greatest received_at counted
    earliest: int | None = None  # the earliest received_at in the log
    last: int | None = None  # the latest received_at in the log
    top_rank: int = -1
    lines: int = 0


def replay(
    path: Path,
    *,
    seconds: bool = False,
    world_size: int | None = None,
    start: int | None = None,
    now: int | None = None,
    rank_limit: int,
) -> Replay:
    """One pass over the log at `path` (``-``: standard input).

    Raises InputError naming the line for a malformed row, a rank below 0 or
    at or above `world_size` (or, with no world size, at or above
    `rank_limit`), or a heartbeat received before `start`.
    """
    kept = _Pass(path, world_size, start, now, rank_limit)
    if seconds:
        with csv_rows(path, HEADER) as rows:
            kept.rows(rows, 0, seconds=True)
        return kept.done()
    with _binary(path) as data:
        try:
            rest = kept.fast(data)
        except _NotPlain as header:  # not the plain header: the csv path reads it all
            with rows_of(_text(header.rest, "utf-8-sig"), name_of(path), HEADER) as rows:
                kept.rows(rows, 0, seconds=False)
            return kept.done()
        if rest is not None:  # a line the fast path does not take: the csv path from there
            reader = csv.reader(_text(rest, "utf-8"))
            try:
                kept.rows(reader, kept.lines + 1, seconds=False)
            except csv.Error as error:
                line = kept.lines + 1 + max(reader.line_num, 1)
                raise InputError(f"{name_of(path)}:{line}: not CSV: {error}") from None
    return kept.done()


class _NotPlain(Exception):  # noqa: N818 (not an error: the way to the csv path)
    def __init__(self, rest: _Chain) -> None:
        self.rest = rest


def _text(data: _Chain, encoding: str) -> io.TextIOWrapper:
    return io.TextIOWrapper(
        io.BufferedReader(data), encoding=encoding, errors="surrogateescape", newline=""
    )


class _Pass:
    """The state of one pass, and its two ways of reading lines."""

    def __init__(
        self,
        path: Path,
        world_size: int | None,
        start: int | None,
        now: int | None,
        rank_limit: int,
    ) -> None:
        self.path, self.world_size, self.start, self.now = path, world_size, start, now
        self.limit = rank_limit if world_size is None else world_size
        self.kept = Replay()
        self.lines = 0  # data lines read so far

    def fast(self, data: BinaryIO) -> _Chain | None:
        """Read the lines the fast path takes; the rest of the input, from the first it
        does not take, or None when it took them all."""
        header = data.readline()
        if header.removeprefix(b"\xef\xbb\xbf").rstrip(b"\r\n") != _HEADER:
            raise _NotPlain(_Chain(header, data))  # the csv path, the header too
        latest, get, kept = self.kept.latest, self.kept.latest.get, self.kept
        earliest, last, top, lines = kept.earliest, kept.last, kept.top_rank, self.lines
        start, now, limit = self.start, self.now, self.limit
        left = b""
        try:
            while True:
                chunk = data.read(CHUNK)
                block = left + chunk
                cut = block.rfind(b"\n") + 1 if chunk else len(block)
                block, left = block[:cut], block[cut:]
                if not chunk and block and not block.endswith(b"\n"):
                    block += b"\n"  # the last line, without its newline
                at = 0
                for match in _LINE.finditer(block):
                    if match.start() != at:
                        break
                    rank_text, _, received_text = match.groups()
                    rank, received = int(rank_text), int(received_text)
                    if rank >= limit or (start is not None and received < start):
                        return _Chain(block[at:], io.BytesIO(left), data)
                    at = match.end()
                    lines += 1
                    if earliest is None or received < earliest:
                        earliest = received
                    if last is None or received > last:
                        last = received
                    if rank > top:
                        top = rank
                    if now is None or received <= now:
                        before = get(rank)
                        if before is None or received > before:
                            latest[rank] = received
                if at != len(block):
                    return _Chain(block[at:], io.BytesIO(left), data)
                if not chunk:
                    return None
        finally:
            kept.earliest, kept.last, kept.top_rank, self.lines = earliest, last, top, lines

    def rows(self, rows: Iterator[list[str]], offset: int, *, seconds: bool) -> None:
        """The csv path: each row parsed and checked field by field; line numbers from
        `offset` (the lines before these)."""
        time = _seconds if seconds else parse_time
        kept, latest = self.kept, self.kept.latest
        for number, row in enumerate(rows, offset + 1):
            line = getattr(rows, "line_num", number - offset) + offset
            problem = row_problem(row, HEADER)
            if problem:
                raise InputError(f"{name_of(self.path)}:{line}: {problem}")
            try:
                rank, received = parse_integer("rank", row[0]), time(row[2])
                time(row[1])  # sent_at must parse; it is never used
            except ValueError as error:
                raise InputError(f"{name_of(self.path)}:{line}: {error}") from None
            if not 0 <= rank < self.limit or (self.start is not None and received < self.start):
                raise self._range_error(line, row[0], rank, received)
            self.lines += 1
            if kept.earliest is None or received < kept.earliest:
                kept.earliest = received
            if kept.last is None or received > kept.last:
                kept.last = received
            kept.top_rank = max(kept.top_rank, rank)
            if self.now is None or received <= self.now:
                before = latest.get(rank)
                if before is None or received > before:
                    latest[rank] = received

    def done(self) -> Replay:
        self.kept.lines = self.lines
        return self.kept

    def _range_error(self, line: int, text: str, rank: int, received: int) -> InputError:
        where = f"{name_of(self.path)}:{line}"
        start, world_size, limit = self.start, self.world_size, self.limit
        if start is not None and 0 <= rank < limit and received < start:
            return InputError(f"{where}: heartbeat received at {received}, before start {start}")
        shown_rank = text if len(text) <= 24 else shown(text)
        if world_size is not None or rank < 0:
            world = "world_size" if world_size is None else world_size
            return InputError(f"{where}: rank {shown_rank} is outside [0, {world})")
        return InputError(
            f"{where}: rank {shown_rank} would make the world more than {limit:,} ranks, "
            "more than any job is taken to have from a log alone: pass --world-size if "
            "the job is that large"
        )


class _Chain(io.RawIOBase):
    """Bytes already read, then the rest of a stream: what the csv path reads on from."""

    def __init__(self, first: bytes, *rest: BinaryIO) -> None:
        self._parts: list[BinaryIO] = [io.BytesIO(first), *rest]

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer, /) -> int:
        view = memoryview(buffer).cast("B")
        while self._parts:
            data = self._parts[0].read(len(view))
            if data:
                view[: len(data)] = data
                return len(data)
            self._parts.pop(0)
        return 0


@contextmanager
def _binary(path: Path) -> Iterator[BinaryIO]:
    """The bytes of `path` (``-``: standard input), or InputError saying why not."""
    if path == STDIN:
        if sys.stdin is None:
            raise InputError("<stdin>: standard input is closed")
        yield sys.stdin.buffer
        return
    try:
        data = path.open("rb")
    except OSError as error:
        raise InputError(f"{path}: cannot read: {error.strerror or error}") from None
    with data:
        try:
            yield data
        except OSError as error:  # a read that fails half way (a folder, a vanished disk)
            raise InputError(f"{path}: cannot read: {error.strerror or error}") from None


def _seconds(text: str) -> int:
    return parse_time(text, seconds=True)

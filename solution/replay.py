"""Replaying a heartbeat log in one streaming pass: memory O(ranks), never O(lines).

A week of a 1,024-rank job at 1 Hz is 600 million lines; the report needs
only each rank's latest heartbeat as of `now`.  So the log is read once,
line by line, keeping for each rank the greatest ``received_at`` that counts
(at or before `now` if it is given; every one if not, since `now` is then the
latest), plus what the defaults need: the earliest and latest receipt and the
largest rank.  `detect` is then asked about one heartbeat per rank, which is
the same question: it reads only each rank's greatest receipt up to `now`.

Every line is checked as it is read, and an error names its line; the loop
itself is kept to what checking and keeping the maxima cost.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from solution.logfile import (
    HEADER,
    InputError,
    csv_rows,
    name_of,
    parse_integer,
    parse_time,
    row_problem,
)


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
    time = int if not seconds else _seconds
    limit = rank_limit if world_size is None else world_size
    kept = Replay()
    latest, get = kept.latest, kept.latest.get
    earliest = last = None
    top_rank = -1
    with csv_rows(path, HEADER) as rows:
        for row in rows:
            try:
                rank_text, sent_text, received_text = row
                rank, received = int(rank_text), time(received_text)
                time(sent_text)  # sent_at must parse; it is never used
            except ValueError:
                raise _row_error(path, rows.line_num, row, seconds) from None
            if not 0 <= rank < limit or (start is not None and received < start):
                raise _range_error(path, rows.line_num, rank, received, world_size, start, limit)
            if earliest is None or received < earliest:
                earliest = received
            if last is None or received > last:
                last = received
            if rank > top_rank:
                top_rank = rank
            if now is None or received <= now:
                before = get(rank)
                if before is None or received > before:
                    latest[rank] = received
            kept.lines += 1
    kept.earliest, kept.last, kept.top_rank = earliest, last, top_rank
    return kept


def _seconds(text: str) -> int:
    return parse_time(text, seconds=True)


def _row_error(path: Path, line: int, row: list[str], seconds: bool) -> InputError:
    """The precise problem with a row that did not parse."""
    where = f"{name_of(path)}:{line}"
    problem = row_problem(row, HEADER)
    if problem:
        return InputError(f"{where}: {problem}")
    try:
        parse_integer("rank", row[0])
        for text in row[1:]:
            parse_time(text, seconds=seconds)
    except ValueError as error:
        return InputError(f"{where}: {error}")
    return InputError(f"{where}: cannot read {row!r}")  # not reached: every failure is named above


def _range_error(
    path: Path,
    line: int,
    rank: int,
    received: int,
    world_size: int | None,
    start: int | None,
    limit: int,
) -> InputError:
    where = f"{name_of(path)}:{line}"
    if start is not None and 0 <= rank < limit and received < start:
        return InputError(f"{where}: heartbeat received at {received}, before start {start}")
    if world_size is not None or rank < 0:
        world = "world_size" if world_size is None else world_size
        return InputError(f"{where}: rank {rank} is outside [0, {world})")
    return InputError(
        f"{where}: rank {rank} would make the world {rank + 1:,} ranks, more than any job "
        f"(at most {limit:,} are inferred from a log): pass --world-size if the job is "
        "that large"
    )

"""``detect --engine duckdb``: the same one pass, with DuckDB doing the reading, and a proof.

The tool a user with a week-long log reaches for is DuckDB (the optional
extra, ``pip install -e '.[duckdb]'``).  Its CSV reader is fast and lenient:
it casts ``+5``, `` 5``, ``1_000``, ``1e2``, ``0x10`` and ``9.9`` to integers,
skips blank lines and strips a byte-order mark, all of which the default
engine refuses (`solution.logfile`'s rules) or reads differently.  So DuckDB
only computes what `solution.replay` keeps (each rank's latest receipt as of
`now`, the first and last receipt, the largest rank, the lines), and its
answer is used only when the log is proved to be one the default engine reads
the same way and accepts; any doubt, and the default engine reads the log
itself, from the start, and answers or names the bad line exactly as it
always does.  The report is then made by the same code from the same
`Replay`, so it is the same, byte for byte.

The proof has three parts:

1. **The header**, read here: exactly ``rank,sent_at,received_at`` (after an
   optional byte-order mark) and its newline, ``\\n`` or ``\\r\\n``, which
   fixes every line's newline for DuckDB.
2. **The bytes**, scanned here in C (``bytes.translate``) before DuckDB
   starts: after the header, nothing but ``0-9 , -`` and the newline (and
   ``.`` with ``--seconds``); a ``\\r`` only just before a ``\\n`` in a
   ``\\r\\n`` log, none otherwise.  No quote, space, sign, letter,
   underscore, NUL or non-ASCII byte: none of DuckDB's leniencies can apply.
3. **The count**, from DuckDB: every field parses, by the rule below, and the
   header, the fields' lengths, two commas and one newline a row add up to the
   file's size exactly.  Whatever DuckDB might drop (a blank line, a byte it
   took as part of a newline) makes the sum short of the size, never over
   it, so equality proves each line was read whole, as its own row.

Over ``[0-9-]``, DuckDB's cast to BIGINT accepts exactly ``-?[0-9]+`` inside
64 bits, which is `solution.logfile`'s rule (the tests hold the two together);
a field is at most 20 characters, so the default engine's shortcut for
40-digit numbers never applies.  Decimal seconds (``--seconds``) are matched
by `logfile`'s own regular expression and converted exactly, in integers.
A rank below 0 or outside the world, or a receipt before ``--start``: the
default engine reads the log and names the first such line.  Standard input,
a path that is not a regular file or that DuckDB would read as a glob, and a
log with no data lines are read by the default engine directly.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from solution.logfile import STDIN, InputError
from solution.replay import Replay
from solution.replay import replay as default_replay

CHUNK = 1 << 22
_BOM = b"\xef\xbb\xbf"
_HEADER = b"rank,sent_at,received_at"
_DIGITS = b"0123456789,-"
_GLOB = frozenset("*?[]{}")  # characters DuckDB's read_csv expands in a path
_WIDEST = 20  # characters in a field, at most: more, and the default engine reads the log
INSTALL = "--engine duckdb needs DuckDB, an optional extra: pip install -e '.[duckdb]'"


@dataclass(frozen=True)
class _Plain:
    """What the scan proved of a log: its header's length, its newline and its size."""

    header: int
    newline: bytes
    size: int
    ends_with_newline: bool


@dataclass(frozen=True)
class _Kept:
    """DuckDB's answer, and what is needed to tell whether the default engine accepts it."""

    replay: Replay
    lowest_rank: int
    earliest: int


def replay(
    path: Path,
    *,
    seconds: bool = False,
    world_size: int | None = None,
    start: int | None = None,
    now: int | None = None,
    rank_limit: int,
) -> Replay:
    """`solution.replay.replay`'s answer, read by DuckDB when the log is proved plain.

    Raises InputError, as the default engine does, for a bad log (the default
    engine reads it), and one saying to install the extra when DuckDB is not
    installed.
    """
    try:
        import duckdb  # noqa: F401 (optional: only for --engine duckdb)
    except ImportError:
        raise InputError(INSTALL) from None
    plain = _scan(path, seconds=seconds)
    kept = None if plain is None else _aggregate(path, plain, seconds=seconds, now=now)
    limit = rank_limit if world_size is None else world_size
    if kept is None or not _accepted(kept, limit=limit, start=start):
        return default_replay(
            path,
            seconds=seconds,
            world_size=world_size,
            start=start,
            now=now,
            rank_limit=rank_limit,
        )
    return kept.replay


def _scan(path: Path, *, seconds: bool) -> _Plain | None:
    """Parts 1 and 2 of the proof; None when the log is not proved plain."""
    if path == STDIN or _GLOB.intersection(str(path)):
        return None
    try:
        with path.open("rb") as data:
            if not stat.S_ISREG(os.fstat(data.fileno()).st_mode):
                return None
            header = data.readline()
            newline = {_HEADER + b"\n": b"\n", _HEADER + b"\r\n": b"\r\n"}.get(
                header.removeprefix(_BOM)
            )
            if newline is None:
                return None
            allowed = _DIGITS + b"." * seconds + newline
            size, last, pairs, returns, newlines = len(header), b"", 0, 0, 0
            while chunk := data.read(CHUNK):
                if chunk.translate(None, allowed):
                    return None
                size += len(chunk)
                if newline == b"\r\n":  # every \r just before a \n, every \n just after one
                    pairs += chunk.count(b"\r\n") + (last == b"\r" and chunk[:1] == b"\n")
                    returns += chunk.count(b"\r")
                    newlines += chunk.count(b"\n")
                last = chunk[-1:]
    except OSError:  # the default engine says why it cannot be read
        return None
    if size == len(header) or not pairs == returns == newlines:
        return None
    return _Plain(len(header), newline, size, last == b"\n")


def _aggregate(path: Path, plain: _Plain, *, seconds: bool, now: int | None) -> _Kept | None:
    """Part 3: DuckDB's one pass, or None when a field does not parse or the count is off."""
    import duckdb

    location = str(path.resolve()).replace("'", "''")
    newline = "\\r\\n" if plain.newline == b"\r\n" else "\\n"  # DuckDB's escapes
    source = (
        f"read_csv('{location}', columns={{'rank': 'VARCHAR', 'sent_at': 'VARCHAR', "
        "'received_at': 'VARCHAR'}, header=true, delim=',', quote='', escape='', "
        f"new_line='{newline}', auto_detect=false, compression='none')"
    )
    time = _seconds if seconds else _ticks
    counted = "TRUE" if now is None else f"t <= {int(now)}"
    query = f"""
        WITH rows AS (
            SELECT TRY_CAST(rank AS BIGINT) AS r, {time("sent_at")} AS s,
                {time("received_at")} AS t,
                strlen(rank) + strlen(sent_at) + strlen(received_at) AS n,
                greatest(strlen(rank), strlen(sent_at), strlen(received_at)) AS w,
                {_valid(seconds=seconds)} AS ok
            FROM {source}
        )
        SELECT r, max(t) FILTER (WHERE {counted}), min(t), max(t), count(*), sum(n),
            count(*) FILTER (WHERE r IS NULL OR s IS NULL OR t IS NULL OR w > {_WIDEST}
                OR ok IS NOT TRUE)
        FROM rows GROUP BY r
    """
    connection = duckdb.connect()
    try:
        connection.execute("SET enable_progress_bar = false")  # nothing of DuckDB's on a terminal
        groups = connection.execute(query).fetchall()
    except duckdb.Error:  # not CSV as DuckDB reads it: the default engine names the line
        return None
    finally:
        connection.close()
    lines = sum(group[4] for group in groups)
    if not lines or sum(group[6] for group in groups):
        return None
    counted_bytes = sum(group[5] for group in groups) + 2 * lines  # two commas a row
    newlines = len(plain.newline) * (lines - (not plain.ends_with_newline))
    if plain.header + counted_bytes + newlines != plain.size:
        return None
    kept = Replay(
        latest={group[0]: group[1] for group in groups if group[1] is not None},
        earliest=min(group[2] for group in groups),
        last=max(group[3] for group in groups),
        top_rank=max(group[0] for group in groups),
        lines=lines,
    )
    return _Kept(kept, min(group[0] for group in groups), min(group[2] for group in groups))


def _accepted(kept: _Kept, *, limit: int, start: int | None) -> bool:
    """Every rank in [0, limit) and every receipt at or after `start`: the default engine
    would accept the log (otherwise it names the first line that is not)."""
    in_range = kept.lowest_rank >= 0 and kept.replay.top_rank < limit
    return in_range and (start is None or kept.earliest >= start)


def _ticks(field: str) -> str:
    return f"TRY_CAST({field} AS BIGINT)"


def _seconds(field: str) -> str:
    """Decimal seconds as exact integer nanoseconds (NULL outside 64 bits), as `parse_time`."""
    whole = f"abs(TRY_CAST(split_part({field}, '.', 1) AS HUGEINT))"
    fraction = f"TRY_CAST(rpad(split_part({field}, '.', 2), 9, '0') AS HUGEINT)"
    sign = f"(CASE WHEN starts_with({field}, '-') THEN -1 ELSE 1 END)"
    return f"TRY_CAST(({whole} * 1000000000 + {fraction}) * {sign} AS BIGINT)"


def _valid(*, seconds: bool) -> str:
    """Beyond the casts: with --seconds, `logfile`'s pattern for each time, and no point in
    a rank (the point is in the scan's bytes, and the cast to BIGINT would round it away)."""
    if not seconds:
        return "TRUE"
    pattern = "'-?[0-9]+([.][0-9]{1,9})?'"
    times = f"regexp_full_match(sent_at, {pattern}) AND regexp_full_match(received_at, {pattern})"
    return f"{times} AND NOT contains(rank, '.')"

"""``detect --engine duckdb`` beside the default engine: the same report, byte for byte, and
the same one-line error, naming the same file and line, for bad input.

DuckDB reads CSV fast and leniently (``+5``, ``1e2`` and ``1_000`` are integers to it, a
blank line is skipped); `solution.duckdb_engine` uses its answer only for a log it has
proved plain, and hands any other to the default engine.  So the property that matters is
the pair's: on random logs, valid ones and ones with one bad line of any kind, under every
flag, the two commands print the same and exit alike.  And, lest that property compare the
default engine with itself, a plain log must be answered by DuckDB, not handed back.
"""

from __future__ import annotations

import itertools
import re
import sys
from pathlib import Path
from unittest import mock

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solution import cli as solution_cli
from solution import duckdb_engine
from solution.logfile import format_time, parse_time
from solution.replay import Replay, replay
from tests.reference.test_cli_inputs import CASES
from tests.support.cli_runs import Run, run

pytestmark = pytest.mark.reference

HEADER = "rank,sent_at,received_at"
BAD = 2
Row = tuple[int, int, int]
TIMES = st.integers(-(10**6), 10**6)  # ticks, or nanoseconds with --seconds
ROWS = st.lists(st.tuples(st.integers(0, 9), TIMES, TIMES), max_size=30)


def _field(value: int, style: str, *, seconds: bool) -> str:
    """A valid field: plain digits, or valid text that is not plain (the csv path's)."""
    text = format_time(value, seconds=seconds)
    sign, digits = ("-", text[1:]) if text.startswith("-") else ("", text)
    return {"plain": text, "zeros": f"{sign}00{digits}", "quoted": f'"{text}"'}[style]


def _text(
    rows: list[Row], styles: list[str], newline: str, bom: bool, end: bool, *, seconds: bool
) -> str:
    lines = [
        ",".join(
            [str(rank), *(_field(t, style, seconds=seconds) for t in (sent, received))]
            if style == "plain"
            else [_field(v, style, seconds=seconds) for v in (rank, sent, received)]
        )
        for (rank, sent, received), style in zip(rows, itertools.cycle(styles), strict=False)
    ]
    return ("\ufeff" if bom else "") + newline.join([HEADER, *lines]) + (newline if end else "")


STYLES = st.lists(st.sampled_from(["plain"] * 8 + ["zeros", "quoted"]), min_size=1, max_size=4)
NEWLINES = st.sampled_from(["\n", "\n", "\r\n"])


def _flags(
    seconds: bool,
    json: bool,
    timeout: int,
    now: int | None,
    start: int | None,
    world_size: int | None,
) -> list[str]:
    def time(flag: str, value: int | None) -> list[str]:
        return [] if value is None else [flag, format_time(value, seconds=seconds)]

    flags = ["--timeout", format_time(timeout, seconds=seconds)]
    flags += time("--now", now) + time("--start", start)
    flags += [] if world_size is None else ["--world-size", str(world_size)]
    return flags + ["--seconds"] * seconds + ["--json"] * json


FLAGS = st.builds(
    _flags,
    st.booleans(),
    st.booleans(),
    st.integers(0, 2 * 10**6),
    st.none() | TIMES,
    st.none() | TIMES,
    st.none() | st.integers(0, 12),
)


def _both(path: Path, argv: list[str], *, stdin: bytes = b"") -> tuple[Run, Run]:
    """The command's run with the default engine, and with --engine duckdb."""
    command = ["detect", str(path), *argv]
    return (
        run(solution_cli.main, command, stdin=stdin),
        run(solution_cli.main, [*command, "--engine", "duckdb"], stdin=stdin),
    )


@settings(max_examples=60)  # about 3 s each; 1,500 each found nothing more
@given(
    rows=ROWS,
    styles=STYLES,
    newline=NEWLINES,
    bom=st.booleans(),
    end=st.booleans(),
    flags=FLAGS,
)
def test_any_valid_log_under_any_flags_gives_the_same_output_from_both_engines(
    tmp_path_factory: pytest.TempPathFactory,
    rows: list[Row],
    styles: list[str],
    newline: str,
    bom: bool,
    end: bool,
    flags: list[str],
) -> None:
    """The report is made by the same code from what each engine kept, so it is the same
    byte for byte; flags that make the log bad (a rank outside --world-size, a receipt
    before --start, --now before the first receipt) must give the same line too."""
    text = _text(rows, styles, newline, bom, end, seconds="--seconds" in flags)
    path = tmp_path_factory.mktemp("log") / "log.csv"
    path.write_bytes(text.encode())
    python, duck = _both(path, flags)
    assert duck == python


# Lines the default engine refuses, with or without --seconds, each with the flags it needs.
BAD_LINES: list[tuple[bytes, list[str]]] = [
    (b"", []),  # a blank line
    (b"0,1,+5", []),
    (b"0,1, 5", []),
    (b"0,1,5 ", []),
    (b"0,1,5\t", []),
    (b"0,1,1_000", []),
    (b"0,1,1e2", []),
    (b"0,1,0x10", []),
    (b"0,1,1.", []),
    (b"0,1,.5", []),
    (b"0,1,1.1234567891", []),
    (b"0,-,1", []),
    (b"0,--1,1", []),
    (b"0,1-2,1", []),
    (b"0,,1", []),
    (b"0,1," + b"1" + b"0" * 19, []),  # outside 64 bits
    (b"0,1," + b"0" * 45 + b"1", []),  # 46 digits: out of range, however many are zeros
    (b"1.0,1,1", []),  # a rank is an integer, with --seconds too
    (b"-1,1,1", []),
    (b"1048576,1,1", []),  # a world larger than a log alone may say
    (b"12,1,1", ["--world-size", "12"]),
    (b"0,1,-5000000", ["--start", "-4000000"]),
    ("\u0663,1,1".encode(), []),
    (b"0,1,1,1", []),
    (b"0,1", []),
    (b"0,1\r,1", []),  # a lone carriage return ends a CSV line
    (b"0,1,\x00", []),
    (b"0,1,\xff", []),
    (b'0,"1"x,1', []),
    (b'0,"1,1', []),  # a quote never closed
]


@settings(max_examples=60)  # about 3 s each; 1,500 each found nothing more
@given(
    rows=ROWS,
    at=st.integers(0, 30),
    bad=st.sampled_from(BAD_LINES),
    newline=NEWLINES,
    seconds=st.booleans(),
    json=st.booleans(),
)
def test_a_log_with_one_bad_line_gets_the_same_one_line_error_from_both_engines(
    tmp_path_factory: pytest.TempPathFactory,
    rows: list[Row],
    at: int,
    bad: tuple[bytes, list[str]],
    newline: str,
    seconds: bool,
    json: bool,
) -> None:
    """Wherever the bad line is, DuckDB's leniency must not accept it: exit 2, nothing on
    standard output, and the default engine's one line naming the file and the line."""
    text = _text(rows, ["plain"], newline, False, True, seconds=seconds).encode()
    lines = text.split(newline.encode())
    lines.insert(1 + min(at, len(rows)), bad[0])
    path = tmp_path_factory.mktemp("log") / "log.csv"
    path.write_bytes(newline.encode().join(lines))
    flags = ["--timeout", "5", *bad[1], *["--seconds"] * seconds, *["--json"] * json]
    python, duck = _both(path, flags)
    assert duck == python
    assert (duck.status, duck.stdout) == (BAD, "")
    assert re.fullmatch(r"python -m solution: error: \S*log\.csv:[0-9]+: [^\n]*\n", duck.stderr)


@settings(max_examples=60)  # about 3 s each; 1,500 each found nothing more
@given(
    rows=ROWS.map(lambda rows: rows or [(0, 0, 0)]),
    newline=NEWLINES,
    bom=st.booleans(),
    end=st.booleans(),
    seconds=st.booleans(),
    now=st.none() | TIMES,
)
def test_a_plain_log_is_answered_by_duckdb_not_handed_to_the_default_engine(
    tmp_path_factory: pytest.TempPathFactory,
    rows: list[Row],
    newline: str,
    bom: bool,
    end: bool,
    seconds: bool,
    now: int | None,
) -> None:
    """Otherwise the properties above would hold by comparing the default engine with
    itself; DuckDB's answer must be what the default engine keeps, field by field."""
    path = tmp_path_factory.mktemp("log") / "log.csv"
    path.write_bytes(_text(rows, ["plain"], newline, bom, end, seconds=seconds).encode())
    expected = replay(path, seconds=seconds, now=now, rank_limit=100)

    def refused(*args: object, **kwargs: object) -> Replay:
        raise AssertionError("handed to the default engine")

    with mock.patch.object(duckdb_engine, "default_replay", refused):
        assert duckdb_engine.replay(path, seconds=seconds, now=now, rank_limit=100) == expected


DETECT_CASES = [case for case in CASES if case[1][1][0] == "detect"]


@pytest.mark.parametrize(
    ("what", "command", "log"),
    [case[:3] for case in DETECT_CASES],
    ids=[case[0] for case in DETECT_CASES],
)
def test_every_detect_input_in_the_table_gets_the_same_from_both_engines(
    tmp_path: Path, what: str, command: tuple[object, list[str]], log: bytes | None
) -> None:
    """The command-line table of test_cli_inputs, each row under --engine duckdb too: bad
    flags, a missing file, a field of 100,000 digits, an empty log, UTF-16."""
    path = tmp_path / "log.csv"
    if log is not None:
        path.write_bytes(log)
    python, duck = _both(path, command[1][2:])
    assert duck == python, what


def test_a_log_on_standard_input_gets_the_same_from_both_engines() -> None:
    """DuckDB cannot prove a stream plain (it has no size): the default engine reads it."""
    log = f"{HEADER}\n0,1,10\n1,2,12\n0,3,1e2\n".encode()
    python, duck = _both(Path("-"), ["--timeout", "5"], stdin=log)
    assert duck == python
    refused = "<stdin>:4: '1e2' is not an integer time (ASCII digits, maybe a minus)"
    assert duck.stderr == f"python -m solution: error: {refused}\n"


def test_without_duckdb_the_engine_exits_2_with_one_line_saying_what_to_install(
    tmp_path: Path,
) -> None:
    """The default engine needs nothing installed; the duckdb engine says what it needs."""
    path = tmp_path / "log.csv"
    path.write_text(f"{HEADER}\n0,1,10\n")
    with mock.patch.dict(sys.modules, {"duckdb": None}):  # import duckdb raises ImportError
        result = run(
            solution_cli.main, ["detect", str(path), "--timeout", "5", "--engine", "duckdb"]
        )
    assert result == Run(BAD, "", f"python -m solution: error: {duckdb_engine.INSTALL}\n")


def test_duckdb_casts_text_of_digits_and_minus_signs_exactly_as_the_default_engine_parses() -> None:
    """The proof's one assumption about DuckDB: over [0-9-], once the scan has excluded every
    other byte, its cast to BIGINT accepts `-?[0-9]+` inside 64 bits and nothing else, and
    gives logfile's value; here every such text up to 5 characters, and the 64-bit edges."""
    texts = ["".join(p) for n in range(1, 6) for p in itertools.product("019-", repeat=n)]
    texts += [str(2**63 - 1), str(2**63), str(-(2**63)), str(-(2**63) - 1), "0" * 19 + "7"]
    connection = duckdb.connect()
    connection.execute("CREATE TABLE texts (t VARCHAR)")
    connection.executemany("INSERT INTO texts VALUES (?)", [[t] for t in texts])
    cast = dict(connection.execute("SELECT t, TRY_CAST(t AS BIGINT) FROM texts").fetchall())
    assert cast == {t: _parsed(t) for t in texts}


def _parsed(text: str) -> int | None:
    try:
        return parse_time(text)
    except ValueError:
        return None

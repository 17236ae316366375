"""What the command lines do with every kind of input a log or a typo brings.

One table: the command, the log (bytes), the exit status, and a fragment of
the one line it must print.  Then a fuzz test whose logs come from a grammar
of *mostly valid* input (valid rows with one field broken, huge or negative
numbers, odd encodings, wrong column counts), so the deep paths are reached:
whatever it generates, the command ends within its time limit with status 0
or 2, and never with an exception.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from solution import cli as solution_cli
from tests.support.cli_runs import Run, run
from variants import cli as variants_cli

pytestmark = pytest.mark.reference

OK, BAD = 0, 2
BEATS = b"rank,sent_at,received_at\n0,1,10\n1,2,12\n0,3,20\n"
EVENTS = b"time,gpu,job,event\n0,0,a,start\n7200,0,a,stop\n3600,1,b,start\n"
Main = Callable[[Sequence[str] | None], int]


def detect(*flags: str) -> tuple[Main, list[str]]:
    return solution_cli.main, ["detect", "{log}", "--timeout", "5", *flags]


def threshold(*flags: str) -> tuple[Main, list[str]]:
    base = {"--interval": "1000", "--miss-probability": "1/100", "--ranks": "8", "--horizon": "9"}
    base |= dict(zip(flags[::2], flags[1::2], strict=True))
    return solution_cli.main, ["threshold", *(part for item in base.items() for part in item)]


def utilization(*flags: str) -> tuple[Main, list[str]]:
    return variants_cli.main, ["utilization", "{log}", "--gpus", "4", *flags]


# fmt: off
# (what, (main, argv), log bytes or None for no file, status, fragment of stdout or stderr)
CASES: list[tuple[str, tuple[Main, list[str]], bytes | None, int, str]] = [
    ("a good log", detect(), BEATS, OK, "1 of 2 ranks silent"),
    ("no such file", detect(), None, BAD, "log.csv: cannot read: No such file"),
    ("an empty file", detect(), b"", BAD, "log.csv: empty file"),
    ("a wrong header", detect(), b"rank,received_at\n0,1\n", BAD, "got 'rank,received_at'"),
    ("a byte-order mark", detect(), b"\xef\xbb\xbf" + BEATS, OK, "1 of 2 ranks silent"),
    ("a NUL in the header", detect(), b"rank,sent_at,received_at\x00\n0,1,1\n", BAD, "got 'rank,sent_at,received_at\\x00'"),
    ("a NUL in a row", detect(), b"rank,sent_at,received_at\n0,1\x00,1\n", BAD, "log.csv:2: a NUL byte in '1\\x00'"),
    ("not UTF-8", detect(), b"rank,sent_at,received_at\n0,1,\xff\n", BAD, "log.csv:2: not UTF-8"),
    ("UTF-16", detect(), "rank,sent_at,received_at\n".encode("utf-16"), BAD, "log.csv:1: not UTF-8"),
    ("two fields", detect(), b"rank,sent_at,received_at\n0,1,1\n0,2\n", BAD, "log.csv:3: expected 3 fields"),
    ("four fields", detect(), b"rank,sent_at,received_at\n0,1,1,1\n", BAD, "log.csv:2: expected 3 fields"),
    ("a blank line", detect(), b"rank,sent_at,received_at\n0,1,1\n\n0,2,2\n", BAD, "log.csv:3: blank line"),
    ("a float time", detect(), b"rank,sent_at,received_at\n0,1,1.5\n", BAD, "log.csv:2: '1.5' is not an integer time"),
    ("a word for a rank", detect(), b"rank,sent_at,received_at\nzero,1,1\n", BAD, "log.csv:2: rank 'zero' is not an integer"),
    ("an empty sent_at", detect(), b"rank,sent_at,received_at\n0,,1\n", BAD, "log.csv:2: '' is not an integer time"),
    ("a rank outside the world", detect("--world-size", "4"), b"rank,sent_at,received_at\n0,1,1\n7,2,2\n", BAD, "log.csv:3: rank 7 is outside [0, 4)"),
    ("a negative rank", detect(), b"rank,sent_at,received_at\n0,1,1\n-1,2,2\n", BAD, "log.csv:3: rank -1 is outside"),
    ("a rank of 10**30, no --world-size", detect(), b"rank,sent_at,received_at\n" + b"1" + b"0" * 30 + b",1,1\n", BAD, "pass --world-size"),
    ("a rank of 10**7, no --world-size", detect(), b"rank,sent_at,received_at\n10000000,1,1\n", BAD, "log.csv:2: rank 10000000 would make the world"),
    ("a rank of 10**7 with --world-size", detect("--world-size", "10000001"), b"rank,sent_at,received_at\n10000000,1,1\n", BAD, "--world-size 10000001 is not a job's size"),
    ("--world-size 10**30", detect("--world-size", "1" + "0" * 30), BEATS, BAD, "is not a job's size"),
    ("--world-size -1", detect("--world-size", "-1"), BEATS, BAD, "--world-size -1 is not a job's size"),
    ("--world-size four", detect("--world-size", "four"), BEATS, BAD, "argument --world-size: 'four' is not an integer"),
    ("a heartbeat before --start", detect("--start", "5"), b"rank,sent_at,received_at\n0,1,1\n0,2,9\n", BAD, "log.csv:2: heartbeat received at 1, before start 5"),
    ("--now not a time", detect("--now", "soon"), BEATS, BAD, "--now: 'soon' is not an integer time"),
    ("--now before the first heartbeat", detect("--now", "5"), BEATS, BAD, "--now 5 is before the first heartbeat, received at 10: pass --start too"),
    ("--now before --start", detect("--now", "5", "--start", "9"), BEATS, BAD, "--now 5 is before --start 9"),
    ("no heartbeats", detect(), b"rank,sent_at,received_at\n", BAD, "log.csv: no heartbeats: give --now, --start and --world-size"),
    ("no heartbeats, every flag", detect("--now", "9", "--start", "0", "--world-size", "2"), b"rank,sent_at,received_at\n", OK, "2 of 2 ranks silent"),
    ("10 decimals of a second", detect("--seconds", "--now", "1.0000000001"), BEATS, BAD, "at most 9 decimals"),
    ("--timeout -3", detect("--timeout", "-3"), BEATS, BAD, "--timeout -3 is negative"),
    ("--timeout -0.5 s", detect("--seconds", "--timeout", "-0.5"), BEATS, BAD, "--timeout -0.5 is negative"),
    ("--timeout in words", detect("--timeout", "five"), BEATS, BAD, "--timeout: 'five' is not an integer time"),
    ("a field too long", detect(), b"rank,sent_at,received_at\n0,1," + b"9" * 200_000 + b"\n", BAD, "log.csv:2: not CSV: field larger than field limit"),
    ("times of 10**30", detect(), b"rank,sent_at,received_at\n0,1,1" + b"0" * 30 + b"\n", BAD, "log.csv:2: '1" + "0" * 30 + "' is out of range: a time fits in 64 bits"),
    ("times in decimal seconds", detect("--seconds"), b"rank,sent_at,received_at\n0,1.5,10.000000001\n1,2,20\n", OK, "1 of 2 ranks silent"),
    ("a quoted number", detect(), b'rank,sent_at,received_at\n"0","1","10"\n', OK, "0 of 1 ranks silent"),
    ("Windows line ends", detect(), BEATS.replace(b"\n", b"\r\n"), OK, "1 of 2 ranks silent"),
    ("a log with no final line end", detect(), BEATS.rstrip(b"\n"), OK, "1 of 2 ranks silent"),
    ("a rank in Arabic-Indic digits", detect(), "rank,sent_at,received_at\n\u0663,1,1\n".encode(), BAD, "log.csv:2: rank '\u0663' is not an integer (ASCII digits, maybe a minus)"),
    ("a time with a plus", detect(), b"rank,sent_at,received_at\n0,1,+5\n", BAD, "log.csv:2: '+5' is not an integer time"),
    ("a time with an underscore", detect(), b"rank,sent_at,received_at\n0,1,1_000\n", BAD, "log.csv:2: '1_000' is not an integer time"),
    ("a time with a space", detect(), b"rank,sent_at,received_at\n0,1, 5\n", BAD, "log.csv:2: ' 5' is not an integer time"),
    ("a time of 100,000 digits", detect(), b"rank,sent_at,received_at\n0,1," + b"7" * 100_000 + b"\n", BAD, "(100,000 characters) is out of range: a time fits in 64 bits"),
    ("a time of 5,000 digits in seconds", detect("--seconds"), b"rank,sent_at,received_at\n0,1," + b"7" * 5_000 + b"\n", BAD, "(5,000 characters) is out of range: a time fits in 64 bits"),
    ("--timeout with a plus", detect("--timeout", "+5"), BEATS, BAD, "--timeout: '+5' is not an integer time"),
    ("--world-size with an underscore", detect("--world-size", "1_0"), BEATS, BAD, "argument --world-size: '1_0' is not an integer (ASCII digits"),
    ("a JSON report says its unit", detect("--json"), BEATS, OK, '"unit": "ticks"'),
    ("a JSON report in seconds says ns", detect("--json", "--seconds"), BEATS, OK, '"unit": "ns"'),
    ("a never-heard rank is counted in the heading", detect("--world-size", "3"), BEATS, OK, "2 of 3 ranks silent for more than 5 as of 20 (1 never heard):"),
    ("lab --json --markdown", (solution_cli.main, ["lab", "--json", "--markdown"]), None, BAD, "argument --markdown: not allowed with argument --json (see python -m solution lab --help)"),
    ("collect --job ''", (solution_cli.main, ["collect", "--job", "", "--world-size", "2", "--timeout", "1"]), None, BAD, "argument --job: '' is not a job name the heartbeats can carry"),
    ("collect --job 'a b'", (solution_cli.main, ["collect", "--job", "a b", "--world-size", "2", "--timeout", "1"]), None, BAD, "argument --job: 'a b' is not a job name"),
    ("collect --job of 300 characters", (solution_cli.main, ["collect", "--job", "x" * 300, "--world-size", "2", "--timeout", "1"]), None, BAD, "(300 characters) is not a job name"),
    ("threshold 1/0", threshold("--miss-probability", "1/0"), None, BAD, "'1/0' is not an exact decimal or fraction"),
    ("threshold budget 1/0", threshold("--budget", "1/0"), None, BAD, "'1/0' is not an exact decimal or fraction"),
    ("threshold nan", threshold("--miss-probability", "nan"), None, BAD, "'nan' is not an exact decimal"),
    ("threshold p = 1", threshold("--miss-probability", "1"), None, BAD, "miss_probability must be in [0, 1)"),
    ("threshold budget 0", threshold("--budget", "0"), None, BAD, "budget must be > 0"),
    ("threshold interval 0", threshold("--interval", "0"), None, BAD, "interval must be > 0"),
    ("threshold ranks -1", threshold("--ranks", "-1"), None, BAD, "ranks and delay >= 0"),
    ("threshold p = 0.99999", threshold("--miss-probability", "0.99999", "--ranks", "1024", "--horizon", "604800000"), None, OK, "k = 2024403, the smallest"),
    ("threshold p = 1 - 10**-60", threshold("--miss-probability", "0." + "9" * 60), None, OK, "the smallest k >= 1"),
    ("threshold p = 1e-400", threshold("--miss-probability", "1e-400"), None, OK, "k = 1, the smallest"),
    ("threshold horizon 10**30", threshold("--horizon", "1" + "0" * 30), None, OK, "k = 14, the smallest"),
    ("utilization, a good log", utilization(), EVENTS, OK, "Peak: 2 of 4 GPUs busy over [3600, 7200)"),
    ("utilization, no such file", utilization(), None, BAD, "log.csv: cannot read"),
    ("utilization, an empty file", utilization(), b"", BAD, "log.csv: empty file"),
    ("utilization, a wrong header", utilization(), b"time,gpu,job\n0,0,a\n", BAD, "got 'time,gpu,job'"),
    ("utilization, no events", utilization(), b"time,gpu,job,event\n", BAD, "log.csv: no events"),
    ("utilization, a NUL", utilization(), b"time,gpu,job,event\n0,0,a\x00,start\n", BAD, "log.csv:2: a NUL byte"),
    ("utilization, not UTF-8", utilization(), b"time,gpu,job,event\n0,0,\xe9,start\n", BAD, "log.csv:2: not UTF-8"),
    ("utilization, a float time", utilization(), b"time,gpu,job,event\n1.5,0,a,start\n", BAD, "log.csv:2: time '1.5' is not an integer"),
    ("utilization, a GPU outside", utilization(), b"time,gpu,job,event\n0,7,a,start\n", BAD, "log.csv:2: GPU 7 is outside [0, 4)"),
    ("utilization, an unknown kind", utilization(), b"time,gpu,job,event\n0,0,a,pause\n", BAD, "log.csv:2: unknown kind 'pause'"),
    ("utilization, a stray stop", utilization(), b"time,gpu,job,event\n0,0,a,start\n5,0,a,stop\n7,0,a,stop\n", BAD, "log.csv:4: stop without a start"),
    ("utilization, a time of 10**30", utilization(), b"time,gpu,job,event\n0,0,a,start\n1" + b"0" * 30 + b",0,a,stop\n", BAD, "pass a larger --bucket or a shorter --horizon"),
    ("utilization, --until 10**30", utilization("--until", "1" + "0" * 30), EVENTS, BAD, "more than the 10,000 rows"),
    ("utilization, a stop at 10**12", utilization(), b"time,gpu,job,event\n0,0,a,start\n1000000000000,0,a,stop\n", BAD, "277,777,778 buckets"),
    ("utilization, epoch seconds", utilization(), b"time,gpu,job,event\n1764400000,0,a,start\n1764486400,0,a,stop\n", OK, "horizon [1764400000, 1764486400)"),
    ("utilization, a bucket of 0", utilization("--bucket", "0"), EVENTS, BAD, "argument --bucket: must be at least 1, got '0'"),
    ("utilization, --below -1", utilization("--below", "-1"), EVENTS, BAD, "argument --below: must be at least 1, got '-1'"),
    ("utilization, starts only: an empty horizon", utilization(), b"time,gpu,job,event\n5,0,a,start\n", OK, "the horizon [5, 5) is empty (a log ends at its last event; pass --until"),
    ("utilization, --gpus +4", (variants_cli.main, ["utilization", "{log}", "--gpus", "+4"]), EVENTS, BAD, "argument --gpus: '+4' is not an integer (ASCII digits"),
    ("utilization, a backwards horizon", utilization("--horizon", "9", "5"), EVENTS, BAD, "--horizon ends before it starts"),
    ("utilization, an event after --until", utilization("--until", "5"), EVENTS, BAD, "log.csv:3: event after the end"),
    ("detect, a flag abbreviated", detect("--time", "5"), BEATS, BAD, "unrecognized arguments: --time"),
    ("threshold, a flag abbreviated", (solution_cli.main, ["threshold", "--interval", "1000", "--miss", "1/100", "--ranks", "8", "--horizon", "9"]), None, BAD, "the following arguments are required: --miss-probability"),
    ("jobs submit, --win for --window-ms", (variants_cli.main, ["jobs", "submit", "--store", "sqlite:{log}.db", "b1", "{log}", "--win", "99"]), b"", BAD, "unrecognized arguments: --win 99"),
]
# fmt: on


def play(
    tmp_path: Path, command: tuple[Main, list[str]], log: bytes | None, stdin: bytes = b""
) -> Run:
    main, argv = command
    path = tmp_path / "log.csv"
    if log is not None:
        path.write_bytes(log)
    return run(main, [str(path) if arg == "{log}" else arg for arg in argv], stdin=stdin)


@pytest.mark.parametrize(
    ("what", "command", "log", "status", "fragment"), CASES, ids=[c[0] for c in CASES]
)
def test_every_input_in_the_table_gets_its_status_and_one_line(
    tmp_path: Path,
    what: str,
    command: tuple[Main, list[str]],
    log: bytes | None,
    status: int,
    fragment: str,
) -> None:
    result = play(tmp_path, command, log)
    assert result.status == status, f"{what}: {result}"
    if status == BAD:
        assert fragment in result.stderr, result.stderr
        assert result.stdout == "", "nothing that looks like a report on bad input"
        assert len(result.stderr.splitlines()) == 1, f"one line, no usage: {result.stderr}"
        assert len(result.stderr) < 400, f"a value quoted in a message is shortened: {result}"
    else:
        assert fragment in result.stdout, result.stdout


@pytest.mark.parametrize(
    ("command", "content", "status", "fragment"),
    [
        (detect(), BEATS, OK, "1 of 2 ranks silent"),
        (
            detect(),
            b"rank,sent_at,received_at\n0,1,x\n",
            BAD,
            "<stdin>:2: 'x' is not an integer time",
        ),
        (utilization(), EVENTS, OK, "Peak: 2 of 4 GPUs busy"),
        (utilization(), b"time,gpu,job,event\n0,9,a,start\n", BAD, "<stdin>:2: GPU 9 is outside"),
    ],
)
def test_a_dash_reads_the_log_from_standard_input(
    tmp_path: Path, command: tuple[Main, list[str]], content: bytes, status: int, fragment: str
) -> None:
    main, argv = command
    result = run(main, ["-" if arg == "{log}" else arg for arg in argv], stdin=content)
    assert result.status == status, result
    assert fragment in (result.stdout if status == OK else result.stderr)


# --- the grammar of mostly valid logs --------------------------------------------------


def _numbers() -> st.SearchStrategy[str]:
    """Numbers a log might hold: small, negative, huge, or not quite numbers."""
    return st.one_of(
        st.integers(0, 40).map(str),
        st.integers(-(10**40), 10**40).map(str),
        st.sampled_from(
            [
                "",
                " 7 ",
                "1.5",
                "1e3",
                "0x10",
                "1_000",
                "٣",
                "nan",
                "-0",
                "+5",
                "--1",
                "9" * 5000,
                "\x00",
                '"1"',
                "1,2",
            ]
        ),
    )


def _row(fields: list[st.SearchStrategy[str]]) -> st.SearchStrategy[list[str]]:
    """Mostly a good row; sometimes one field broken, sometimes the wrong width."""
    good = st.tuples(*fields).map(list)
    broken = st.tuples(good, st.integers(0, len(fields) - 1), _numbers()).map(
        lambda parts: [parts[2] if i == parts[1] else f for i, f in enumerate(parts[0])]
    )
    wrong_width = st.lists(_numbers(), min_size=0, max_size=len(fields) + 2)
    return st.one_of(*[good] * 6, broken, wrong_width)


def _log(
    header: str,
    fields: list[st.SearchStrategy[str]],
    rows: st.SearchStrategy[list[list[str]]] | None = None,
) -> st.SearchStrategy[bytes]:
    """A log: mostly a good header, good rows, UTF-8; sometimes not."""
    odd_headers = [
        "\ufeff" + header,
        header.upper(),
        header + ",extra",
        "",
        header.replace(",", ";"),
    ]
    headers = st.sampled_from([header] * 10 + odd_headers)
    encodings = st.sampled_from(["utf-8"] * 10 + ["latin-1", "utf-16"])
    return st.builds(
        lambda head, body, end, encoding: end.join([head, *(",".join(r) for r in body)]).encode(
            encoding, errors="replace"
        ),
        headers,
        rows if rows is not None else st.lists(_row(fields), max_size=12),
        st.sampled_from(["\n", "\n", "\r\n", "\r"]),
        encodings,
    )


def _ints(low: int, high: int) -> st.SearchStrategy[str]:
    return st.integers(low, high).map(str)


BEAT_FIELDS = [_ints(0, 3), _ints(0, 40), _ints(0, 40)]


def _event_rows() -> st.SearchStrategy[list[list[str]]]:
    """Start and stop pairs of distinct (GPU, job)s, in any order, now and then a broken row."""
    pair = st.tuples(
        st.integers(0, 3), st.sampled_from("abcé"), st.integers(0, 50), st.integers(0, 20)
    )
    pairs = st.lists(pair, max_size=6, unique_by=lambda p: (p[0], p[1])).map(
        lambda chosen: [
            row
            for gpu, job, start, length in chosen
            for row in (
                [str(start), str(gpu), job, "start"],
                [str(start + length), str(gpu), job, "stop"],
            )
        ]
    )
    extra = st.lists(_row(EVENT_FIELDS), max_size=2)
    return st.tuples(pairs, extra, st.randoms(use_true_random=False)).map(
        lambda parts: parts[2].sample(parts[0] + parts[1], len(parts[0]) + len(parts[1]))
    )


EVENT_FIELDS = [
    _ints(0, 60),
    _ints(0, 3),
    st.sampled_from(["a", "b", "c", "é"]),
    st.sampled_from(["start", "stop", "start", "stop", "pause", "START", ""]),
]


_flags = st.lists(
    st.sampled_from(
        [
            ["--now", "30"],
            ["--now", "-5"],
            ["--now", "1" + "0" * 30],
            ["--start", "0"],
            ["--start", "25"],
            ["--world-size", "3"],
            ["--world-size", "0"],
            ["--world-size", "1" + "0" * 30],
            ["--seconds"],
            ["--json"],
            ["--timeout", "-1"],
            ["--timeout", "0.5"],
            ["--timeout", "1" + "0" * 30],
        ]
    ),
    max_size=4,
).map(lambda chosen: [part for flag in chosen for part in flag])


def _ends_cleanly(result: Run) -> None:
    assert result.status in (OK, BAD), result
    assert "Traceback" not in result.stderr
    if result.status == BAD:
        assert result.stdout == "", result
    # What the run ended with, without the file and numbers: --hypothesis-show-statistics
    # shows how often each path was reached.
    message = result.stderr.partition("error: ")[2].strip()
    message = re.sub(r"^\S*log\.csv(:[0-9]+)?: ", "", message)
    event(re.sub(r"'.*'|[0-9,]+", "#", message)[:60] if result.status else "a report")


@settings(max_examples=150, deadline=None)
@given(log=_log("rank,sent_at,received_at", BEAT_FIELDS), flags=_flags)
def test_detect_on_mostly_valid_logs_ends_with_0_or_2(
    tmp_path_factory: pytest.TempPathFactory, log: bytes, flags: list[str]
) -> None:
    tmp = tmp_path_factory.mktemp("fuzz")
    _ends_cleanly(
        play(tmp, (solution_cli.main, ["detect", "{log}", "--timeout", "5", *flags]), log)
    )


@settings(max_examples=100, deadline=None)
@given(
    log=_log("time,gpu,job,event", EVENT_FIELDS, _event_rows()),
    flags=st.lists(
        st.sampled_from(
            [
                ["--until", "50"],
                ["--until", "1" + "0" * 30],
                ["--bucket", "1"],
                ["--bucket", "7"],
                ["--horizon", "0", "9"],
                ["--below", "2"],
                ["--json"],
            ]
        ),
        max_size=3,
    ).map(lambda chosen: [part for flag in chosen for part in flag]),
)
def test_utilization_on_mostly_valid_logs_ends_with_0_or_2(
    tmp_path_factory: pytest.TempPathFactory, log: bytes, flags: list[str]
) -> None:
    tmp = tmp_path_factory.mktemp("fuzz")
    _ends_cleanly(
        play(tmp, (variants_cli.main, ["utilization", "{log}", "--gpus", "4", *flags]), log)
    )


@settings(max_examples=150, deadline=None)
@given(
    st.fixed_dictionaries(
        {
            "--interval": _numbers(),
            "--miss-probability": st.one_of(
                _numbers(),
                st.sampled_from(["0.5", "1/3", "0.99999", "1/0", "0.999999999999", "2/3"]),
            ),
            "--ranks": _numbers(),
            "--horizon": _numbers(),
            "--budget": st.one_of(_numbers(), st.sampled_from(["1/10", "1e-30", "0"])),
            "--delay": _numbers(),
        }
    )
)
def test_threshold_on_any_numbers_ends_with_0_or_2(flags: dict[str, str]) -> None:
    argv = ["threshold", *(part for item in flags.items() for part in item)]
    _ends_cleanly(run(solution_cli.main, argv))

"""The live collector on real processes and real sockets: nothing here is mocked.

Workers are real processes heartbeating over UDP on localhost; they are
killed (SIGKILL), frozen (SIGSTOP) and hung (their loop stops, their
heartbeat thread goes on).  Detection must fall in the threshold
arithmetic's window plus a stated scheduling margin; no healthy rank may be
reported; every process started must be reaped.  The parser is fuzzed; the
collector is flooded; its metrics are scraped over HTTP.
"""

from __future__ import annotations

import collections
import signal
import socket
import struct
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kata.exercises import ROOT
from solution.live.collector import Collector
from solution.live.demo import live
from solution.live.group import group_sockets
from solution.live.metrics import Metrics
from solution.live.sender import Sender
from solution.live.wire import Datagram, Malformed, encode, parse
from tests.support.cli_runs import ctrl_c_as_at_a_terminal, python_m

pytestmark = pytest.mark.reference

MARGIN = 0.5  # seconds of scheduling on a busy 2-core machine, beyond the arithmetic's window
MS = 1_000_000


def test_kill_stop_and_hang_are_each_detected_within_the_predicted_window() -> None:
    lines: list[str] = []
    result = live(ranks=6, interval=0.1, out=lines.append)
    assert result.reaped, lines
    assert result.false_reports == (), lines
    for detection in result.detections:
        low, high = detection.predicted
        assert detection.after is not None, (detection, lines)
        assert low - 0.02 <= detection.after <= high + MARGIN, (detection, lines)
    assert {d.how for d in result.detections} == {"SIGKILL", "SIGSTOP", "hang"}
    assert result.heard_again, lines  # the frozen rank, continued, is heard from again


def _send(address: tuple[str, int], *datagrams: bytes) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sender:
        for data in datagrams:
            sender.sendto(data, address)


def _collector(**overrides: object) -> Collector:
    settings: dict[str, object] = {
        "job": "test",
        "world_size": 2,
        "timeout": 300 * MS,
        "out": lambda line: None,
    }
    return Collector(**(settings | overrides))  # type: ignore[arg-type]


def test_junk_is_counted_by_reason_and_never_marks_a_rank_alive() -> None:
    collector = _collector()
    try:
        _send(
            collector.address,
            b"HB2 test 0 1 1",
            b"HB1 other 0 1 1",
            b"HB1 test 7 1 1",
            b"HB1 test zero 1 1",
            b"\x00\xff garbage",
            b"",
        )
        deadline = time.monotonic() + 2
        while collector.stats.received < 6 and time.monotonic() < deadline:
            collector.poll(0.05)
        assert collector.stats.received == 6
        assert collector.stats.accepted == 0
        assert collector.heard == set()
        assert dict(collector.stats.rejected) == {
            "unknown version": 1,
            "another job": 1,
            "rank outside the world": 1,
            "bad rank": 1,
            "not a heartbeat": 2,
        }
        collector.run(0.4)
        never = {e.rank for e in collector.stats.events if e.kind == "never heard"}
        assert never == {0, 1}  # silent since the collector started: never heard, not stopped
    finally:
        collector.close()


def _verdict(data: bytes) -> Datagram | str:
    """The heartbeat, or the reason it was refused; any other exception escapes."""
    try:
        return parse(data)
    except Malformed as refused:
        return refused.reason


@given(st.binary(max_size=200))
def test_the_parser_returns_a_heartbeat_or_a_reason_for_any_bytes(data: bytes) -> None:
    verdict = _verdict(data)
    assert isinstance(verdict, Datagram) or verdict


fields = st.one_of(
    st.sampled_from(["HB1", "HB2", "HB", "hb1", ""]),
    st.from_regex(r"[A-Za-z0-9._-]{0,70}", fullmatch=True),
    st.integers(-(2**64), 2**64).map(str),
    st.text(max_size=6),
)


@given(st.lists(fields, min_size=1, max_size=7), st.sampled_from([" ", "  ", "\t", ""]))
def test_near_valid_datagrams_parse_or_are_refused_by_reason(parts: list[str], gap: str) -> None:
    """Version-1 datagrams with fields broken one way or another: never anything but a
    heartbeat, or Malformed with its reason."""
    data = gap.join(parts).encode("utf-8", "surrogatepass")
    verdict = _verdict(data)
    if isinstance(verdict, Datagram):  # what parses is what a sender would have sent
        sent = encode(*verdict)  # an incarnation of 0 may be written or left out; "\n" too
        assert data.removesuffix(b"\n") in (sent, sent + b" 0")
    else:
        assert verdict


heartbeats = st.builds(
    Datagram,
    job=st.from_regex(r"[A-Za-z0-9._-]{1,64}", fullmatch=True),
    rank=st.integers(0, 2**31 - 1),
    sent_at=st.integers(-(2**63), 2**63 - 1),
    progress=st.integers(0, 2**63 - 1),
    incarnation=st.integers(0, 2**63 - 1),
)


@given(heartbeats, st.booleans())
def test_each_version_carries_every_heartbeat_exactly(heartbeat: Datagram, binary: bool) -> None:
    """Text or binary, what a sender encodes is what the collector parses, field for field."""
    assert parse(encode(*heartbeat, binary=binary)) == heartbeat


@given(heartbeats, st.integers(0, 95), st.binary(min_size=1, max_size=3))
def test_a_binary_datagram_broken_anywhere_parses_or_is_refused(
    heartbeat: Datagram, at: int, junk: bytes
) -> None:
    """Bytes overwritten, cut or added anywhere in a binary heartbeat: a heartbeat the
    sender could have sent, or a reason; never an exception of another kind."""
    data = encode(*heartbeat, binary=True)
    for broken in (data[:at] + junk + data[at + len(junk) :], data[:at], data + junk):
        verdict = _verdict(broken)
        if isinstance(verdict, Datagram):
            assert encode(*verdict, binary=True) == broken
        else:
            assert verdict


def _datagram_of(kind: str, rank: int, junk: bytes) -> bytes:
    """A heartbeat of the collector's job (text or binary), of another job, junk, or this
    job's binary layout with any numbers in it (a negative progress, a rank past 2**31)."""
    if kind == "junk":
        return junk
    if kind == "any numbers":
        return b"HB\x02\x04test" + (junk * 28 + bytes(28))[:28]
    job = "other" if kind == "other job" else "test"
    return encode(job, rank, 1, rank, binary=kind == "binary")


@pytest.fixture(scope="module")
def collector() -> Any:
    made = _collector(world_size=4)
    yield made
    made.close()


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["text", "binary", "other job", "junk", "any numbers"]),
            st.integers(0, 7),
            st.binary(max_size=140),
        ),
        min_size=1,
        max_size=12,
    )
)
def test_every_datagram_is_accepted_or_refused_for_exactly_one_reason(
    collector: Collector, batch: list[tuple[str, int, bytes]]
) -> None:
    """Sent over a real socket: each datagram read is counted once, as a heartbeat accepted
    or under the one reason its parse (or the job, or the world size) gives."""
    datagrams = [_datagram_of(*each) for each in batch]
    expected: collections.Counter[str] = collections.Counter()
    for data in datagrams:
        verdict = _verdict(data)
        if not isinstance(verdict, Datagram):
            expected[verdict] += 1
        elif verdict.job != "test":
            expected["another job"] += 1
        elif verdict.rank >= 4:
            expected["rank outside the world"] += 1
        else:
            expected["accepted"] += 1
    received, accepted = collector.stats.received, collector.stats.accepted
    rejected = collections.Counter(collector.stats.rejected)
    _send(collector.address, *datagrams)
    deadline = time.monotonic() + 2
    while collector.stats.received < received + len(datagrams) and time.monotonic() < deadline:
        collector.poll(0.01)
    refused = collections.Counter(collector.stats.rejected)
    refused.subtract(rejected)
    seen = +refused + collections.Counter({"accepted": collector.stats.accepted - accepted})
    assert collector.stats.received - received == len(datagrams)
    assert seen == +expected


@pytest.mark.parametrize(
    ("numbers", "reason"),
    [
        ((4, 0, 0, 0), "rank outside the world"),
        ((2**31, 0, 0, 0), "bad rank"),
        ((1, 0, -1, 0), "bad progress"),
        ((1, 0, 0, -1), "bad incarnation"),
    ],
)
def test_a_binary_heartbeat_of_the_job_with_numbers_out_of_range_is_refused_by_reason(
    collector: Collector, numbers: tuple[int, int, int, int], reason: str
) -> None:
    """The collector's fast path (this job's layout, unpacked in place) refuses exactly as
    `parse` does: by the reason of the first number out of range."""
    data = b"HB\x02\x04test" + struct.pack("!Iqqq", *numbers)
    before, accepted = collector.stats.rejected[reason], collector.stats.accepted
    _send(collector.address, data)
    deadline = time.monotonic() + 2
    while collector.stats.rejected[reason] == before and time.monotonic() < deadline:
        collector.poll(0.01)
    assert (collector.stats.rejected[reason] - before, collector.stats.accepted) == (1, accepted)


def test_a_flood_is_accounted_for_datagram_by_datagram() -> None:
    """A sender process sends as fast as it can; every datagram is either read by the
    collector or counted by the kernel as dropped: received + dropped == sent."""
    collector = _collector(world_size=1, timeout=10_000 * MS)
    before = collector.drops()
    if before is None:
        pytest.skip("this system does not report a socket's drops (/proc/net/udp)")
    script = (
        "import socket, sys\n"
        "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
        "n = 0\n"
        "for i in range(30_000):\n"
        "    try:\n"
        f"        s.sendto(b'HB1 test 0 %d %d' % (i, i), ('127.0.0.1', {collector.address[1]}))\n"
        "        n += 1\n"
        "    except OSError:\n"
        "        pass\n"
        "print(n)\n"
    )
    try:
        blast = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
        while blast.poll() is None:
            collector.poll(0.01)
        sent = int(blast.communicate()[0])
        quiet = time.monotonic() + 0.5
        while time.monotonic() < quiet:  # what is still queued in the socket
            collector.poll(0.05)
        dropped = collector.drops()
        assert dropped is not None
        assert collector.stats.received + dropped - before == sent
        assert collector.stats.accepted == collector.stats.received
    finally:
        collector.close()


def test_a_paced_stream_of_two_thousand_a_second_loses_nothing() -> None:
    """The stated rate the collector keeps up with, on a busy CI machine: 2,000 heartbeats a
    second (a 2,000-rank job at one a second) for one second, none dropped."""
    collector = _collector(world_size=2_000, timeout=10_000 * MS)
    script = (
        "import socket, time\n"
        "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
        "start = time.monotonic()\n"
        "for i in range(2_000):\n"
        "    while time.monotonic() < start + i / 2_000:\n"
        "        pass\n"
        f"    s.sendto(b'HB1 test %d 0 0' % i, ('127.0.0.1', {collector.address[1]}))\n"
    )
    try:
        before = collector.drops()
        paced = subprocess.Popen([sys.executable, "-c", script])
        while paced.poll() is None:
            collector.poll(0.01)
        end = time.monotonic() + 0.5
        while time.monotonic() < end:
            collector.poll(0.05)
        assert collector.stats.accepted == 2_000
        if before is not None:
            assert collector.drops() == before
    finally:
        collector.close()


def test_the_metrics_are_served_in_the_prometheus_format() -> None:
    pytest.importorskip("prometheus_client")
    metrics = Metrics(0)
    collector = _collector(metrics=metrics)
    try:
        _send(collector.address, encode("test", 0, 1, 1), encode("test", 1, 1, 1), b"junk")
        deadline = time.monotonic() + 2
        while collector.stats.received < 3 and time.monotonic() < deadline:
            collector.poll(0.05)
        collector.run(0.4)  # rank 0 and 1 fall silent: reported, with their detection times
        url = f"http://127.0.0.1:{metrics.port}/metrics"
        with urllib.request.urlopen(url, timeout=5) as response:
            text = response.read().decode()
        assert "heartbeat_collector_heartbeats_total 2.0" in text
        assert 'heartbeat_collector_rejected_total{reason="not a heartbeat"} 1.0' in text
        assert "heartbeat_collector_silent_ranks 2.0" in text
        assert "heartbeat_collector_detection_seconds_count 2.0" in text
        assert "heartbeat_collector_loop_lag_seconds_count" in text
    finally:
        collector.close()
        metrics.close()


def test_a_sender_counts_its_failures_and_never_raises() -> None:
    sender = Sender(("256.256.256.256", 9), job="test", rank=0, interval=0.01)
    sender.send()
    assert (sender.sent, sender.failures) == (0, 1)
    sender.start()
    time.sleep(0.05)  # a real thread on a real clock: let it try a few times
    sender.stop()
    assert sender.failures > 1
    with pytest.raises(ValueError, match="interval"):
        Sender(("127.0.0.1", 9), job="test", rank=0, interval=0)


def _workers_of(job: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if b"solution.live.worker" in command and job.encode() in command:
                found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds processes through /proc")
def test_ctrl_c_ends_and_reaps_every_worker() -> None:
    demo = subprocess.Popen(
        [sys.executable, "-m", "solution", "live", "--ranks", "4", "--interval", "0.1"],
        cwd=ROOT,
        preexec_fn=ctrl_c_as_at_a_terminal,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert demo.stdout is not None
    job = f"demo-{demo.pid}"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        line = demo.stdout.readline()
        if "ranks heard" in line:
            break
    assert len(_workers_of(job)) == 4
    demo.send_signal(signal.SIGINT)
    _, err = demo.communicate(timeout=20)
    assert demo.returncode == 130, err
    assert "every worker ended and reaped" in err
    assert "Traceback" not in err
    assert _workers_of(job) == []


class FakeClock:
    """The collector's clock, moved by the test: the socket is real, the timing exact."""

    def __init__(self) -> None:
        self.now = 1_000 * MS

    def __call__(self) -> int:
        return self.now


def _driven(world_size: int, **overrides: object) -> tuple[Collector, FakeClock, list[str]]:
    clock, lines = FakeClock(), list[str]()
    settings: dict[str, object] = {
        "world_size": world_size,
        "timeout": 100 * MS,
        "check_every": 10 * MS,
        "stall_timeout": 100 * MS,
        "guard_window": 20 * MS,
        "clock": clock,
        "out": lines.append,
    }
    return _collector(**(settings | overrides)), clock, lines


def _deliver(collector: Collector, *datagrams: bytes) -> None:
    """Send the datagrams and read them all (on the collector's clock, which stands still)."""
    before = collector.stats.received
    _send(collector.address, *datagrams)
    deadline = time.monotonic() + 2
    while collector.stats.received < before + len(datagrams) and time.monotonic() < deadline:
        collector.poll(0.05, check=False)
    assert collector.stats.received == before + len(datagrams)


def _advance(collector: Collector, clock: FakeClock, ms: int) -> None:
    """Move the clock by `ms`, a check every 10 ms, as the collector's own loop would."""
    for _ in range(ms // 10):
        clock.now += 10 * MS
        collector.poll(0)


def _kinds(collector: Collector) -> list[tuple[str, int | None]]:
    return [(e.kind, e.rank) for e in collector.stats.events]


def test_ranks_never_heard_are_never_heard_not_a_collector_fault() -> None:
    """No sender has started: four ranks silent together since the start are not a stall of
    the collector (it never heard them), nor ranks that stopped: they are never heard."""
    collector, clock, lines = _driven(4)
    try:
        _advance(collector, clock, 150)
        assert _kinds(collector) == [("never heard", r) for r in range(4)]
        assert any("never heard in 0.110 s: ranks 0-3" in line for line in lines), lines
        _deliver(collector, encode("test", 2, 0, 0))
        _advance(collector, clock, 20)
        assert ("heard", 2) in _kinds(collector)
        assert "0 stopped, 4 never heard" in collector.summary()[-1]
    finally:
        collector.close()


def test_every_sender_silent_at_once_is_one_fault_and_the_summary_says_what_was_held_back() -> None:
    collector, clock, _ = _driven(4)
    try:
        _deliver(collector, *(encode("test", r, 0, 0) for r in range(4)))
        _advance(collector, clock, 150)
        assert _kinds(collector) == [("collector fault", None)]
        assert (
            "(up to 4 ranks silent at once held back as one fault, not reported stopped)"
            in (collector.summary()[-1])
        )
    finally:
        collector.close()


def test_a_restarted_sender_is_a_new_life_not_a_hang() -> None:
    """Rank 0 reaches step 50, then restarts (a higher incarnation) at step 0: its progress
    starts afresh, and steps 1, 2, ... are progress, not a rank stuck below step 50."""
    collector, clock, lines = _driven(1)
    try:
        _deliver(collector, encode("test", 0, 0, 50, incarnation=7))
        _advance(collector, clock, 50)
        for step in range(6):
            _deliver(collector, encode("test", 0, 0, step, incarnation=8))
            _advance(collector, clock, 40)
        assert _kinds(collector) == [("restarted", 0)]
        assert any("rank 0 restarted: a new sender (incarnation 8)" in line for line in lines)
    finally:
        collector.close()


def test_a_datagram_of_an_earlier_life_is_refused_and_marks_nothing() -> None:
    """After incarnation 8 is heard, a stray datagram of incarnation 0 with the largest
    progress there is (or a late one of incarnation 7) is refused: it neither keeps the rank
    alive nor makes the rank look stuck for the rest of the run."""
    collector, clock, _ = _driven(1)
    try:
        _deliver(collector, encode("test", 0, 0, 3, incarnation=8))
        _deliver(collector, b"HB1 test 0 0 9223372036854775807", encode("test", 0, 0, 9, 7))
        assert collector.stats.rejected["an earlier incarnation"] == 2
        for step in range(4, 9):
            _advance(collector, clock, 40)
            _deliver(collector, encode("test", 0, 0, step, incarnation=8))
        assert _kinds(collector) == []  # neither hung nor stopped
        _advance(collector, clock, 120)  # and the stray datagrams kept nothing alive
        assert ("stopped", 0) in _kinds(collector)
    finally:
        collector.close()


def test_a_heartbeat_typed_with_echo_is_accepted() -> None:
    """`echo "HB1 test 0 0 0" | nc -u ...` sends a newline at the end."""
    collector, _, _ = _driven(1)
    try:
        _deliver(collector, b"HB1 test 0 0 0\n")
        assert (collector.stats.accepted, collector.heard) == (1, {0})
    finally:
        collector.close()


def test_a_group_on_one_port_hands_each_rank_to_one_collector() -> None:
    """SO_REUSEPORT with the steering program, on the real kernel: rank r reaches collector
    r % 2 whatever socket it is sent from; a text heartbeat, which cannot be steered, goes
    to collector 0 and is refused by name if it is not its rank."""
    sockets = group_sockets("127.0.0.1", 0, 2, "test")
    collectors = [
        Collector(job="test", world_size=10, timeout=10**12, part=(i, 2), sock=sockets[i])
        for i in range(2)
    ]
    port = sockets[0].getsockname()[1]
    for rank in range(10):
        _send(("127.0.0.1", port), encode("test", rank, 0, 0, binary=True))  # a new port each
    _send(("127.0.0.1", port), encode("test", 3, 0, 0))
    deadline = time.monotonic() + 2
    while sum(c.stats.received for c in collectors) < 11 and time.monotonic() < deadline:
        for each in collectors:
            each.poll(0.01, check=False)
    try:
        assert [sorted(c.heard) for c in collectors] == [[0, 2, 4, 6, 8], [1, 3, 5, 7, 9]]
        assert collectors[0].stats.rejected == {
            "another collector's rank (send binary to a group)": 1
        }
    finally:
        for each in collectors:
            each.close()


def test_collect_with_two_processes_reports_the_rank_that_stopped_once() -> None:
    """`collect --processes 2` as a user runs it: six binary senders, rank 3 stops; the
    collector that owns it reports it, and the summary adds up both collectors' counts."""
    command = [sys.executable, "-m", "solution", "collect", "--job", "test", "--world-size", "6"]
    command += ["--timeout", "0.4", "--processes", "2", "--port", "0", "--duration", "2"]
    collect = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert collect.stdout is not None
    first = collect.stdout.readline()
    port = int(first.split(":")[1].split()[0])
    sent, began = 0, time.monotonic()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sender:
        while time.monotonic() - began < 1.6:
            for rank in range(6):
                if rank != 3 or time.monotonic() - began < 0.4:
                    sender.sendto(encode("test", rank, 0, 0, binary=True), ("127.0.0.1", port))
                    sent += 1
            time.sleep(0.05)  # a sender's interval: real time, on a real socket
    rest, _ = collect.communicate(timeout=30)
    assert collect.returncode == 0, rest
    stopped = [line for line in rest.splitlines() if "stopped:" in line]
    assert len(stopped) == 1, rest
    assert "rank 3 stopped" in stopped[0], rest
    assert f"{sent:,} datagrams read, {sent:,} heartbeats accepted" in rest, rest


def test_a_group_refuses_a_metrics_port_in_one_line() -> None:
    command = ["collect", "--job", "j", "--world-size", "4", "--timeout", "1", "--processes", "2"]
    done = python_m("solution", *command, "--metrics-port", "0", "--duration", "0.1")
    assert (done.returncode, done.stdout) == (2, "")
    says = "--metrics-port serves one collector process, not --processes > 1"
    assert done.stderr == f"python -m solution: error: {says}\n"

"""Calling a candidate's `detect`, checking it against a brute-force oracle,
and telling the candidate which classic mistake a wrong answer most likely shows.

Results are compared by their fields (rank, last_heard, silence), so any
NamedTuple, dataclass or object with those attributes will do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import pytest


class Beat(NamedTuple):
    """A heartbeat as the tests describe it; passed to `detect` as the candidate's type."""

    rank: int
    sent_at: int
    received_at: int


class Row(NamedTuple):
    """One reported rank, as the tests compare it."""

    rank: int
    last_heard: int | None
    silence: int

    def __repr__(self) -> str:
        return f"Stopped(rank={self.rank}, last_heard={self.last_heard}, silence={self.silence})"


@dataclass(frozen=True)
class Call:
    """One call of detect: the question a test asks."""

    heartbeats: tuple[Beat, ...]
    world_size: int
    start: int
    now: int
    timeout: int

    def __str__(self) -> str:
        beats = ", ".join(f"Heartbeat{tuple(b)}" for b in self.heartbeats)
        return (
            f"detect([{beats}], world_size={self.world_size}, start={self.start}, "
            f"now={self.now}, timeout={self.timeout})"
        )


def oracle(call: Call) -> list[Row]:
    """The contract, read literally: one rank at a time, no cleverness."""
    rows = []
    for rank in range(call.world_size):
        heard = [
            b.received_at for b in call.heartbeats if b.rank == rank and b.received_at <= call.now
        ]
        last_heard = max(heard) if heard else None
        silence = call.now - (call.start if last_heard is None else last_heard)
        if silence > call.timeout:
            rows.append(Row(rank, last_heard, silence))
    return sorted(rows, key=lambda row: (-row.silence, row.rank))


def run(detect: Callable[..., Any], call: Call, heartbeat: Callable[..., Any]) -> list[Row]:
    """Call the candidate's detect and read its answer as Rows (or fail saying why)."""
    beats = [heartbeat(*b) for b in call.heartbeats]
    try:
        result = detect(
            beats, world_size=call.world_size, start=call.start, now=call.now, timeout=call.timeout
        )
    except NotImplementedError:
        raise  # the starter, untouched: conftest reports it as not implemented yet
    except Exception as error:
        pytest.fail(
            f"{call}\n  raised {type(error).__name__}: {error}\n"
            "  expected a list of Stopped: this input is valid and must be answered.",
            pytrace=False,
        )
    try:
        return [Row(s.rank, s.last_heard, s.silence) for s in result]
    except (TypeError, AttributeError):
        pytest.fail(
            f"{call}\n  returned {result!r}\n"
            "  expected a list of Stopped(rank, last_heard, silence).",
            pytrace=False,
        )


def check(
    detect: Callable[..., Any],
    call: Call,
    heartbeat: Callable[..., Any],
    *,
    expected: Sequence[Row] | None = None,
    hint: str = "",
) -> list[Row]:
    """Fail, with a message written for the candidate, unless detect answers `call` rightly."""
    want = list(oracle(call) if expected is None else expected)
    got = run(detect, call, heartbeat)
    if got != want:
        mistake = diagnose(call, want, got) or hint or "compare the answer with the contract."
        pytest.fail(
            f"{call}\n  expected: {want}\n       got: {got}\n  Likely mistake: {mistake}",
            pytrace=False,
        )
    return got


def diagnose(call: Call, want: list[Row], got: list[Row]) -> str:
    """Name the classic mistake that turns `want` into `got`, if one fits."""
    if want == got:
        return ""
    if sorted(want) == sorted(got):
        return _diagnose_order(want, got)
    wanted = {row.rank: row for row in want}
    repeated = sorted({row.rank for row in got if [r.rank for r in got].count(row.rank) > 1})
    if repeated:
        return f"ranks {repeated} were reported more than once: one row per silent rank."
    for row in got:
        if not 0 <= row.rank < call.world_size:
            return f"rank {row.rank} is not a rank of this job: ranks are 0..world_size-1."
        truth = _truth(call, row.rank)
        if row.last_heard is None and truth.last_heard is None and row.silence == call.now:
            return (
                f"never-heard rank {row.rank} was measured from time 0: it is silent since start "
                f"({call.start}), so silence = now - start."
            )
        if row.rank not in wanted and row.silence == truth.silence == call.timeout:
            return (
                f"rank {row.rank} is exactly `timeout` late and was reported: the comparison "
                "must be strict (silence > timeout), and exact (integer ticks, no floats). At "
                "that instant its k-th heartbeat is due, not missed."
            )
        if row.last_heard is not None and row.last_heard > call.now:
            return (
                f"rank {row.rank} was last heard at {row.last_heard}, after now={call.now}: only "
                "heartbeats with received_at <= now count (replaying a log as of a time)."
            )
        if row.last_heard is not None and _sent_not_received(call, row):
            return (
                f"rank {row.rank}'s last_heard {row.last_heard} is a sent_at: sender clocks are "
                "skewed and jump; use received_at, the collector's own clock."
            )
        if truth.last_heard is not None and row.last_heard is not None:
            if truth.last_heard == call.now and row.last_heard < call.now:
                return (
                    f"rank {row.rank}'s heartbeat received exactly at now={call.now} was not "
                    "counted: count received_at <= now, not < now."
                )
            if row.last_heard < truth.last_heard:
                return (
                    f"rank {row.rank}'s last_heard {row.last_heard} is not its latest heartbeat "
                    f"({truth.last_heard}): take the greatest received_at, not the last in input "
                    "order."
                )
        if row.last_heard == truth.last_heard and row.silence != truth.silence:
            return (
                f"rank {row.rank}'s silence is {row.silence}, expected now - last_heard = "
                f"{truth.silence}. Integer arithmetic on the collector's ticks is exact; float "
                "seconds are not at these magnitudes."
            )
    got_ranks = {row.rank for row in got}
    for rank, row in wanted.items():
        if rank in got_ranks:
            continue
        if row.last_heard is None:
            return (
                f"rank {rank} never sent a heartbeat and was not reported: a rank never heard "
                f"is silent since start and may have died before its first heartbeat."
            )
        if row.silence == call.timeout + 1 and max(call.now, call.timeout) > 2**53:
            return (
                f"rank {rank} is one tick past the timeout at nanosecond times of "
                f"~{call.now:.1e}: floats cannot tell that apart. Keep integer ticks; never "
                "convert to float seconds."
            )
        received = [b.received_at for b in call.heartbeats if b.rank == rank]
        if any(t > call.now for t in received):
            return (
                f"rank {rank} was hidden by a heartbeat received after now={call.now}: only "
                "heartbeats with received_at <= now count."
            )
        if any(b.rank == rank and b.sent_at > b.received_at for b in call.heartbeats):
            return (
                f"rank {rank} was not reported, yet nothing reached the collector for "
                f"{row.silence} ticks: its sender clock runs ahead. Use received_at, never sent_at."
            )
    return ""


def _diagnose_order(want: list[Row], got: list[Row]) -> str:
    def key(row: Row) -> tuple[int, int]:
        return (-row.silence, row.rank)

    if [key(row)[0] for row in got] == [key(row)[0] for row in want]:
        return (
            "the right ranks, but ties in silence are not ordered by rank ascending: the "
            "order must be deterministic."
        )
    return (
        "the right ranks in the wrong order: longest silence first (the first rank to stop "
        "leads), ties by rank ascending."
    )


def _truth(call: Call, rank: int) -> Row:
    single = Call(call.heartbeats, call.world_size, call.start, call.now, -1)
    return next(row for row in oracle(single) if row.rank == rank)


def _sent_not_received(call: Call, row: Row) -> bool:
    mine = [b for b in call.heartbeats if b.rank == row.rank]
    return any(b.sent_at == row.last_heard for b in mine) and all(
        b.received_at != row.last_heard for b in mine
    )


def beats(rank_times: Iterable[tuple[int, int]]) -> tuple[Beat, ...]:
    """Heartbeats from (rank, received_at) pairs, each sent (by its own clock) when received."""
    return tuple(Beat(rank, received, received) for rank, received in rank_times)

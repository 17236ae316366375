"""The demo: one simulated job, the right report, and two wrong detectors beside it.

The job (seeded, so every run prints the same): 32 ranks beat once a second.
Rank 11 dies; its tensor-parallel peers, ranks 8-15, block in the next
collective and fall silent 2.5 s later.  Rank 5's wall clock is 3 hours behind
and rank 13's 2 hours ahead.  Rank 26 pauses for a checkpoint save and is
silent exactly the timeout at the moment of the report.
"""

from __future__ import annotations

import csv
import sys
from collections.abc import Sequence
from pathlib import Path

from solution.detector import Heartbeat, Stopped, detect
from solution.logfile import HEADER, STDIN, InputError
from solution.simulation import EPOCH_MS, HOUR_MS, Job, heartbeats
from solution.timeline import legend, timeline

SEED = 2026
TIMEOUT = 5_000  # ms: five 1 s intervals
NOW = 62_000
DEAD, GROUP = 11, range(8, 16)
BEHIND, AHEAD, PAUSED = 5, 13, 26
SHOWN = 12_000  # ms of timeline drawn

JOB = Job(
    world_size=32,
    end=NOW,
    silent_from={DEAD: 51_500} | {r: 54_000 + 60 * (r - 8) for r in GROUP if r != DEAD},
    skews={BEHIND: -3 * HOUR_MS, AHEAD: 2 * HOUR_MS, PAUSED: 0},
    # The save starts right after a heartbeat received at NOW - TIMEOUT, and the
    # next one arrives a millisecond after NOW: silent exactly TIMEOUT at NOW.
    paused={PAUSED: ((56_500, NOW),)},
    forced=(
        Heartbeat(PAUSED, EPOCH_MS + 56_985, NOW - TIMEOUT),
        Heartbeat(PAUSED, EPOCH_MS + 61_980, NOW + 1),
    ),
)


def by_sender_clock(beats: Sequence[Heartbeat], *, now_wall: int, timeout: int) -> list[int]:
    """WRONG: silence measured on each sender's clock.  Ranks reported, first first."""
    latest: dict[int, int] = {}
    for beat in beats:
        latest[beat.rank] = max(beat.sent_at, latest.get(beat.rank, beat.sent_at))
    silent = [(now_wall - sent, rank) for rank, sent in latest.items() if now_wall - sent > timeout]
    return [rank for _, rank in sorted(silent, key=lambda s: (-s[0], s[1]))]


def seconds(ms: int) -> str:
    """Milliseconds as seconds with three decimals, exactly."""
    return f"{ms // 1000}.{ms % 1000:03d} s"


def describe(stop: Stopped) -> str:
    last = 0 if stop.last_heard is None else stop.last_heard
    return (
        f"rank {stop.rank:>2}  last heard {seconds(last):>9}  "
        f"declared at {seconds(last + TIMEOUT + 1):>9}  silent {seconds(stop.silence):>8}"
    )


def report() -> list[str]:
    """The demo's screen, as lines."""
    beats = heartbeats(JOB, seed=SEED)
    window = {"world_size": JOB.world_size, "start": 0, "now": NOW}
    stopped = detect(beats, timeout=TIMEOUT, **window)
    reported = [s.rank for s in stopped]
    # Integer time: silence >= TIMEOUT is silence > TIMEOUT - 1.
    inclusive = [s.rank for s in detect(beats, timeout=TIMEOUT - 1, **window)]
    heard = [beat for beat in beats if beat.received_at <= NOW]
    sender = by_sender_clock(heard, now_wall=EPOCH_MS + NOW, timeout=TIMEOUT)
    first, *followers = stopped
    lines = [
        f"A simulated job: {JOB.world_size} ranks, a heartbeat every {seconds(JOB.interval)}, "
        f"arrival jitter up to {seconds(JOB.jitter)}.",
        f"Timeout {seconds(TIMEOUT)} (5 intervals). Replayed as of {seconds(NOW)} "
        "on the collector's monotonic clock.",
        "",
        f"Stopped first   {describe(first)}",
        f"Then, {len(followers)} ranks blocked behind it in the next collective:",
        *(f"                {describe(s)}" for s in followers),
        "",
        "The traps, and what a wrong detector would have reported:",
        f"  rank {PAUSED}  checkpoint save, silent exactly {seconds(TIMEOUT)}: "
        "5th heartbeat due, not missed",
        f"           using >=: {_verdict(inclusive, reported)}",
        f"  rank {BEHIND:>2}  healthy, wall clock 3 h behind; "
        f"rank {AHEAD} blocked, clock 2 h ahead",
        f"           trusting sent_at: {_verdict(sender, reported)}",
        "",
        f"Received, {seconds(NOW - SHOWN)} to {seconds(NOW)}, a column per 0.25 s:",
    ]
    shown = [0, BEHIND, 9, DEAD, AHEAD, PAUSED]
    labels = {0: "healthy", BEHIND: "healthy, clock behind", DEAD: "dies"}
    labels |= {9: "blocked", AHEAD: "blocked, clock ahead", PAUSED: "checkpoint save"}
    draw = timeline(beats, shown, begin=NOW - SHOWN, end=NOW, step=250, labels=labels)
    return lines + [f"  {row}" for row in draw] + [f"  {legend('0.25 s')}"]


def _verdict(wrong: list[int], right: list[int]) -> str:
    """How a wrong report differs from the right one."""
    extra = [r for r in wrong if r not in right]
    missed = [r for r in right if r not in wrong]
    parts = [f"rank {wrong[0]} stopped first" if wrong and wrong[0] != right[0] else ""]
    parts += [f"false alarm on {_ranks(extra)}" if extra else ""]
    parts += [f"misses {_ranks(missed)}" if missed else ""]
    return "; ".join(p for p in parts if p) or "the same report"


def _ranks(ranks: list[int]) -> str:
    return ("rank " if len(ranks) == 1 else "ranks ") + ", ".join(map(str, ranks))


def write_log(path: Path, beats: Sequence[Heartbeat]) -> None:
    """The heartbeats as CSV with the header rank,sent_at,received_at."""
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(HEADER)
        writer.writerows(beats)


def main(log: Path | None = None) -> int:
    """Print the report; with `log`, first write the heartbeat log `detect` can read.

    With ``--log -`` the log is the output, alone (``demo --log - | detect - ...``).
    """
    if log == STDIN:
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(HEADER)
        writer.writerows(heartbeats(JOB, seed=SEED))
        return 0
    if log is not None:
        try:
            write_log(log, heartbeats(JOB, seed=SEED))
        except OSError as error:
            raise InputError(f"{log}: cannot write: {error.strerror or error}") from None
    print("\n".join(report()))
    if log is not None:
        print(
            f"\nWrote the log to {log}; replay it with:\n  python3 -m solution detect {log} "
            f"--timeout {TIMEOUT} --now {NOW} --world-size {JOB.world_size}"
        )
    return 0

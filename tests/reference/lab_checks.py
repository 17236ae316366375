"""A check the lab's tests share: its guarded reports against the guard itself."""

from __future__ import annotations

from fractions import Fraction

from solution.detector import Stopped
from solution.diagnosis import guard_mass_silence
from solution.lab import Job
from solution.lab import detectors as lab
from solution.lab.trace import Trace


def assert_the_guard_holds(heard_by_rank: list[list[int]], limit: int, *, tick: int) -> None:
    """The lab's guarded reports, read at every instant, against the guard itself: a rank is
    reported iff suspected, not in the guard's fault, and the clock (which reads in whole
    ticks) reads at least one window since it was first suspected and last in a fault."""
    job = Job(ranks=16, interval=4, delay=(1, 1), guard_fraction=Fraction(1, 8))
    end, hold = 160, job.window
    suspicions = {
        rank: lab.timeout(Trace(rank, heard, heard, None, None, tick), limit, end)
        for rank, heard in enumerate(heard_by_rank)
    }
    kept, _ = lab.guarded(suspicions, job, tick)
    last_in_fault: dict[int, int] = {}
    for now in range(end):
        active = {
            r: span for r, spans in suspicions.items() for span in spans if span[1] <= now < span[2]
        }
        verdict = guard_mass_silence(
            [Stopped(r, span[0], now - span[0]) for r, span in active.items()],
            world_size=job.ranks,
            start=0,
            window=job.window,
            fraction=job.guard_fraction,
        )
        fault = set(verdict.fault.ranks) if verdict.fault else set()
        for rank in range(4):
            reported = any(start <= now < stop for _, start, stop in kept.get(rank, ()))
            expected = (
                rank in active
                and rank not in fault
                and now // tick * tick
                >= max(active[rank][1], last_in_fault.get(rank, -1) + 1) + hold
            )
            assert reported == expected, (rank, now, tick, suspicions, kept)
        for rank in fault:
            last_in_fault[rank] = now

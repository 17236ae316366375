"""Each detector of the lab, run on a rank's trace: the intervals it suspects the rank.

A detector suspects a rank over ``[start, end)`` between two receipts when
the silence since the first crosses its threshold before the second
arrives; the last receipt's silence runs to the end of the run.  So each
detector is one pass over the receipts, and a suspicion is a tuple
``(onset, start, end)``: when the silence began, and the suspected span.
The results are those of the detectors themselves (`detect`'s rule, and
`PhiAccrual`'s; the tests hold the lab to both); only the work is organised
around suspicions, so a day of a large job takes seconds, not hours.

On a coarse clock (a trace's `tick` above 1) a detector reads time as the
collector does: at an instant t its clock says ``t // tick * tick``, and a
receipt is stamped with that reading when it arrives.  A suspicion can then
begin only at a check on a tick, and ends when the next receipt arrives.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable, Iterable
from fractions import Fraction

from solution.detector import Stopped
from solution.diagnosis.guard import guard_mass_silence
from solution.diagnosis.phi import phi_of, reach
from solution.lab.scenarios import Job
from solution.lab.trace import Trace

Suspicion = tuple[int, int, int]  # (onset, start, end)


def timeout(trace: Trace, limit: int, end: int, *, strict: bool = True) -> list[Suspicion]:
    """`detect`'s rule: suspected iff now - last_heard > limit (>= unless `strict`)."""
    late = limit + 1 if strict else limit
    if trace.tick > 1:
        return _coarse_timeout(trace, late, end)
    found = []
    heard = 0  # silent since the start of the run until first heard
    for received in [*trace.receipts, end]:
        if heard + late < received:
            found.append((heard, heard + late, received))
        heard = received
    return _merged(found)


def _coarse_timeout(trace: Trace, late: int, end: int) -> list[Suspicion]:
    """On a coarse clock: suspected from the first check on a tick at which the stamp of
    the latest receipt is `late` old, until the next receipt arrives."""
    found, tick = [], trace.tick
    heard = since = 0  # the latest receipt's stamp, and when it arrived
    for received in [*trace.receipts, end]:
        first = max(_up(heard + late, tick), since)
        if first < received:
            found.append((heard, first, received))
        heard, since = received // tick * tick, received
    return _merged(found)


def _up(t: int, tick: int) -> int:
    """The first tick at or after t."""
    return -(-t // tick) * tick


def sender_clock(trace: Trace, limit: int, end: int) -> list[Suspicion]:
    """The same rule with silence measured from the latest ``sent_at`` heard: the mistake."""
    found, late, tick = [], limit + 1, trace.tick
    heard, stamp = 0, 0
    ends = itertools.chain(trace.receipts, (end,))
    for received, next_stamp in zip(ends, itertools.chain(trace.stamps, (0,)), strict=True):
        first = stamp + late if tick == 1 else _up(stamp + late, tick)
        if first < heard:
            first = heard
        if first < received:
            found.append((stamp, first, received))
        heard, stamp = received, next_stamp
    return _merged(found)


def phi_accrual(
    trace: Trace,
    end: int,
    *,
    threshold: float = 8.0,
    window: int = 1_000,
    floor: int = 100,
    pause: int = 3_000,
    first: int = 1_000,
) -> list[Suspicion]:
    """`PhiAccrual` fed the trace: suspected from the first silence at which phi >= threshold."""
    found: list[Suspicion] = []
    receipts = trace.receipts
    if not receipts:
        return []
    # The recorded intervals, oldest first; the window is their last `count`.  Their sum
    # is kept as they come; the squares only when a silence comes near the threshold.
    recorded = [first - first // 4, first + first // 4][-window:]
    total, count, record = sum(recorded), len(recorded), recorded.append
    y_reach = reach(threshold)
    near = pause + y_reach * floor - 2  # below mean + this, phi stays under the threshold
    # Intervals are between stamps; a suspicion ends when the next receipt arrives.
    tick = trace.tick
    stamps = receipts if tick == 1 else [r // tick * tick for r in receipts]
    gaps = zip(stamps, _then(stamps, end), receipts, _then(receipts, end), strict=True)
    for heard, arrives, since, until in gaps:
        gap = arrives - heard
        if gap >= total / count + near:
            squares = sum(x * x for x in recorded[-count:])
            silence = _first_suspicious(total, squares, count, pause, floor, threshold, y_reach)
            begins = heard + silence if tick == 1 else max(_up(heard + silence, tick), since)
            if begins < until:
                found.append((heard, begins, until))
            if silence <= gap:
                continue  # not available when it arrived: the interval is not recorded
        record(gap)  # (the last "gap", to the end of the run, is never read again)
        if count == window:
            total += gap - recorded[-window - 1]
        else:
            total += gap
            count += 1
    return _merged(found)


def _then(times: list[int], end: int) -> Iterable[int]:
    """Each time's successor, the end of the run after the last."""
    return itertools.chain(itertools.islice(times, 1, None), (end,))


def _first_suspicious(
    total: int, squares: int, count: int, pause: int, floor: int, threshold: float, reach: float
) -> int:
    """The least integer silence with phi >= threshold, by the same phi as `PhiAccrual`."""
    mean = Fraction(total, count)
    std = max(math.sqrt(Fraction(squares, count) - mean * mean), floor)
    silence = max(0, math.floor(mean + pause + reach * std) - 2)
    while phi_of(silence, mean + pause, std) < threshold:
        silence += 1
    return silence


def _merged(found: list[Suspicion]) -> list[Suspicion]:
    """Back-to-back suspicions are one: a rank suspected across a receipt stays suspected."""
    merged: list[Suspicion] = []
    for onset, start, end in found:
        if merged and merged[-1][2] == start:
            merged[-1] = (merged[-1][0], merged[-1][1], end)
        else:
            merged.append((onset, start, end))
    return merged


def guarded(
    suspicions: dict[int, list[Suspicion]], job: Job, tick: int = 1
) -> tuple[dict[int, list[Suspicion]], list[tuple[int, int, int]]]:
    """The report once `guard_mass_silence` has read it at every change: the ranks still
    reported, and the collector faults (start, end, ranks).

    Every suspected rank counts towards a mass silence, but a rank is reported only once
    it has been suspected, and not part of a fault, for one window: in a stall the ranks'
    timeouts expire over one interval, and as it ends they recover over one interval;
    either way, until more than the fraction have, the first of them would look like deaths.
    On a coarse clock (`tick` above 1) the window is held on the clock's reading: a rank is
    first reported at a check on a tick.
    """
    hold = job.window
    times = [
        t for spans in suspicions.values() for _, s, e in spans for t in (s, _up(s + hold, tick), e)
    ]
    heapq.heapify(times)
    starts: dict[int, list[tuple[int, Suspicion]]] = {}
    for rank, spans in suspicions.items():
        for span in spans:
            starts.setdefault(span[1], []).append((rank, span))
    active: dict[int, Suspicion] = {}
    explained: dict[int, int] = {}  # rank -> when it last belonged to a fault
    kept: dict[int, list[Suspicion]] = {}
    faults: list[tuple[int, int, int]] = []
    while times:
        here = heapq.heappop(times)
        while times and times[0] == here:
            heapq.heappop(times)
        active.update(starts.get(here, ()))
        for rank in [r for r, span in active.items() if span[2] <= here]:
            del active[rank]
        if not times or not active:
            continue
        after, clock = times[0], here // tick * tick
        report = [Stopped(r, span[0], here - span[0]) for r, span in active.items()]
        verdict = guard_mass_silence(
            report, world_size=job.ranks, start=0, window=job.window, fraction=job.guard_fraction
        )
        for stopped in verdict.stopped:
            onset, start, _ = active[stopped.rank]
            if clock >= max(start, explained.get(stopped.rank, start)) + hold:
                kept.setdefault(stopped.rank, []).append((onset, here, after))
        if verdict.fault is not None:
            faults.append((here, after, len(verdict.fault.ranks)))
            for rank in verdict.fault.ranks:
                explained[rank] = after
            heapq.heappush(times, _up(after + hold, tick))
    return {rank: _merged(spans) for rank, spans in kept.items()}, _joined(faults)


def _joined(faults: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    joined: list[tuple[int, int, int]] = []
    for start, end, size in faults:
        if joined and joined[-1][1] == start:
            joined[-1] = (joined[-1][0], end, max(joined[-1][2], size))
        else:
            joined.append((start, end, size))
    return joined


Detector = Callable[[Trace, int], list[Suspicion]]

"""Hypothesis strategies for detect's inputs, built by construction (no filtering).

Times stay small relative to the timeout so that every outcome (reported,
not reported, exactly at the boundary) is common.
"""

from __future__ import annotations

from typing import NamedTuple

from hypothesis import strategies as st

from tests.support.detecting import Beat, Call
from tests.support.sweeping import GPUS, JOBS, Span

HOUR_NS = 3_600 * 10**9


def _beat(world_size: int, start: int) -> st.SearchStrategy[Beat]:
    return st.builds(
        lambda rank, offset, skew: Beat(rank, start + offset + skew, start + offset),
        st.integers(0, world_size - 1),
        st.integers(0, 30),
        st.integers(-3, 3),  # a little skew: sent_at is never equal to received_at by rule
    )


def _call(world_size: int, start: int) -> st.SearchStrategy[Call]:
    return st.builds(
        lambda beats, until, timeout: Call(tuple(beats), world_size, start, start + until, timeout),
        st.lists(_beat(world_size, start), max_size=12),
        st.integers(0, 35),
        st.integers(0, 12),
    )


def calls(*, max_world_size: int = 5) -> st.SearchStrategy[Call]:
    """Valid calls of detect: ranks in range, heartbeats received at or after start."""
    return st.tuples(st.integers(1, max_world_size), st.integers(-50, 10**6)).flatmap(
        lambda size_start: _call(*size_start)
    )


def sender_clock_rewrites() -> st.SearchStrategy[tuple[int, int, int]]:
    """(offset, drift per tick, jump): hours of skew, drift, and jumps backwards."""
    return st.tuples(
        st.integers(-5 * HOUR_NS, 5 * HOUR_NS),
        st.integers(-3, 3),
        st.integers(-HOUR_NS, 0),
    )


def _rank_beats(
    rank: int, phase: int, stop: int, interval: int, wobble: list[int], delay: list[int]
) -> list[Beat]:
    """Heartbeats scheduled every interval from phase, sent if before stop."""
    sent = [slot + wobble[i % len(wobble)] for i, slot in enumerate(range(phase, stop, interval))]
    return [Beat(rank, t, t + delay[i % len(delay)]) for i, t in enumerate(sent) if t < stop]


class Cascade(NamedTuple):
    """One rank dies at `died`; the others block in the next collective after it."""

    call: Call
    dead: int
    interval: int
    jitter: int  # the most a heartbeat's arrival strays from its schedule
    gap: int  # how long after the death the first other rank blocks


@st.composite
def cascades(draw: st.DrawFn) -> Cascade:
    """Cascades whose gap exceeds one interval plus jitter: timing alone can order them."""
    world_size = draw(st.integers(2, 6))
    interval, wobble_max, delay_max = (
        draw(st.integers(4, 20)),
        draw(st.integers(0, 3)),
        draw(st.integers(1, 3)),
    )
    jitter = wobble_max + delay_max
    dead = draw(st.integers(0, world_size - 1))
    died = draw(st.integers(3 * interval, 6 * interval))
    gap = draw(st.integers(interval + jitter + 1, interval + jitter + 10))
    stops = {
        r: died if r == dead else died + gap + draw(st.integers(0, 5)) for r in range(world_size)
    }
    heartbeats: list[Beat] = []
    for rank, stop in stops.items():
        wobble = draw(st.lists(st.integers(0, wobble_max), min_size=1, max_size=8))
        delay = draw(st.lists(st.integers(1, delay_max), min_size=1, max_size=8))
        heartbeats += _rank_beats(
            rank, draw(st.integers(0, interval - 1)), stop, interval, wobble, delay
        )
    timeout = 3 * interval
    now = max(stops.values()) + jitter + timeout + 1
    return Cascade(
        Call(tuple(heartbeats), world_size, 0, now, timeout), dead, interval, jitter, gap
    )


# --- the sweep's strategies --------------------------------------------------------------------

spans = st.builds(
    lambda gpu, job, start, length: Span(gpu, job, start, start + length),
    st.integers(0, GPUS - 1),
    st.sampled_from(JOBS),
    st.integers(0, 20),
    st.integers(0, 8),  # zero-length intervals included
)
logs = st.lists(spans, max_size=10)
nonempty_logs = st.lists(spans, min_size=1, max_size=10)
horizons = st.builds(
    lambda start, length: (start, start + length), st.integers(0, 10), st.integers(0, 24)
)

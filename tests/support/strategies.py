"""Hypothesis strategies for detect's inputs, built by construction (no filtering).

Times stay small relative to the timeout so that every outcome (reported,
not reported, exactly at the boundary) is common.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from hypothesis import strategies as st

from tests.support.detecting import Beat, Call
from tests.support.remembering import (
    RECOMPUTE,
    Dims,
    activation_oracle,
    peak_oracle,
    too_long_from,
)
from tests.support.remembering import Call as PlanCall
from tests.support.sweeping import GPUS, JOBS, Span

HOUR_NS = 3_600 * 10**9


@functools.cache
def _relative_call(world_size: int) -> st.SearchStrategy[Call]:
    """A call whose start is 0, one strategy per world size: built once, so that hypothesis
    checks it once rather than for every example."""
    beat = st.builds(
        lambda rank, offset, skew: Beat(rank, offset + skew, offset),
        st.integers(0, world_size - 1),
        st.integers(0, 30),
        st.integers(-3, 3),  # a little skew: sent_at is never equal to received_at by rule
    )
    return st.builds(
        lambda beats, until, timeout: Call(tuple(beats), world_size, 0, until, timeout),
        st.lists(beat, max_size=12),
        st.integers(0, 35),
        st.integers(0, 12),
    )


def _shifted(call: Call, start: int) -> Call:
    """`call` as if its collector's clock had read `start` where it read 0."""
    heartbeats = tuple(
        Beat(b.rank, b.sent_at + start, b.received_at + start) for b in call.heartbeats
    )
    return Call(heartbeats, call.world_size, start, call.now + start, call.timeout)


@st.composite
def calls(draw: st.DrawFn, *, max_world_size: int = 5) -> Call:
    """Valid calls of detect: ranks in range, heartbeats received at or after start."""
    world_size = draw(st.integers(1, max_world_size))
    start = draw(st.integers(-50, 10**6))
    return _shifted(draw(_relative_call(world_size)), start)


def sender_clock_rewrites() -> st.SearchStrategy[tuple[int, int, int]]:
    """(offset, drift per tick, jump): hours of skew, drift, and jumps backwards."""
    return st.tuples(
        st.integers(-5 * HOUR_NS, 5 * HOUR_NS),
        st.integers(-3, 3),
        st.integers(-HOUR_NS, 0),
    )


def _rank_beats(
    rank: int, phase: int, stop: int, interval: int, strays: list[tuple[int, int]]
) -> list[Beat]:
    """Heartbeats scheduled every interval from phase, sent if before stop: each sent late by
    its stray's wobble and received its delay after, the strays taken in turn from the rank's
    own place among them."""
    beats = []
    for i, slot in enumerate(range(phase, stop, interval)):
        wobble, delay = strays[(rank + i) % len(strays)]
        if slot + wobble < stop:
            beats.append(Beat(rank, slot + wobble, slot + wobble + delay))
    return beats


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
    strays = st.tuples(st.integers(0, wobble_max), st.integers(1, delay_max))
    shared = draw(st.lists(strays, min_size=1, max_size=8))
    heartbeats: list[Beat] = []
    for rank, stop in stops.items():
        phase = draw(st.integers(0, interval - 1))
        heartbeats += _rank_beats(rank, phase, stop, interval, shared)
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


# --- the memory's strategies ----------------------------------------------------------------


def _dims(
    layers: int, hidden: int, heads: int, parameters: int, *, least: int = 1
) -> st.SearchStrategy[Dims]:
    """Shapes up to these sizes; `least`: the smallest hidden size, and a billion parameters
    at least where it is more than 1 (the large shapes, whose bytes floats cannot hold)."""
    return st.builds(
        Dims,
        st.integers(1, layers),
        st.integers(least, hidden),
        st.integers(1, heads),
        st.integers(0 if least == 1 else 10**9, parameters),
    )


recomputes = st.sampled_from(RECOMPUTE)
small_dims = _dims(4, 16, 8, 100)
large_dims = _dims(128, 2**17, 256, 10**13, least=2**10)
small_seq_lens = st.integers(1, 64)
large_seq_lens = st.integers(2**12, 2 * 10**6)
small_batches = st.integers(0, 8)
large_batches = st.integers(1, 2048)
slacks = st.one_of(st.just(0), st.integers(0, 10**6))  # 0: exactly the memory, often


class Fit(NamedTuple):
    """A largest_batch question whose answer is `batch` by construction."""

    shape: Dims
    seq_len: int
    memory: int
    recompute: str
    batch: int


def _fit(shape: Dims, seq_len: int, recompute: str, batch: int, slack: int) -> Fit:
    """A memory holding `batch` sequences and less than one more: the peak at `batch`, plus
    less than one sequence's activations."""
    each = activation_oracle(shape, seq_len, 1, recompute)
    memory = peak_oracle(shape, seq_len, batch, recompute) + slack % each
    return Fit(shape, seq_len, memory, recompute, batch)


def _states_over(shape: Dims, seq_len: int, recompute: str, short: int) -> Fit:
    """A memory below the states (when there are states): 0 fits."""
    states = peak_oracle(shape, seq_len, 0, recompute)
    return Fit(shape, seq_len, max(0, states - 1 - short % max(states, 1)), recompute, 0)


small_fits = st.one_of(
    st.builds(_fit, small_dims, small_seq_lens, recomputes, st.integers(0, 40), slacks),
    st.builds(_states_over, small_dims, small_seq_lens, recomputes, st.integers(0, 10**6)),
)
# Answers up to 2,000: a module that tries each b in turn still answers in time (that is a
# question of cost, its own rubric point), and is right.
large_fits = st.builds(
    _fit, large_dims, large_seq_lens, recomputes, st.integers(0, 2000), st.integers(0, 10**30)
)


def _plan_call(
    shape: Dims,
    recompute: str,
    lengths: list[int],
    room: int,
    slack: int,
    window: int,
    tokens_per_step: int,
) -> PlanCall:
    """Every sequence fits alone: the memory holds 1 + room of the longest, and a little more."""
    longest = max(lengths, default=1)
    each = activation_oracle(shape, longest, 1, recompute)
    memory = peak_oracle(shape, longest, 1 + room, recompute) + slack % each
    return PlanCall(tuple(lengths), shape, memory, recompute, window, tokens_per_step)


def _plan_calls(min_size: int) -> st.SearchStrategy[PlanCall]:
    return st.builds(
        _plan_call,
        _dims(2, 4, 3, 10),
        recomputes,
        st.lists(st.integers(1, 12), min_size=min_size, max_size=14),
        st.integers(0, 5),
        slacks,
        st.integers(1, 16),
        st.integers(1, 60),
    )


plan_calls = _plan_calls(0)
nonempty_plan_calls = _plan_calls(1)


def _with_too_long(call: PlanCall, at: int, excess: int) -> tuple[PlanCall, int]:
    """`call` with a sequence that fits no micro-batch inserted at a position drawn."""
    position = at % (len(call.lengths) + 1)
    too_long = too_long_from(call.shape, call.memory, call.recompute) + excess
    lengths = (*call.lengths[:position], too_long, *call.lengths[position:])
    return call._replace(lengths=lengths), position


calls_with_one_too_long = st.builds(
    _with_too_long, plan_calls, st.integers(0, 14), st.integers(0, 3)
)
not_lengths = st.sampled_from([0, -1, -12, True, False, 2.0, 3.5, "3", None, (2,)])


def _with_bad_length(call: PlanCall, at: int, bad: object) -> tuple[PlanCall, int]:
    position = at % (len(call.lengths) + 1)
    lengths = (*call.lengths[:position], bad, *call.lengths[position:])
    return call._replace(lengths=lengths), position


calls_with_a_bad_length = st.builds(_with_bad_length, plan_calls, st.integers(0, 14), not_lengths)

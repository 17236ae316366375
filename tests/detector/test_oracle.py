"""Every small case, exhaustively, against the contract read literally."""

from __future__ import annotations

import itertools

import pytest

from tests.support.detecting import Call, Detector, beats

pytestmark = [pytest.mark.oracle, pytest.mark.rules(1, 2, 4, 5, 6)]

RANKS, TICKS = 3, 6
START = 100  # not 0: silence of a never-heard rank runs from start


def test_every_schedule_of_three_ranks_over_six_ticks_matches_the_oracle(
    detector: Detector,
) -> None:
    """At each tick one rank (or none) is heard; every now up to the end, timeouts 0-3.

    4**6 schedules x 7 nows x 4 timeouts: every boundary, never-heard rank, heartbeat
    after now and tie the small world can produce.
    """
    detector.check_each(
        (
            Call(heartbeats, RANKS, START, now, timeout)
            for schedule in itertools.product(range(-1, RANKS), repeat=TICKS)
            for heartbeats in [
                beats((rank, START + tick) for tick, rank in enumerate(schedule) if rank >= 0)
            ]
            for now in range(START, START + TICKS + 1)
            for timeout in range(4)
        ),
        rule="the contract, read literally (README.md, detect, rules 1-6).",
    )

"""HeartbeatMonitor refuses bad use: its own arguments, a clock going back, a rank out of range."""

from __future__ import annotations

import pytest

from kata.checks import expect, expect_value_error
from kata.impl import Implementation
from tests.support.detecting import (
    Session,
    refused_rank_question,
    refused_reading_question,
    session_question,
)

pytestmark = [pytest.mark.validation, pytest.mark.rules(12)]

BAD_USE = {
    "a clock that went backwards, noticed by beat()": Session(2, 5).then(
        ("advance", 10), ("beat", 0), ("back", 1), ("beat", 1)
    ),
    "a clock that went backwards, noticed by stopped()": Session(2, 5).then(
        ("advance", 10), ("beat", 0), ("back", 1), ("stopped", 0)
    ),
    "a clock that went backwards between two checks": Session(2, 5).then(
        ("advance", 10), ("stopped", 0), ("back", 1), ("stopped", 0)
    ),
    "a clock earlier than at construction": Session(2, 5).then(("back", 1), ("stopped", 0)),
    "a clock earlier than at construction, at a beat": Session(2, 5).then(("back", 1), ("beat", 0)),
    "rank -1": Session(2, 5).then(("beat", -1)),
    "rank 2 of a world of 2": Session(2, 5).then(("beat", 2)),
    "a beat in a world of no ranks": Session(0, 5).then(("beat", 0)),
    "a negative timeout": Session(2, -1),
    "a negative world_size": Session(-1, 5),
}


@pytest.mark.parametrize("case", BAD_USE)
def test_bad_use_raises_value_error(impl: Implementation, case: str) -> None:
    """A monotonic clock never goes back, and no rank outside the world beats."""
    expect_value_error(impl, session_question(BAD_USE[case]), case)


@pytest.mark.parametrize("call", ["beat", "stopped"])
def test_a_refused_reading_is_not_kept(impl: Implementation, call: str) -> None:
    """A refused call changes nothing, the clock included: the reading that went back is
    not the monitor's last reading, so one still behind the last accepted is refused."""
    rule = (
        "a clock reading earlier than the last one accepted raises ValueError; a refused "
        "reading changes nothing, so it is never the one compared against."
    )
    expect(
        impl, refused_reading_question(call), ("accepted", "ValueError", "ValueError"), rule=rule
    )


def test_a_beat_refused_for_its_rank_leaves_the_clock_as_it_was(impl: Implementation) -> None:
    """A refused call changes nothing: a beat of a rank outside the world, refused, has
    not moved the monitor's last reading, so a check earlier than it is still on time."""
    rule = (
        "a refused call changes nothing, the clock included: only a reading the monitor "
        "accepted is the one the next is compared with."
    )
    want = ("accepted", "ValueError", "accepted")
    expect(impl, refused_rank_question(), want, rule=rule)

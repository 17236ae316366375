"""Fixtures for the detect tests: the candidate's function, wrapped to check answers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from tests.support import detecting
from tests.support.detecting import Call, Row
from tests.support.impl import Implementation


class Detector:
    """The implementation's detect, asked a `Call` at a time."""

    def __init__(self, detect: Any, heartbeat: Any) -> None:
        self.detect, self.heartbeat = detect, heartbeat

    def answer(self, call: Call) -> list[Row]:
        """What detect returns, as Rows; fails the test if it raises or returns junk."""
        return detecting.run(self.detect, call, self.heartbeat)

    def check(self, call: Call, expected: Sequence[Row] | None = None, hint: str = "") -> list[Row]:
        """Fail with a diagnosis unless the answer is `expected` (default: the oracle's)."""
        return detecting.check(self.detect, call, self.heartbeat, expected=expected, hint=hint)

    def holds(self, ok: bool, claim: str, *answers: tuple[Call, list[Row]]) -> None:
        """Fail unless a property of the answers holds; name the likely mistake."""
        if ok:
            return
        lines = [f"Property broken: {claim}"]
        mistakes = []
        for call, got in answers:
            lines += [f"  {call}", f"    returned {got}"]
            mistakes.append(detecting.diagnose(call, detecting.oracle(call), got))
        mistake = next((m for m in mistakes if m), "")
        pytest.fail(
            "\n".join(lines + ([f"  Likely mistake: {mistake}"] if mistake else [])), pytrace=False
        )

    def call_raw(self, call: Call) -> Any:
        """Call detect without catching anything (for the validation tests)."""
        beats = [self.heartbeat(*b) for b in call.heartbeats]
        return self.detect(
            beats, world_size=call.world_size, start=call.start, now=call.now, timeout=call.timeout
        )


@pytest.fixture(scope="session")
def detector(impl: Implementation) -> Detector:
    return Detector(impl.require("detect"), impl.heartbeat_type())

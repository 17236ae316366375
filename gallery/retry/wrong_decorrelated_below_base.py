"""WRONG: decorrelated jitter drawn from 0, not from base, so waits fall below base.

The formula is min(cap, random(base, previous * 3)): starting the draw at 0
lets a wait shrink towards nothing, and a client hammer a failing server.
"""

from random import Random

FAILS = "retry_jitter"


def decorrelated_jitter(previous: int, *, base: int, cap: int, rng: Random) -> int:
    if base < 1 or cap < base or previous < base:
        raise ValueError("need 1 <= base <= cap and previous >= base")
    return min(cap, rng.randint(0, 3 * previous))  # the mistake: from 0, not from base

"""WRONG: decorrelated jitter caps the range it draws from, not the wait it drew.

`randint(base, min(cap, 3 * previous))` stays within the cap, but it is
another distribution: min(cap, randint(base, 3 * previous)) puts every draw
past the cap *at* the cap, so once the waits have grown, most are the cap.
Capping the range instead spreads them evenly below it, and the wait falls
back towards base just when the dependency has been failing longest.
"""

from random import Random

FAILS = "retry_jitter"


def decorrelated_jitter(previous: int, *, base: int, cap: int, rng: Random) -> int:
    if base < 1 or cap < base or previous < base:
        raise ValueError("need 1 <= base <= cap and previous >= base")
    return rng.randint(base, min(cap, 3 * previous))  # the mistake: the range capped, not the draw
